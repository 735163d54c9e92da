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
// edited line is fixed.
type inLineEdit struct {
	old, new func(l int) string
	fix      func(l int, line string) string
	text     func(i int) string
	want     func(lines, edits int) string
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
	// a FIND across a line break that starts with the line break
	inLineFamily("acts/patch_file-short-head", grammar.DialectActs, "patch_file", inLineEdit{
		old: func(l int) string { return afterPrevious(l, fmt.Sprintf("\tv%d :=", l)) },
		new: func(l int) string { return afterPrevious(l, fmt.Sprintf("\tw%d =", l)) },
		fix: func(l int, line string) string {
			return strings.Replace(line, fmt.Sprintf("\tv%d :=", l), fmt.Sprintf("\tw%d =", l), 1)
		}}),
	inLineFamily("plan/EDIT-pairs-in-line", grammar.DialectPlan, "", inLineEdit{
		old: func(l int) string { return fmt.Sprintf("v%d := call(\"αβγ\"", l) },
		new: func(l int) string { return fmt.Sprintf("v%d := call(\"ä\"", l) }}),
	// short FIND texts: 4, 3 and 2
	// bytes on one line of a file of short tokens; a token three times
	// on its line (replace: every one); one byte, the file's only '#' or
	// '$' turned into the other by each edit; a text across a line break
	// whose both ends are short; plan EDIT pairs.
	inLineFamily("acts/patch_file-4-bytes", grammar.DialectActs, "patch_file", inLineEdit{
		old: func(l int) string { return "{" + shortTok(l) + "}" },
		new: func(l int) string { return "{" + shortTok(l) + "{}" }, text: shortText}),
	inLineFamily("acts/patch_file-3-bytes", grammar.DialectActs, "patch_file", inLineEdit{
		old: func(l int) string { return "{" + shortTok(l) },
		new: func(l int) string { return "{{" + shortTok(l) }, text: shortText}),
	inLineFamily("acts/patch_file-2-bytes", grammar.DialectActs, "patch_file", inLineEdit{
		old: shortTok,
		new: func(l int) string { return shortTok(l)[:1] + "}{" + shortTok(l)[1:] }, text: shortText}),
	inLineFamily("acts/replace-2-bytes-3-times", grammar.DialectActs, "replace", inLineEdit{
		old:  shortTok,
		new:  func(l int) string { return shortTok(l)[:1] + "{" + shortTok(l)[1:] },
		text: func(i int) string { return strings.Repeat("\t{"+shortTok(i)+"}", 3) + "\n" }}),
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
		}}),
	inLineFamily("acts/patch_file-short-ends", grammar.DialectActs, "patch_file", inLineEdit{
		old: func(l int) string { return shortPrevious(l, "\t{"+shortTok(l)) },
		new: func(l int) string { return shortPrevious(l, "\t\t{"+shortTok(l)) },
		fix: func(l int, line string) string { return "\t" + line }, text: shortText}),
	inLineFamily("plan/EDIT-pairs-short", grammar.DialectPlan, "", inLineEdit{
		old: func(l int) string { return "{" + shortTok(l) + "}" },
		new: func(l int) string { return "{" + shortTok(l) + "{}" }, text: shortText}),
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

// TestEditFamilies: every family of edits of one file gives the file it
// must, with no diagnostic but infos.
func TestEditFamilies(t *testing.T) {
	for _, fam := range editFamilies {
		t.Run(fam.name, func(t *testing.T) {
			root := t.TempDir()
			const n = 300
			doc := familyDoc(t, root, fam, n, n)
			c, err := newChecker(root, Options{})
			if err != nil {
				t.Fatal(err)
			}
			c.begin(0, doc, Options{})
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
			if f == nil || f.by == nil {
				t.Fatalf("%s: big.txt was not edited", fam.name)
			}
			if got, want := f.content, wantEdited(fam, n, n); got != want {
				t.Fatalf("%s: big.txt = %.200q…, want %.200q…", fam.name, got, want)
			}
		})
	}
}

// BenchmarkEditsOneFile: per edit family, n edits of one file of n lines
// (both grow: each edit copies the file, so time grows with their product,
// within the work budget at these sizes), then n edits of a 2000-line file
// and 500 edits of a file of n lines (the in-line families: the first
// only).
func BenchmarkEditsOneFile(b *testing.B) {
	for _, fam := range editFamilies {
		for _, c := range []struct {
			name         string
			lines, edits int
		}{
			{"n=250", 250, 250}, {"n=500", 500, 500}, {"n=1000", 1000, 1000},
			{"edits=500", 2000, 500}, {"edits=1000", 2000, 1000}, {"edits=2000", 2000, 2000},
			{"lines=10000", 10000, 500}, {"lines=20000", 20000, 500}, {"lines=40000", 40000, 500},
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
