package workspace

import "strings"

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

// EndsWithNL reports whether the content ends in "\n".
func (t *text) EndsWithNL() bool { return strings.HasSuffix(t.s, "\n") }

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
	off := lineStartOffset(t.s, line)
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
	t.w.spend(len(t.s) - from)
	return lineMatch(t.s, find, from)
}

// LineMatches lists the 1-based lines of the first limit whole-line
// matches of find at or after from and counts all of them.
func (t *text) LineMatches(find string, from, limit int) ([]int, int) {
	t.w.spend(len(t.s) - from)
	return lineMatches(t.s, find, from, limit)
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
	return trimmedLineMatch(t.s, s, from)
}
