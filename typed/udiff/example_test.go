package udiff_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/typed/udiff"
)

// Decode a unified diff into typed file edits.
func ExampleDecode() {
	src := "--- a/app.py\n+++ b/app.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1 @@\n+hello\n"
	doc, err := grammar.Parse(context.Background(), "change.diff", []byte(src), grammar.Options{Dialect: grammar.DialectUdiff})
	if err != nil || doc.HasErrors() {
		panic(fmt.Sprint(err, doc.Diagnostics))
	}
	actions, err := udiff.Decode(doc)
	if err != nil {
		panic(err)
	}
	for _, a := range actions {
		switch a := a.(type) {
		case *udiff.UpdateFile:
			var h grammar.Hunk
			_ = json.Unmarshal(a.Hunks[0], &h)
			fmt.Printf("update %s: %q -> %q\n", a.Path, h.Old, h.New)
		case *udiff.AddFile:
			fmt.Printf("add %s: %q\n", a.Path, a.Content)
		}
	}
	// Output:
	// update app.py: "x = 1\n" -> "x = 2\n"
	// add new.txt: "hello\n"
}
