package apply

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
)

// BenchmarkApply: a plan that creates n files and edits n existing ones,
// applied (dry run: check, simulate, verify) and written; time per op grows
// linearly with n.
func BenchmarkApply(b *testing.B) {
	for _, n := range []int{250, 500, 1000} {
		var plan strings.Builder
		for i := 0; i < n; i++ {
			fmt.Fprintf(&plan, "~~~act\nwrite_file out/d%d/f%d.txt\n~~~\n~~~\nfile %d\n~~~\n", i%20, i, i)
			fmt.Fprintf(&plan, "~~~act\npatch_file src/s%d.txt\n~~~\n~~~\nold %d\n~~~\n~~~\nnew %d\n~~~\n", i, i, i)
		}
		doc := parse(b, plan.String())
		for _, mode := range []string{"dry-run", "write"} {
			b.Run(fmt.Sprintf("%s/n=%d", mode, n), func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					b.StopTimer()
					root := filepath.Join(b.TempDir(), "root")
					src := filepath.Join(root, "src")
					if err := os.MkdirAll(src, 0o755); err != nil {
						b.Fatal(err)
					}
					for j := 0; j < n; j++ {
						os.WriteFile(filepath.Join(src, fmt.Sprintf("s%d.txt", j)), []byte(fmt.Sprintf("keep\nold %d\nkeep\n", j)), 0o644)
					}
					b.StartTimer()
					if _, err := Apply(context.Background(), []*ast.Document{doc}, root, Options{DryRun: mode == "dry-run"}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkApplyWriteEditFormats: one unified diff that edits n existing
// files (spread over 10 directories) and creates n new ones, applied with
// real writes. The write step stages every file, flushes them to disk
// once and syncs each directory once, so the time per op grows linearly
// with n (it grew faster with one fsync per file).
func BenchmarkApplyWriteEditFormats(b *testing.B) {
	for _, n := range []int{250, 500, 1000} {
		var diff strings.Builder
		for i := 0; i < n; i++ {
			fmt.Fprintf(&diff, "--- a/src/d%d/s%d.txt\n+++ b/src/d%d/s%d.txt\n@@ -1,3 +1,3 @@\n keep\n-old %d\n+new %d\n keep\n", i%10, i, i%10, i, i, i)
			fmt.Fprintf(&diff, "--- /dev/null\n+++ b/out/d%d/f%d.txt\n@@ -0,0 +1 @@\n+file %d\n", i%10, i, i)
		}
		doc, err := grammar.Parse(context.Background(), "edit.diff", []byte(diff.String()), grammar.Options{Dialect: grammar.DialectUdiff})
		if err != nil || doc.HasErrors() {
			b.Fatalf("bench diff: %v %v", err, doc.Diagnostics)
		}
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				root := filepath.Join(b.TempDir(), "root")
				for j := 0; j < n; j++ {
					p := filepath.Join(root, "src", fmt.Sprintf("d%d/s%d.txt", j%10, j))
					os.MkdirAll(filepath.Dir(p), 0o755)
					if err := os.WriteFile(p, []byte(fmt.Sprintf("keep\nold %d\nkeep\n", j)), 0o644); err != nil {
						b.Fatal(err)
					}
				}
				b.StartTimer()
				res, err := Apply(context.Background(), []*ast.Document{doc}, root, Options{})
				if err != nil || !res.Applied {
					b.Fatal(err)
				}
			}
		})
	}
}
