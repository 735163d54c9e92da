// Package lexer splits plangram input into lossless line and fence tokens.
//
// Every token's value is a slice of the input made of whole lines (each with
// its '\n' terminator, except a last line without one), so concatenating the
// values of all tokens reproduces the input byte for byte.
//
// The tokens are coarse: Text (a run of lines outside blocks), ActBlock and
// Block (a whole fenced block from its opening line through its closing
// line, or to the end of input when it is never closed). Coarse is the
// hand-written participle lexer.Definition the acts grammar (package
// grammar) parses with; CoarseToken is its scan, for callers that read the
// tokens themselves.
//
// The plan dialect has a lexer of its own in markdown.go: Markdown returns the
// participle lexer.Definition of its coarse Markdown tokens (headings,
// metadata lists, runs of other lines), which the plan grammar parses with
// (docs/plan.md).
//
// The fence rules (docs/acts.md): a fence line is a line whose text, after
// leading and trailing spaces, tabs and carriage returns, starts with three or
// more of the document's fence character; the run is the fence and the rest,
// trimmed, is the info string, which for a backtick fence may not contain a
// backtick (CommonMark: such a line is inline code). A byte-order mark before an opening fence is
// ignored, and so are list item markers (`- ```python`, `1. ```sh`: `-`,
// `*`, `+`, or one to nine digits and `.` or `)`, each followed by spaces
// or tabs) before the run of an opening fence: the opening line token holds
// them, and the grammar gives them to a prose node of their own, the block
// starting at the run (MarkerPrefix). A block closes at the first later
// line whose trimmed text is exactly the same run (so a marker line never
// closes one). Only one fence character is active per document; fences of
// the other character are ordinary text.
package lexer

import (
	"fmt"
	"io"
	"strings"

	plex "github.com/alecthomas/participle/v2/lexer"

	"github.com/plangram/plangram/internal/view"
)

// Token types. The names are the symbol names participle grammars use.
const (
	EOF                     = plex.EOF
	Text     plex.TokenType = -7
	ActBlock plex.TokenType = -8
	Block    plex.TokenType = -9
)

// Fence characters.
const (
	Backtick byte = '`'
	Tilde    byte = '~'
)

// ParseFence converts a --fence flag value ("backtick", "tilde", "`", "~")
// to a fence character; "" or "auto" give 0 (detect).
func ParseFence(s string) (byte, error) {
	switch strings.ToLower(s) {
	case "", "auto":
		return 0, nil
	case "backtick", "`", "```":
		return Backtick, nil
	case "tilde", "~", "~~~":
		return Tilde, nil
	}
	return 0, fmt.Errorf("unknown fence %q: want backtick, tilde or auto", s)
}

const bom = "\uFEFF"

func isTrim(c byte) bool { return c == ' ' || c == '\t' || c == '\r' }

// trim returns line without its "\n" terminator and without the spaces,
// tabs and carriage returns around it: a subslice or substring of line.
func trim[T ~string | ~[]byte](line T) T {
	if n := len(line); n > 0 && line[n-1] == '\n' {
		line = line[:n-1]
	}
	i, j := 0, len(line)
	for i < j && isTrim(line[i]) {
		i++
	}
	for j > i && isTrim(line[j-1]) {
		j--
	}
	return line[i:j]
}

// OpenFence reports whether line (with or without its terminator) opens a
// block with fence character c, and returns the fence run and the trimmed
// info string. A backtick fence's info string holds no backtick.
func OpenFence(line []byte, c byte) (run, info string, ok bool) {
	r, i, ok := openFence(line, c)
	return string(r), string(i), ok
}

// OpenFenceString is OpenFence over a string: run and info are substrings
// of line (no copies).
func OpenFenceString(line string, c byte) (run, info string, ok bool) {
	return openFence(line, c)
}

// openFence is OpenFence over either form of line; run and info are parts
// of line.
func openFence[T ~string | ~[]byte](line T, c byte) (run, info T, ok bool) {
	if len(line) >= len(bom) && string(line[:len(bom)]) == bom {
		line = line[len(bom):]
	}
	t := trim(line)
	t = t[skipMarkers(t, 0):]
	n := 0
	for n < len(t) && t[n] == c {
		n++
	}
	if n < 3 || (c == Backtick && hasByte(t[n:], Backtick)) {
		return run, info, false
	}
	return t[:n], trim(t[n:]), true
}

