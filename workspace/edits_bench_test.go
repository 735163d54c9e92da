package workspace

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
)

// editFormatPlan writes a file of lines lines under root and returns a
// document of the dialect editing it edits times (cycling over the lines,
// each edit making the file longer), plus one new file per edit.
func editFormatPlan(tb testing.TB, root, dialect string, lines, edits int) *ast.Document {
	tb.Helper()
	var file strings.Builder
	for i := 0; i < lines; i++ {
		fmt.Fprintf(&file, "<line %d>\n", i)
	}
	if err := os.WriteFile(filepath.Join(root, "big.txt"), []byte(file.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	var b strings.Builder
	switch dialect {
	case grammar.DialectSearchReplace:
		for i := 0; i < edits; i++ {
			l := i % lines
			fmt.Fprintf(&b, "big.txt\n```\n<<<<<<< SEARCH\n<line %d>\n=======\n<line %d>\nx\n>>>>>>> REPLACE\n```\n", l, l)
			fmt.Fprintf(&b, "new/f%d.txt\n```\n<<<<<<< SEARCH\n=======\nnew %d\n>>>>>>> REPLACE\n```\n", i, i)
		}
	case grammar.DialectUdiff:
		for i := 0; i < edits; i++ {
			l := i % lines
			fmt.Fprintf(&b, "--- a/big.txt\n+++ b/big.txt\n@@ -%d,1 +%d,2 @@\n <line %d>\n+x\n", l+1, l+1, l)
			fmt.Fprintf(&b, "--- /dev/null\n+++ b/new/f%d.txt\n@@ -0,0 +1 @@\n+new %d\n", i, i)
		}
	case grammar.DialectApplyPatch:
		b.WriteString("*** Begin Patch\n")
		for i := 0; i < edits; i++ {
			l := i % lines
			fmt.Fprintf(&b, "*** Update File: big.txt\n@@\n <line %d>\n+x\n*** Add File: new/f%d.txt\n+new %d\n", l, i, i)
		}
		b.WriteString("*** End Patch\n")
	}
	doc, err := grammar.Parse(context.Background(), "edit.md", []byte(b.String()), grammar.Options{Dialect: dialect})
	if err != nil {
		tb.Fatal(err)
	}
	if doc.HasErrors() {
		tb.Fatalf("bench document does not parse: %s", doc.Diagnostics[0].Format("edit.md"))
	}
	return doc
}

// BenchmarkCheckEditFormats: n edits of one file of 2000 lines (time linear
// in n), and 200 edits of one file of n lines (linear in n), per dialect.
func BenchmarkCheckEditFormats(b *testing.B) {
	for _, d := range []string{grammar.DialectSearchReplace, grammar.DialectUdiff, grammar.DialectApplyPatch} {
		for _, c := range []struct {
			name         string
			lines, edits int
		}{
			{"edits=500", 2000, 500}, {"edits=1000", 2000, 1000}, {"edits=2000", 2000, 2000},
			{"lines=10000", 10000, 200}, {"lines=20000", 20000, 200}, {"lines=40000", 40000, 200},
		} {
			b.Run(d+"/"+c.name, func(b *testing.B) {
				root := b.TempDir()
				doc := editFormatPlan(b, root, d, c.lines, c.edits)
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					for _, d := range Check(context.Background(), doc, root, Options{}) {
						if d.Severity != ast.Info { // udiff: the headers drift as lines are added
							b.Fatalf("unexpected diagnostic: %s", d.Format("edit.md"))
						}
					}
				}
			})
		}
	}
}

// TestEditFormatsApplyOverlay: the overlay holds what each dialect's edits
// produce, the result package apply writes.
func TestEditFormatsApplyOverlay(t *testing.T) {
	for _, d := range []string{grammar.DialectSearchReplace, grammar.DialectUdiff, grammar.DialectApplyPatch} {
		root := t.TempDir()
		doc := editFormatPlan(t, root, d, 3, 4)
		c, err := newChecker(root, Options{})
		if err != nil {
			t.Fatal(err)
		}
		c.begin(0, doc, Options{})
		for _, a := range doc.Actions {
			c.action(context.Background(), a)
		}
		for _, x := range c.diags {
			if x.Severity != ast.Info {
				t.Fatalf("%s: %s", d, x.Format("edit.md"))
			}
		}
		want := "<line 0>\nx\nx\n<line 1>\nx\n<line 2>\nx\n"
		if got := c.state("big.txt").content; got != want {
			t.Errorf("%s: big.txt = %q, want %q", d, got, want)
		}
		if got := c.state("new/f3.txt").content; got != "new 3\n" {
			t.Errorf("%s: new/f3.txt = %q", d, got)
		}
	}
}

// TestHunksOfOneFileCopyItOnce: the hunks of one diff of a file are placed
// on its content in one pass. A hunk does not copy the file: the bytes the
// check allocates stay a small multiple of the file, however many hunks
// it has, and the result is the file with every hunk applied.
func TestHunksOfOneFileCopyItOnce(t *testing.T) {
	const lines, hunks = 20000, 2000
	root := t.TempDir()
	var file, want, diff strings.Builder
	diff.WriteString("--- a/big.txt\n+++ b/big.txt\n")
	for i := 0; i < lines; i++ {
		fmt.Fprintf(&file, "<line %d>\n", i)
		fmt.Fprintf(&want, "<line %d>\n", i)
		if i%(lines/hunks) == 0 {
			k := i / (lines / hunks)
			fmt.Fprintf(&diff, "@@ -%d,1 +%d,2 @@\n <line %d>\n+added %d\n", i+1, i+1+k, i, k)
			fmt.Fprintf(&want, "added %d\n", k)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "big.txt"), []byte(file.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	doc, err := grammar.Parse(context.Background(), "edit.diff", []byte(diff.String()), grammar.Options{Dialect: grammar.DialectUdiff})
	if err != nil || doc.HasErrors() {
		t.Fatalf("diff does not parse: %v %v", err, doc.Diagnostics)
	}
	c, err := newChecker(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	c.begin(0, doc, Options{})
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for _, a := range doc.Actions {
		c.action(context.Background(), a)
	}
	runtime.ReadMemStats(&after)
	for _, x := range c.diags {
		t.Errorf("%s", x.Format("edit.diff"))
	}
	if got := c.state("big.txt").content; got != want.String() {
		t.Errorf("big.txt is not the file with every hunk applied")
	}
	if n, limit := after.TotalAlloc-before.TotalAlloc, uint64(8*file.Len()); n > limit {
		t.Errorf("the check of %d hunks of a file of %d bytes allocated %d bytes, more than %d", hunks, file.Len(), n, limit)
	}
}
