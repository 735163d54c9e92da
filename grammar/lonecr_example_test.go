package grammar_test

import (
	"context"
	"fmt"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/lexer"
)

// A lone CR in prose hides the act block after it: plangram ends lines at
// LF only, so the action would be lost; it is an error at the CR's byte.
func ExampleHasLoneCRError() {
	src := []byte("Build it.\n\nThen deploy:\r```act\rrun_command \"make deploy\"\r```\r\n")
	doc, _ := grammar.Parse(context.Background(), "plan.md", src, grammar.Options{})
	fmt.Println(len(doc.Actions), grammar.HasLoneCRError(doc))
	for _, d := range doc.Diagnostics {
		if d.Code == grammar.CodeLoneCR {
			fmt.Println(d.Span.Start.Offset, d.Span.Start.Line, d.Span.Start.Col)
		}
	}
	// Output:
	// 0 true
	// 23 3 13
}

// A progress bar's CRs in block content hide nothing: no error.
func ExampleLoneCRHidesLine() {
	ctx := context.Background()
	opts := grammar.Options{Dialect: grammar.DialectActs}
	bar := []byte("```act\nwrite_file log.txt\n```\n```\n10%\r50%\r100%\n```\n")
	hidden := []byte("```act\nwrite_file log.txt\n```\n```\ndone\r```\n")
	fmt.Println(grammar.LoneCRHidesLine(ctx, bar, opts), grammar.LoneCRHidesLine(ctx, hidden, opts))
	// Output:
	// false true
}

// A streaming reader checks each line it reads as text; here a line inside
// a block opened by "```" whose CR hides the block's closing fence.
func ExampleActsLineLoneCRs() {
	at := ast.Pos{Offset: 40, Line: 5, Col: 1}
	for _, d := range grammar.ActsLineLoneCRs(nil, []byte("done\r```\n"), at, lexer.Backtick, 3) {
		fmt.Println(d.Span.Start.Offset, d.Span.Start.Line, d.Span.Start.Col, d.Code)
	}
	// Output:
	// 44 5 5 lone-cr
}
