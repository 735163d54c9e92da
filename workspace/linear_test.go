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

// editFamily writes a document of edits edits to big.txt, a file of lines
// lines ("<line i>"), each edit adding a line "x" after one of them, in
// order; every family ends with the same content. A family with inLine
// edits a file of inLineText lines instead, each edit replacing a text
// within one line (no line break in the FIND text) of one line.
type editFamily struct {
	name    string
	dialect string
	doc     func(b *strings.Builder, lines, edits int)
	inLine  *inLineEdit
}

// inLineEdit is the FIND and REPLACE texts of the edit of line l, and
// (if not nil) what the edit makes of line l; else old(l) is replaced by
// new(l) in it. text (if not nil) is line i of the file, else
// inLineText; want (if not nil) is the file after the edits, else each
// edited line is fixed. short marks FIND texts that the short index
// (shortidx.go) finds.
type inLineEdit struct {
	old, new func(l int) string
	fix      func(l int, line string) string
	text     func(i int) string
	want     func(lines, edits int) string
	short    bool
}

// line is line i of the file the family edits.
func (e *inLineEdit) line(i int) string {
	if e.text != nil {
		return e.text(i)
	}
	return inLineText(i)
}

// inLineText is line i of the file the in-line families edit: code with
// unicode, a name at its start, a key three times, a tag at its end.
func inLineText(i int) string {
	return fmt.Sprintf("\tv%d := call(\"αβγ\", %d) + [key%d]*[key%d]*[key%d] // é end %d;\n", i, i, i, i, i, i)
}

// afterPrevious is s after the end of the line before line l (";\n"),
// or s alone for line 0.
func afterPrevious(l int, s string) string {
	if l == 0 {
		return s
	}
	return ";\n" + s
}

// inLineFamily is an in-line family of acts actions (patch_file: one
// occurrence; replace: every one) or of the pairs of one plan EDIT.
func inLineFamily(name, dialect, action string, e inLineEdit) editFamily {
	f := editFamily{name: name, dialect: dialect, inLine: &e}
	f.doc = func(b *strings.Builder, lines, edits int) {
		if dialect == grammar.DialectPlan {
			b.WriteString("# Edit\n\n- **Status:** Green\n- **Agent:** Developer\n- **Goal:** Edit.\n\n## Rationale\n```text\nA test.\n```\n\n## Action Plan\n\n### `EDIT`\n- **File Path:** `big.txt`\n- **Description:** Edit lines.\n")
		}
		for i := 0; i < edits; i++ {
			l := editedLine(i, lines, edits)
			if dialect == grammar.DialectPlan {
				fmt.Fprintf(b, "\n#### `FIND:`\n```\n%s\n```\n#### `REPLACE:`\n```\n%s\n```\n", e.old(l), e.new(l))
				continue
			}
			fmt.Fprintf(b, "~~~act\n%s big.txt\n~~~\n~~~\n%s\n~~~\n~~~\n%s\n~~~\n", action, e.old(l), e.new(l))
		}
	}
	return f
}

// editedLine is the line the i-th of edits edits follows.
func editedLine(i, lines, edits int) int { return i * lines / edits }

