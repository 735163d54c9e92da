package report_test

import (
	"os"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/report"
)

// Write diagnostics in the text format of `plangram check`.
func ExampleWrite() {
	src := []byte("~~~act\nfrobnicate\n~~~\n")
	lines := ast.NewLines(src)
	files := []*report.File{{
		Path:   "plan.md",
		Source: src,
		Diagnostics: []*ast.Diagnostic{{Severity: ast.Warning, Code: "unknown-action",
			Message: `unknown action "frobnicate"`, Span: lines.Span(7, 17)}},
	}}
	_ = report.Write(os.Stdout, report.Text, files, report.Options{})
	// Output:
	// plan.md:2:1: warning: unknown action "frobnicate" [unknown-action]
}
