package workspace_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/workspace"
)

// A Checker is handed the actions one at a time as the parser reads them
// (grammar.Options.OnAction), so neither keeps the document's actions:
// what `plangram check --root` does. It finds what Check finds. Given the
// text (Options.Source), it keeps each file's state as offsets into it,
// and as it keeps nothing of an action the parser may reuse the memory of
// each for the next (ReuseActions); Close frees its state.
func ExampleChecker() {
	root, _ := os.MkdirTemp("", "ws")
	defer os.RemoveAll(root)
	_ = os.WriteFile(filepath.Join(root, "a.txt"), []byte("old\n"), 0o644)

	plan := []byte("~~~act\nwrite_file b.txt\n~~~\n~~~\nnew\n~~~\n" +
		"~~~act\nwrite_file a.txt\n~~~\n~~~\nnew\n~~~\n" +
		"~~~act\nread_file c.txt\n~~~\n" +
		"~~~act\nwrite_file b.txt\n~~~\n~~~\nagain\n~~~\n")
	ctx := context.Background()
	k := workspace.NewChecker(root, grammar.DialectActs, workspace.Options{Source: plan})
	defer k.Close()
	doc, err := grammar.Parse(ctx, "plan.md", plan, grammar.Options{
		Dialect:      grammar.DialectActs,
		OnAction:     func(a *ast.Action) { k.Action(ctx, a) },
		ReuseActions: true,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	diags := append(doc.Diagnostics, k.Diagnostics(doc.Diagnostics, doc.Span.Start)...)
	ast.SortDiagnostics(diags)
	for _, d := range diags {
		fmt.Println(d.Format("plan.md"))
	}
	fmt.Println(len(doc.Actions), "actions kept")
	// Output:
	// plan.md:8:12: warning: write_file replaces the existing file a.txt (4 bytes) [file-exists]
	// plan.md:14:11: error: read_file cannot read c.txt: no such file in the workspace [file-not-found]
	// plan.md:17:12: warning: write_file replaces b.txt, which write_file at line 2 created [file-exists]
	// plan.md:2:1: note: b.txt created here
	// 0 actions kept
}
