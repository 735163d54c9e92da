package ast

import (
	"math"
	"testing"
)

// TestLinesWide: the index keeps 4-byte line starts while they fit and
// turns to full-width ones once an offset passes 4 GiB, with the same
// answers (the source is not allocated: its size is set before the
// bytes that cross the boundary are indexed).
func TestLinesWide(t *testing.T) {
	base := math.MaxUint32 - 4
	l := NewLines([]byte("a\n"))
	l.size = base // as if base bytes had been indexed, the first line's
	l.Extend([]byte("bc\ndefgh\nij"))
	if l.wide == nil || l.starts != nil {
		t.Fatalf("index not widened: %d narrow, %d wide", len(l.starts), len(l.wide))
	}
	if got, want := l.Count(), 4; got != want {
		t.Fatalf("Count = %d, want %d", got, want)
	}
	for _, c := range []struct {
		off, line, col int
	}{
		{0, 1, 1},
		{2, 2, 1},
		{base + 2, 2, base + 1}, // the newline of "bc"
		{base + 3, 3, 1},        // "defgh", the last start that fits 32 bits
		{base + 9, 4, 1},        // "ij" starts past 4 GiB: the index widened
		{base + 10, 4, 2},
	} {
		if p := l.Pos(c.off); p.Line != c.line || p.Col != c.col {
			t.Errorf("Pos(%d) = %d:%d, want %d:%d", c.off, p.Line, p.Col, c.line, c.col)
		}
	}
	if got := l.LineStart(3); got != base+3 {
		t.Errorf("LineStart(3) = %d, want %d", got, base+3)
	}
	// A narrow index answers the same as one built from LineStarts.
	src := []byte("x\n\nyy\r\nzzz")
	n := NewLines(src)
	for off := 0; off <= len(src); off++ {
		starts := LineStarts(src)
		line := 0
		for line+1 < len(starts) && starts[line+1] <= off {
			line++
		}
		if p := n.Pos(off); p.Line != line+1 || p.Col != off-starts[line]+1 {
			t.Errorf("Pos(%d) = %v, want %d:%d", off, p, line+1, off-starts[line]+1)
		}
	}
}
