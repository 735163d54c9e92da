package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"
)

// TestDeepPaths: a plan of 60 paths of 1,900 distinct one-letter
// directories is checked whole, without and with --root: the case rule
// finds the other spelling of a directory, and the workspace rules the
// patch_file of a missing file after them (docs/check.md, "work-budget":
// far below the budget).
func TestDeepPaths(t *testing.T) {
	g := cliGoldie(t) // before Chdir
	dir := t.TempDir()
	src := deepPaths(60, 1900)
	first := src[len("~~~act\nwrite_file ")]
	b := bytes.NewBuffer(src)
	fmt.Fprintf(b, "~~~act\nwrite_file %c/late.txt\n~~~\n~~~\nx\n~~~\n\n", first-'a'+'A')
	b.WriteString("~~~act\npatch_file missing.txt\n~~~\n~~~\na\n~~~\n~~~\nb\n~~~\n")
	if err := os.WriteFile(filepath.Join(dir, "deep.md"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "root"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	var out strings.Builder
	for _, args := range [][]string{
		{"check", "deep.md"},
		{"check", "--root", "root", "deep.md"},
	} {
		out.WriteString(transcript(t, args...))
	}
	g.Assert(t, "check_deep_paths", []byte(out.String()))
}

// cliGoldie returns the golden files of golden/cli, found from the
// package directory: call it before a test changes directory.
func cliGoldie(t *testing.T) *goldie.Goldie {
	t.Helper()
	golden, err := filepath.Abs("../../golden/cli")
	if err != nil {
		t.Fatal(err)
	}
	return goldie.New(t, goldie.WithFixtureDir(golden), goldie.WithNameSuffix(".golden"))
}

// deepPaths returns a hostile fenced-acts document: n write_file actions
// whose paths are depth one-letter directories each (pseudo-random, so
// that nearly every directory is distinct: one per two bytes) and a file
// f<i>.txt, each with a one-line content block.
func deepPaths(n, depth int) []byte {
	var b []byte
	x := uint32(1)
	for i := range n {
		b = append(b, "~~~act\nwrite_file "...)
		for range depth {
			x = x*1664525 + 1013904223
			b = append(b, 'a'+byte(x>>24)%26, '/')
		}
		b = fmt.Appendf(b, "f%d.txt\n~~~\n~~~\nx\n~~~\n\n", i)
	}
	return b
}