// skipMarkers returns the offset after the list item markers at offset i
// of line, each with the spaces and tabs after it (MarkerLen), or i when
// none is there.
func skipMarkers[T ~string | ~[]byte](line T, i int) int {
	for {
		m := MarkerLen(line[i:])
		if m == 0 {
			return i
		}
		i += m
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
	}
}

// MarkerPrefix returns, for an opening fence line written on a list item's
// marker line (`- ```python`, `  1. ```sh`), the length of what precedes
// the fence run: a byte-order mark, the indentation and the markers with
// their spaces. For any other line it returns 0: the block of a fence line
// without markers starts at the start of its line.
func MarkerPrefix[T ~string | ~[]byte](line T) int {
	i := 0
	if len(line) >= len(bom) && string(line[:len(bom)]) == bom {
		i = len(bom)
	}
	for i < len(line) && isTrim(line[i]) {
		i++
	}
	if j := skipMarkers(line, i); j > i {
		return j
	}
	return 0
}

// hasByte reports whether s holds the byte c.
func hasByte[T ~string | ~[]byte](s T, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return true
		}
	}
	return false
}

// IsAct reports whether an info string names an act block (`act`, any case).
func IsAct(info string) bool { return strings.EqualFold(info, "act") }

// NearAct reports whether an info string looks like an act block's but is
// not exactly `act`: its first word is `act` (any case), after an optional
// `{` or `.` (Pandoc attributes), followed by more text — `act python`,
// `act:`, `Act,`, `{act}`, `{.act}`, `act title="x"`. Such a block is not
// an act block, and the grammars report it (`near-act`) rather than read it
// silently as an argument. `action`, `acts`, `act2`, `act.py`, `act-x` and
// `act_x` are other words, not act.
func NearAct(info string) bool {
	s := strings.TrimLeft(info, "{.")
	if len(s) < 3 || !strings.EqualFold(s[:3], "act") || IsAct(info) {
		return false
	}
	if len(s) == 3 {
		return true // "{act" or ".act"
	}
	switch s[3] {
	case ' ', '\t', ':', ',', ';', '}', '=', '|':
		return true
	}
	return false
}

// ClosesFence reports whether line closes a block opened with run.
func ClosesFence(line []byte, run string) bool {
	return string(trim(line)) == run
}

// ClosesFenceString is ClosesFence over a string.
func ClosesFenceString(line, run string) bool { return trim(line) == run }

// openRun returns the length of the fence run of an opening line (0 when
// line opens no block with fence character c) and whether its info string
// is act.
func openRun[T ~string | ~[]byte](line T, c byte) (n int, act bool) {
	r, info, ok := openFence(line, c)
	return len(r), ok && len(info) == 3 && IsAct(string(info))
}

// ClosesRun reports whether line, trimmed of spaces, tabs and CRs (and its
// "\n"), is exactly n fence characters c: the acts dialect's closing rule
// (ClosesFence) for a run known by its character and length.
func ClosesRun(line string, c byte, n int) bool {
	t := trim(line)
	return len(t) == n && strings.Count(t, string(c)) == n
}

// Detect returns the fence character of a document: the character of the
// first line (in source order, at any indentation) that opens a fence whose
// info string is `act`; when there is none, the character of the first
// line whose info string only looks like `act` (NearAct: `act python`), so
// that such a block is read as a block and reported rather than as prose;
// Backtick when there is neither. It reads only the lines that hold three
// fence characters in a row.
func Detect(src []byte) byte {
	s := view.String(src)
	bAct, bNear := actLines(s, Backtick)
	tAct, tNear := actLines(s, Tilde)
	if tAct < bAct || bAct == len(s) && tNear < bNear {
		return Tilde
	}
	return Backtick
}

// actLines returns the offset in s of the first line that opens a block of
// fence character c with the info string act and of the first before it
// whose info string is NearAct, each len(s) when there is none.
func actLines(s string, c byte) (act, near int) {
	near = len(s)
	act, _ = fenceLine(s, 0, c, func(start int, line string) bool {
		_, info, ok := openFence(line, c)
		if ok && near == len(s) && NearAct(info) {
			near = start
		}
		return ok && IsAct(info)
	})
	return act, near
}

