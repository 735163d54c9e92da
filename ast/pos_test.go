package ast

import "testing"

func TestLines(t *testing.T) {
	src := []byte("ab\n\ncd\r\nx")
	l := NewLines(src)
	for off, want := range map[int]Pos{
		0: {0, 1, 1}, 1: {1, 1, 2}, 2: {2, 1, 3}, 3: {3, 2, 1}, 4: {4, 3, 1},
		6: {6, 3, 3}, 8: {8, 4, 1}, 9: {9, 4, 2}, 99: {9, 4, 2}, -1: {0, 1, 1},
	} {
		if got := l.Pos(off); got != want {
			t.Errorf("Pos(%d) = %v, want %v", off, got, want)
		}
	}
	if l.Count() != 4 || l.LineStart(3) != 4 || l.LineStart(9) != len(src) {
		t.Errorf("Count %d LineStart(3) %d", l.Count(), l.LineStart(3))
	}
	if NewLines(nil).Pos(0) != (Pos{0, 1, 1}) {
		t.Error("empty source")
	}
}

// TestLinesExtend: an index built piece by piece (as a stream reads)
// answers as the index of the whole source, whatever the cut, a cut
// inside "\r\n" or right after a '\n' included.
func TestLinesExtend(t *testing.T) {
	src := []byte("ab\n\ncd\r\nx\n")
	whole := NewLines(src)
	for cut := 0; cut <= len(src); cut++ {
		var l Lines
		l.Extend(src[:cut])
		l.Extend(src[cut:])
		if l.Count() != whole.Count() {
			t.Fatalf("cut %d: Count %d, want %d", cut, l.Count(), whole.Count())
		}
		for off := 0; off <= len(src); off++ {
			if got, want := l.Pos(off), whole.Pos(off); got != want {
				t.Errorf("cut %d: Pos(%d) = %v, want %v", cut, off, got, want)
			}
		}
	}
}
