package grammar

import "testing"

// TestHunkLinesOneAllocation: a hunk body sized beforehand is built in one
// allocation, `\ No newline at end of file` included, and its texts are
// the lines without their kind characters.
func TestHunkLinesOneAllocation(t *testing.T) {
	var old, new string
	allocs := testing.AllocsPerRun(10, func() {
		h := sizedHunkLines(len("a\nb\r\nc\n"), len("a\nd\n")) // before the trim
		h.add(' ', "a", "\n")
		h.add('-', "b", "\r\n")
		h.add('-', "c", "\n")
		h.noNewline()
		h.add('+', "d", "\n")
		old, new = h.texts()
	})
	if allocs != 1 {
		t.Errorf("%v allocations, want 1", allocs)
	}
	if old != "a\nb\r\nc" || new != "a\nd\n" {
		t.Errorf("old %q, new %q", old, new)
	}
}
