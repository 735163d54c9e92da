package workspace

import (
	"context"
	"fmt"
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
)

// TestHunksOfBothForms pins that hunksOf reads an action's hunks the same
// way as the parser made them ([]any of grammar.Hunk, taken as they are)
// and read back from JSON (decoded), exact bytes included.
func TestHunksOfBothForms(t *testing.T) {
	src := "--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@ f\n ctx \xff\n-old\n+new\n@@ -9 +9 @@\n-a\n+b\n"
	doc, err := grammar.Parse(context.Background(), "x.diff", []byte(src), grammar.Options{Dialect: grammar.DialectUdiff})
	if err != nil || len(doc.Actions) != 1 {
		t.Fatalf("%v, %d actions", err, len(doc.Actions))
	}
	direct := hunksOf(doc.Actions[0])
	data, err := doc.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	var back ast.Document
	if err := ast.UnmarshalExact(data, &back); err != nil {
		t.Fatal(err)
	}
	decoded := hunksOf(back.Actions[0])
	if len(direct) != 2 || fmt.Sprintf("%+v", derefHunks(direct)) != fmt.Sprintf("%+v", derefHunks(decoded)) {
		t.Fatalf("in memory %+v\nfrom JSON %+v", derefHunks(direct), derefHunks(decoded))
	}
	if direct[0].Old != "ctx \xff\nold\n" {
		t.Errorf("old text %q", direct[0].Old)
	}
}

// derefHunks shows hunks with their numbers, not their pointers.
func derefHunks(hs []grammar.Hunk) []string {
	var out []string
	n := func(p *int) int {
		if p == nil {
			return -1
		}
		return *p
	}
	for _, h := range hs {
		out = append(out, fmt.Sprintf("%d,%d %d,%d %q %q %q %q %v", n(h.OldStart), n(h.OldLines), n(h.NewStart), n(h.NewLines), h.Section, h.Context, h.Old, h.New, h.EndOfFile))
	}
	return out
}
