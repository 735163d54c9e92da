package grammar

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/plangram/plangram/ast"
)

// TestPlanLines checks the cursor against ast.Lines on every offset in
// order, backwards, at random and out of range.
func TestPlanLines(t *testing.T) {
	for _, src := range []string{"", "\n", "a", "a\n", "\n\n\nabc\n\ndef", "line one\nline two\r\n\n" + string(make([]byte, 300)) + "\nend\n", strings.Repeat("ab\n\ncd", 700) + strings.Repeat("x", 3000) + "\n\n", strings.Repeat("y\n", 1500), strings.Repeat("z", 1030) + "\n" + strings.Repeat("w\n", 600)} {
		idx := ast.NewLines([]byte(src))
		l := newPlanLines([]byte(src))
		check := func(off int) {
			t.Helper()
			if got, want := l.Pos(off), idx.Pos(off); got != want {
				t.Fatalf("%q: Pos(%d) = %+v, want %+v", src, off, got, want)
			}
		}
		for off := -2; off <= len(src)+2; off++ {
			check(off)
		}
		for off := len(src) + 2; off >= -2; off-- {
			check(off)
		}
		r := rand.New(rand.NewPCG(1, uint64(len(src))))
		for range 1000 {
			check(r.IntN(len(src)+5) - 2)
		}
		if got, want := l.Span(0, len(src)), idx.Span(0, len(src)); got != want {
			t.Fatalf("%q: Span = %v, want %v", src, got, want)
		}
	}
}
