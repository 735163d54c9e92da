// Package textpos converts between plangram's positions (byte offsets,
// 1-based lines, 1-based byte columns) and the 0-based line / UTF-16 code
// unit positions that the Language Server Protocol and SARIF use by default.
//
// A character outside the Basic Multilingual Plane (an emoji such as 😀) is
// 4 bytes of UTF-8 and 2 UTF-16 code units; a CJK character is 3 bytes and 1
// unit. Invalid UTF-8 bytes count as one unit each (as U+FFFD would).
//
// Lines: plangram's own positions (package ast, Column16) end lines at "\n"
// only. The LSP positions of UTF16 and Offset count lines as the protocol
// does, ending at "\n", "\r\n" or a lone "\r" (what editors show), so a
// document with a lone CR gets the editor's line numbers.
package textpos

import (
	"bytes"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/plangram/plangram/ast"
)

// UTF16Len returns the number of UTF-16 code units of the UTF-8 text b.
func UTF16Len(b []byte) int {
	n := 0
	for _, r := range string(b) {
		n += utf16.RuneLen(r)
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
		w := utf16.RuneLen(r)
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
	// lsp indexes the LSP lines: lines itself, unless src has a lone "\r"
	// (a line break for the protocol, not for package ast).
	lsp *ast.Lines
}

// New indexes src.
func New(src []byte) *Text {
	t := &Text{src: src, lines: ast.NewLines(src)}
	t.lsp = t.lines
	if bytes.Count(src, []byte("\r")) != bytes.Count(src, []byte("\r\n")) {
		// Each lone "\r" read as "\n", at the same offset.
		nl := bytes.Clone(src)
		for i, c := range nl {
			if c == '\r' && (i+1 == len(nl) || nl[i+1] != '\n') {
				nl[i] = '\n'
			}
		}
		t.lsp = ast.NewLines(nl)
	}
	return t
}

// Lines returns the byte-position index of the text.
func (t *Text) Lines() *ast.Lines { return t.lines }

// UTF16 returns the 0-based line and 0-based UTF-16 character of a byte
// offset (clamped to the text).
// Lines end at "\n", "\r\n" and a lone "\r", as in the protocol.
func (t *Text) UTF16(offset int) (line, char int) {
	offset = max(0, min(offset, len(t.src)))
	p := t.lsp.Pos(offset)
	return p.Line - 1, UTF16Len(t.src[t.lsp.LineStart(p.Line):offset])
}

// Column16 returns the 1-based UTF-16 column of a position (its line and
// byte offset), as SARIF counts with columnKind utf16CodeUnits. Lines are
// plangram's (they end at "\n"), as the line numbers SARIF reports are.
func (t *Text) Column16(p ast.Pos) int {
	off := max(0, min(p.Offset, len(t.src)))
	start := t.lines.LineStart(t.lines.Pos(off).Line)
	return UTF16Len(t.src[start:off]) + 1
}

// LineEnd returns the offset at which the 1-based line's text ends, before
// its "\n" or "\r\n".
func (t *Text) LineEnd(line int) int {
	start := t.lines.LineStart(line)
	return start + ByteLen(t.src[start:], len(t.src)-start+1)
}

// Offset returns the byte offset of a 0-based line and UTF-16 character.
// A line past the end gives the text's length; a character past the end of
// its line gives the line's end (before its line ending). Lines end at
// "\n", "\r\n" and a lone "\r", as in the protocol.
func (t *Text) Offset(line, char int) int {
	if line < 0 {
		return 0
	}
	if line >= t.lsp.Count() {
		return len(t.src)
	}
	start := t.lsp.LineStart(line + 1)
	if char <= 0 {
		return start
	}
	n := ByteLen(t.src[start:], char)
	if i := bytes.IndexByte(t.src[start:start+n], '\r'); i >= 0 {
		n = i // a lone CR ends the line
	}
	return start + n
}
