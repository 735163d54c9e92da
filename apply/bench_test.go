package apply

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plangram/plangram/ast"
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
