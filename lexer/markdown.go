package lexer

import (
	"io"
	"math"
	"strings"

	plex "github.com/alecthomas/participle/v2/lexer"
)

// The Markdown plan lexer (docs/plan.md) classifies whole lines of a
// structured Markdown plan: ScanMarkdown reads one token at a time,
// RunScanner makes one token of each list and paragraph, and
// MarkdownScanner (the participle lexer.Definition Markdown) gives the plan
// grammar its coarse tokens. Each token is one or more whole lines — but
// for a list item's marker line whose text is an opening fence (`- ```py`,
// `1. ```sh`), which is split at the fence run: the item or paragraph line
// ends there and the Fence token starts there — so concatenating the
// values of all tokens reproduces the input byte for byte:
//
//   - Blank: a run of lines holding only spaces, tabs and carriage returns.
//   - H1 … H6: an ATX heading line: at most three columns of indentation, one
//     to six `#`, then a space, a tab or the end of the line.
//   - Tight: a heading line without the space (`#Title`, `##Rationale`).
//   - Break: a thematic break: `---`, `***` or `___` (three or more of one
//     character, spaces allowed between them, nothing else).
//   - Item: a bullet list item (`-`, `*` or `+` followed by a space, a tab or
//     the end of the line, at most three columns of indentation) with its
//     continuation lines: the following lines that are indented (nested
//     items included) and, across blank lines, lines indented at least as far
//     as the item's text. A line that is not indented ends the item: free
//     text after a list is never swallowed by its last item.
//   - Fence: a whole fenced block, from its opening line through its closing
//     line (or to the end of the input when it never closes).
//   - Line: any other line (paragraph text).
//
// Fences follow CommonMark's closing rule, so a plan means what Markdown
// viewers show: an opening fence line is a line whose text, after any
// indentation, starts with three or more backticks or tildes (a backtick
// fence's info string may not contain a backtick); the block closes at the
// first later line holding only a run of the same character at least as long
// as the opening run, indented at most three columns more than the opening
// line, with nothing after it but spaces and tabs. Content is never
// re-indented. A byte-order mark at the start of the input is ignored when
// classifying the first line.

// Markdown token types. The names (Symbols) are the symbol names the plan
// grammar uses.
const (
	MdBlank plex.TokenType = -20 - iota
	MdH1
	MdH2
	MdH3
	MdH4
	MdH5
	MdH6
	MdTight
	MdBreak
	MdItem
	MdFence
	MdLine
	// MdText is the plan grammar's token for a run of the other tokens
	// (MarkdownScanner).
	MdText
)

// MarkdownDefinition is the participle lexer.Definition of the plan
// grammar's tokens (MarkdownScanner). It has no state; one value serves
// any number of documents.
type MarkdownDefinition struct{}

// Markdown returns the Markdown plan lexer definition.
func Markdown() MarkdownDefinition { return MarkdownDefinition{} }

// Symbols implements lexer.Definition: the Markdown token names, which
// the plan grammar uses, and their types.
func (MarkdownDefinition) Symbols() map[string]plex.TokenType {
	return map[string]plex.TokenType{
		"EOF": EOF, "Blank": MdBlank, "H1": MdH1, "H2": MdH2, "H3": MdH3, "H4": MdH4,
		"H5": MdH5, "H6": MdH6, "Tight": MdTight, "Break": MdBreak, "Item": MdItem,
		"Fence": MdFence, "Line": MdLine, "Text": MdText,
	}
}

// HeadingLevel returns the level (1–6) of an H1…H6 token type, else 0.
func HeadingLevel(t plex.TokenType) int {
	if t <= MdH1 && t >= MdH6 {
		return int(MdH1-t) + 1
	}
	return 0
}

// Lex implements lexer.Definition.
func (d MarkdownDefinition) Lex(filename string, r io.Reader) (plex.Lexer, error) {
	var b strings.Builder
	if _, err := io.Copy(&b, r); err != nil {
		return nil, err
	}
	return d.LexString(filename, b.String())
}

