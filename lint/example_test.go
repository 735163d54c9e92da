package lint_test

import (
	"context"
	"fmt"

	"github.com/plangram/plangram/lint"
)

// Check one document without a workspace: the parser's rules only.
func ExampleSource() {
	src := []byte("~~~act\nwrite_file\n~~~\n")
	_, diags, err := lint.Source(context.Background(), "plan.md", src, lint.Options{})
	if err != nil {
		panic(err)
	}
	for _, d := range diags {
		fmt.Println(d.Format("plan.md"))
	}
	// Output:
	// plan.md:2:1: error: write_file expects 2 arguments (path, content), got 0 arguments [wrong-arg-count]
}
