package grammar_test

import (
	"context"
	"fmt"
	"os"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
)

// Options.OnAction hands each action over as soon as it is read; the
// document keeps its diagnostics but no actions, so memory does not grow
// with the number of actions (what `plangram check` does).
func ExampleOptions_onAction() {
	src := []byte("~~~act\nwrite_file a.txt\n~~~\n~~~\nhello\n~~~\n\n~~~act\nrun_comand ls\n~~~\n")
	n := 0
	opts := grammar.Options{OnAction: func(a *ast.Action) {
		n++
		fmt.Printf("%s at %s\n", a.Name, a.NameSpan.Start)
	}}
	doc, err := grammar.Parse(context.Background(), "plan.md", src, opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	fmt.Println(n, "actions read,", len(doc.Actions), "kept")
	for _, d := range doc.Diagnostics {
		fmt.Println(d.Format("plan.md"))
	}
	// Output:
	// write_file at 2:1
	// run_comand at 9:1
	// 2 actions read, 0 kept
	// plan.md:9:1: error: unknown action "run_comand"; did you mean "run_command"? [unknown-action]
}
