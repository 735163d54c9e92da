package fix

import (
	"math"
	"sort"
	"strings"

	plex "github.com/alecthomas/participle/v2/lexer"

	"github.com/plangram/plangram/lexer"
)

// The plan dialect's fence pass (fixer.fences) in linear time.
//
// The pass walks the document's blocks in order and repairs a broken one
// in place, then reads it again. Two things would make it quadratic in
// the number of repairs: rebuilding the whole text for each repair, and
// scanning each block that its closing line's trailing text left
// unclosed to the end of the document to learn so. Here
//
//   - the text is the input string with a record of the repaired lines:
//     the text before the block being judged is final (committed to
//     done); the rest is head, a fresh string holding the text from the
//     block being judged through the last repaired line, then the input
//     from offset in on, which no repair has touched;
//   - the pass reads a window of that rest — head and the input up to
//     what the block being judged needs — so a repair copies head and
//     the lines it reads, never the rest of the document, and when no
//     repaired line is left the window is the input's own string;
//   - a closeIndex of the input's bare fence lines answers "which line
//     closes this block" past head without a scan.
//
// Every string the pass reads is immutable: head is built afresh at each
// repair and never written afterwards.

// fenceText is the text of the fence pass.
type fenceText struct {
	orig string // the input
	done strings.Builder
	// doneLines counts the line endings in done.
	doneLines int
	// head is the start of the text still being read, through the last
	// repaired line (whole lines), or "" when no repaired line is left.
	head string
	// in is the input offset where the text still being read goes on
	// after head: the rest is head + orig[in:].
	in int
	// win is the window the pass reads: head + orig[in:end], with end at
	// a line end; orig[in:] itself when head is "".
	win string
	end int
	idx *closeIndex // built on first use
}

// newFenceText returns the fence pass's text over the input text.
func newFenceText(text string) *fenceText {
	b := &fenceText{orig: text, win: text, end: len(text)}
	b.done.Grow(len(text) + 64)
	return b
}

// view returns the window of the text still being read.
func (b *fenceText) view() string { return b.win }

// size returns the length of the text still being read, of which the
// window may hold only the start.
func (b *fenceText) size() int { return len(b.head) + len(b.orig) - b.in }

// rest returns the text still being read from its offset off to the end
// of head, or to the end of the input when off is past head.
func (b *fenceText) rest(off int) string {
	if off < len(b.head) {
		return b.head[off:]
	}
	return b.orig[b.in+off-len(b.head):]
}

// input returns the input offset of offset off of the text still being
// read, which is past head.
func (b *fenceText) input(off int) int { return b.in + off - len(b.head) }

// lineStart reports whether offset off (0 < off < size) of the text still
// being read starts a line and can start the text still being read: no
// byte-order mark follows it, which the scanner reads as one only at the
// start of the document.
func (b *fenceText) lineStart(off int) bool {
	if off <= 0 || off >= b.size() {
		return false
	}
	prev := b.rest(off - 1)
	return prev[0] == '\n' && !strings.HasPrefix(b.rest(off), "\uFEFF")
}

// commit makes the first n bytes of the text still being read final.
func (b *fenceText) commit(n int) {
	var s string
	if n <= len(b.head) {
		s = b.head[:n]
		b.head = b.head[n:]
		b.win = b.win[n:]
	} else {
		x := b.input(n)
		b.done.WriteString(b.head)
		b.doneLines += strings.Count(b.head, "\n")
		s = b.orig[b.in:x]
		b.head, b.in = "", x
	}
	b.done.WriteString(s)
	b.doneLines += strings.Count(s, "\n")
	if b.head == "" {
		b.win, b.end = b.orig[b.in:], len(b.orig)
	}
}

// replace replaces the window's bytes [off, e) (a whole line, its ending
// included) with repl. The new head runs through the replaced line and is
// the whole window until the pass reads on (cover).
func (b *fenceText) replace(off, e int, repl string) {
	var h strings.Builder
	if e <= len(b.head) {
		h.Grow(len(b.head) + len(repl) - (e - off))
		h.WriteString(b.head[:off])
		h.WriteString(repl)
		h.WriteString(b.head[e:])
	} else {
		h.Grow(off + len(repl))
		h.WriteString(b.win[:off])
		h.WriteString(repl)
		b.in = b.input(e)
	}
	b.head = h.String()
	b.win, b.end = b.head, b.in
}

