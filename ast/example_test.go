package ast_test

import (
	"os"

	"github.com/plangram/plangram/ast"
)

// WriteJSON prints a document as `plangram parse --format json --compact`
// does, writing directly through a buffer.
func ExampleWriteJSON() {
	doc := &ast.Document{Dialect: "acts", Actions: []*ast.Action{{
		Name:   "run_command",
		Args:   []string{"go test <pkg>"},
		Params: ast.Params{{Name: "command", Value: "go test <pkg>"}},
	}}}
	if err := ast.WriteJSON(os.Stdout, doc, true); err != nil {
		panic(err)
	}
	// Output:
	// {"dialect":"acts","actions":[{"name":"run_command","args":["go test <pkg>"],"params":{"command":"go test <pkg>"},"blocks":[],"name_span":{"start":{"offset":0,"line":0,"col":0},"end":{"offset":0,"line":0,"col":0}},"span":{"start":{"offset":0,"line":0,"col":0},"end":{"offset":0,"line":0,"col":0}}}],"diagnostics":[],"span":{"start":{"offset":0,"line":0,"col":0},"end":{"offset":0,"line":0,"col":0}}}
}
