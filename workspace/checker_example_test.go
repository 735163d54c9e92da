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

// A Checker is handed a parsed document's actions one at a time and finds
// what Check finds.
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
	doc, err := grammar.Parse(ctx, "plan.md", plan, grammar.Options{Dialect: grammar.DialectActs})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, a := range doc.Actions {
		k.Action(ctx, a)
	}
	diags := append(doc.Diagnostics, k.Diagnostics(doc.Diagnostics, doc.Span.Start)...)
	ast.SortDiagnostics(diags)
	for _, d := range diags {
		fmt.Println(d.Format("plan.md"))
	}
	// Output:
	// plan.md:8:12: warning: write_file replaces the existing file a.txt (4 bytes) [file-exists]
	// plan.md:14:11: error: read_file cannot read c.txt: no such file in the workspace [file-not-found]
	// plan.md:17:12: warning: write_file replaces b.txt, which write_file at line 2 created [file-exists]
	// plan.md:2:1: note: b.txt created here
}
