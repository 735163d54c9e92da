package grammar

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// loneCRDoc returns a document of about n bytes in dialect full of lone
// CRs: progress bars in block content and CRs in prose that hide nothing,
// and, every fourth step, a CR in prose that hides an act block or a
// heading (a lone-cr error).
func loneCRDoc(dialect string, n int) []byte {
	var b strings.Builder
	b.WriteString("Steps:\n\n") // a first line ending in a lone CR would be cr-line-endings
	if dialect == DialectPlan {
		b.Reset()
		b.WriteString("# Plan\n\n- **Status:** draft\n\n## Rationale\n\n```\nwhy\n```\n\n## Action Plan\n\n")
	}
	for i := 0; b.Len() < n; i++ {
		if dialect == DialectPlan {
			fmt.Fprintf(&b, "### %d. EXECUTE\n\n- **Description:** step %d\r50%%\r100%%\n\n```bash\necho 10%%\recho 20%%\r- 30%%\r# 40%%\n```\n\n", i, i)
			if i%4 == 3 {
				fmt.Fprintf(&b, "note\r### %d. EXECUTE\n\n", i)
			}
			continue
		}
		fmt.Fprintf(&b, "Step %d\rstill step %d\n\n```act\nrun_command step_%d\n```\n```\n[#   ] 25%%\r[##  ] 50%%\r[####] 100%%\n```\n", i, i, i)
		if i%4 == 3 {
			fmt.Fprintf(&b, "then\r```act\rrun_command hidden_%d\r```\r\n", i)
		}
	}
	return []byte(b.String())
}

// BenchmarkLoneCR parses documents of n, 2n and 4n bytes full of lone
// CRs (loneCRDoc), in both dialects: time and allocations double with the
// input (TestLoneCRLinear).
func BenchmarkLoneCR(b *testing.B) {
	ctx := context.Background()
	for _, dialect := range []string{DialectActs, DialectPlan} {
		for _, n := range []int{256 << 10, 512 << 10, 1 << 20} {
			src := loneCRDoc(dialect, n)
			b.Run(fmt.Sprintf("%s/%dKiB", dialect, n>>10), func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := Parse(ctx, "bench.md", src, Options{Dialect: dialect}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// TestLoneCRLinear bounds the lone CR check's allocations: linear in the
// input for documents full of lone CRs, and none per CR that hides
// nothing (a line of 4000 progress-bar CRs allocates what one of 1000
// does).
func TestLoneCRLinear(t *testing.T) {
	ctx := context.Background()
	allocs := func(dialect string, src []byte) float64 {
		return testing.AllocsPerRun(3, func() {
			if _, err := Parse(ctx, "t.md", src, Options{Dialect: dialect}); err != nil {
				t.Fatal(err)
			}
		})
	}
	for _, dialect := range []string{DialectActs, DialectPlan} {
		small, big := loneCRDoc(dialect, 32<<10), loneCRDoc(dialect, 128<<10)
		doc, err := Parse(ctx, "t.md", big, Options{Dialect: dialect})
		if err != nil {
			t.Fatal(err)
		}
		if !HasLoneCRError(doc) {
			t.Fatalf("%s: no lone-cr error in the test document", dialect)
		}
		a, b := allocs(dialect, small), allocs(dialect, big)
		if ratio := b / a; ratio > 4.6 {
			t.Errorf("%s: %.0f allocations for 4× the input of %.0f (×%.2f), want at most ×4.6", dialect, b, a, ratio)
		}
		bar := func(k int) []byte {
			head := "```act\nwrite_file log.txt\n```\n```\n"
			if dialect == DialectPlan {
				head = "# T\n\n- **Status:** draft\n\n## Rationale\n\n```\n"
			}
			return []byte(head + strings.Repeat("[##] 50%\r", k) + "\n```\n")
		}
		if a, b := allocs(dialect, bar(1000)), allocs(dialect, bar(4000)); b > a+2 {
			t.Errorf("%s: %.0f allocations for a line of 4000 CRs, %.0f for 1000", dialect, b, a)
		}
	}
}
