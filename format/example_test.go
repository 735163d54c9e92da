package format_test

import (
	"context"
	"fmt"

	"github.com/plangram/plangram/format"
	"github.com/plangram/plangram/grammar"
)

// Format a fenced-acts plan: an act block becomes one quoted line, each fence
// the shortest safe run, blank lines between blocks are normalised; block
// bytes are kept.
func ExampleSource() {
	src := "Write it:\n\n\n  ~~~~~act\nwrite_file   \"docs/read me.md\"\n~~~~~\n\n~~~~~~~markdown\n~~~~ a line that looks like a fence\n~~~~~~~\n"
	out, doc, err := format.Source(context.Background(), "plan.md", []byte(src), grammar.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Print(string(out))
	fmt.Println(len(doc.Diagnostics), "diagnostics")
	// Output:
	// Write it:
	//
	// ~~~act
	// write_file 'docs/read me.md'
	// ~~~
	// ~~~~~markdown
	// ~~~~ a line that looks like a fence
	// ~~~~~
	// 0 diagnostics
}

// Canonical formats a plan when only its diagnostics are needed, as
// `plangram fmt` does: the AST is not kept.
func ExampleCanonical() {
	src := "#Plan\n\n* **Author:** me\n\n## Rationale\n\n```\nwhy\n```\n\n## Action Plan\n\n### `RUN`\n"
	out, diags, err := format.Canonical(context.Background(), "plan.md", []byte(src), grammar.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Print(string(out))
	for _, d := range diags {
		fmt.Println(d.Code)
	}
	// Output:
	// # Plan
	//
	// - **Author:** me
	//
	// ## Rationale
	//
	// ```
	// why
	// ```
	//
	// ## Action Plan
	//
	// ### `RUN`
	// title-missing-space
	// unknown-action
}

// Quote writes one word of an act line so that the acts parser reads it back
// exactly.
func ExampleQuote() {
	for _, w := range []string{"src/a.go", "read me.md", "it's", ""} {
		fmt.Println(format.Quote(w))
	}
	// Output:
	// src/a.go
	// 'read me.md'
	// 'it'\''s'
	// ''
}
