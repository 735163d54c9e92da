package grammar

import (
	"context"
	"strings"
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/schema"
)

// TestMaxBlocks: an action takes at most MaxBlocks argument blocks; the
// ones after them, up to the next act block, belong to no action (the
// document's Blocks), with one too-many-blocks error spanning
// them; the next action is read as usual.
func TestMaxBlocks(t *testing.T) {
	s, err := schema.Builtin(DialectActs)
	if err != nil {
		t.Fatal(err)
	}
	head := "```act\nwrite_file a\n```\n"
	blocks := strings.Repeat("```\nx\n```\n", MaxBlocks+3)
	src := head + blocks + "```act\nrun_command ls\n```\n```\ny\n```\n"
	doc, err := ParseActs(context.Background(), "", []byte(src), 0, s)
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Actions) != 2 || len(doc.Actions[0].Blocks) != MaxBlocks || len(doc.Actions[1].Blocks) != 1 || len(doc.Blocks) != 3 {
		t.Fatalf("%d actions, %d stray blocks", len(doc.Actions), len(doc.Blocks))
	}
	first := len(head) + MaxBlocks*10
	want := ast.Span{Start: ast.Pos{Offset: first, Line: 4 + 3*MaxBlocks, Col: 1}, End: ast.Pos{Offset: first + 30, Line: 4 + 3*MaxBlocks + 9, Col: 1}}
	if end := doc.Actions[0].Span.End.Offset; end != first {
		t.Errorf("the first action ends at %d, want %d", end, first)
	}
	var over []*ast.Diagnostic
	for _, d := range doc.Diagnostics {
		if d.Code == CodeTooManyBlocks {
			over = append(over, d)
		}
	}
	if len(over) != 1 || over[0].Span != want || over[0].Severity != ast.Error ||
		!strings.Contains(over[0].Message, "write_file takes at most 65,536 argument blocks: the 3 blocks after them") {
		for _, d := range over {
			t.Logf("%+v %s", d.Span, d.Message)
		}
		t.Fatalf("%d too-many-blocks errors, want one spanning %+v", len(over), want)
	}
	for _, p := range actsParsers(t) {
		checkActs(t, "maxblocks.md", []byte(src), p)
	}
}
