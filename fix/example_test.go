package fix_test

import (
	"fmt"

	"github.com/plangram/plangram/fix"
)

// Repair a plan whose README block was closed early by the fence of the
// block nested in it: both outer fences are lengthened so the nested block
// nests, and the repair is reported.
func ExampleApply() {
	src := "#Plan\n\n```markdown\n# Tool\n```bash\npip install tool\n```\nThen run it.\n```\n\n\n"
	fixed, repairs := fix.Apply([]byte(src), "plan")
	fmt.Print(string(fixed))
	for _, r := range repairs {
		fmt.Println(r.Format("plan.md"))
	}
	// Output:
	// # Plan
	//
	// ````markdown
	// # Tool
	// ```bash
	// pip install tool
	// ```
	// Then run it.
	// ````
	// plan.md:1:1: warning: added the space after # in the title [fixed-title-space]
	// plan.md:3:1: warning: lengthened the fences of the block opened here to ````, so the block opened at line 5 nests inside it and the block ends at line 9 [fixed-nested-fence]
	// plan.md:9:1: note: its closing fence, lengthened
	// plan.md:10:1: warning: removed 2 whitespace-only lines at the end of the document [fixed-trailing-blank-lines]
}
