package workspace

import (
	"iter"
	"strings"
)

// text is the content of a file being edited by the simulation: a string,
// searched with strings.Index and line scans and replaced by copying it.
// Every byte a method scans or copies is charged to the check's work
// budget (budget.go), so that no plan makes the simulation's time grow
// faster than the budget allows.
type text struct {
	s       string
	w       *budget
	marked  string // the content at Mark, for Rollback
	marking bool
}

func newText(s string, w *budget) *text { return &text{s: s, w: w} }

// Len is the content's length in bytes.
func (t *text) Len() int { return len(t.s) }

// String returns the content.
func (t *text) String() string { return t.s }

// HasSuffix reports whether the content ends with s.
func (t *text) HasSuffix(s string) bool { return strings.HasSuffix(t.s, s) }

// CRLF reports whether every line ending is CRLF (and there is one).
func (t *text) CRLF() bool {
	t.w.spend(len(t.s))
	return crlfFile(t.s)
}

// Slice returns the bytes [from, to).
func (t *text) Slice(from, to int) string { return t.s[from:to] }

// LineStart returns the offset at which the 1-based line starts (the
// length for a line after the end).
func (t *text) LineStart(line int) int {
	off := 0
	for l := 1; l < line; l++ {
		i := strings.IndexByte(t.s[off:], '\n')
		if i < 0 {
			off = len(t.s)
			break
		}
		off += i + 1
	}
	t.w.spend(off)
	return off
}

// Line returns the 1-based line of a byte offset (the number of "\n"
// before off, plus one).
func (t *text) Line(off int) int {
	t.w.spend(min(off, len(t.s)))
	return lineOfOffset(t.s, off)
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
	line, counted := 1, 0
	for p := range t.wholeLines(find, from) {
		if total++; len(lines) < limit {
			line += strings.Count(t.s[counted:p], "\n")
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
		t.w.spend(len(t.s) - from)
		s := t.s
		for off := from; off <= len(s); {
			i := strings.Index(s[off:], find)
			if i < 0 {
				return
			}
			p := off + i
			if (p > 0 && s[p-1] != '\n') || (!strings.HasSuffix(find, "\n") && p+len(find) != len(s)) {
				off = p + 1
				continue
			}
			if !yield(p) {
				return
			}
			off = p + max(len(find), 1)
		}
	}
}

// Index lists the occurrences of find (not empty) at or after from that a
// scan left to right finds (each after the end of the one before), at
// most limit of them (limit < 0: all).
func (t *text) Index(find string, from, limit int) []int {
	var out []int
	for off := from; limit < 0 || len(out) < limit; {
		i := strings.Index(t.s[off:], find)
		if i < 0 {
			t.w.spend(len(t.s) - off)
			break
		}
		t.w.spend(i + len(find))
		out = append(out, off+i)
		off += i + len(find)
	}
	return out
}

// Replace replaces the bytes [at, end) by s.
func (t *text) Replace(at, end int, s string) {
	t.w.spend(len(t.s) - (end - at) + len(s))
	t.s = t.s[:at] + s + t.s[end:]
}

// Mark starts recording edits so that Rollback can undo them.
func (t *text) Mark() { t.marked, t.marking = t.s, true }

// Commit stops recording.
func (t *text) Commit() { t.marked, t.marking = "", false }

// Rollback undoes the edits since Mark.
func (t *text) Rollback() {
	if t.marking {
		t.s = t.marked
	}
	t.Commit()
}

// TrimmedLine finds the first line starting at or after from whose text,
// white space around it ignored, is s's.
func (t *text) TrimmedLine(s string, from int) (int, bool) {
	t.w.spend(len(t.s) - from)
	want := strings.TrimSpace(s)
	if want == "" {
		return 0, false
	}
	for off := from; off < len(t.s); {
		next := len(t.s)
		if end := strings.IndexByte(t.s[off:], '\n'); end >= 0 {
			next = off + end + 1
		}
		if (off == 0 || t.s[off-1] == '\n') && strings.TrimSpace(t.s[off:next]) == want {
			return off, true
		}
		off = next
	}
	return 0, false
}