// LexString implements lexer.StringDefinition. Token values are substrings
// of input.
func (MarkdownDefinition) LexString(filename string, input string) (plex.Lexer, error) {
	return &MarkdownScanner{run: &RunScanner{src: input, noItems: true}, pos: plex.Position{Filename: filename, Line: 1, Column: 1}}, nil
}

// MarkdownScanner emits the tokens the plan grammar reads, with their
// positions: the headings that give a plan its structure (H2, a section,
// with the headings of the empty sections right after it, blank lines
// between them allowed; H1 and Tight before the first section or action,
// the title), a list right after a title, blank lines between them
// allowed (Item: the metadata list), one H3 token for each run of actions
// (each a heading 3 line, its metadata list and its body, up to the next
// heading 2), and one Text token for each run of everything else
// (paragraphs, other lists, fenced blocks, breaks, blank lines, headings
// 4–6 and, past the first section or action, headings 1). So participle
// reads a few tokens per section, not one per line, block or action: each
// token costs participle's lexer and parser far more than its bytes. The tokens
// cover the input byte for byte; each is a run of RunScanner's tokens,
// which the plan builder reads again from the token's range. It
// implements participle's lexer.Lexer.
type MarkdownScanner struct {
	run       *RunScanner
	pos       plex.Position
	ahead     lookahead
	afterHead bool // the last token was a title
	body      bool // an H2 or H3 was read: no more titles
}

// scan returns the next RunScanner token, the one read ahead first.
func (s *MarkdownScanner) scan() rawTok {
	if t, ok := s.ahead.pop(); ok {
		return t
	}
	typ, start, end := s.run.Next()
	return rawTok{typ, start, end}
}

// emptySections extends the H2 token t over the heading 2 lines that
// follow it with nothing but blank lines between them: the headings of
// sections that hold nothing.
func (s *MarkdownScanner) emptySections(t *rawTok) {
	for v, ok := s.ahead.across(s.scan, MdH2); ok; v, ok = s.ahead.across(s.scan, MdH2) {
		t.end = v.end
	}
}

// listNext reports whether a list follows the blank lines t; if so, t
// becomes an Item token holding both.
func (s *MarkdownScanner) listNext(t *rawTok) bool {
	u := s.scan()
	if u.typ != MdItem {
		s.ahead.push(u)
		return false
	}
	t.typ, t.end = MdItem, u.end
	return true
}

// Next implements lexer.Lexer.
func (s *MarkdownScanner) Next() (plex.Token, error) {
	t := s.scan()
	after := s.afterHead
	s.afterHead = false
	switch {
	case t.typ == EOF:
		return plex.EOFToken(s.pos), nil
	case t.typ == MdH1 || t.typ == MdTight:
		if s.body {
			return s.text(t, MdText), nil
		}
		s.afterHead = true
	case t.typ == MdH3:
		s.body = true
		return s.text(t, MdH3), nil
	case t.typ == MdH2:
		s.body = true
		s.emptySections(&t)
	case t.typ == MdItem && after:
	case t.typ == MdBlank && after && s.listNext(&t):
	default:
		return s.text(t, MdText), nil
	}
	return s.token(t), nil
}

// text returns the token of type typ that starts with t and runs up to
// the next H2 (or title) and, for a Text token, H3: a Text token, or an
// H3 token holding the actions up to the next section.
func (s *MarkdownScanner) text(t rawTok, typ plex.TokenType) plex.Token {
	for {
		u := s.scan()
		if u.typ == EOF || u.typ == MdH2 || u.typ == MdH3 && typ != MdH3 || !s.body && (u.typ == MdH1 || u.typ == MdTight) {
			s.ahead.push(u)
			break
		}
		t.end = u.end
	}
	t.typ = typ
	return s.token(t)
}

// token returns the token t with its position, and moves past it.
func (s *MarkdownScanner) token(t rawTok) plex.Token {
	tok := plex.Token{Type: t.typ, Value: s.run.src[t.start:t.end], Pos: s.pos}
	advance(&s.pos, tok.Value)
	return tok
}