// cover makes the window hold the text still being read up to offset n
// at least, to the end of its line.
func (b *fenceText) cover(n int) {
	if n <= len(b.win) || b.end == len(b.orig) {
		return
	}
	x := min(b.input(n), len(b.orig))
	if x > b.in && b.orig[x-1] != '\n' {
		x = lineEnd(b.orig, x)
	}
	b.win, b.end = b.head+b.orig[b.in:x], x
}

// whole reports whether the window holds all the text still being read.
func (b *fenceText) whole() bool { return b.end == len(b.orig) }

// widen makes the window about twice as long, for a reader that needs to
// look further ahead than it knows in advance.
func (b *fenceText) widen() { b.cover(2*len(b.win) + 4096) }

// text returns the whole text: the final part and the rest.
func (b *fenceText) text() string {
	var s strings.Builder
	s.Grow(b.done.Len() + b.size())
	s.WriteString(b.done.String())
	s.WriteString(b.head)
	s.WriteString(b.orig[b.in:])
	return s.String()
}

// scan is lexer.ScanMarkdown at offset off of the text still being read,
// with a fence token's end found from head's lines and the close index
// instead of a scan to the end of the document. The window then holds the
// token.
func (b *fenceText) scan(off int) (plex.TokenType, int) {
	if off >= len(b.head) {
		// The input's own text: scanned in the input, whose bytes before
		// off are the same up to its line start (head ends at a line end).
		x := b.input(off)
		le := lineEnd(b.orig, x)
		if typ, _ := lexer.ScanMarkdown(b.orig[:le], x); typ != lexer.MdFence {
			typ, end := lexer.ScanMarkdown(b.orig, x) // read to its own end
			return typ, end - x + off
		}
		open, _ := lexer.MdFenceAt(b.orig, x)
		end := b.fenceEnd(le-x+off, open)
		b.cover(end)
		return lexer.MdFence, end
	}
	v := b.win
	le := lineEnd(v, off) // within head
	if typ, _ := lexer.ScanMarkdown(v[:le], off); typ == lexer.MdFence {
		open, _ := lexer.MdFenceAt(v, off)
		end := b.fenceEnd(le, open)
		b.cover(end)
		return lexer.MdFence, end
	}
	for {
		// The token's end is exact once the window holds the first line
		// after it that is not blank: the scanner reads no further.
		typ, end := lexer.ScanMarkdown(b.win, off)
		p := end
		for p < len(b.win) {
			e := lineEnd(b.win, p)
			if strings.TrimLeft(b.win[p:e], " \t\r\n") != "" {
				break
			}
			p = e
		}
		if p < len(b.win) || b.whole() {
			return typ, end
		}
		b.widen()
	}
}

// fenceEnd returns the end of the closing line of the block opened by
// open whose content starts at offset s of the text still being read, or
// the text's size: head's lines are read, the input's lines after them
// are looked up.
func (b *fenceText) fenceEnd(s int, open lexer.MdFenceLine) int {
	p := s
	for p < len(b.head) {
		e := lineEnd(b.head, p)
		if open.Closes(b.head[p:e]) {
			return e
		}
		p = e
	}
	if p >= b.size() {
		return b.size()
	}
	if b.idx == nil {
		b.idx = newCloseIndex(b.orig)
	}
	e, ok := b.idx.first(open, b.input(p))
	if !ok {
		return b.size()
	}
	return e - b.in + len(b.head)
}

// intendedClose is lexer.IntendedClose from offset start of the window,
// which it widens until the answer is known.
func (b *fenceText) intendedClose(start int, open lexer.MdFenceLine, limit int) (at, maxRun int, ok bool) {
	for {
		at, maxRun, ok = lexer.IntendedClose(b.win, start, open, limit)
		if ok || b.whole() || strings.Count(b.win[start:], "\n") >= limit {
			return at, maxRun, ok
		}
		b.widen()
	}
}

