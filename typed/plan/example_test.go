package plan_test

import (
	"context"
	"fmt"

	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/typed/plan"
)

// Decode a Markdown plan into typed actions.
func ExampleDecode() {
	src := "# Add a greeting\n\n- **Status:** ready\n\n## Rationale\n\n````text\nUsers asked.\n````\n\n" +
		"## Action Plan\n\n### `CREATE`\n\n- **File Path:** [hello.txt](/hello.txt)\n- **Description:** The greeting.\n\n````text\nhello\n````\n\n" +
		"### `EXECUTE`\n\n- **Description:** Show it.\n- **Timeout:** 5\n\n````sh\ncd out\ncat hello.txt\n````\n"
	doc, err := grammar.Parse(context.Background(), "plan.md", []byte(src), grammar.Options{Dialect: grammar.DialectPlan})
	if err != nil || doc.HasErrors() {
		panic(fmt.Sprint(err, doc.Diagnostics))
	}
	actions, err := plan.Decode(doc)
	if err != nil {
		panic(err)
	}
	for _, a := range actions {
		switch a := a.(type) {
		case *plan.Create:
			fmt.Printf("create %s: %q (overwrite %v)\n", a.Path, a.Content, a.Overwrite)
		case *plan.Execute:
			fmt.Printf("run %q in %s, timeout %ds\n", a.Command, a.Cwd, a.Timeout)
		}
	}
	// Output:
	// create hello.txt: "hello" (overwrite false)
	// run "cat hello.txt" in out, timeout 5s
}