// ScanMarkdown classifies the token starting at byte offset off (which must
// be the start of a line) and returns its type and end offset. It is the
// scanner's single step, exported for tools that walk a plan's blocks
// without building a parser (plangram fix).
//
// A list item's marker line whose text is an opening fence (`- ```python`,
// `1. ```sh`) is two tokens: the item (MdItem) or paragraph line (MdLine)
// up to the fence run, then the fenced block (MdFence) from the run on. So
// off may also be the fence run of such a line, where the previous token
// ended.
func ScanMarkdown(src string, off int) (plex.TokenType, int) {
	end := LineEnd(src, off)
	if midLine(src, off) {
		if f, ok := MdFenceAt(src, off); ok {
			return MdFence, fenceEnd(src, end, f)
		}
	}
	line := src[off:end]
	pre := 0
	if off == 0 && strings.HasPrefix(line, bom) {
		line, pre = line[len(bom):], len(bom)
	}
	typ := ClassifyLine(line)
	switch typ {
	case MdItem, MdLine:
		if f, ok := ParseMdFence(line); ok && f.Item {
			return typ, off + pre + f.At
		}
	}
	switch typ {
	case MdBlank:
		end = blankEnd(src, end)
	case MdFence:
		f, _ := ParseMdFence(line)
		return MdFence, fenceEnd(src, end, f)
	case MdItem:
		end = itemEnd(src, end, itemContentIndent(line))
	}
	return typ, end
}

// fenceEnd returns the end of the block opened by f whose opening line
// ends at p: the end of its closing line, or len(src).
func fenceEnd(src string, p int, f MdFenceLine) int {
	_, end := fenceLine(src, p, f.Char, func(_ int, line string) bool { return f.Closes(line) })
	return end
}

// midLine reports whether offset off of src is inside a line (not at its
// start, a byte-order mark at offset 0 aside).
func midLine(src string, off int) bool {
	return off > 0 && src[off-1] != '\n' && !(off == len(bom) && strings.HasPrefix(src, bom))
}

// MdFenceAt parses the opening fence line of the fence token that starts at
// offset off of src: a line start (a byte-order mark at offset 0 is
// skipped), or the fence run of a list item's marker line (`- ```python`),
// where the item's token ends (ScanMarkdown). At is relative to off, and
// Indent is the run's column in its line, so the closing rule (Closes) is
// the same either way; Item is set for a run after markers.
func MdFenceAt(src string, off int) (MdFenceLine, bool) {
	line := src[off:LineEnd(src, off)]
	if off == 0 {
		line = strings.TrimPrefix(line, bom)
	}
	f, ok := ParseMdFence(line)
	if !ok || !midLine(src, off) {
		return f, ok
	}
	ls := strings.LastIndexByte(src[:off], '\n') + 1
	full := src[ls:LineEnd(src, ls)]
	if ls == 0 {
		full = strings.TrimPrefix(full, bom)
	}
	g, ok := ParseMdFence(full)
	if !ok || !g.Item || len(full)-len(src[off:LineEnd(src, off)]) != g.At {
		return MdFenceLine{}, false // not the run of a marker line
	}
	g.At = 0
	return g, true
}

// fenceRun3 returns three fence characters c in a row.
func fenceRun3(c byte) string {
	if c == '~' {
		return "~~~"
	}
	return "```"
}

// HasFenceRun reports whether s holds three fence characters c in a row:
// without them no line of s is a fence line of c.
func HasFenceRun(s string, c byte) bool { return strings.Contains(s, fenceRun3(c)) }

// LineEnd returns the offset just after the line starting at off (after its
// '\n', or the end of src).
func LineEnd(src string, off int) int {
	if i := strings.IndexByte(src[off:], '\n'); i >= 0 {
		return off + i + 1
	}
	return len(src)
}

// FirstLineEnding returns the first line ending of s, "\r\n" or "\n", or
// "" when s has none.
func FirstLineEnding(s string) string {
	i := strings.IndexByte(s, '\n')
	switch {
	case i < 0:
		return ""
	case i > 0 && s[i-1] == '\r':
		return "\r\n"
	}
	return "\n"
}

