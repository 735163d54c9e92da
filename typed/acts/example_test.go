package acts_test

import (
	"context"
	"fmt"

	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/typed/acts"
)

// Decode a parsed plan into typed actions and switch on their types.
func ExampleDecode() {
	src := "~~~act\nwrite_file src/a.go\n~~~\n~~~go\npackage a\n~~~\n~~~act\ngit_add a.go b.go\n~~~\n"
	doc, err := grammar.Parse(context.Background(), "plan.md", []byte(src), grammar.Options{})
	if err != nil || doc.HasErrors() {
		panic(fmt.Sprint(err, doc.Diagnostics))
	}
	actions, err := acts.Decode(doc)
	if err != nil {
		panic(err)
	}
	for _, a := range actions {
		switch a := a.(type) {
		case *acts.WriteFile:
			fmt.Printf("write %s (%d bytes), named at %s\n", a.Path, len(a.Content), a.Source().NameSpan.Start)
		case *acts.GitAdd:
			fmt.Printf("stage %q\n", a.Files)
		}
	}
	// Output:
	// write src/a.go (9 bytes), named at 2:1
	// stage ["a.go" "b.go"]
}
