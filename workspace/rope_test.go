package workspace

import (
	"context"
	"strings"
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
)

// TestRopeOf checks that a rope's text is the content it was made for,
// whatever lines lie between those it takes, and that content src does
// not hold after '+'s, or holds too far, gets no rope.
func TestRopeOf(t *testing.T) {
	for _, c := range []struct {
		src, content string
		rope         bool
	}{
		{"--- x\n+++ y\n@@\n+a\n+b\n", "a\nb\n", true},
		{"+a\r\n noise\n+b", "a\r\nb", true},                             // CRLF, a line skipped, no final newline
		{"+a\n+bc\n\\ No newline at end of file\n", "a\nbc", true},       // the last line's newline is not content
		{"+a\n+b\n", "a\nb\nc\n", false},                                 // c is not there
		{"+a\n-b\n", "a\nb\n", false},                                    // b is not after a '+'
		{"+ab\n", "a", false},                                            // a line is whole or nothing
		{"+a\n" + strings.Repeat("x\n", 1000) + "+b\n", "a\nb\n", false}, // too far
		{"++ b/x\n", "+ b/x\n", true},
	} {
		r := ropeOf(c.src, 0, c.content)
		if (r != nil) != c.rope {
			t.Errorf("%q in %q: rope %v, want %v", c.content, c.src, r != nil, c.rope)
			continue
		}
		if r != nil && r.String() != c.content {
			t.Errorf("%q in %q: rope text %q", c.content, c.src, r.String())
		}
	}
	if ropeOf("+a\n", 5, "a\n") != nil || ropeOf("+a\n", -1, "a\n") != nil {
		t.Error("a rope from outside src")
	}
}

// TestCheckerKeepsRopes checks that a Checker keeps the new files of a
// unified diff as ropes, not copies (TestCheckerAsCheck "ropes" checks
// that it finds what Check finds with them).
func TestCheckerKeepsRopes(t *testing.T) {
	ctx := context.Background()
	src := []byte(ropeDiff)
	k := NewChecker(t.TempDir(), grammar.DialectUdiff, Options{Source: src})
	n := 0
	if _, err := grammar.Parse(ctx, "p.diff", src, grammar.Options{Dialect: grammar.DialectUdiff, ReuseActions: true, OnAction: func(a *ast.Action) {
		k.Action(ctx, a)
		if n++; n == 2 { // a.go and b.txt created
			for _, rel := range []string{"a.go", "b.txt"} {
				i, ok := k.c.o.find(rel)
				if f := k.c.cur(i); !ok || f == nil || f.rope == nil || f.content != "" {
					t.Errorf("%s is not kept as a rope: %+v", rel, f)
				} else if rel == "a.go" && f.data() != ropeBody {
					t.Errorf("a.go's rope reads %q", f.data())
				}
			}
		}
	}}); err != nil {
		t.Fatal(err)
	}
	if n != 5 {
		t.Fatalf("%d actions", n)
	}
}