func isBlank(line string) bool {
	for i := 0; i < len(line); i++ {
		if !isTrim(line[i]) && line[i] != '\n' {
			return false
		}
	}
	return true
}

// blankEnd returns the end of the run of blank lines starting at p.
func blankEnd(src string, p int) int {
	for p < len(src) {
		e := LineEnd(src, p)
		if !isBlank(src[p:e]) {
			break
		}
		p = e
	}
	return p
}

// Column returns the column after line when line starts at column col
// (tabStop).
func Column[T ~string | ~[]byte](line T, col int) int {
	for i := 0; i < len(line); i++ {
		col = tabStop(col, line[i])
	}
	return col
}

// tabStop returns the column after byte c at column col: a tab advances to
// the next multiple of 4, any other byte one column.
func tabStop(col int, c byte) int {
	if c == '\t' {
		return col + 4 - col%4
	}
	return col + 1
}

// Indent returns the indentation width of line in columns and the byte
// offset of its first byte other than a space or tab.
func Indent[T ~string | ~[]byte](line T) (width, i int) { return spaceTo(line, 0, 0) }

// spaceTo reads the spaces and tabs of line from byte offset i, at column
// col, and returns the column after them and the byte offset of the first
// other byte.
func spaceTo[T ~string | ~[]byte](line T, i, col int) (int, int) {
	for ; i < len(line) && (line[i] == ' ' || line[i] == '\t'); i++ {
		col = tabStop(col, line[i])
	}
	return col, i
}

// ClassifyLine returns the token type a single line (with or without its
// line ending) starts: MdBlank, MdH1…MdH6, MdTight, MdBreak, MdItem, MdFence
// or MdLine. For MdItem and MdFence the token may extend over further lines.
func ClassifyLine(line string) plex.TokenType {
	if isBlank(line) {
		return MdBlank
	}
	if f, ok := ParseMdFence(line); ok && !f.Item {
		return MdFence
	}
	w, i := Indent(line)
	if w > 3 {
		return MdLine
	}
	rest := line[i:]
	switch rest[0] {
	case '#':
		n := 0
		for n < len(rest) && rest[n] == '#' {
			n++
		}
		if n > 6 {
			return MdLine
		}
		if n == len(rest) || rest[n] == ' ' || rest[n] == '\t' || rest[n] == '\r' || rest[n] == '\n' {
			return MdH1 - plex.TokenType(n-1)
		}
		return MdTight
	case '-', '*', '_':
		if isBreak(rest) {
			return MdBreak
		}
	}
	if isBullet(rest) {
		return MdItem
	}
	return MdLine
}

// isBreak reports whether s (indentation removed) is a thematic break.
func isBreak(s string) bool {
	c, n := s[0], 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case c:
			n++
		case ' ', '\t', '\r', '\n':
		default:
			return false
		}
	}
	return n >= 3
}

// isBullet reports whether s (indentation removed) starts a bullet item.
func isBullet(s string) bool {
	if s[0] != '-' && s[0] != '*' && s[0] != '+' {
		return false
	}
	return len(s) == 1 || s[1] == ' ' || s[1] == '\t' || s[1] == '\r' || s[1] == '\n'
}

// itemContentIndent returns the column at which a bullet item's text starts
// (CommonMark: after the bullet and one to four spaces; one space when the
// item is empty or followed by more than four).
func itemContentIndent(line string) int {
	w, i := Indent(line)
	col := w + 1
	end, j := spaceTo(line, i+1, col)
	n := end - col
	if n == 0 || n > 4 || j >= len(line) || line[j] == '\n' || line[j] == '\r' {
		n = 1
	}
	return col + n
}

