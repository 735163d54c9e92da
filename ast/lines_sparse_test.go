package ast

import (
	"bytes"
	"strings"
	"testing"
)

// sameLines checks that the sparse index of src answers every lookup as
// the dense one does: Pos at every offset (and outside the source),
// LineStart at every line (and past the last), Count.
func sameLines(t testing.TB, src []byte) {
	t.Helper()
	dense, sparse := NewLines(src), NewSparseLines(src)
	if dense.Count() != sparse.Count() {
		t.Fatalf("Count: dense %d, sparse %d (%q)", dense.Count(), sparse.Count(), src)
	}
	for off := -1; off <= len(src)+1; off++ {
		if d, s := dense.Pos(off), sparse.Pos(off); d != s {
			t.Fatalf("Pos(%d): dense %v, sparse %v (%d bytes)", off, d, s, len(src))
		}
	}
	for line := -1; line <= dense.Count()+1; line++ {
		if d, s := dense.LineStart(line), sparse.LineStart(line); d != s {
			t.Fatalf("LineStart(%d): dense %d, sparse %d (%d bytes)", line, d, s, len(src))
		}
	}
	if d, s := dense.Span(0, len(src)), sparse.Span(0, len(src)); d != s {
		t.Fatalf("Span: dense %v, sparse %v", d, s)
	}
}

// TestSparseLines compares the sparse index with the dense one on sources
// with line endings at, before and after block boundaries, no line ending
// at all, only line endings, long lines that span several blocks, and
// random mixes.
func TestSparseLines(t *testing.T) {
	cases := [][]byte{
		nil,
		[]byte("\n"),
		[]byte("a"),
		[]byte("ab\n\ncd\r\nx"),
		bytes.Repeat([]byte("x"), 3*sparseBlock+7),          // one line over several blocks
		bytes.Repeat([]byte("\n"), 3*sparseBlock+1),         // only line endings
		bytes.Repeat([]byte("ab\n"), sparseBlock),           // short lines
		[]byte(strings.Repeat("x", 4*sparseBlock) + "\nab"), // a long first line
	}
	for _, at := range []int{sparseBlock - 1, sparseBlock, sparseBlock + 1, 2*sparseBlock - 1, 2 * sparseBlock} {
		b := bytes.Repeat([]byte("y"), 3*sparseBlock)
		b[at] = '\n'
		cases = append(cases, b, b[:at+1], b[:at])
	}
	seed := uint64(7)
	next := func(n int) int {
		seed = seed*6364136223846793005 + 1442695040888963407
		return int((seed >> 33) % uint64(n))
	}
	for range 200 {
		b := make([]byte, next(4*sparseBlock))
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
		sameLines(t, src)
	}
}

func TestSparseLinesExtendPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("Extend on a sparse index did not panic")
		}
	}()
	NewSparseLines([]byte("a\n")).Extend([]byte("b"))
}

func FuzzSparseLines(f *testing.F) {
	f.Add([]byte("ab\n\ncd\r\nx"))
	f.Add(bytes.Repeat([]byte("a\n"), sparseBlock+3))
	f.Fuzz(func(t *testing.T, src []byte) {
		// Stretch short inputs over block boundaries.
		if len(src) > 0 && len(src) < 64 {
			src = bytes.Repeat(src, 2*sparseBlock/len(src)+1)
		}
		sameLines(t, src)
	})
}
