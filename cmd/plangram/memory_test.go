package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/plangram/plangram/internal/testkit/corpus"
)

// allocCase is one command line of the allocation tests: args with the
// input file appended, on an input of about n bytes made by src.
type allocCase struct {
	name string
	src  func(n int) []byte
	args []string
	// perByte bounds the bytes allocated per input byte on the larger
	// input: about 1.5× what it allocates when the bound is set.
	perByte float64
}

// TestCheckAllocations pins what `plangram check` allocates, in process,
// on each input family: at most perByte bytes per input byte, and growth
// linear in the input (four times the input allocates at most 5× as much:
// work that grows with the square of the input, such as rescanning what
// was read for each action, allocates 16×). Memory is judged by
// allocations per input byte and linear growth, not by a process's peak
// resident size. Bytes allocated, not time: the bounds hold on a loaded
// machine.
func TestCheckAllocations(t *testing.T) {
	root := t.TempDir() // an empty workspace: every file the plan names is new
	hunks := func(head, hunk, tail string) func(int) []byte {
		return func(n int) []byte { return oneFileHunks(n, head, hunk, tail) }
	}
	const udHead, udHunk = "--- a/f.txt\n+++ b/f.txt\n", "@@ -%d,1 +%[1]d,1 @@\n-a\n+b\n"
	const apHead, apHunk, apTail = "*** Begin Patch\n*** Update File: f.txt\n", "@@ line %d\n-a\n+b\n", "*** End Patch\n"
	testAllocations(t, []allocCase{
		{"small-actions", corpus.SmallActs, []string{"check"}, 60},
		{"small-actions-json", corpus.SmallActs, []string{"check", "--format", "json"}, 60},
		{"acts", corpus.Acts, []string{"check"}, 6},
		{"plan", corpus.Plan, []string{"check"}, 14},
		{"plan-json", corpus.Plan, []string{"check", "--format", "json"}, 14},
		{"small-actions-root", corpus.SmallActs, []string{"check", "--root", root}, 90},
		{"acts-root", corpus.Acts, []string{"check", "--root", root}, 7.5},
		{"missing-files-root", missingFiles, []string{"check", "--root", root}, 128},
		{"udiff", unifiedDiffs, []string{"check", "--dialect", "udiff"}, 14},
		{"search-replace", searchReplaceBlocks, []string{"check", "--dialect", "search-replace"}, 10},
		{"udiff-one-file", hunks(udHead, udHunk, ""), []string{"check", "--dialect", "udiff"}, 64},
		{"apply-patch-one-file", hunks(apHead, apHunk, apTail), []string{"check", "--dialect", "apply-patch"}, 68},
		{"udiff-one-file-root", hunks(udHead, udHunk, ""), []string{"check", "--dialect", "udiff", "--root", root}, 64},
		{"apply-patch-one-file-root", hunks(apHead, apHunk, apTail), []string{"check", "--dialect", "apply-patch", "--root", root}, 68},
	})
}

// TestFmtAllocations pins what `plangram fmt` allocates, as
// TestCheckAllocations does for check.
func TestFmtAllocations(t *testing.T) {
	hunks := func(head, hunk, tail string) func(int) []byte {
		return func(n int) []byte { return oneFileHunks(n, head, hunk, tail) }
	}
	testAllocations(t, []allocCase{
		{"small-actions", corpus.SmallActs, []string{"fmt"}, 120},
		{"plan", corpus.Plan, []string{"fmt"}, 41},
		{"search-replace", searchReplaceBlocks, []string{"fmt", "--dialect", "search-replace"}, 13},
		{"udiff", unifiedDiffs, []string{"fmt", "--dialect", "udiff"}, 19},
		{"udiff-one-file", hunks("--- a/f.txt\n+++ b/f.txt\n", "@@ -%d,1 +%[1]d,1 @@\n-a\n+b\n", ""), []string{"fmt", "--dialect", "udiff"}, 89},
		{"apply-patch-one-file", hunks("*** Begin Patch\n*** Update File: f.txt\n", "@@ line %d\n-a\n+b\n", "*** End Patch\n"), []string{"fmt", "--dialect", "apply-patch"}, 71},
	})
}