// Definition is the hand-written participle lexer.Definition of the coarse
// tokens for one fence character. Its zero Fence means "detect per
// document" (Detect).
type Definition struct {
	Fence byte
}

// Coarse returns the definition for fence character c (0: detect).
func Coarse(c byte) *Definition { return &Definition{Fence: c} }

// Symbols implements lexer.Definition.
func (d *Definition) Symbols() map[string]plex.TokenType {
	return map[string]plex.TokenType{"EOF": EOF, "Text": Text, "ActBlock": ActBlock, "Block": Block}
}

// Lex implements lexer.Definition.
func (d *Definition) Lex(filename string, r io.Reader) (plex.Lexer, error) {
	var b strings.Builder
	if _, err := io.Copy(&b, r); err != nil {
		return nil, err
	}
	return d.LexString(filename, b.String())
}

// LexString implements lexer.StringDefinition. Token values are substrings
// of input (no copies).
func (d *Definition) LexString(filename string, input string) (plex.Lexer, error) {
	return NewScanner(filename, input, d.Fence), nil
}

// Scanner emits the coarse tokens of one input (CoarseToken). It
// implements participle's lexer.Lexer.
type Scanner struct {
	src   string
	fence byte
	pos   plex.Position
}

// NewScanner returns a scanner over src with fence character c (0: detect).
func NewScanner(filename, src string, c byte) *Scanner {
	if c == 0 {
		c = Detect(view.Bytes(src))
	}
	return &Scanner{src: src, fence: c, pos: plex.Position{Filename: filename, Line: 1, Column: 1}}
}

// Fence returns the fence character in use.
func (s *Scanner) Fence() byte { return s.fence }

// Next implements lexer.Lexer.
func (s *Scanner) Next() (plex.Token, error) {
	off := s.pos.Offset
	if off >= len(s.src) {
		return plex.EOFToken(s.pos), nil
	}
	typ, end := CoarseToken(s.src, off, s.fence)
	tok := plex.Token{Type: typ, Value: s.src[off:end], Pos: s.pos}
	advance(&s.pos, tok.Value)
	return tok, nil
}

// advance moves pos past the token value v.
func advance(pos *plex.Position, v string) {
	if n := strings.Count(v, "\n"); n > 0 {
		pos.Line += n
		pos.Column = len(v) - strings.LastIndexByte(v, '\n')
	} else {
		pos.Column += len(v)
	}
	pos.Offset += len(v)
}

// CoarseToken scans the coarse token of src that starts at offset off
// (off < len(src), at the start of a line) with fence character c: its type
// (Text, ActBlock or Block) and the offset where it ends. It is what a
// Scanner emits, without the line and column tracking: a reader that
// computes positions itself calls it in a loop from offset 0, each call
// starting at the previous call's end.
//
// Only a line holding three fence characters in a row can open or close a
// block, so the scan jumps from one such line to the next rather than
// reading every line.
func CoarseToken(src string, off int, c byte) (plex.TokenType, int) {
	e := LineEnd(src, off)
	if r, act := openRun(src[off:e], c); r > 0 {
		typ := Block
		if act {
			typ = ActBlock
		}
		_, end := fenceLine(src, e, c, func(_ int, line string) bool { return ClosesRun(line, c, r) })
		return typ, end
	}
	return Text, nextOpening(src, e, c)
}

// fenceLine returns the start and end of the first line at or after p (a
// line start) that holds three fence characters c in a row and that match
// (given its start and text) accepts, or len(src) twice: only such a line
// can open or close a block, so the scan jumps from one to the next.
func fenceLine(src string, p int, c byte, match func(start int, line string) bool) (start, end int) {
	for p < len(src) {
		i := strings.Index(src[p:], fenceRun3(c))
		if i < 0 {
			break
		}
		start = p + strings.LastIndexByte(src[p:p+i], '\n') + 1
		end = LineEnd(src, start)
		if match(start, src[start:end]) {
			return start, end
		}
		p = end
	}
	return len(src), len(src)
}

// nextOpening returns the start of the first line at or after p (a line
// start) that opens a block with fence character c, or len(src).
func nextOpening(src string, p int, c byte) int {
	start, _ := fenceLine(src, p, c, func(_ int, line string) bool {
		r, _ := openRun(line, c)
		return r > 0
	})
	return start
}
