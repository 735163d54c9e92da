package ast

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// checkLines checks the line index of src against a count of its line
// endings: Pos at every offset (and outside the source, clamped),
// LineStart at every line (and past the last), Count, and an index built
// piece by piece with Extend answering as the whole one.
func checkLines(t testing.TB, src []byte) {
	t.Helper()
	l := NewLines(src)
	if n := bytes.Count(src, []byte{'\n'}) + 1; l.Count() != n {
		t.Fatalf("Count %d, want %d", l.Count(), n)
	}
	line, start := 1, 0
	for off := 0; off <= len(src); off++ {
		if want := (Pos{Offset: off, Line: line, Col: off - start + 1}); l.Pos(off) != want {
			t.Fatalf("Pos(%d) = %v, want %v (%d bytes)", off, l.Pos(off), want, len(src))
		}
		if got := l.LineStart(line); got != start {
			t.Fatalf("LineStart(%d) = %d, want %d", line, got, start)
		}
		if off < len(src) && src[off] == '\n' {
			line, start = line+1, off+1
		}
	}
	if l.Pos(-1) != l.Pos(0) || l.Pos(len(src)+1) != l.Pos(len(src)) {
		t.Fatalf("Pos outside the source is not clamped")
	}
	if l.LineStart(-1) != 0 || l.LineStart(l.Count()+1) != len(src) {
		t.Fatalf("LineStart outside the lines: %d, %d", l.LineStart(-1), l.LineStart(l.Count()+1))
	}
	var ext Lines
	ext.Extend(nil)
	for i := 0; i < len(src); i += 97 {
		ext.Extend(src[i:min(i+97, len(src))])
	}
	if ext.Count() != l.Count() || ext.Span(0, len(src)) != l.Span(0, len(src)) {
		t.Fatalf("Extend: %d lines, span %v; want %d, %v", ext.Count(), ext.Span(0, len(src)), l.Count(), l.Span(0, len(src)))
	}
}

// block is a length the cases below place line endings around.
const block = 512

// TestLinesIndex checks the line index on sources with line endings at, before
// and after block boundaries, no line ending at all, only line endings,
// long lines, and random mixes.
func TestLinesIndex(t *testing.T) {
	cases := [][]byte{
		nil,
		[]byte("\n"),
		[]byte("a"),
		[]byte("ab\n\ncd\r\nx"),
		bytes.Repeat([]byte("x"), 3*block+7),  // one line over several blocks
		bytes.Repeat([]byte("\n"), 3*block+1), // only line endings
		bytes.Repeat([]byte("ab\n"), block),   // short lines
		[]byte(strings.Repeat("x", 4*block) + "\nab"), // a long first line
	}
	for _, at := range []int{block - 1, block, block + 1, 2*block - 1, 2 * block} {
		b := bytes.Repeat([]byte("y"), 3*block)
		b[at] = '\n'
		cases = append(cases, b, b[:at+1], b[:at])
	}
	seed := uint64(7)
	next := func(n int) int {
		seed = seed*6364136223846793005 + 1442695040888963407
		return int((seed >> 33) % uint64(n))
	}
	for range 200 {
		b := make([]byte, next(4*block))
		density := 1 + next(300)
		for i := range b {
			if next(density) == 0 {
				b[i] = '\n'
			} else {
				b[i] = 'a' + byte(next(3))
			}
		}
		cases = append(cases, b)
	}
	for _, src := range cases {
		checkLines(t, src)
	}
}

func FuzzLines(f *testing.F) {
	f.Add([]byte("ab\n\ncd\r\nx"))
	f.Add(bytes.Repeat([]byte("a\n"), block+3))
	f.Fuzz(func(t *testing.T, src []byte) {
		// Stretch short inputs over several blocks.
		if len(src) > 0 && len(src) < 64 {
			src = bytes.Repeat(src, 2*block/len(src)+1)
		}
		checkLines(t, src)
	})
}

// TestCursor checks that a Cursor answers as Lines.Pos does, for offsets
// asked in order, backwards and at random, clamped ones included.
func TestCursor(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, src := range []string{"", "\n", "a", "a\n", "ab\ncd\n\nef", "\n\n\nx\n\ny", strings.Repeat("line\n", 50) + "end"} {
		l, c := NewLines([]byte(src)), NewCursor(src)
		var offsets []int
		for off := -1; off <= len(src)+1; off++ {
			offsets = append(offsets, off)
		}
		for off := len(src) + 1; off >= -1; off-- {
			offsets = append(offsets, off)
		}
		for range 200 {
			offsets = append(offsets, r.IntN(len(src)+3)-1)
		}
		for _, off := range offsets {
			if got, want := c.Pos(off), l.Pos(off); got != want {
				t.Fatalf("%q: Cursor.Pos(%d) = %v, Lines.Pos = %v", src, off, got, want)
			}
		}
	}
}
