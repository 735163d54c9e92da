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

// Check a plan against the project it will run in: the patch's old text is
// indented with spaces, the file with a tab.
func ExampleCheck() {
	root, _ := os.MkdirTemp("", "ws")
	defer os.RemoveAll(root)
	_ = os.WriteFile(filepath.Join(root, "main.go"), []byte("func main() {\n\tprintln(1)\n}\n"), 0o644)

	plan := "~~~act\npatch_file main.go\n~~~\n~~~\n    println(1)\n~~~\n~~~\n\tprintln(2)\n~~~\n" +
		"~~~act\nread_file ../etc/passwd\n~~~\n"
	doc, _ := grammar.Parse(context.Background(), "plan.md", []byte(plan), grammar.Options{})
	// The parser reports what is wrong with the paths in any workspace
	// (the path rule); Check adds what is wrong in this one.
	diags := append(doc.Diagnostics, workspace.Check(context.Background(), doc, root, workspace.Options{})...)
	ast.SortDiagnostics(diags)
	for _, d := range diags {
		fmt.Println(d.Format("plan.md"))
	}
	// Output:
	// plan.md:5:1: error: patch_file: the old text is not in main.go byte for byte; the closest region, line 2, differs from it only in indentation (tabs against spaces) [find-not-found]
	//     --- old text
	//     +++ main.go (line 2)
	//     @@ -1 +2 @@
	//     -    println(1)
	//     +	println(1)
	//     white space: old text line 1 is indented with 4 spaces, file line 2 with 1 tab
	// plan.md:11:11: error: read_file's path: the path "../etc/passwd" leaves the project root (`..` goes above it) [path-escapes-root]
}
