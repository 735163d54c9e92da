package grammar_test

import (
	"context"
	"fmt"
	"os"

	"github.com/plangram/plangram/grammar"
)

// The start of docs/api.md (which shows this file): parse a plan, read the
// actions' typed parameters, print the diagnostics as
// FILE:LINE:COL: severity: message [code].
func ExampleParse_api() {
	ctx := context.Background()
	src := []byte("~~~act\nwrite_file src/a.py\n~~~\n~~~go\npackage a\n~~~\n\n~~~act\nwrite_file\n~~~\n")
	doc, err := grammar.Parse(ctx, "plan.md", src, grammar.Options{})
	if err != nil { // only cancellation or unusable options: bad input gives diagnostics
		fmt.Fprintln(os.Stderr, err)
		return
	}
	for _, a := range doc.Actions {
		fmt.Printf("%s %q at %s\n", a.Name, a.Params.String("path"), a.Span.Start)
	}
	for _, d := range doc.Diagnostics {
		fmt.Println(d.Format("plan.md"))
	}
	// Output:
	// write_file "src/a.py" at 1:1
	// write_file "" at 8:1
	// plan.md:9:1: error: write_file expects 2 arguments (path, content), got 0 arguments [wrong-arg-count]
}
