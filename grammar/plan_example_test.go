package grammar_test

import (
	"context"
	"fmt"

	"github.com/plangram/plangram/grammar"
)

// Parse a structured Markdown plan: each `### ACTION` section becomes an
// action whose params come from its metadata list and code blocks, as the
// built-in plan schema declares. A broken plan yields diagnostics; the
// structural ones carry the AST diff showing where the document left the
// expected shape.
func ExampleParsePlan() {
	src := "# Greet\n\n- **Status:** Green\n\n## Rationale\n```text\nUsers want a greeting.\n```\n\n" +
		"## Action Plan\n\n### `CREATE`\n- **File Path:** [src/greet.py](/src/greet.py)\n\n```python\n    print(\"hi\")\n```\n\n" +
		"### `EXECUTE`\n- **Timeout:** `30`\n\n```bash\ncd src\npython greet.py\n```\n\nThat is all.\n"
	doc, err := grammar.ParsePlan(context.Background(), "plan.md", []byte(src), nil)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s (%s)\n", doc.Title, doc.Metadata.String("status"))
	for _, a := range doc.Actions {
		fmt.Printf("%s at %s\n", a.Name, a.Span.Start)
		for _, p := range a.Params {
			fmt.Printf("  %s = %#v\n", p.Name, p.Value)
		}
	}
	for _, d := range doc.Diagnostics {
		fmt.Println(d.Format("plan.md"))
	}
	// Output:
	// Greet (Green)
	// CREATE at 12:1
	//   path = "src/greet.py"
	//   overwrite = false
	//   content = "    print(\"hi\")"
	// EXECUTE at 19:1
	//   command = "python greet.py"
	//   cwd = "src"
	//   allow_failure = false
	//   background = false
	//   timeout = 30
	// plan.md:27:1: error: stray paragraph "That is all." where the plan expects EXECUTE: List (metadata), Code block [stray-paragraph]
	//     Expected:  [0] Heading 1  [1] List (metadata)  [2] Heading 2 "Rationale"  [3] Code block  [4] Heading 2 "Action Plan" | "Message"  [5…] actions
	//                (optional before [4]: Heading 2 "Memos" + Code block; each action: Heading 3 naming it, List (metadata), its code blocks)
	//     Actual:
	//     [✓] [000] L1   Heading 1: "Greet"
	//     [✓] [001] L3   List (metadata, 1 item): "**Status:** Green"
	//     [✓] [002] L5   Heading 2: "Rationale"
	//     [✓] [003] L6   Code block (3 backticks, text): "Users want a greeting."
	//     [✓] [004] L10  Heading 2: "Action Plan"
	//     [✓] [005] L12  Heading 3: "`CREATE`"
	//     [✓] [006] L13  List (metadata, 1 item): "**File Path:** [src/greet.py](/src/greet.py)"
	//     [✓] [007] L15  Code block (3 backticks, python): "print(\"hi\")"
	//     [✓] [008] L19  Heading 3: "`EXECUTE`"
	//     [✓] [009] L20  List (metadata, 1 item): "**Timeout:** `30`"
	//     [✓] [010] L22  Code block (3 backticks, bash): "cd src"
	//     [✗] [011] L27  Paragraph: "That is all." (stray paragraph; expected: EXECUTE: List (metadata), Code block)
}
