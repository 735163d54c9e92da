package grammar_test

import (
	"fmt"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
)

// printEdits prints what an EditStream reports.
type printEdits struct{}

func (printEdits) Prose(start, end int) error { fmt.Println("prose", start, end); return nil }
func (printEdits) Begin(a *ast.Action, name string, start, end int) error {
	fmt.Println("begin", name, a.Params.String("path"))
	return nil
}
func (printEdits) Delta(a *ast.Action, param, text string, start, end int) error {
	fmt.Printf("delta %s %q\n", param, text)
	return nil
}
func (printEdits) Hunk(a *ast.Action, h grammar.Hunk, blk *ast.Block) error {
	fmt.Printf("hunk %q -> %q\n", h.Old, h.New)
	return nil
}
func (printEdits) End(a *ast.Action) error            { fmt.Println("end", a.Name); return nil }
func (printEdits) Diagnostic(d *ast.Diagnostic) error { fmt.Println("diagnostic", d.Code); return nil }

func ExampleEditStream() {
	s, err := grammar.NewEditStream(grammar.DialectUdiff, printEdits{})
	if err != nil {
		panic(err)
	}
	for _, chunk := range []string{"--- a/app.py\n+++ b/app", ".py\n@@ -1 +1 @@\n-print(1)\n+pri", "nt(2)\n", "Done.\n"} {
		fmt.Printf("write %q\n", chunk)
		if _, err := s.Write([]byte(chunk)); err != nil {
			panic(err)
		}
	}
	if err := s.Close(); err != nil {
		panic(err)
	}
	// Output:
	// write "--- a/app.py\n+++ b/app"
	// write ".py\n@@ -1 +1 @@\n-print(1)\n+pri"
	// begin update_file app.py
	// write "nt(2)\n"
	// write "Done.\n"
	// hunk "print(1)\n" -> "print(2)\n"
	// end update_file
	// prose 58 64
}

func ExampleLines_Extend() {
	l := ast.NewLines([]byte("ab\nc"))
	l.Extend([]byte("d\nef"))
	fmt.Println(l.Pos(5), l.Pos(7))
	// Output:
	// 2:3 3:2
}
