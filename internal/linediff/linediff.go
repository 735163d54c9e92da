// Package linediff compares texts line by line and prints the result as a
// unified diff. plangram uses it for `plangram fmt -d` and `apply -d`, to
// mark changed lines of FIND/REPLACE pairs in rendered previews, and in
// workspace to find the region of a file closest to a FIND text that is
// not found and to show how the two differ.
//
// Both comparisons give matching blocks ([Block]), which [Changes] turns
// into changes and [Hunks] groups into a unified diff's hunks: [Diff]
// finds the fewest inserted and deleted lines (Myers' O(ND) algorithm),
// [Blocks] the longest runs of equal lines (blocks.go).
//
// Diff's edit script is minimal while the number of differing lines stays
// under a bound (MaxEdits); beyond it the changed middle of the texts (after
// the common prefix and suffix) is reported as replaced as a whole, which is
// still a correct diff, so time and memory stay bounded on any input.
package linediff

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
)

// MaxEdits bounds the search for a minimal edit script: up to this many
// inserted plus deleted lines the script is minimal.
const MaxEdits = 1000

// SplitLines splits text after each '\n'; every line keeps its line ending
// and the last line may lack one. Empty text has no lines.
func SplitLines(text []byte) []string {
	var lines []string
	for line := range bytes.Lines(text) {
		lines = append(lines, string(line))
	}
	return lines
}

// Diff returns the matching blocks of a shortest edit script turning a
// into b, as Blocks returns them: in increasing order, none adjacent to
// the next, ending with the empty block {len(a), len(b), 0}.
func Diff(a, b []string) []Block {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var out []Block
	if pre > 0 {
		out = append(out, Block{0, 0, pre})
	}
	for _, m := range myers(a[pre:len(a)-suf], b[pre:len(b)-suf], MaxEdits) {
		out = append(out, Block{m.A + pre, m.B + pre, m.Size})
	}
	if suf > 0 {
		out = append(out, Block{len(a) - suf, len(b) - suf, suf})
	}
	return append(out, Block{len(a), len(b), 0})
}

// myers returns the matching blocks of a shortest edit script of at most
// dmax edits, none when there is no such script.
func myers(a, b []string, dmax int) []Block {
	n, m := len(a), len(b)
	dmax = min(dmax, n+m)
	off := dmax + 1
	v := make([]int, 2*dmax+3)
	// trace[d] is v[-d..d] at the end of round d.
	var trace [][]int
	for d := 0; d <= dmax; d++ {
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				return backtrack(trace, n, m, d)
			}
		}
		trace = append(trace, append([]int(nil), v[off-d:off+d+1]...))
	}
	return nil
}

// backtrack walks the trace back from (n, m) and returns the runs of
// equal lines of the script in order.
func backtrack(trace [][]int, n, m, d int) []Block {
	var rev []Block
	x, y := n, m
	for ; d > 0; d-- {
		prev := trace[d-1] // indices -(d-1)..(d-1)
		at := func(k int) int { return prev[k+d-1] }
		k := x - y
		pk := k - 1 // came right: a deletion
		if k == -d || (k != d && at(k-1) < at(k+1)) {
			pk = k + 1 // came down: an insertion
		}
		// The edit leads from (px, py) to the start of the run that
		// ends at (x, y).
		px := at(pk)
		py := px - pk
		sx := px
		if pk == k-1 {
			sx++
		}
		if x > sx {
			rev = append(rev, Block{sx, y - (x - sx), x - sx})
		}
		x, y = px, py
	}
	if x > 0 {
		rev = append(rev, Block{0, 0, x})
	}
	slices.Reverse(rev)
	return rev
}

// Unified writes the unified diff of a and b with context lines of context
// around each change, under the header lines `--- aName` and `+++ bName`.
// It writes nothing when the texts are equal. A last line without a line
// ending is followed by `\ No newline at end of file`.
func Unified(w io.Writer, aName, bName string, a, b []byte, context int) error {
	al, bl := SplitLines(a), SplitLines(b)
	hunks := Hunks(Changes(Diff(al, bl)), context)
	if len(hunks) == 0 {
		return nil
	}
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", aName, bName)
	for _, h := range hunks {
		first, last := h[0], h[len(h)-1]
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", hunkRange(first.I1, last.I2), hunkRange(first.J1, last.J2))
		for _, c := range h {
			if c.Tag == Same {
				writeLines(&out, ' ', al[c.I1:c.I2])
				continue
			}
			writeLines(&out, '-', al[c.I1:c.I2])
			writeLines(&out, '+', bl[c.J1:c.J2])
		}
	}
	_, err := io.WriteString(w, out.String())
	return err
}

// hunkRange formats the hunk's line range [start, end) as GNU diff does:
// 1-based start, the count omitted when it is 1, and an empty range placed
// after the line before it.
func hunkRange(start, end int) string {
	switch end - start {
	case 0:
		return fmt.Sprintf("%d,0", start)
	case 1:
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, end-start)
}

func writeLines(out *strings.Builder, mark byte, lines []string) {
	for _, line := range lines {
		out.WriteByte(mark)
		out.WriteString(line)
		if !strings.HasSuffix(line, "\n") {
			out.WriteString("\n\\ No newline at end of file\n")
		}
	}
}
