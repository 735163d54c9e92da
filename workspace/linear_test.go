package workspace

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

// editFamily writes a document of edits edits to big.txt, a file of lines
// lines ("<line i>"), each edit adding a line "x" after one of them, in
// order; every family ends with the same content.
type editFamily struct {
	name    string
	dialect string
	doc     func(b *strings.Builder, lines, edits int)
}

// editedLine is the line the i-th of edits edits follows.
func editedLine(i, lines, edits int) int { return i * lines / edits }

var editFamilies = []editFamily{
	{"search-replace/blocks", grammar.DialectSearchReplace, func(b *strings.Builder, lines, edits int) {
		for i := 0; i < edits; i++ {
			l := editedLine(i, lines, edits)
			fmt.Fprintf(b, "big.txt\n```\n<<<<<<< SEARCH\n<line %d>\n=======\n<line %d>\nx\n>>>>>>> REPLACE\n```\n", l, l)
		}
	}},
	{"udiff/files", grammar.DialectUdiff, func(b *strings.Builder, lines, edits int) {
		for i := 0; i < edits; i++ {
			l := editedLine(i, lines, edits)
			fmt.Fprintf(b, "--- a/big.txt\n+++ b/big.txt\n@@ -%d,1 +%d,2 @@\n <line %d>\n+x\n", l+1+i, l+1+i, l)
		}
	}},
	{"udiff/hunks", grammar.DialectUdiff, func(b *strings.Builder, lines, edits int) {
		b.WriteString("--- a/big.txt\n+++ b/big.txt\n")
		for i := 0; i < edits; i++ {
			l := editedLine(i, lines, edits)
			fmt.Fprintf(b, "@@ -%d,1 +%d,2 @@\n <line %d>\n+x\n", l+1, l+1+i, l)
		}
	}},
	{"apply-patch/files", grammar.DialectApplyPatch, func(b *strings.Builder, lines, edits int) {
		b.WriteString("*** Begin Patch\n")
		for i := 0; i < edits; i++ {
			fmt.Fprintf(b, "*** Update File: big.txt\n@@\n <line %d>\n+x\n", editedLine(i, lines, edits))
		}
		b.WriteString("*** End Patch\n")
	}},
	{"apply-patch/chunks", grammar.DialectApplyPatch, func(b *strings.Builder, lines, edits int) {
		b.WriteString("*** Begin Patch\n*** Update File: big.txt\n")
		for i := 0; i < edits; i++ {
			fmt.Fprintf(b, "@@\n <line %d>\n+x\n", editedLine(i, lines, edits))
		}
		b.WriteString("*** End Patch\n")
	}},
	{"acts/patch_file", grammar.DialectActs, func(b *strings.Builder, lines, edits int) {
		for i := 0; i < edits; i++ {
			l := editedLine(i, lines, edits)
			fmt.Fprintf(b, "~~~act\npatch_file big.txt\n~~~\n~~~\n<line %d>\n\n~~~\n~~~\n<line %d>\nx\n\n~~~\n", l, l)
		}
	}},
	{"plan/EDIT-pairs", grammar.DialectPlan, func(b *strings.Builder, lines, edits int) {
		b.WriteString("# Edit\n\n- **Status:** Green\n- **Agent:** Developer\n- **Goal:** Edit.\n\n## Rationale\n```text\nA test.\n```\n\n## Action Plan\n\n### `EDIT`\n- **File Path:** `big.txt`\n- **Description:** Add lines.\n")
		for i := 0; i < edits; i++ {
			l := editedLine(i, lines, edits)
			fmt.Fprintf(b, "\n#### `FIND:`\n```\n<line %d>\n\n```\n#### `REPLACE:`\n```\n<line %d>\nx\n\n```\n", l, l)
		}
	}},
}

