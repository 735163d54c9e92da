package grammar

import (
	"bytes"

	"github.com/plangram/plangram/ast"
)

// planLines gives the positions of one plan document's byte offsets, as
// ast.Lines does, without an index of every line: it keeps one checkpoint
// per lineStep bytes of input (the line at that offset and where that line
// starts: 16 bytes per KiB, 1.6% of the input, where a full index costs 8
// bytes per line, about 20% of a plan) and a cursor on the line of the
// latest answer. The plan builder asks for positions mostly in source
// order, node after node, so most answers lie on the cursor's line or a
// few lines after it; any other is counted from the nearest checkpoint
// before it. Either way a lookup reads at most a few lineStep bytes, so
// the cost stays linear in the input whatever the order or the length of
// the lines. It belongs to one parse (it is not safe for concurrent use).
type planLines struct {
	src  []byte
	step int       // bytes per checkpoint (lineStep; smaller in tests)
	cps  []linePos // cps[k]: the line of offset k*step
	// The cursor: the line of the latest answer, where it starts, and
	// known, the offset up to which (exclusive) the bytes are known to be
	// on that line.
	line, start, known int
}

// linePos is a 0-based line and the offset at which it starts.
type linePos struct{ line, start int }

// lineStep is the distance between two checkpoints of planLines.
const lineStep = 1024

func newPlanLines(src []byte) *planLines { return newPlanLinesStep(src, lineStep) }

// newPlanLinesStep is newPlanLines with checkpoints every step bytes.
func newPlanLinesStep(src []byte, step int) *planLines {
	l := &planLines{src: src, step: step, cps: make([]linePos, 0, len(src)/step+1)}
	cur := linePos{}
	for off := 0; ; off += step {
		l.cps = append(l.cps, cur)
		if off+step > len(src) {
			break
		}
		chunk := src[off : off+step]
		if n := bytes.Count(chunk, nl); n > 0 {
			cur.line += n
			cur.start = off + bytes.LastIndexByte(chunk, '\n') + 1
		}
	}
	return l
}

var nl = []byte{'\n'}

// Pos returns the position of the byte offset, clamped to the source.
func (l *planLines) Pos(off int) ast.Pos {
	off = min(max(off, 0), len(l.src))
	if off < l.start || off >= l.known {
		from, line, start := l.start, l.line, l.start
		if off < l.start || off-l.start > 2*l.step {
			// Far from the cursor: count from the checkpoint before off.
			cp := l.cps[off/l.step]
			from, line, start = off/l.step*l.step, cp.line, cp.start
		}
		if seg := l.src[from:off]; len(seg) > 0 {
			if n := bytes.Count(seg, nl); n > 0 {
				line += n
				start = from + bytes.LastIndexByte(seg, '\n') + 1
			}
		}
		// Bytes up to the next line ending (looked for within one step)
		// are on the same line.
		known := min(len(l.src), off+l.step)
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
