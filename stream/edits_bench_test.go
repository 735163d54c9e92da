package stream

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/plangram/plangram/grammar"
)

// editAnswer generates an answer of about size bytes in an edit-format
// syntax: prose, and edits of files with hunks of up to a few hundred
// lines, some creating large files.
func editAnswer(syntax string, size int) []byte {
	r := rand.New(rand.NewPCG(5, 3))
	var b strings.Builder
	lines := func(n int, prefix string) string {
		var l strings.Builder
		for range n {
			fmt.Fprintf(&l, "%s    x%d := f(%d) // <<< === >>> --- +++ @@\n", prefix, r.IntN(1000), r.IntN(99))
		}
		return l.String()
	}
	if syntax == grammar.DialectApplyPatch {
		b.WriteString("*** Begin Patch\n")
	}
	for i := 0; b.Len() < size; i++ {
		if syntax != grammar.DialectApplyPatch {
			b.WriteString("Now the next file, which we change as follows.\n\n")
		}
		n := 1 + r.IntN(300)
		switch syntax {
		case grammar.DialectSearchReplace:
			fmt.Fprintf(&b, "src/f%d.go\n```go\n<<<<<<< SEARCH\n%s=======\n%s>>>>>>> REPLACE\n```\n\n", i, lines(n, ""), lines(n+1, ""))
		case grammar.DialectUdiff:
			fmt.Fprintf(&b, "--- a/src/f%d.go\n+++ b/src/f%d.go\n", i, i)
			for h := range 3 {
				fmt.Fprintf(&b, "@@ -%d,%d +%d,%d @@\n%s%s%s", h*400+1, n+1, h*400+1, n+1, lines(1, " "), lines(n, "-"), lines(n, "+"))
			}
			fmt.Fprintf(&b, "--- /dev/null\n+++ b/src/new%d.go\n@@ -0,0 +1,%d @@\n%s", i, n, lines(n, "+"))
		case grammar.DialectApplyPatch:
			fmt.Fprintf(&b, "*** Update File: src/f%d.go\n", i)
			for range 3 {
				fmt.Fprintf(&b, "@@ func f%d()\n%s%s%s\n", r.IntN(99), lines(1, " "), lines(n, "-"), lines(n, "+"))
			}
			fmt.Fprintf(&b, "*** Add File: src/new%d.go\n%s", i, lines(n, "+"))
		}
	}
	if syntax == grammar.DialectApplyPatch {
		b.WriteString("*** End Patch\n")
	}
	return []byte(b.String())
}

// BenchmarkEditSyntaxes streams each edit-format syntax in 20-byte chunks
// at 1.25, 2.5 and 5 MB (n, 2n, 4n): ns/chunk stays flat, the time per
// byte does not grow with the input.
func BenchmarkEditSyntaxes(b *testing.B) {
	const chunk = 20
	for _, syntax := range editSyntaxes {
		for _, size := range []int{5 << 20 / 4, 5 << 20 / 2, 5 << 20} {
			in := editAnswer(syntax, size)
			b.Run(fmt.Sprintf("%s/%s/20-byte-chunks", syntax, sizeName(size)), func(b *testing.B) { benchChunks(b, Options{Syntax: syntax}, in, chunk) })
		}
	}
}

// TestEditSyntaxesLinear bounds the allocations of each edit syntax: 4×
// the input costs at most 5× the allocations (no allocation per chunk, no
// rescan), and the events agree with the parse on the generated input.
func TestEditSyntaxesLinear(t *testing.T) {
	for _, syntax := range editSyntaxes {
		small, big := editAnswer(syntax, 64<<10), editAnswer(syntax, 256<<10)
		checkAllocsLinear(t, syntax, small, big)
		evs := merge(collect(t, Options{Syntax: syntax}, small, nil))
		checkEditAgrees(t, syntax, small, evs)
		for _, e := range evs {
			if e.Type == Error {
				t.Errorf("%s: generated input has an error: %s", syntax, e.Message)
				break
			}
		}
	}
}
