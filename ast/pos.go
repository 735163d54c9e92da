// Package ast defines the one typed, position-exact syntax tree that every
// plangram dialect (fenced acts, structured Markdown plans, the edit formats,
// streamed tool calls) produces, together with its diagnostics and the
// registry of their codes (codes.go).
//
// Every node carries a Span. Positions are byte offsets into the source plus
// a 1-based line and a 1-based column counted in bytes (not runes, not UTF-16
// code units); editors that need UTF-16 convert at their boundary.
package ast

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
)

// Pos is a position in a source document.
type Pos struct {
	Offset int `json:"offset"` // byte offset from the start of the source, 0-based
	Line   int `json:"line"`   // 1-based line number
	Col    int `json:"col"`    // 1-based column, counted in bytes
}

// String formats the position as LINE:COL.
func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// Span is a half-open byte range [Start.Offset, End.Offset) of the source.
type Span struct {
	Start Pos `json:"start"`
	End   Pos `json:"end"`
}

// In returns p, a position in a piece of text that starts at position at
// of a larger text, as a position in the larger text: offsets and lines
// add up, and a column on the piece's first line adds to at's column. The
// zero at (Line 0) leaves p as it is.
func (p Pos) In(at Pos) Pos {
	if at.Line == 0 {
		return p
	}
	if p.Line == 1 {
		p.Col += at.Col - 1
	}
	p.Offset += at.Offset
	p.Line += at.Line - 1
	return p
}

// In returns s, a span of a piece of text that starts at position at of a
// larger text, as a span of the larger text (Pos.In).
func (s Span) In(at Pos) Span { return Span{Start: s.Start.In(at), End: s.End.In(at)} }

// Len is the number of bytes the span covers.
func (s Span) Len() int { return s.End.Offset - s.Start.Offset }

// Contains reports whether offset lies within the span.
func (s Span) Contains(offset int) bool { return offset >= s.Start.Offset && offset < s.End.Offset }

// String formats the span as LINE:COL-LINE:COL.
func (s Span) String() string { return s.Start.String() + "-" + s.End.String() }

// Lines maps byte offsets of one source to line:column positions. Build it
// once per document with NewLines; lookups are O(log lines).
type Lines struct {
	starts []int // the byte offset at which each line starts
	size   int
}

// NewLines indexes the line starts of src. A line ends after each '\n'.
func NewLines(src []byte) *Lines {
	// Counting first sizes the index exactly.
	starts := make([]int, 1, 1+bytes.Count(src, []byte{'\n'}))
	return &Lines{starts: appendStarts(starts, src, 0), size: len(src)}
}

// appendStarts appends to starts the start of each line that a '\n' of
// src ends, src beginning at offset base.
func appendStarts(starts []int, src []byte, base int) []int {
	for off := 0; ; {
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			return starts
		}
		off += i + 1
		starts = append(starts, base+off)
	}
}

// Extend indexes more of the source: the bytes of more follow the ones
// indexed so far (an incremental reader builds the index as its input
// grows, in time linear in the input).
func (l *Lines) Extend(more []byte) {
	if l.starts == nil {
		l.starts = []int{0} // the zero Lines: an empty source so far
	}
	l.starts = appendStarts(l.starts, more, l.size)
	l.size += len(more)
}

// Pos returns the position of the byte offset. Offsets outside the source are
// clamped to it.
func (l *Lines) Pos(offset int) Pos {
	offset = min(max(offset, 0), l.size)
	// The line is the last whose start is at most offset (starts[0] is 0).
	lo, found := slices.BinarySearch(l.starts, offset)
	if !found {
		lo--
	}
	return Pos{Offset: offset, Line: lo + 1, Col: offset - l.starts[lo] + 1}
}

// A Cursor gives positions in one source by counting line endings between
// the offset asked and the last one, so a builder that walks its source
// mostly in order pays for each byte about once and needs no line index.
// It is not safe for concurrent use.
type Cursor struct {
	src   string
	off   int // the last offset asked for
	line  int // its line
	start int // the offset at which its line starts
}

// NewCursor returns a Cursor over src.
func NewCursor(src string) *Cursor { return &Cursor{src: src, line: 1} }

// Pos returns the position of the byte offset, clamped to the source, as
// Lines.Pos does.
func (c *Cursor) Pos(offset int) Pos {
	offset = max(0, min(offset, len(c.src)))
	if offset >= c.off {
		seg := c.src[c.off:offset]
		if n := strings.Count(seg, "\n"); n > 0 {
			c.line += n
			c.start = c.off + strings.LastIndexByte(seg, '\n') + 1
		}
	} else if offset < c.start {
		c.line -= strings.Count(c.src[offset:c.start], "\n")
		c.start = strings.LastIndexByte(c.src[:offset], '\n') + 1
	}
	c.off = offset
	return Pos{Offset: offset, Line: c.line, Col: offset - c.start + 1}
}

// Span returns the span of [start, end).
func (c *Cursor) Span(start, end int) Span { return Span{Start: c.Pos(start), End: c.Pos(end)} }

// Span returns the span of the byte range [start, end).
func (l *Lines) Span(start, end int) Span { return Span{Start: l.Pos(start), End: l.Pos(end)} }

// LineStart returns the byte offset at which the 1-based line starts, or the
// source length when the line does not exist.
func (l *Lines) LineStart(line int) int {
	if line < 1 {
		return 0
	}
	if line > l.Count() {
		return l.size
	}
	return l.starts[line-1]
}

// Count returns the number of lines (a source ending in '\n' has an empty last line).
func (l *Lines) Count() int {
	return len(l.starts)
}