// itemEnd returns the end of a list item whose first line ends at p and
// whose text starts at column ci.
func itemEnd(src string, p, ci int) int {
	for p < len(src) {
		e := LineEnd(src, p)
		line := src[p:e]
		if isBlank(line) {
			// Blank lines belong to the item only when a line indented at
			// least to its text follows them.
			q := blankEnd(src, e)
			if q >= len(src) {
				return p
			}
			next := src[q:LineEnd(src, q)]
			if w, _ := Indent(next); w < ci || ClassifyLine(next) == MdFence {
				return p
			}
			p = q
			continue
		}
		w, _ := Indent(line)
		if w == 0 {
			return p
		}
		switch ClassifyLine(line) {
		case MdFence:
			return p
		case MdItem, MdBreak, MdH1, MdH2, MdH3, MdH4, MdH5, MdH6, MdTight:
			if w < ci {
				return p
			}
		}
		if f, ok := ParseMdFence(line); ok && f.Item {
			return p + f.At // a nested item's marker line opens a block: the item ends at its run
		}
		p = e
	}
	return p
}

// MdFenceLine describes a fence line of the Markdown plan dialect.
type MdFenceLine struct {
	Char   byte   // '`' or '~'
	Run    int    // length of the fence run (at least 3)
	Indent int    // indentation width in columns
	At     int    // byte offset of the run in the line
	Info   string // the rest of the line, trimmed
	// Item is set when list item markers precede the run (`- ```python`,
	// `1. ```sh`): such a line opens a block but never closes one, and the
	// Markdown lexer splits it at At (see ScanMarkdown).
	Item bool
}

// Fence returns the fence run as a string.
func (f MdFenceLine) Fence() string { return strings.Repeat(string(f.Char), f.Run) }

// ActsFenceLine is ParseMdFence for the opening line of a block the
// fenced-acts dialect opened (OpenFence): a byte order mark and carriage
// returns among the white space before the run, which OpenFence trims,
// are dropped first (they take no column), so that the line reads as the
// fence it opened rather than as none.
func ActsFenceLine(line string) (MdFenceLine, bool) {
	line = strings.TrimPrefix(line, bom)
	i := 0
	for i < len(line) && isTrim(line[i]) {
		i++
	}
	if strings.IndexByte(line[:i], '\r') >= 0 {
		line = strings.ReplaceAll(line[:i], "\r", "") + line[i:]
	}
	return ParseMdFence(line)
}

// ParseMdFence reports whether line (with or without its line ending) looks
// like a fence line: after any indentation, and after any list item
// markers (`-`, `*`, `+`, or one to nine digits and `.` or `)`, each
// followed by spaces or tabs), three or more backticks or tildes; for
// backticks the rest of the line may not contain a backtick. A fence after
// list markers opens a block (Item is set, At and Indent are the run's byte
// offset and column) but never closes one.
func ParseMdFence(line string) (MdFenceLine, bool) {
	w, i := Indent(line)
	item := false
	for {
		m := MarkerLen(line[i:])
		if m == 0 {
			break
		}
		item = true
		w, i = spaceTo(line, i+m, w+m)
	}
	if i >= len(line) || (line[i] != '`' && line[i] != '~') {
		return MdFenceLine{}, false
	}
	c := line[i]
	j := i
	for j < len(line) && line[j] == c {
		j++
	}
	if j-i < 3 {
		return MdFenceLine{}, false
	}
	rest := trim(line[j:])
	if c == '`' && strings.IndexByte(rest, '`') >= 0 {
		return MdFenceLine{}, false
	}
	return MdFenceLine{Char: c, Run: j - i, Indent: w, At: i, Info: rest, Item: item}, true
}

// MarkerLen returns the length of the list item marker s starts with (a
// bullet `-`, `*` or `+`, or one to nine digits and `.` or `)`) when a
// space or a tab follows it, else 0.
func MarkerLen[T ~string | ~[]byte](s T) int {
	n := 0
	switch {
	case len(s) == 0:
		return 0
	case s[0] == '-' || s[0] == '*' || s[0] == '+':
		n = 1
	default:
		for n < len(s) && n < 10 && s[n] >= '0' && s[n] <= '9' {
			n++
		}
		if n == 0 || n > 9 || n >= len(s) || s[n] != '.' && s[n] != ')' {
			return 0
		}
		n++
	}
	if n < len(s) && (s[n] == ' ' || s[n] == '\t') {
		return n
	}
	return 0
}