var editFamilies = []editFamily{
	{"search-replace/blocks", grammar.DialectSearchReplace, func(b *strings.Builder, lines, edits int) {
		for i := 0; i < edits; i++ {
			l := editedLine(i, lines, edits)
			fmt.Fprintf(b, "big.txt\n```\n<<<<<<< SEARCH\n<line %d>\n=======\n<line %d>\nx\n>>>>>>> REPLACE\n```\n", l, l)
		}
	}, nil},
	{"udiff/files", grammar.DialectUdiff, func(b *strings.Builder, lines, edits int) {
		for i := 0; i < edits; i++ {
			l := editedLine(i, lines, edits)
			fmt.Fprintf(b, "--- a/big.txt\n+++ b/big.txt\n@@ -%d,1 +%d,2 @@\n <line %d>\n+x\n", l+1+i, l+1+i, l)
		}
	}, nil},
	{"udiff/hunks", grammar.DialectUdiff, func(b *strings.Builder, lines, edits int) {
		b.WriteString("--- a/big.txt\n+++ b/big.txt\n")
		for i := 0; i < edits; i++ {
			l := editedLine(i, lines, edits)
			fmt.Fprintf(b, "@@ -%d,1 +%d,2 @@\n <line %d>\n+x\n", l+1, l+1+i, l)
		}
	}, nil},
	{"apply-patch/files", grammar.DialectApplyPatch, func(b *strings.Builder, lines, edits int) {
		b.WriteString("*** Begin Patch\n")
		for i := 0; i < edits; i++ {
			fmt.Fprintf(b, "*** Update File: big.txt\n@@\n <line %d>\n+x\n", editedLine(i, lines, edits))
		}
		b.WriteString("*** End Patch\n")
	}, nil},
	{"apply-patch/chunks", grammar.DialectApplyPatch, func(b *strings.Builder, lines, edits int) {
		b.WriteString("*** Begin Patch\n*** Update File: big.txt\n")
		for i := 0; i < edits; i++ {
			fmt.Fprintf(b, "@@\n <line %d>\n+x\n", editedLine(i, lines, edits))
		}
		b.WriteString("*** End Patch\n")
	}, nil},
	{"acts/patch_file", grammar.DialectActs, func(b *strings.Builder, lines, edits int) {
		for i := 0; i < edits; i++ {
			l := editedLine(i, lines, edits)
			fmt.Fprintf(b, "~~~act\npatch_file big.txt\n~~~\n~~~\n<line %d>\n\n~~~\n~~~\n<line %d>\nx\n\n~~~\n", l, l)
		}
	}, nil},
	{"plan/EDIT-pairs", grammar.DialectPlan, func(b *strings.Builder, lines, edits int) {
		b.WriteString("# Edit\n\n- **Status:** Green\n- **Agent:** Developer\n- **Goal:** Edit.\n\n## Rationale\n```text\nA test.\n```\n\n## Action Plan\n\n### `EDIT`\n- **File Path:** `big.txt`\n- **Description:** Add lines.\n")
		for i := 0; i < edits; i++ {
			l := editedLine(i, lines, edits)
			fmt.Fprintf(b, "\n#### `FIND:`\n```\n<line %d>\n\n```\n#### `REPLACE:`\n```\n<line %d>\nx\n\n```\n", l, l)
		}
	}, nil},
	// FIND texts within one line: medium ones with unicode whose start is
	// on every line, short ones at a line's start and end, one that occurs
	// three times (replace: all of them), and plan EDIT pairs.
	inLineFamily("acts/patch_file-in-line", grammar.DialectActs, "patch_file", inLineEdit{
		old: func(l int) string { return fmt.Sprintf("call(\"αβγ\", %d)", l) },
		new: func(l int) string { return fmt.Sprintf("call(\"ΑΒΓ\", %d)", l) }}),
	inLineFamily("acts/patch_file-line-start", grammar.DialectActs, "patch_file", inLineEdit{
		old: func(l int) string { return fmt.Sprintf("\tv%d :=", l) },
		new: func(l int) string { return fmt.Sprintf("\tw%d =", l) }}),
	inLineFamily("acts/patch_file-line-end", grammar.DialectActs, "patch_file", inLineEdit{
		old: func(l int) string { return fmt.Sprintf("end %d;", l) },
		new: func(l int) string { return fmt.Sprintf("END %d; ok", l) }}),
	inLineFamily("acts/replace-3-times", grammar.DialectActs, "replace", inLineEdit{
		old: func(l int) string { return fmt.Sprintf("[key%d]", l) },
		new: func(l int) string { return fmt.Sprintf("[KEY%d]", l) }}),
	// a FIND across a line break whose part before it is too short for
	// the line index: found by its part after it in the substring index
	inLineFamily("acts/patch_file-short-head", grammar.DialectActs, "patch_file", inLineEdit{
		old: func(l int) string { return afterPrevious(l, fmt.Sprintf("\tv%d :=", l)) },
		new: func(l int) string { return afterPrevious(l, fmt.Sprintf("\tw%d =", l)) },
		fix: func(l int, line string) string {
			return strings.Replace(line, fmt.Sprintf("\tv%d :=", l), fmt.Sprintf("\tw%d =", l), 1)
		}}),
	inLineFamily("plan/EDIT-pairs-in-line", grammar.DialectPlan, "", inLineEdit{
		old: func(l int) string { return fmt.Sprintf("v%d := call(\"αβγ\"", l) },
		new: func(l int) string { return fmt.Sprintf("v%d := call(\"ä\"", l) }}),
	// FIND texts shorter than minSub bytes (the short index): 4, 3 and 2
	// bytes on one line of a file of short tokens; a token three times
	// on its line (replace: every one); one byte, the file's only '#' or
	// '$' turned into the other by each edit; a text across a line break
	// whose both ends are short; plan EDIT pairs.
	inLineFamily("acts/patch_file-4-bytes", grammar.DialectActs, "patch_file", inLineEdit{
		old: func(l int) string { return "{" + shortTok(l) + "}" },
		new: func(l int) string { return "{" + shortTok(l) + "{}" }, text: shortText, short: true}),
	inLineFamily("acts/patch_file-3-bytes", grammar.DialectActs, "patch_file", inLineEdit{
		old: func(l int) string { return "{" + shortTok(l) },
		new: func(l int) string { return "{{" + shortTok(l) }, text: shortText, short: true}),
	inLineFamily("acts/patch_file-2-bytes", grammar.DialectActs, "patch_file", inLineEdit{
		old: shortTok,
		new: func(l int) string { return shortTok(l)[:1] + "}{" + shortTok(l)[1:] }, text: shortText, short: true}),
	inLineFamily("acts/replace-2-bytes-3-times", grammar.DialectActs, "replace", inLineEdit{
		old:  shortTok,
		new:  func(l int) string { return shortTok(l)[:1] + "{" + shortTok(l)[1:] },
		text: func(i int) string { return strings.Repeat("\t{"+shortTok(i)+"}", 3) + "\n" }, short: true}),
	inLineFamily("acts/patch_file-1-byte", grammar.DialectActs, "patch_file", inLineEdit{
		old: func(l int) string { return "#$"[l%2:][:1] },
		new: func(l int) string { return "$#"[l%2:][:1] },
		text: func(i int) string {
			if i == 7 {
				return "\t{#}\n"
			}
			return shortText(i)
		},
		want: func(lines, edits int) string {
			var b strings.Builder
			for i := 0; i < lines; i++ {
				if i == 7 {
					b.WriteString("\t{" + "#$"[edits%2:][:1] + "}\n")
					continue
				}
				b.WriteString(shortText(i))
			}
			return b.String()
		}, short: true}),
	inLineFamily("acts/patch_file-short-ends", grammar.DialectActs, "patch_file", inLineEdit{
		old: func(l int) string { return shortPrevious(l, "\t{"+shortTok(l)) },
		new: func(l int) string { return shortPrevious(l, "\t\t{"+shortTok(l)) },
		fix: func(l int, line string) string { return "\t" + line }, text: shortText, short: true}),
	inLineFamily("plan/EDIT-pairs-short", grammar.DialectPlan, "", inLineEdit{
		old: func(l int) string { return "{" + shortTok(l) + "}" },
		new: func(l int) string { return "{" + shortTok(l) + "{}" }, text: shortText, short: true}),
}

