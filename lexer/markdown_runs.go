package lexer

import plex "github.com/alecthomas/participle/v2/lexer"

// RunScanner reads a structured Markdown plan as coarse tokens: the tokens
// of ScanMarkdown, except that a
// run of MdItem tokens, with the blank lines between them, is one MdItem
// token (a list), and a run of consecutive MdLine tokens is one MdLine
// token (a paragraph). Blank lines after a list's last item are not part of
// the list: they are the MdBlank token that follows it. Every other token
// is the Markdown lexer's token unchanged, so the tokens still cover the
// input byte for byte.
//
// These are the plan's Markdown nodes (docs/plan.md): the grammar's lexer
// (MarkdownScanner) groups them into its tokens, and the plan builder reads
// a node of each from a token's range, with no token value, position or
// line count computed for the lines inside a list or paragraph. A RunScanner carries no position but byte offsets and
// allocates nothing per token once its item buffer has grown.
type RunScanner struct {
	src   string
	off   int       // where the next token not yet scanned starts
	ahead lookahead // a list's trailing blank line and what follows it
	items [][2]int  // the item ranges of the latest list
	// noItems: Items is not used, so no item ranges are kept (the plan
	// grammar's lexer, which reads a list as one token).
	noItems bool
}

// item records the item range [start, end) of the list being read.
func (s *RunScanner) item(start, end int) {
	if !s.noItems {
		s.items = append(s.items, [2]int{start, end})
	}
}

type rawTok struct {
	typ        plex.TokenType
	start, end int
}

// lookahead is a scanner's tokens read ahead, the next one last.
type lookahead []rawTok

// pop returns the next token read ahead, if any.
func (a *lookahead) pop() (rawTok, bool) {
	n := len(*a)
	if n == 0 {
		return rawTok{}, false
	}
	t := (*a)[n-1]
	*a = (*a)[:n-1]
	return t, true
}

// push puts back the token t, read ahead.
func (a *lookahead) push(t rawTok) { *a = append(*a, t) }

// across reads, with next, the next token when it is of type typ, also
// across one blank-lines token before it; else it puts back what it read
// and returns false.
func (a *lookahead) across(next func() rawTok, typ plex.TokenType) (rawTok, bool) {
	u := next()
	v := u
	if u.typ == MdBlank {
		v = next()
	}
	if v.typ == typ {
		return v, true
	}
	if u.typ == MdBlank {
		a.push(v)
	}
	a.push(u)
	return rawTok{}, false
}

// NewRunScanner returns a scanner over src from offset off, which must be
// where one of its tokens starts (0, the start of the input).
func NewRunScanner(src string, off int) *RunScanner { return &RunScanner{src: src, off: off} }

// Seek moves the scanner to offset off, which must be where one of its
// tokens starts; the memory of the item ranges is kept for the next lists.
func (s *RunScanner) Seek(off int) { s.off, s.ahead = off, s.ahead[:0] }

// raw returns the next Markdown lexer token, from the queue first.
func (s *RunScanner) raw() rawTok {
	if t, ok := s.ahead.pop(); ok {
		return t
	}
	if s.off >= len(s.src) {
		return rawTok{typ: EOF, start: len(s.src), end: len(s.src)}
	}
	typ, end := ScanMarkdown(s.src, s.off)
	t := rawTok{typ, s.off, end}
	s.off = end
	return t
}

// Next returns the next coarse token: its type and byte range [start, end).
// At the end of the input it returns EOF with start = end = len(src). For an
// MdItem token (a list), Items returns the byte range of each item.
func (s *RunScanner) Next() (typ plex.TokenType, start, end int) {
	t := s.raw()
	switch t.typ {
	case MdItem:
		s.items = s.items[:0]
		s.item(t.start, t.end)
		for v, ok := s.ahead.across(s.raw, MdItem); ok; v, ok = s.ahead.across(s.raw, MdItem) {
			s.item(v.start, v.end)
			t.end = v.end
		}
	case MdLine:
		for u := s.raw(); ; u = s.raw() {
			if u.typ != MdLine {
				s.ahead.push(u)
				break
			}
			t.end = u.end
		}
	}
	return t.typ, t.start, t.end
}

// Items returns the byte range of each item of the list the latest Next
// returned. The slice is reused by the next call of Next.
func (s *RunScanner) Items() [][2]int { return s.items }