// Closes reports whether line closes a block opened by f: only a run of the
// same character at least as long, indented at most three columns more than
// the opening line, followed by nothing but spaces and tabs.
func (f MdFenceLine) Closes(line string) bool {
	g, ok := ParseMdFence(line)
	return ok && !g.Item && g.Char == f.Char && g.Run >= f.Run && g.Info == "" && g.Indent <= f.Indent+3
}

// MisnestedFence reports whether the closed fence token v (its opening line
// through its closing line) shows the most common LLM fence error: the
// closing line is a bare fence of exactly the run of an inner line that looks
// like an opening fence of the same character with an info string, still
// open when the block closes — the author meant a nested block, but the bare
// fence closed the outer one. It returns the byte offset in v of that inner
// line. Inner opening lines are matched with later bare fences of the same
// character (shorter than the outer run, so content) like a stack.
func MisnestedFence(v string) (inner int, ok bool) {
	first := strings.IndexByte(v, '\n')
	if first < 0 {
		return 0, false
	}
	// A plan's opening line reads alike (it has no CR before its run).
	open, _ := ActsFenceLine(v[:first])
	var stack []int // offsets of pending inner opening lines
	var runs []int
	for p := first + 1; p < len(v); {
		e := LineEnd(v, p)
		if e == len(v) {
			// The closing line, by the rule of the dialect that closed the
			// block (the acts dialect's exact run may have any white space,
			// carriage returns included, around it): its run alone counts.
			run := strings.Trim(v[p:e], " \t\r\n")
			if n := len(runs); n > 0 && runs[n-1] == len(run) && strings.Count(run, string(open.Char)) == len(run) {
				return stack[n-1], true
			}
			return 0, false
		}
		if g, isFence := ParseMdFence(v[p:e]); isFence && g.Char == open.Char {
			switch {
			case g.Info != "" || g.Item:
				stack, runs = append(stack, p), append(runs, g.Run)
			case len(stack) > 0 && g.Run >= runs[len(runs)-1]:
				stack, runs = stack[:len(stack)-1], runs[:len(runs)-1]
			}
		}
		p = e
	}
	return 0, false
}

// FenceWithText returns the byte offset in v (a fence token: its opening
// line, its content and, when closed, its closing line) of the first
// content line that reads as a closing fence with text after it: a run of
// the opening character at least as long as the opening run, indented at
// most three columns more than the opening line, then more than spaces
// (“``` end of code”). CommonMark does not close a block there — a
// closing fence carries nothing after its run — so the block runs on to a
// later, longer fence or to the end of the input. Such a line can never
// open a nested block either (its closing fence would close the outer
// one). open is the block's opening fence line (MdFenceAt); closed says
// whether v's last line is its closing line, which is not searched.
func FenceWithText(v string, open MdFenceLine, closed bool) (line int, ok bool) {
	first := strings.IndexByte(v, '\n')
	if first < 0 {
		return 0, false
	}
	stop := len(v)
	if closed {
		stop = strings.LastIndexByte(strings.TrimSuffix(v, "\n"), '\n') + 1
	}
	for p := first + 1; p < stop; {
		e := LineEnd(v, p)
		if g, isFence := ParseMdFence(v[p:e]); isFence && !g.Item && g.Char == open.Char && g.Run >= open.Run && g.Info != "" && g.Indent <= open.Indent+3 {
			return p, true
		}
		p = e
	}
	return 0, false
}

