package applypatch_test

import (
	"context"
	"fmt"

	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/typed/applypatch"
)

// Decode an apply_patch envelope into typed file operations.
func ExampleDecode() {
	src := "*** Begin Patch\n*** Update File: a.py\n*** Move to: b.py\n@@ def f():\n-    pass\n+    return 1\n*** Delete File: c.py\n*** End Patch\n"
	doc, err := grammar.Parse(context.Background(), "patch.txt", []byte(src), grammar.Options{Dialect: grammar.DialectApplyPatch})
	if err != nil || doc.HasErrors() {
		panic(fmt.Sprint(err, doc.Diagnostics))
	}
	actions, err := applypatch.Decode(doc)
	if err != nil {
		panic(err)
	}
	for _, a := range actions {
		switch a := a.(type) {
		case *applypatch.UpdateFile:
			fmt.Printf("update %s, move to %s, %d hunk(s)\n", a.Path, a.MoveTo, len(a.Hunks))
		case *applypatch.DeleteFile:
			fmt.Printf("delete %s\n", a.Path)
		}
	}
	// Output:
	// update a.py, move to b.py, 1 hunk(s)
	// delete c.py
}
