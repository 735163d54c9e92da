// Package textpos converts between plangram's positions (byte offsets,
// 1-based lines, 1-based byte columns) and the 0-based line / UTF-16 code
// unit positions that the Language Server Protocol and SARIF use by default.
//
// A character outside the Basic Multilingual Plane (an emoji such as 😀) is
// 4 bytes of UTF-8 and 2 UTF-16 code units; a CJK character is 3 bytes and 1
// unit. Invalid UTF-8 bytes count as one unit each (as U+FFFD would). Lines
// end at "\n" only, as in package ast.
package textpos

import (
	"unicode/utf8"

	"github.com/plangram/plangram/ast"
)

// UTF16Len returns the number of UTF-16 code units of the UTF-8 text b.
func UTF16Len(b []byte) int {
	n := 0
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			i++
			n++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		i += size
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// ByteLen returns the byte length of the longest prefix of line whose UTF-16
// length is at most units, stopping at a line ending and never splitting a
// character (a column inside a surrogate pair rounds down).
func ByteLen(line []byte, units int) int {
	n := 0
	i := 0
	for i < len(line) && line[i] != '\n' {
		if line[i] == '\r' && (i+1 == len(line) || line[i+1] == '\n') {
			break
		}
		r, size := utf8.DecodeRune(line[i:])
		w := 1
		if r >= 0x10000 {
			w = 2
		}
		if n+w > units {
			break
		}
		n += w
		i += size
	}
	return i
}

// Text indexes one source for conversions. Build it once per version of a
// document; it is safe for concurrent reads.
type Text struct {
	src   []byte
	lines *ast.Lines
}

// New indexes src.
func New(src []byte) *Text { return &Text{src: src, lines: ast.NewLines(src)} }

// Lines returns the byte-position index of the text.
func (t *Text) Lines() *ast.Lines { return t.lines }

// UTF16 returns the 0-based line and 0-based UTF-16 character of a byte
// offset (clamped to the text).
func (t *Text) UTF16(offset int) (line, char int) {
	p := t.lines.Pos(offset)
	start := t.lines.LineStart(p.Line)
	return p.Line - 1, UTF16Len(t.src[start:p.Offset])
}

// Column16 returns the 1-based UTF-16 column of a position (its line and
// byte offset), as SARIF counts with columnKind utf16CodeUnits.
func (t *Text) Column16(p ast.Pos) int {
	_, c := t.UTF16(p.Offset)
	return c + 1
}

// LineEnd returns the offset at which the 1-based line's text ends, before
// its "\n" or "\r\n".
func (t *Text) LineEnd(line int) int {
	start := t.lines.LineStart(line)
	return start + ByteLen(t.src[start:], len(t.src)-start+1)
}

// Offset returns the byte offset of a 0-based line and UTF-16 character.
// A line past the end gives the text's length; a character past the end of
// its line gives the line's end (before its line ending).
func (t *Text) Offset(line, char int) int {
	if line < 0 {
		return 0
	}
	if line >= t.lines.Count() {
		return len(t.src)
	}
	start := t.lines.LineStart(line + 1)
	if char <= 0 {
		return start
	}
	return start + ByteLen(t.src[start:], char)
}
