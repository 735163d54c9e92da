package grammar

import (
	"context"
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2"

	"github.com/plangram/plangram/ast"
)

// TestMaxBlockRun: past MaxBlockRun blocks in a row (before the first act
// block, or after one act block), the grammar's repetition stops —
// participle's bound, which only the participle parse of grammar.Parse
// reaches — with one too-many-blocks-in-a-row error at the start of that
// run; the rest of the document, act blocks included, is one prose node
// (no byte lost), and only the actions before the run are read.
func TestMaxBlockRun(t *testing.T) {
	if testing.Short() {
		t.Skip("lexes a million blocks")
	}
	if MaxBlockRun != participle.MaxIterations-1 { // participle fails a rule once it has repeated MaxIterations times
		t.Fatalf("MaxBlockRun = %d, participle's bound is %d", MaxBlockRun, participle.MaxIterations)
	}
	run := strings.Repeat("```\n```\n", MaxBlockRun+1) + "```act\nrun_command ls\n```\n"
	for _, c := range []struct {
		lead, rest string // rest: from the start of the run's rule
		actions    int
	}{
		{"", "intro\n" + run, 0},
		{"```act\nrun_command a\n```\nsome text\n", "```act\nrun_command b\n```\n" + run, 1},
	} {
		src := []byte(c.lead + c.rest)
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
		if len(over) != 1 || over[0].Span.Start.Offset != len(c.lead) || over[0].Severity != ast.Error ||
			!strings.Contains(over[0].Message, "more than 999,999 blocks in a row from here") {
			t.Fatalf("too-many-blocks-in-a-row %v", over)
		}
		last := doc.Prose[len(doc.Prose)-1]
		if len(doc.Actions) != c.actions || len(doc.Blocks) != 0 || last.Text != c.rest {
			t.Fatalf("%d actions, %d blocks, last prose %.40q", len(doc.Actions), len(doc.Blocks), last.Text)
		}
	}
}
