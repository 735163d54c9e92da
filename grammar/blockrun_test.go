package grammar

import (
	"context"
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2"

	"github.com/plangram/plangram/ast"
)

// TestMaxBlockRun: past MaxBlockRun blocks in a row (before the first act
// block here), the grammar's repetition stops — participle's
// bound, which only the participle parse of grammar.Parse reaches — with
// one too-many-blocks-in-a-row error at the start of that run; the rest of the
// document, act blocks included, is one prose node (no byte lost) and no
// action is read.
func TestMaxBlockRun(t *testing.T) {
	if testing.Short() {
		t.Skip("lexes a million blocks")
	}
	if MaxBlockRun != participle.MaxIterations-1 { // participle fails a rule once it has repeated MaxIterations times
		t.Fatalf("MaxBlockRun = %d, participle's bound is %d", MaxBlockRun, participle.MaxIterations)
	}
	src := []byte("intro\n" + strings.Repeat("```\n```\n", MaxBlockRun+1) + "```act\nrun_command ls\n```\n")
	doc, err := Parse(context.Background(), "items.md", src, Options{Dialect: DialectActs})
	if err != nil {
		t.Fatal(err)
	}
	var over []*ast.Diagnostic
	for _, d := range doc.Diagnostics {
		if d.Code == CodeBlockRun {
			over = append(over, d)
		}
	}
	if len(over) != 1 || over[0].Span.Start.Offset != 0 || over[0].Severity != ast.Error ||
		!strings.Contains(over[0].Message, "more than 999,999 blocks in a row from here") {
		t.Fatalf("too-many-blocks-in-a-row %v", over)
	}
	if len(doc.Actions) != 0 || len(doc.Blocks) != 0 || len(doc.Prose) != 1 || doc.Prose[0].Text != string(src) {
		t.Fatalf("%d actions, %d blocks, %d prose nodes", len(doc.Actions), len(doc.Blocks), len(doc.Prose))
	}
}