// ExactFenceWithText is FenceWithText for the fenced-acts dialect, where
// only a line whose trimmed text is exactly the opening run closes a block
// (docs/acts.md): it returns the byte offset in v of the first content
// line whose trimmed text is the run run followed by other text (not one
// more fence character; for backticks, text without a backtick, else the
// line is inline code, not a fence), at any indentation, and the offset
// in v of that text (trimmed) and its end. closed says whether v's last
// line is its closing line, which is not searched.
func ExactFenceWithText(v, run string, closed bool) (line, text, textEnd int, ok bool) {
	first := strings.IndexByte(v, '\n')
	if first < 0 || run == "" {
		return 0, 0, 0, false
	}
	stop := len(v)
	if closed {
		stop = strings.LastIndexByte(strings.TrimSuffix(v, "\n"), '\n') + 1
	}
	c := run[0]
	for p := first + 1; p < stop; {
		i := strings.Index(v[p:stop], run)
		if i < 0 {
			break
		}
		ls := p + strings.LastIndexByte(v[p:p+i], '\n') + 1
		e := LineEnd(v, ls)
		if t, te, ok := textAfterRun(v[ls:e], run, c); ok {
			return ls, ls + t, ls + te, true
		}
		p = e
	}
	return 0, 0, 0, false
}

// FenceBetween reports whether a line of src in [from, to) (from a line
// start) opens a fenced block of character c as the fenced-acts dialect
// reads one (OpenFence): in that dialect a content line of a block's run
// followed by text matters only when the block ran on over such a line
// to its closing fence (docs/acts.md, "Closing fence with text").
func FenceBetween(src string, from, to int, c byte) bool {
	return nextOpening(src[:to], from, c) < to
}

// textAfterRun reports whether line, after spaces, tabs and carriage
// returns, starts with exactly run (not followed by one more c) and has
// other text after it: the text's start and end in line, trimmed.
func textAfterRun(line, run string, c byte) (start, end int, ok bool) {
	i := 0
	for i < len(line) && isTrim(line[i]) {
		i++
	}
	if !strings.HasPrefix(line[i:], run) {
		return 0, 0, false
	}
	j := i + len(run)
	if j < len(line) && line[j] == c {
		return 0, 0, false
	}
	end = len(line)
	if end > j && line[end-1] == '\n' {
		end--
	}
	for end > j && isTrim(line[end-1]) {
		end--
	}
	for j < end && isTrim(line[j]) {
		j++
	}
	if j == end || c == Backtick && strings.IndexByte(line[j:end], Backtick) >= 0 {
		return 0, 0, false
	}
	return j, end, true
}

// IntendedClose reads on from offset start of src (the first content line
// of a block opened by open, which a nested block's fence closed early) for
// the fence the author meant to close it: opening lines of open's character
// with an info string open a nested block, bare fences at least as long as
// the innermost open one close it, and the first bare fence at least as
// long as open's run, indented at most three columns more (at any
// indentation with anyIndent: the fenced-acts dialect, where a fence line
// is a fence at any indentation, docs/acts.md), with no nested block open,
// is the intended closing fence. It returns that line's offset and the
// longest run of open's character on the lines before it, reading at most
// limit lines (so that adversarial input stays linear).
func IntendedClose(src string, start int, open MdFenceLine, anyIndent bool, limit int) (at, maxRun int, ok bool) {
	maxIndent := open.Indent + 3
	if anyIndent {
		maxIndent = math.MaxInt
	}
	var stack []int
	for p, n := start, 0; p < len(src) && n < limit; p, n = LineEnd(src, p), n+1 {
		e := LineEnd(src, p)
		g, isFence := ParseMdFence(src[p:e])
		if !isFence || g.Char != open.Char {
			continue
		}
		switch {
		case g.Info != "" || g.Item:
			stack = append(stack, g.Run)
		case len(stack) > 0 && g.Run >= stack[len(stack)-1]:
			stack = stack[:len(stack)-1]
		case g.Run >= open.Run && g.Indent <= maxIndent:
			return p, maxRun, true
		}
		maxRun = max(maxRun, g.Run)
	}
	return 0, 0, false
}

// LooksLikeInfo reports whether the text after a fence run reads like an
// info string rather than a remark: one word of letters, digits and
// `_ + - . #` (python, c++, objective-c, python.old) or an attribute block
// (`{.python}`).
func LooksLikeInfo(s string) bool {
	s = strings.TrimSpace(s)
	if s == "" {
		return false
	}
	if s[0] == '{' {
		return true
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_+-.#", c) >= 0) {
			return false
		}
	}
	return true
}
