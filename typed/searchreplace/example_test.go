package searchreplace_test

import (
	"context"
	"fmt"

	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/typed/searchreplace"
)

// Decode SEARCH/REPLACE blocks into typed edits.
func ExampleDecode() {
	src := "app.py\n```python\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n```\n"
	doc, err := grammar.Parse(context.Background(), "edit.md", []byte(src), grammar.Options{Dialect: grammar.DialectSearchReplace})
	if err != nil || doc.HasErrors() {
		panic(fmt.Sprint(err, doc.Diagnostics))
	}
	actions, err := searchreplace.Decode(doc)
	if err != nil {
		panic(err)
	}
	for _, a := range actions {
		if e, ok := a.(*searchreplace.SearchReplace); ok {
			fmt.Printf("%s: %q -> %q\n", e.Path, e.Search, e.Replace)
		}
	}
	// Output:
	// app.py: "x = 1\n" -> "x = 2\n"
}
