package fix

import (
	"math"
	"sort"
	"strings"
	"unsafe"

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
//   - the text still to read lives right-aligned in a byte buffer (a
//     fenceBuf): a repair replaces a line by moving the bytes *before* it
//     (from the start of the block being judged), never the rest of the
//     document, and the text before the block being judged is final
//     (committed to done) so those bytes are never moved again;
//   - so the bytes after the last repaired line keep their buffer
//     position and are the input's own, and a closeIndex of the input's
//     bare fence lines answers "which line closes this block" without a
//     scan.
//
// The slow reference (fixer.slow, tests only) is the plain algorithm:
// the same repairs on a string rebuilt per repair, every block scanned.
// FuzzFix and TestFastFencesAgree check that both give the same bytes and
// repairs.

// fenceBuf is the text of the fence pass.
type fenceBuf struct {
	buf   []byte
	start int // the text still being read is buf[start:]
	// base maps buffer positions to input offsets for bytes no repair has
	// touched: input offset = buffer position - base.
	base int
	// modEnd is the buffer position of the end of the last repaired line
	// (at most start when there is none in the text still being read).
	modEnd    int
	done      strings.Builder // the final text before buf[start:]
	doneLines int             // line endings in done
	orig      string          // the input
	idx       *closeIndex     // built on first use
}

// newFenceBuf returns a fenceBuf holding text, with room for fences to
// grow in front of it.
func newFenceBuf(text string) *fenceBuf {
	slack := 64 + len(text)/8
	b := &fenceBuf{buf: make([]byte, slack+len(text)), start: slack, base: slack, orig: text}
	copy(b.buf[slack:], text)
	b.done.Grow(len(text) + 64)
	return b
}

// view returns the text still being read. It aliases the buffer: a string
// taken from it is valid until the next replace.
func (b *fenceBuf) view() string {
	if b.start == len(b.buf) {
		return ""
	}
	return unsafe.String(&b.buf[b.start], len(b.buf)-b.start)
}

// commit makes the first n bytes of the view final.
func (b *fenceBuf) commit(n int) {
	s := b.view()[:n]
	b.done.WriteString(s)
	b.doneLines += strings.Count(s, "\n")
	b.start += n
}

// replace replaces the view's bytes [off, e) (a whole line, its ending
// included) with repl, moving the bytes of the view before off.
func (b *fenceBuf) replace(off, e int, repl []byte) {
	delta := len(repl) - (e - off)
	if b.start-delta < 0 {
		b.grow(delta - b.start)
	}
	ns := b.start - delta
	copy(b.buf[ns:ns+off], b.buf[b.start:b.start+off])
	copy(b.buf[ns+off:b.start+e], repl)
	b.modEnd = max(b.modEnd, b.start+e)
	b.start = ns
}

// grow makes at least need more bytes of room in front of the view; the
// room grows geometrically, so lengthened fences cost linear time overall.
func (b *fenceBuf) grow(need int) {
	v := b.view()
	slack := need + len(v)/2 + 64
	nb := make([]byte, slack+len(v))
	copy(nb[slack:], v)
	shift := slack - b.start
	b.base += shift
	b.modEnd = max(b.modEnd+shift, slack)
	b.buf, b.start = nb, slack
}

// text returns the whole text: the final part and the view, copied.
func (b *fenceBuf) text() string {
	var s strings.Builder
	s.Grow(b.done.Len() + len(b.buf) - b.start)
	s.WriteString(b.done.String())
	s.WriteString(b.view())
	return s.String()
}

// scan is lexer.ScanMarkdown on the view at off, with a fence token's end
// found from the repaired lines and the close index instead of a scan to
// the end of the document.
func (b *fenceBuf) scan(off int) (plex.TokenType, int) {
	v := b.view()
	le := lineEnd(v, off)
	if typ, _ := lexer.ScanMarkdown(v[:le], off); typ != lexer.MdFence {
		return lexer.ScanMarkdown(v, off) // read to its own end
	}
	open, _ := lexer.MdFenceAt(v, off)
	return lexer.MdFence, b.fenceEnd(v, le, open)
}

// fenceEnd returns the end of the closing line of the block opened by open
// whose content starts at offset s of the view v, or len(v): the repaired
// lines are read, the input's lines after them are looked up.
func (b *fenceBuf) fenceEnd(v string, s int, open lexer.MdFenceLine) int {
	mod := b.modEnd - b.start
	for p := s; p < mod && p < len(v); {
		e := lineEnd(v, p)
		if open.Closes(v[p:e]) {
			return e
		}
		p = e
	}
	p := max(s, mod)
	if p >= len(v) {
		return len(v)
	}
	if b.idx == nil {
		b.idx = newCloseIndex(b.orig)
	}
	e, ok := b.idx.first(open, b.start+p-b.base)
	if !ok {
		return len(v)
	}
	return e + b.base - b.start
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
