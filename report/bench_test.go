package report

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/plangram/plangram/grammar"
)

// BenchmarkReportHeadings writes, in every format, the diagnostics of plans
// of n, 2n and 4n `## x` headings (each one an unknown section, issue 10's
// blow-up): the output is bounded (maxPerCode per code, one AST diff), so
// time per op must not grow faster than the parse.
func BenchmarkReportHeadings(b *testing.B) {
	for _, n := range []int{8000, 16000, 32000} {
		src := []byte("# T\n" + strings.Repeat("## x\n", n))
		doc, err := grammar.ParsePlan(context.Background(), "h.md", src, nil)
		if err != nil {
			b.Fatal(err)
		}
		files := []*File{{Path: "h.md", Source: src, Diagnostics: doc.Diagnostics}}
		for _, format := range Formats() {
			b.Run(fmt.Sprintf("%s/n=%d", format, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if err := Write(io.Discard, format, files, Options{}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// TestReportHeadingsBounded pins the output size of issue 10's heading
// blow-up (a 31 KB plan printed 452 MB of diagnostics): 4× the headings
// print about the same, and less than the input, in every format.
func TestReportHeadingsBounded(t *testing.T) {
	size := func(n int, format string) int {
		src := []byte("# T\n" + strings.Repeat("## x\n", n))
		doc, err := grammar.ParsePlan(context.Background(), "h.md", src, nil)
		if err != nil {
			t.Fatal(err)
		}
		var w strings.Builder
		files := []*File{{Path: "h.md", Diagnostics: doc.Diagnostics}}
		if err := Write(&w, format, files, Options{}); err != nil {
			t.Fatal(err)
		}
		return w.Len()
	}
	for _, format := range Formats() {
		small, large := size(8000, format), size(32000, format)
		if large > small+small/10 || large > 32000*5 {
			t.Errorf("%s: 8,000 headings print %d bytes, 32,000 print %d", format, small, large)
		}
	}
}