// testAllocations runs each case's command in process on an input of n
// and of 4n bytes and checks its bounds.
func testAllocations(t *testing.T, cases []allocCase) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs commands on 1 MiB documents")
	}
	const n = 256 << 10
	dir := t.TempDir()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			small := allocated(t, dir, c.src(n), c.args)
			src := c.src(4 * n)
			large := allocated(t, dir, src, c.args)
			perByte := float64(large) / float64(len(src))
			t.Logf("%s: %.2f bytes allocated per input byte; 4× the input allocates %.2f× as much", c.name, perByte, float64(large)/float64(small))
			if perByte > c.perByte {
				t.Errorf("%.2f bytes allocated per input byte, want at most %.1f", perByte, c.perByte)
			}
			if large > 5*small {
				t.Errorf("4× the input allocates %.2f× as much (%d → %d bytes), want at most 5×", float64(large)/float64(small), small, large)
			}
		})
	}
}

// allocated writes src to a file in dir, runs the command line args with
// the file in process and returns the bytes it allocated.
func allocated(t *testing.T, dir string, src []byte, args []string) uint64 {
	t.Helper()
	file := filepath.Join(dir, "input.md")
	if err := os.WriteFile(file, src, 0o644); err != nil {
		t.Fatal(err)
	}
	argv := append(append([]string(nil), args...), file)
	e := &env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard}
	run(context.Background(), e, argv) // first use: built-in schema and the like
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	code := run(context.Background(), e, argv)
	runtime.ReadMemStats(&after)
	if code == exitUsage {
		t.Fatalf("%s: exit %d", strings.Join(args, " "), code)
	}
	return after.TotalAlloc - before.TotalAlloc
}

// missingFiles returns about size bytes of patch_file actions on files
// that do not exist: with a root, one file-not-found error each.
func missingFiles(size int) []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "~~~act\npatch_file m%d.txt\n~~~\n~~~\nfoo\n~~~\n~~~\nbar\n~~~\n\n", i)
	}
	return b.Bytes()
}

// unifiedDiffs returns about size bytes of a unified diff of many files,
// with lines of source-code length: a new file, then hunks that change
// it, in turn.
func unifiedDiffs(size int) []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < size; i++ {
		if i%4 == 0 {
			fmt.Fprintf(&b, "--- /dev/null\n+++ b/pkg/new%d.go\n@@ -0,0 +1,6 @@\n", i)
			for k := range 6 {
				fmt.Fprintf(&b, "+\tvalue%d := compute(input, %d) // a new line\n", k, i)
			}
			continue
		}
		fmt.Fprintf(&b, "--- a/pkg/file%d.go\n+++ b/pkg/file%d.go\n@@ -10,7 +10,7 @@ func handler%d() {\n", i, i, i)
		b.WriteString(" \tctx := context.Background()\n \tdefer cancel()\n \tresult, err := run(ctx)\n")
		fmt.Fprintf(&b, "-\treturn result, err // old %d\n+\treturn result, fmt.Errorf(\"run: %%w\", err) // new %d\n", i, i)
		b.WriteString(" \tif err != nil {\n \t\tlog.Print(err)\n \t}\n")
	}
	return b.Bytes()
}

// oneFileHunks returns about size bytes of one file's diff: head, then
// hunk (a format with the hunk's number) until size, then tail.
func oneFileHunks(size int, head, hunk, tail string) []byte {
	b := bytes.NewBufferString(head)
	for i := 1; b.Len() < size; i++ {
		fmt.Fprintf(b, hunk, i)
	}
	b.WriteString(tail)
	return b.Bytes()
}

// searchReplaceBlocks returns about size bytes of SEARCH/REPLACE blocks
// with lines of source-code length.
func searchReplaceBlocks(size int) []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "pkg/file%d.go\n```go\n<<<<<<< SEARCH\n\tresult, err := run(ctx) // call %d\n\treturn result, err\n=======\n\tresult, err := run(ctx) // call %d\n\treturn result, fmt.Errorf(\"run: %%w\", err)\n>>>>>>> REPLACE\n```\n\n", i, i, i)
	}
	return b.Bytes()
}