// familyDoc writes big.txt under root and parses the family's document.
func familyDoc(tb testing.TB, root string, fam editFamily, lines, edits int) *ast.Document {
	tb.Helper()
	var file strings.Builder
	for i := 0; i < lines; i++ {
		fmt.Fprintf(&file, "<line %d>\n", i)
	}
	if err := os.WriteFile(filepath.Join(root, "big.txt"), []byte(file.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	var b strings.Builder
	fam.doc(&b, lines, edits)
	doc, err := grammar.Parse(context.Background(), "edit.md", []byte(b.String()), grammar.Options{Dialect: fam.dialect})
	if err != nil {
		tb.Fatal(err)
	}
	if doc.HasErrors() {
		tb.Fatalf("%s: document does not parse: %s", fam.name, doc.Diagnostics[0].Format("edit.md"))
	}
	return doc
}

// wantEdited is big.txt after the family's edits.
func wantEdited(lines, edits int) string {
	after := make([]int, lines)
	for i := 0; i < edits; i++ {
		after[editedLine(i, lines, edits)]++
	}
	var b strings.Builder
	for i := 0; i < lines; i++ {
		fmt.Fprintf(&b, "<line %d>\n%s", i, strings.Repeat("x\n", after[i]))
	}
	return b.String()
}

// runFamily checks the family's document and returns big.txt's text.
func runFamily(t *testing.T, fam editFamily, lines, edits int) *text {
	t.Helper()
	root := t.TempDir()
	doc := familyDoc(t, root, fam, lines, edits)
	c, err := newChecker(doc, root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range doc.Actions {
		c.action(context.Background(), a)
	}
	for _, d := range c.diags {
		if d.Severity != ast.Info {
			t.Fatalf("%s: %s", fam.name, d.Format("edit.md"))
		}
	}
	f := c.state("big.txt")
	if f == nil || f.buf == nil {
		t.Fatalf("%s: big.txt was not edited", fam.name)
	}
	if got, want := f.data(), wantEdited(lines, edits); got != want {
		t.Fatalf("%s: big.txt = %.200q…, want %.200q…", fam.name, got, want)
	}
	return f.buf
}

// TestEditsLinear pins that n edits of one file of n lines cost O(n), not
// O(n²): the bytes the simulation copies, scans and compares in the file
// (and the tree steps it takes), counted by the text, grow about 4 times
// (with a log factor for the tree) from n to 4n. Copying the file per edit,
// as before, made it 16 times.
func TestEditsLinear(t *testing.T) {
	const n = 500
	for _, fam := range editFamilies {
		t.Run(fam.name, func(t *testing.T) {
			small := runFamily(t, fam, n, n).work
			large := runFamily(t, fam, 4*n, 4*n).work
			ratio := float64(large) / float64(small)
			t.Logf("work %d at n=%d, %d at 4n: ×%.2f", small, n, large, ratio)
			if ratio > 6 {
				t.Errorf("work grows ×%.2f from n=%d edits of a %d-line file to 4n of 4n lines; linear is about ×4, quadratic ×16", ratio, n, n)
			}
			if per := small / (2 * n); per > 400 {
				t.Errorf("%d units of work per edit or line at n=%d", per, n)
			}
		})
	}
}

// TestAppendsLinear: n append_file actions (of lines) to one file cost
// O(n).
func TestAppendsLinear(t *testing.T) {
	work := func(n int) int {
		var b strings.Builder
		b.WriteString("~~~act\nwrite_file log.txt\n~~~\n~~~\nstart\n\n~~~\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "~~~act\nappend_file log.txt\n~~~\n~~~\nline %d\n\n~~~\n", i)
		}
		doc, err := grammar.Parse(context.Background(), "plan.md", []byte(b.String()), grammar.Options{Dialect: grammar.DialectActs})
		if err != nil {
			t.Fatal(err)
		}
		c, err := newChecker(doc, t.TempDir(), Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range doc.Actions {
			c.action(context.Background(), a)
		}
		f := c.state("log.txt")
		if !strings.HasSuffix(f.data(), fmt.Sprintf("\nline %d\n", n-1)) || f.size != int64(len(f.data())) {
			t.Fatalf("log.txt = %.100q…", f.data())
		}
		return f.buf.work
	}
	small, large := work(1000), work(4000)
	if ratio := float64(large) / float64(small); ratio > 6 {
		t.Errorf("appends: work ×%.2f from n to 4n; linear is about ×4", ratio)
	}
}

// BenchmarkEditsOneFile: per edit family, n edits of one file of n lines
// (the quadratic case before: both grow), then n edits of a 4000-line file
// and 500 edits of a file of n lines.
func BenchmarkEditsOneFile(b *testing.B) {
	for _, fam := range editFamilies {
		for _, c := range []struct {
			name         string
			lines, edits int
		}{
			{"n=2000", 2000, 2000}, {"n=4000", 4000, 4000}, {"n=8000", 8000, 8000},
			{"edits=2000", 8000, 2000}, {"edits=4000", 8000, 4000}, {"edits=8000", 8000, 8000},
			{"lines=20000", 20000, 500}, {"lines=40000", 40000, 500}, {"lines=80000", 80000, 500},
		} {
			b.Run(fam.name+"/"+c.name, func(b *testing.B) {
				root := b.TempDir()
				doc := familyDoc(b, root, fam, c.lines, c.edits)
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					for _, d := range Check(context.Background(), doc, root, Options{}) {
						if d.Severity != ast.Info {
							b.Fatalf("unexpected diagnostic: %s", d.Format("edit.md"))
						}
					}
				}
			})
		}
	}
}