// closeIndex holds the input's bare fence lines — the lines that can close
// a block (lexer.MdFenceLine.Closes: not a list item, no info string) —
// by fence character and indentation class, each class with a tree of the
// longest run, so that the first line after an offset that closes a given
// block is found in logarithmic time.
type closeIndex struct {
	cls [2][indentClasses]candidates
}

// Indentation classes: class 0 holds lines indented 0–3 columns (which
// close every block, since a block's closing line may be indented three
// columns more than its opening line), classes 1–12 lines indented exactly
// 4–15 columns, the last class lines indented more. Only a block opened
// in a list item 13 or more columns deep reads the last class, checking
// its lines' indentation one by one.
const indentClasses = 14

func indentClass(indent int) int {
	return min(max(indent-3, 0), indentClasses-1)
}

// candidates are the bare fence lines of one class, in input order.
type candidates struct {
	end    []int   // input offset of the end of the line (after its '\n')
	run    []int32 // fence run length
	indent []int32 // indentation in columns
	tree   []int32 // max run per node; leaves from sz
	sz     int
}

func newCloseIndex(src string) *closeIndex {
	x := &closeIndex{}
	for p := lineEnd(src, 0); p < len(src); {
		e := lineEnd(src, p)
		if i := strings.IndexAny(src[p:e], "`~"); i >= 0 {
			if g, ok := lexer.ParseMdFence(src[p:e]); ok && !g.Item && g.Info == "" {
				c := &x.cls[charIndex(g.Char)][indentClass(g.Indent)]
				c.end = append(c.end, e)
				c.run = append(c.run, int32(min(g.Run, math.MaxInt32)))
				c.indent = append(c.indent, int32(min(g.Indent, math.MaxInt32)))
			}
		}
		p = e
	}
	for i := range x.cls {
		for k := range x.cls[i] {
			x.cls[i][k].build()
		}
	}
	return x
}

func charIndex(c byte) int {
	if c == '~' {
		return 1
	}
	return 0
}

func (c *candidates) build() {
	if len(c.end) == 0 {
		return
	}
	c.sz = 1
	for c.sz < len(c.end) {
		c.sz *= 2
	}
	c.tree = make([]int32, 2*c.sz)
	copy(c.tree[c.sz:], c.run)
	for i := c.sz - 1; i >= 1; i-- {
		c.tree[i] = max(c.tree[2*i], c.tree[2*i+1])
	}
}

// firstRun returns the first candidate at index lo or later whose run is
// at least r, or -1.
func (c *candidates) firstRun(lo int, r int32) int {
	return c.find(1, 0, c.sz, lo, r)
}

func (c *candidates) find(node, nl, nr, lo int, r int32) int {
	if nr <= lo || c.tree[node] < r {
		return -1
	}
	if nr-nl == 1 {
		return nl
	}
	mid := (nl + nr) / 2
	if i := c.find(2*node, nl, mid, lo, r); i >= 0 {
		return i
	}
	return c.find(2*node+1, mid, nr, lo, r)
}

// first returns the end of the first line starting at input offset p or
// later that closes the block opened by open.
func (x *closeIndex) first(open lexer.MdFenceLine, p int) (int, bool) {
	r := int32(min(open.Run, math.MaxInt32))
	maxIndent := open.Indent + 3
	best := -1
	for k := range x.cls[charIndex(open.Char)] {
		c := &x.cls[charIndex(open.Char)][k]
		if len(c.end) == 0 || k > 0 && k+3 > maxIndent {
			continue
		}
		lo := sort.Search(len(c.end), func(i int) bool { return c.end[i] > p })
		for {
			i := c.firstRun(lo, r)
			if i < 0 || best >= 0 && c.end[i] >= best {
				break
			}
			if int(c.indent[i]) <= maxIndent {
				best = c.end[i]
				break
			}
			lo = i + 1 // the last class: indented too far for this block
		}
	}
	return best, best >= 0
}
