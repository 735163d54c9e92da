package workspace

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
)

// manyFilesPlan creates n files in fresh directories.
func manyFilesPlan(n int) []byte {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "~~~act\nwrite_file out/d%d/f%d.txt\n~~~\n~~~\nfile %d\n~~~\n", i%100, i, i)
	}
	return []byte(b.String())
}

// editsPlan creates one file of lines lines and edits it edits times, one
// patch_file per line (cycling), each edit making the file longer.
func editsPlan(lines, edits int) []byte {
	var b strings.Builder
	b.WriteString("~~~act\nwrite_file big.txt\n~~~\n~~~\n")
	for i := 0; i < lines; i++ {
		fmt.Fprintf(&b, "<line %d>\n", i)
	}
	b.WriteString("~~~\n")
	for i := 0; i < edits; i++ {
		l := i % lines
		fmt.Fprintf(&b, "~~~act\npatch_file big.txt\n~~~\n~~~\n<line %d>\n~~~\n~~~\n<line %d>\nx\n~~~\n", l, l)
	}
	return []byte(b.String())
}

func parseBench(b *testing.B, src []byte) *ast.Document {
	b.Helper()
	doc, err := grammar.Parse(context.Background(), "plan.md", src, grammar.Options{Dialect: grammar.DialectActs})
	if err != nil {
		b.Fatal(err)
	}
	for _, d := range doc.Diagnostics {
		if d.Severity == ast.Error {
			b.Fatalf("bench plan does not parse: %s", d.Format("plan.md"))
		}
	}
	return doc
}

// BenchmarkCheckManyFiles: n write_file actions into new directories; the
// time per op must grow linearly with n (issue 10: it was quadratic).
func BenchmarkCheckManyFiles(b *testing.B) {
	for _, n := range []int{5000, 10000, 20000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			doc := parseBench(b, manyFilesPlan(n))
			root := b.TempDir()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if ds := Check(context.Background(), doc, root, Options{}); len(ds) != 0 {
					b.Fatalf("unexpected diagnostics: %s", ds[0].Format("plan.md"))
				}
			}
		})
	}
}

// BenchmarkCheckRepeatedEdits: n edits of one file of 2000 lines (time
// linear in n), and 500 edits of one file of n lines (linear in n).
func BenchmarkCheckRepeatedEdits(b *testing.B) {
	for _, c := range []struct {
		name         string
		lines, edits int
	}{
		{"edits=1000", 2000, 1000}, {"edits=2000", 2000, 2000}, {"edits=4000", 2000, 4000},
		{"lines=10000", 10000, 500}, {"lines=20000", 20000, 500}, {"lines=40000", 40000, 500},
	} {
		b.Run(c.name, func(b *testing.B) {
			doc := parseBench(b, editsPlan(c.lines, c.edits))
			root := b.TempDir()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if ds := Check(context.Background(), doc, root, Options{}); len(ds) != 0 {
					b.Fatalf("unexpected diagnostics: %s", ds[0].Format("plan.md"))
				}
			}
		})
	}
}

// BenchmarkCheckDeepPaths: 200 write_file actions whose paths have n
// components (below the 4096-byte limit); the time grows linearly with n
// (each component used to be joined to the path so far: quadratic).
func BenchmarkCheckDeepPaths(b *testing.B) {
	for _, n := range []int{400, 800, 1600} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			var sb strings.Builder
			for i := 0; i < 200; i++ {
				fmt.Fprintf(&sb, "~~~act\nwrite_file %sf%d.txt\n~~~\n~~~\nx\n~~~\n", strings.Repeat("d/", n), i)
			}
			doc := parseBench(b, []byte(sb.String()))
			root := b.TempDir()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if ds := Check(context.Background(), doc, root, Options{}); len(ds) != 0 {
					b.Fatalf("unexpected diagnostics: %s", ds[0].Format("plan.md"))
				}
			}
		})
	}
}
