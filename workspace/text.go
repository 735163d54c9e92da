package workspace

import (
	"iter"
	"strings"

	"github.com/plangram/plangram/internal/view"
)

// text is the content of a file being edited by the simulation, searched
// with strings.Index and line scans. Edits come in order of position (a
// diff's hunks, one edit after another), so the content is kept as head,
// the edited bytes before offset len(head), followed by rest, the part no
// edit has reached yet (a slice of the content read): an edit at or after
// len(head) appends the bytes before it and its replacement to head, and
// nothing is copied twice. A method that looks before len(head) first
// joins the two into one string (flat). Every byte a method scans or
// copies is charged to the check's work budget (budget.go), so that no
// plan makes the simulation's time grow faster than the budget allows.
type text struct {
	head      []byte
	headLines int // the "\n" in head
	rest      string
	w         *budget
	// grow is how much the edits are expected to lengthen the content:
	// head is made that much larger, once, and flat appends rest in place.
	grow int
}

func newText(s string, w *budget) *text { return &text{rest: s, w: w} }

// tail returns the content from offset off on: a string s and the offset
// of s[0] in the content (at most off). It is rest when off is in rest,
// else the whole content, joined.
func (t *text) tail(off int) (s string, base int) {
	if off < len(t.head) {
		t.flat()
	}
	return t.rest, len(t.head)
}

// flat joins head and rest into one string: rest is appended to head,
// whose bytes are then never written again (the next edit starts another
// head) and become the string.
func (t *text) flat() {
	if len(t.head) == 0 {
		return
	}
	t.w.spend(len(t.rest))
	t.rest = view.String(append(t.head, t.rest...))
	t.head, t.headLines = nil, 0
}

// Len is the content's length in bytes.
func (t *text) Len() int { return len(t.head) + len(t.rest) }

// String returns the content.
func (t *text) String() string {
	t.flat()
	return t.rest
}

// HasSuffix reports whether the content ends with s.
func (t *text) HasSuffix(s string) bool {
	r, _ := t.tail(t.Len() - len(s))
	return strings.HasSuffix(r, s)
}

// CRLF reports whether every line ending is CRLF (and there is one).
func (t *text) CRLF() bool {
	s := t.String()
	t.w.spend(len(s))
	return crlfFile(s)
}

// Slice returns the bytes [from, to).
func (t *text) Slice(from, to int) string {
	r, base := t.tail(from)
	return r[from-base : to-base]
}

// LineStart returns the offset at which the 1-based line starts (the
// length for a line after the end).
func (t *text) LineStart(line int) int {
	if n := len(t.head); line < t.headLines+1 || line == t.headLines+1 && n > 0 && t.head[n-1] != '\n' {
		t.flat() // the line starts in head
	}
	s, base := t.rest, len(t.head)
	off := 0
	for l := t.headLines + 1; l < line; l++ {
		i := strings.IndexByte(s[off:], '\n')
		if i < 0 {
			off = len(s)
			break
		}
		off += i + 1
	}
	t.w.spend(off)
	return base + off
}

// Line returns the 1-based line of a byte offset (the number of "\n"
// before off, plus one).
func (t *text) Line(off int) int {
	s, base := t.tail(off)
	t.w.spend(min(off-base, len(s)))
	if base > 0 {
		return t.headLines + lineOfOffset(s, off-base)
	}
	return lineOfOffset(s, off)
}

// Match finds find (whole lines) at or after offset from: the first match
// and the number of matches that do not overlap it, capped at 2.
func (t *text) Match(find string, from int) (at, n int) {
	at = -1
	for p := range t.wholeLines(find, from) {
		if n == 0 {
			at = p
		}
		if n++; n == 2 {
			break
		}
	}
	return at, n
}

