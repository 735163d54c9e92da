package lint_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/plangram/plangram/internal/testkit/corpus"
	"github.com/plangram/plangram/lint"
)

// TestCheckMemoryBound pins what `plangram check` allocates on a large
// acts document: reading the file, parsing it (with participle, at most 4
// times the input: issue 29's floor) and checking it allocate at most 5.5
// times the input in all, so the heap it needs cannot be larger. A bound
// on bytes allocated, not on time.
func TestCheckMemoryBound(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates a 4 MB document")
	}
	src := corpus.Acts(4 << 20)
	file := filepath.Join(t.TempDir(), "plan.md")
	if err := os.WriteFile(file, src, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	check := func() {
		files, err := lint.Run(ctx, []string{file}, lint.Options{})
		if err != nil || len(files) != 1 {
			t.Fatalf("%d files, %v", len(files), err)
		}
	}
	check() // first use: built-in schema and the like
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	check()
	runtime.ReadMemStats(&after)
	ratio := float64(after.TotalAlloc-before.TotalAlloc) / float64(len(src))
	t.Logf("check allocated %.2f × the input (%d bytes)", ratio, len(src))
	if ratio > 5.5 {
		t.Fatalf("check allocated %.2f × the input, want at most 5.5 ×", ratio)
	}
}
