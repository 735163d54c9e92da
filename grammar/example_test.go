package grammar_test

import (
	"context"
	"fmt"

	"github.com/plangram/plangram/grammar"
)

// Parse a fenced-acts plan: the act names the operation, the blocks after it
// are its arguments, and block content keeps every byte.
func ExampleParse() {
	src := "Write the file:\n\n~~~~~act\nwrite_file\n~~~~~\n~~~~~\nsrc/app.py\n~~~~~\n~~~~~python\n    indented, kept exactly\n~~~~~\n~~~~~act\nmove_fil a b\n~~~~~\n"
	doc, err := grammar.Parse(context.Background(), "plan.md", []byte(src), grammar.Options{})
	if err != nil {
		panic(err)
	}
	for _, a := range doc.Actions {
		fmt.Printf("%s at %s\n", a.Name, a.Span.Start)
		for _, p := range a.Params {
			fmt.Printf("  %s = %q (%s)\n", p.Name, p.Value, p.Span)
		}
	}
	for _, d := range doc.Diagnostics {
		fmt.Println(d.Format("plan.md"))
	}
	// Output:
	// write_file at 3:1
	//   path = "src/app.py" (7:1-7:11)
	//   content = "    indented, kept exactly" (10:1-10:27)
	// move_fil at 12:1
	// plan.md:13:1: error: unknown action "move_fil"; did you mean "move_file"? [unknown-action]
}
