package grammar

import (
	"github.com/plangram/plangram/ast"
)

// planLines gives the positions of one plan document's byte offsets, as
// ast.Lines does. The plan builder asks for them mostly in source order,
// node after node, so each lookup starts from the line of the previous
// answer: it looks at that line and the next, then gallops (1, 2, 4, …
// lines) towards the offset and searches the last step, costing about
// 2·log2(distance) steps instead of log2(lines). It belongs to one parse
// (it is not safe for concurrent use).
type planLines struct {
	starts []int // byte offset at which each line starts
	size   int
	line   int // index in starts of the latest answer's line
}

func newPlanLines(src []byte) *planLines {
	return &planLines{starts: ast.LineStarts(src), size: len(src)}
}

// Pos returns the position of the byte offset, clamped to the source.
func (l *planLines) Pos(off int) ast.Pos {
	off = min(max(off, 0), l.size)
	s := l.starts
	n := l.line
	// lo and hi bracket the line: s[lo] <= off < s[hi] (hi may be len(s)).
	lo, hi := n, n+1
	if off < s[n] {
		step := 1
		for hi = n; ; step *= 2 {
			lo = hi - step
			if lo <= 0 {
				lo = 0
				break
			}
			if s[lo] <= off {
				break
			}
			hi = lo
		}
	} else {
		step := 1
		for lo = n; ; step *= 2 {
			hi = lo + step
			if hi >= len(s) {
				hi = len(s)
				break
			}
			if off < s[hi] {
				break
			}
			lo = hi
		}
	}
	for hi-lo > 1 {
		mid := int(uint(lo+hi) >> 1)
		if s[mid] <= off {
			lo = mid
		} else {
			hi = mid
		}
	}
	l.line = lo
	return ast.Pos{Offset: off, Line: lo + 1, Col: off - s[lo] + 1}
}

// Span returns the span of the byte range [start, end).
func (l *planLines) Span(start, end int) ast.Span {
	return ast.Span{Start: l.Pos(start), End: l.Pos(end)}
}