// LineMatches lists the 1-based lines of the first limit whole-line
// matches of find at or after from and counts all of them.
func (t *text) LineMatches(find string, from, limit int) (lines []int, total int) {
	s := t.String()
	line, counted := 1, 0
	for p := range t.wholeLines(find, from) {
		if total++; len(lines) < limit {
			line += strings.Count(s[counted:p], "\n")
			counted = p
			lines = append(lines, line)
		}
	}
	return lines, total
}

// wholeLines yields the offsets, at or after from, of the occurrences of
// find that start a line and end one (find ends in "\n") or the content,
// each after the end of the one before.
func (t *text) wholeLines(find string, from int) iter.Seq[int] {
	return func(yield func(int) bool) {
		s, base := t.tail(from)
		t.w.spend(len(s) + base - from)
		for off := from - base; off <= len(s); {
			i := index(s[off:], find)
			if i < 0 {
				return
			}
			p := off + i
			if !t.lineStart(s, base, p) || (!strings.HasSuffix(find, "\n") && p+len(find) != len(s)) {
				off = p + 1
				continue
			}
			if !yield(base + p) {
				return
			}
			off = p + max(len(find), 1)
		}
	}
}

// lineStart says offset i of s, the content from offset base on, starts a
// line.
func (t *text) lineStart(s string, base, i int) bool {
	switch {
	case i > 0:
		return s[i-1] == '\n'
	case base > 0:
		return t.head[base-1] == '\n'
	}
	return true
}

// prefixLen is the length of the prefix of a long FIND text that index
// looks for first: strings.Index finds a text that short with the
// vectorised search (amd64, arm64).
const prefixLen = 31

// index is strings.Index(s, find). A find longer than prefixLen is looked
// for by its prefix, each place it occurs compared whole: strings.Index
// would scan for it byte by byte (Rabin-Karp) once its first byte is met
// often, as indentation is. When the comparisons cost more than the bytes
// passed, the rest is left to strings.Index, which stays linear.
func index(s, find string) int {
	if len(find) <= prefixLen {
		return strings.Index(s, find)
	}
	off, cost := 0, 0
	for {
		i := strings.Index(s[off:], find[:prefixLen])
		if i < 0 {
			return -1
		}
		if p := off + i; strings.HasPrefix(s[p:], find) {
			return p
		}
		off += i + 1
		if cost += len(find); cost > off+4096 {
			if i := strings.Index(s[off:], find); i >= 0 {
				return off + i
			}
			return -1
		}
	}
}

// Index lists the occurrences of find (not empty) at or after from that a
// scan left to right finds (each after the end of the one before), at
// most limit of them (limit < 0: all).
func (t *text) Index(find string, from, limit int) []int {
	s, base := t.tail(from)
	var out []int
	for off := from - base; limit < 0 || len(out) < limit; {
		i := strings.Index(s[off:], find)
		if i < 0 {
			t.w.spend(len(s) - off)
			break
		}
		t.w.spend(i + len(find))
		out = append(out, base+off+i)
		off += i + len(find)
	}
	return out
}

// Replace replaces the bytes [at, end) by s.
func (t *text) Replace(at, end int, s string) {
	r, base := t.tail(at)
	kept := r[:at-base]
	t.w.spend(len(kept) + len(s))
	if t.head == nil {
		t.head = make([]byte, 0, t.Len()+max(t.grow, len(s)-(end-at)))
	}
	t.head = append(append(t.head, kept...), s...)
	t.headLines += strings.Count(kept, "\n") + strings.Count(s, "\n")
	t.rest = r[end-base:]
}

// TrimmedLine finds the first line starting at or after from whose text,
// white space around it ignored, is s's.
func (t *text) TrimmedLine(s string, from int) (int, bool) {
	want := strings.TrimSpace(s)
	if want == "" {
		return 0, false
	}
	r, base := t.tail(from)
	t.w.spend(len(r) + base - from)
	off := from - base
	for line := range strings.Lines(r[off:]) {
		if t.lineStart(r, base, off) && strings.TrimSpace(line) == want {
			return base + off, true
		}
		off += len(line)
	}
	return 0, false
}