// shortAlphabet is what shortTok makes tokens of: printable ASCII but
// the braces around them, '#' and '$'.
var shortAlphabet = func() string {
	var b strings.Builder
	for c := byte('!'); c <= '~'; c++ {
		if !strings.ContainsRune("{}#$", rune(c)) {
			b.WriteByte(c)
		}
	}
	return b.String()
}()

// shortTok is line i's token: two bytes that are nowhere else in the
// file (up to 90² lines).
func shortTok(i int) string {
	n := len(shortAlphabet)
	return string([]byte{shortAlphabet[i/n%n], shortAlphabet[i%n]})
}

// shortText is line i of the file the short families edit.
func shortText(i int) string { return "\t{" + shortTok(i) + "}\n" }

// shortPrevious is s after the end of the line before line l, or s alone
// for line 0.
func shortPrevious(l int, s string) string {
	if l == 0 {
		return s
	}
	return shortTok(l-1) + "}\n" + s
}

// familyDoc writes big.txt under root and parses the family's document.
func familyDoc(tb testing.TB, root string, fam editFamily, lines, edits int) *ast.Document {
	tb.Helper()
	var file strings.Builder
	for i := 0; i < lines; i++ {
		if fam.inLine != nil {
			file.WriteString(fam.inLine.line(i))
		} else {
			fmt.Fprintf(&file, "<line %d>\n", i)
		}
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
func wantEdited(fam editFamily, lines, edits int) string {
	if e := fam.inLine; e != nil && e.want != nil {
		return e.want(lines, edits)
	}
	after := make([]int, lines)
	for i := 0; i < edits; i++ {
		after[editedLine(i, lines, edits)]++
	}
	var b strings.Builder
	for i := 0; i < lines; i++ {
		if e := fam.inLine; e != nil {
			l := e.line(i)
			switch {
			case after[i] > 0 && e.fix != nil:
				l = e.fix(i, l)
			case after[i] > 0:
				l = strings.ReplaceAll(l, e.old(i), e.new(i))
			}
			b.WriteString(l)
			continue
		}
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
	c.cap.NoLimit = true // every diagnostic, each looked at
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
	if got, want := f.data(), wantEdited(fam, lines, edits); got != want {
		t.Fatalf("%s: big.txt = %.200q…, want %.200q…", fam.name, got, want)
	}
	return f.buf
}

// TestEditsLinear pins that n edits of one file of n lines cost O(n), not
// O(n²): the bytes the simulation copies, scans and compares in the file
// (and the tree steps it takes), counted by the text, grow about 4 times
// (with a log factor for the tree) from n to 4n. Copying the file per edit,
// as before, made it 16 times; a scan of the file per FIND text within a
// line, as before the substring index (substr.go), ×15 or more; a scan per
// FIND text shorter than minSub bytes, as before the short index
// (shortidx.go), ×15.8.
func TestEditsLinear(t *testing.T) {
	const n = 500
	for _, fam := range editFamilies {
		t.Run(fam.name, func(t *testing.T) {
			buf := runFamily(t, fam, n, n)
			switch {
			case fam.inLine == nil:
			case fam.inLine.short && buf.short == nil:
				t.Errorf("the short FIND texts were not looked up in the short index")
			case !fam.inLine.short && buf.sub == nil:
				t.Errorf("the FIND texts within a line were not looked up in the substring index")
			}
			small := buf.work
			large := runFamily(t, fam, 4*n, 4*n).work
			ratio := float64(large) / float64(small)
			t.Logf("work %d at n=%d, %d at 4n: ×%.2f", small, n, large, ratio)
			if ratio > 6 {
				t.Errorf("work grows ×%.2f from n=%d edits of a %d-line file to 4n of 4n lines; linear is about ×4, quadratic ×16", ratio, n, n)
			}
			// the in-line families' lines are longer: each edit of one
			// re-files it in the indexes and looks for its FIND in it
			limit := 400
			switch e := fam.inLine; {
			case e != nil && e.short:
				// short lines: the tree steps count; each occurrence
				// replaced is one edit
				limit = max(400, 20*len(e.line(n))) * max(1, strings.Count(e.line(n), e.old(n)))
			case e != nil:
				limit = 20 * len(e.line(n))
			}
			if per := small / (2 * n); per > limit {
				t.Errorf("%d units of work per edit or line at n=%d (at most %d)", per, n, limit)
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
		c.cap.NoLimit = true // every diagnostic, each looked at
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
// (the quadratic case before: both grow), then n edits of an 8000-line file
// and 500 edits of a file of n lines (the in-line families: the first
// only).
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
			if fam.inLine != nil && !strings.HasPrefix(c.name, "n=") {
				continue // the in-line families: n edits of n lines only
			}
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

// overlayCost checks src's actions with a Checker, as `plangram check
// --root` does (the document's bytes as Options.Source, so the overlay
// keeps offsets into it), against an empty root, and returns the
// overlay's work (the slots its table's lookups and growths visit and the
// entries whose path they read) and the allocations of the check.
func overlayCost(t *testing.T, src []byte) (work int, allocs uint64) {
	t.Helper()
	doc, err := grammar.Parse(context.Background(), "plan.md", src, grammar.Options{Dialect: grammar.DialectActs})
	if err != nil {
		t.Fatal(err)
	}
	k := NewChecker(t.TempDir(), doc.Dialect, Options{Source: src})
	defer k.Close()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for _, a := range doc.Actions {
		k.Action(context.Background(), a)
	}
	runtime.ReadMemStats(&after)
	for _, d := range k.Diagnostics(doc.Diagnostics, doc.Span.Start) {
		if d.Severity == ast.Error {
			t.Fatalf("unexpected diagnostic: %s", d.Format("plan.md"))
		}
	}
	return k.c.o.work, after.Mallocs - before.Mallocs
}

// TestOverlayLinear pins that the workspace overlay's cost per action does
// not grow with the number of files a plan creates or with the number of
// times it edits one file (issue 10: 10k → 40k write_file actions took
// 0.8 → 17 s, the overlay scanning every earlier path per path): from n
// to 4n actions, the overlay's work (slots visited, paths read) and the
// allocations grow about 4 times (a scan of the earlier paths makes the
// first 16 times), and the work per action is bounded.
func TestOverlayLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("checks 50k actions")
	}
	for _, c := range []struct {
		name string
		doc  func(n int) []byte
		n    int
	}{
		// new files in 100 new directories (BenchmarkCheckManyFiles)
		{"files", manyFilesPlan, 10000},
		// new files in one directory, names that differ only at the end
		{"files-one-dir", func(n int) []byte {
			var b strings.Builder
			for i := 0; i < n; i++ {
				fmt.Fprintf(&b, "~~~act\nwrite_file out/%s%d.txt\n~~~\n~~~\nfile %d\n~~~\n", strings.Repeat("long_name_", 8), i, i)
			}
			return []byte(b.String())
		}, 10000},
		// one file of 100 lines edited n times (BenchmarkCheckRepeatedEdits)
		{"edits-one-file", func(n int) []byte { return editsPlan(100, n) }, 2500},
		// one file written, appended to and written again, n times
		{"rewrites-one-file", func(n int) []byte {
			var b strings.Builder
			for i := 0; i < n; i++ {
				fmt.Fprintf(&b, "~~~act\nwrite_file log.txt\n~~~\n~~~\nrun %d\n~~~\n~~~act\nappend_file log.txt\n~~~\n~~~\nmore %d\n~~~\n", i, i)
			}
			return []byte(b.String())
		}, 5000},
	} {
		t.Run(c.name, func(t *testing.T) {
			work, allocs := overlayCost(t, c.doc(c.n))
			work4, allocs4 := overlayCost(t, c.doc(4*c.n))
			t.Logf("n=%d: overlay work %d, %d allocations; 4n: %d, %d (×%.2f, ×%.2f)", c.n, work, allocs, work4, allocs4,
				float64(work4)/float64(work), float64(allocs4)/float64(allocs))
			if r := float64(work4) / float64(work); r > 6 {
				t.Errorf("the overlay's work grows ×%.2f from n=%d actions to 4n; linear is about ×4, a scan of the earlier paths ×16", r, c.n)
			}
			if r := float64(allocs4) / float64(allocs); r > 6 {
				t.Errorf("allocations grow ×%.2f from n=%d actions to 4n; linear is about ×4", r, c.n)
			}
			// about 12 lookups a new file (each directory above it
			// too), of about 7 slots and entries each
			if per := work4 / (4 * c.n); per > 200 {
				t.Errorf("the overlay did %d units of work per action at 4n=%d (at most 200)", per, 4*c.n)
			}
		})
	}
}

// TestAmbiguousEditsLinear: n edits of a file of 2n lines whose FIND text
// (a short token) is on two lines each are n find-ambiguous errors that
// cost O(n log n) in all, not a pass over the file each: the file is kept
// and indexed although no edit changes it, and the occurrences are
// counted and listed from the index.
func TestAmbiguousEditsLinear(t *testing.T) {
	work := func(n int) (int, uint64) {
		root := t.TempDir()
		doc := ambiguousDoc(t, root, n)
		c, err := newChecker(doc, root, Options{})
		if err != nil {
			t.Fatal(err)
		}
		c.cap.NoLimit = true      // every diagnostic, each looked at
		texts := map[*text]bool{} // the work of every text made counts
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for _, a := range doc.Actions {
			c.action(context.Background(), a)
			texts[c.kept[c.o.intern("big.txt")]] = true
		}
		runtime.ReadMemStats(&after)
		alloc := after.TotalAlloc - before.TotalAlloc
		errs := 0
		for _, d := range c.diags {
			if d.Severity == ast.Error {
				if d.Code != CodeFindAmbiguous {
					t.Fatalf("%s", d.Format("edit.md"))
				}
				if i := errs; !strings.Contains(d.Message, fmt.Sprintf("occurs 2 times in big.txt (lines %d, %d)", i+1, n+i+1)) {
					t.Fatalf("%s", d.Format("edit.md"))
				}
				errs++
			}
		}
		if errs != n {
			t.Fatalf("%d find-ambiguous errors, want %d", errs, n)
		}
		if buf := c.kept[c.o.intern("big.txt")]; buf == nil || buf.short == nil {
			t.Fatalf("big.txt was not kept with its short index")
		}
		total := 0
		for buf := range texts {
			total += buf.work
		}
		return total, alloc
	}
	small, smallAlloc := work(500)
	large, largeAlloc := work(2000)
	ratio := float64(large) / float64(small)
	t.Logf("work %d at n=500, %d at 4n: ×%.2f", small, large, ratio)
	if ratio > 6 {
		t.Errorf("work grows ×%.2f from n=500 failing edits to 4n; linear is about ×4, quadratic ×16", ratio)
	}
	// the report of each (its lines listed) reads only its lines
	ratio = float64(largeAlloc) / float64(smallAlloc)
	t.Logf("bytes allocated %d at n=500, %d at 4n: ×%.2f", smallAlloc, largeAlloc, ratio)
	if ratio > 8 {
		t.Errorf("bytes allocated grow ×%.2f from n=500 failing edits to 4n; linear is about ×4, quadratic ×16", ratio)
	}
}

// ambiguousDoc writes big.txt under root, the n lines of shortText twice,
// and parses n patch_file actions whose FIND text is a token of it: each
// occurs twice.
func ambiguousDoc(tb testing.TB, root string, n int) *ast.Document {
	tb.Helper()
	var file strings.Builder
	for copy := 0; copy < 2; copy++ {
		for i := 0; i < n; i++ {
			file.WriteString(shortText(i))
		}
	}
	if err := os.WriteFile(filepath.Join(root, "big.txt"), []byte(file.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "~~~act\npatch_file big.txt\n~~~\n~~~\n{%s}\n~~~\n~~~\n{%s!}\n~~~\n", shortTok(i), shortTok(i))
	}
	doc, err := grammar.Parse(context.Background(), "edit.md", []byte(b.String()), grammar.Options{Dialect: grammar.DialectActs})
	if err != nil {
		tb.Fatal(err)
	}
	return doc
}

// BenchmarkAmbiguousEdits: n find-ambiguous patch_file edits of a file of
// 2n lines (each FIND text on two of them).
func BenchmarkAmbiguousEdits(b *testing.B) {
	for _, n := range []int{1000, 2000, 4000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			root := b.TempDir()
			doc := ambiguousDoc(b, root, n)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if got := countDiags(Check(context.Background(), doc, root, Options{})); got != n {
					b.Fatalf("%d diagnostics, want %d", got, n)
				}
			}
		})
	}
}
