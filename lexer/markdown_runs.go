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
	queue [2]rawTok // tokens scanned ahead (a list's trailing blank line and what follows it)
	n     int       // how many of queue are pending
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

// NewRunScanner returns a scanner over src from offset off, which must be
// where one of its tokens starts (0, the start of the input).
func NewRunScanner(src string, off int) *RunScanner { return &RunScanner{src: src, off: off} }

// Seek moves the scanner to offset off, which must be where one of its
// tokens starts; the memory of the item ranges is kept for the next lists.
func (s *RunScanner) Seek(off int) { s.off, s.n = off, 0 }

// raw returns the next Markdown lexer token, from the queue first.
func (s *RunScanner) raw() rawTok {
	if s.n > 0 {
		t := s.queue[0]
		s.queue[0] = s.queue[1]
		s.n--
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

// unread puts tokens back in front of the queue, in order.
func (s *RunScanner) unread(ts ...rawTok) {
	for i := len(ts) - 1; i >= 0; i-- {
		s.queue[1] = s.queue[0]
		s.queue[0] = ts[i]
		s.n++
	}
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
		for {
			u := s.raw()
			v := u // the next item, across one blank-lines token
			if u.typ == MdBlank {
				v = s.raw()
			}
			if v.typ != MdItem {
				if u.typ == MdBlank {
					s.unread(u, v)
				} else {
					s.unread(u)
				}
				break
			}
			s.item(v.start, v.end)
			t.end = v.end
		}
	case MdLine:
		for u := s.raw(); ; u = s.raw() {
			if u.typ != MdLine {
				s.unread(u)
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
