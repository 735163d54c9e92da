package grammar

import (
	"bytes"

	"github.com/plangram/plangram/ast"
)

// planLines gives the positions of one plan document's byte offsets, as
// ast.Lines does, without an index of every line: it keeps the sparse
// index (ast.NewSparseLines: a checkpoint per 512 bytes of input, where a
// full index costs 4 bytes per line) and
// a cursor on the line of the latest answer. The plan builder asks for
// positions mostly in source order, node after node, so most answers lie
// on the cursor's line or a few lines after it; any other is the sparse
// index's, counted from its checkpoint. Either way a lookup reads at most
// about a KiB, so the cost stays linear in the input whatever the order or
// the length of the lines. It belongs to one parse (it is not safe for
// concurrent use).
type planLines struct {
	src []byte
	idx *ast.Lines // sparse
	// The cursor: the line of the latest answer, where it starts, and
	// known, the offset up to which (exclusive) the bytes are known to be
	// on that line.
	line, start, known int
}

// nearCursor is how far past the cursor's line start an offset is
// counted from the cursor rather than looked up in the sparse index.
const nearCursor = 1024

func newPlanLines(src []byte) *planLines {
	return &planLines{src: src, idx: ast.NewSparseLines(src)}
}

var nl = []byte{'\n'}

// Pos returns the position of the byte offset, clamped to the source.
func (l *planLines) Pos(off int) ast.Pos {
	off = min(max(off, 0), len(l.src))
	if off < l.start || off >= l.known {
		var line, start int
		if off < l.start || off-l.start > nearCursor {
			p := l.idx.Pos(off)
			line, start = p.Line-1, off-p.Col+1
		} else {
			line, start = l.line, l.start
			if seg := l.src[l.start:off]; len(seg) > 0 {
				if n := bytes.Count(seg, nl); n > 0 {
					line += n
					start = l.start + bytes.LastIndexByte(seg, '\n') + 1
				}
			}
		}
		// Bytes up to the next line ending (looked for within a KiB) are
		// on the same line.
		known := min(len(l.src), off+nearCursor)
		if i := bytes.IndexByte(l.src[off:known], '\n'); i >= 0 {
			known = off + i + 1
		}
		l.line, l.start, l.known = line, start, max(known, off+1)
	}
	return ast.Pos{Offset: off, Line: l.line + 1, Col: off - l.start + 1}
}

// Span returns the span of the byte range [start, end).
func (l *planLines) Span(start, end int) ast.Span {
	return ast.Span{Start: l.Pos(start), End: l.Pos(end)}
}
