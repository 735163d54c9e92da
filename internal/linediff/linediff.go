// Package linediff compares texts line by line (Myers' O(ND) algorithm) and
// prints the result as a unified diff. plangram uses it for `plangram fmt -d`
// and to mark changed lines of FIND/REPLACE pairs in rendered previews.
// Blocks, Ratio, Changes and Hunks compare line lists by their longest
// runs of equal lines instead (blocks.go): workspace uses them to find the
// region of a file closest to a FIND text that is not found and to show
// how the two differ.
//
// The edit script is minimal while the number of differing lines stays under
// a bound (MaxEdits); beyond it the changed middle of the texts (after the
// common prefix and suffix) is reported as deleted and inserted as a whole,
// which is still a correct diff, so time and memory stay bounded on any input.
package linediff

import (
	"bytes"
	"fmt"
	"io"
	"strings"
)

// MaxEdits bounds the search for a minimal edit script: up to this many
// inserted plus deleted lines the script is minimal.
const MaxEdits = 1000

// Kind says what an Op does.
type Kind int8

// Op kinds.
const (
	Equal  Kind = iota // the line is in both texts
	Delete             // the line is only in a
	Insert             // the line is only in b
)

// Op is one line of an edit script. A is the line's index in a (for Insert:
// the index in a before which the line is inserted); B is its index in b
// (for Delete: the index in b at which the line would have been).
type Op struct {
	Kind Kind
	A, B int
}

// SplitLines splits text after each '\n'; every line keeps its line ending
// and the last line may lack one. Empty text has no lines.
func SplitLines(text []byte) []string {
	var lines []string
	for len(text) > 0 {
		i := bytes.IndexByte(text, '\n')
		if i < 0 {
			lines = append(lines, string(text))
			break
		}
		lines = append(lines, string(text[:i+1]))
		text = text[i+1:]
	}
	return lines
}

// Diff returns an edit script turning a into b: applying its Equal and
// Insert lines in order yields b; its Equal and Delete lines in order are a.
func Diff(a, b []string) []Op {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	ops := make([]Op, 0, len(a)+len(b)-pre-suf)
	for i := 0; i < pre; i++ {
		ops = append(ops, Op{Equal, i, i})
	}
	am, bm := a[pre:len(a)-suf], b[pre:len(b)-suf]
	mid, ok := myers(am, bm, MaxEdits)
	if !ok {
		mid = mid[:0]
		for i := range am {
			mid = append(mid, Op{Delete, i, 0})
		}
		for j := range bm {
			mid = append(mid, Op{Insert, len(am), j})
		}
	}
	for _, op := range mid {
		ops = append(ops, Op{op.Kind, op.A + pre, op.B + pre})
	}
	for i := 0; i < suf; i++ {
		ops = append(ops, Op{Equal, len(a) - suf + i, len(b) - suf + i})
	}
	return ops
}

// myers finds a shortest edit script of at most dmax edits; ok is false when
// there is none.
func myers(a, b []string, dmax int) (ops []Op, ok bool) {
	n, m := len(a), len(b)
	if n == 0 && m == 0 {
		return nil, true
	}
	if dmax > n+m {
		dmax = n + m
	}
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
				return backtrack(trace, n, m, d), true
			}
		}
		trace = append(trace, append([]int(nil), v[off-d:off+d+1]...))
	}
	return nil, false
}

// backtrack walks the trace back from (n, m) and returns the script in order.
func backtrack(trace [][]int, n, m, d int) []Op {
	var rev []Op
	x, y := n, m
	for ; d > 0; d-- {
		prev := trace[d-1] // indices -(d-1)..(d-1)
		at := func(k int) int { return prev[k+d-1] }
		k := x - y
		var pk int
		if k == -d || (k != d && at(k-1) < at(k+1)) {
			pk = k + 1 // came down: an insertion
		} else {
			pk = k - 1 // came right: a deletion
		}
		px := at(pk)
		py := px - pk
		for x > px && y > py {
			x--
			y--
			rev = append(rev, Op{Equal, x, y})
		}
		if pk == k+1 {
			y--
			rev = append(rev, Op{Insert, x, y})
		} else {
			x--
			rev = append(rev, Op{Delete, x, y})
		}
	}
	for x > 0 && y > 0 {
		x--
		y--
		rev = append(rev, Op{Equal, x, y})
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev
}

// Unified writes the unified diff of a and b with context lines of context
// around each change, under the header lines `--- aName` and `+++ bName`.
// It writes nothing when the texts are equal. A last line without a line
// ending is followed by `\ No newline at end of file`.
func Unified(w io.Writer, aName, bName string, a, b []byte, context int) error {
	al, bl := SplitLines(a), SplitLines(b)
	ops := Diff(al, bl)
	changed := false
	for _, op := range ops {
		if op.Kind != Equal {
			changed = true
			break
		}
	}
	if !changed {
		return nil
	}
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", aName, bName)
	for i := 0; i < len(ops); {
		if ops[i].Kind == Equal {
			i++
			continue
		}
		// A hunk: from context lines before the change to context lines after
		// the last change that is within 2*context equal lines of the next.
		start := max(i-context, 0)
		end := i
		for end < len(ops) {
			if ops[end].Kind != Equal {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].Kind == Equal {
				run++
			}
			if run == len(ops) || run-end > 2*context {
				end = min(end+context, len(ops))
				break
			}
			end = run
		}
		writeHunk(&out, ops[start:end], al, bl)
		i = end
	}
	_, err := io.WriteString(w, out.String())
	return err
}

func writeHunk(out *strings.Builder, ops []Op, a, b []string) {
	aStart, bStart := ops[0].A, ops[0].B
	aLen, bLen := 0, 0
	for _, op := range ops {
		switch op.Kind {
		case Equal:
			aLen++
			bLen++
		case Delete:
			aLen++
		case Insert:
			bLen++
		}
	}
	fmt.Fprintf(out, "@@ -%s +%s @@\n", hunkRange(aStart, aLen), hunkRange(bStart, bLen))
	for _, op := range ops {
		switch op.Kind {
		case Equal:
			writeLine(out, ' ', a[op.A])
		case Delete:
			writeLine(out, '-', a[op.A])
		case Insert:
			writeLine(out, '+', b[op.B])
		}
	}
}

// hunkRange formats a hunk's line range as GNU diff does: 1-based start,
// the count omitted when it is 1, and an empty range placed after the line
// before it.
func hunkRange(start, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", start)
	case 1:
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

func writeLine(out *strings.Builder, mark byte, line string) {
	out.WriteByte(mark)
	out.WriteString(line)
	if !strings.HasSuffix(line, "\n") {
		out.WriteString("\n\\ No newline at end of file\n")
	}
}
