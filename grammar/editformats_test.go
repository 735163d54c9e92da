package grammar

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"

	"github.com/plangram/plangram/ast"
)

// editDialects are the edit-format dialects; each has its golden directory.
var editDialects = []string{DialectSearchReplace, DialectUdiff, DialectApplyPatch}

// TestEditFormatsGolden parses every golden input of the edit formats,
// pins its JSON and diagnostics, checks that no byte is lost and that
// --dialect auto detects the dialect (inputs named *.nodetect.md are
// exempt: they show what detection leaves alone).
func TestEditFormatsGolden(t *testing.T) {
	for _, dialect := range editDialects {
		files, err := filepath.Glob("../golden/" + dialect + "/*.md")
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no golden inputs: %v", dialect, err)
		}
		g := goldie.New(t, goldie.WithFixtureDir("../golden/"+dialect), goldie.WithNameSuffix(".golden"))
		for _, f := range files {
			name := strings.TrimSuffix(filepath.Base(f), ".md")
			t.Run(dialect+"/"+name, func(t *testing.T) {
				src, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				doc, err := Parse(context.Background(), filepath.Base(f), src, Options{Dialect: dialect})
				if err != nil {
					t.Fatal(err)
				}
				checkLossless(t, src, doc)
				if !strings.Contains(name, ".nodetect") {
					if got := Detect(src); got != dialect {
						t.Errorf("Detect = %q, want %q", got, dialect)
					}
				}
				js, diags := goldenDoc(t, filepath.Base(f), doc)
				g.Assert(t, name+".json", js)
				g.Assert(t, name+".diag", diags)
			})
		}
	}
}

// checkLossless asserts the invariants of an acts or edit-format document:
// head blocks, argument or hunk blocks, stray blocks and prose tile the
// source in order; every block's content is the source its content span
// names; every position agrees with its offset; parameter spans lie inside
// the source.
func checkLossless(t testing.TB, src []byte, doc *ast.Document) {
	t.Helper()
	lines := ast.NewLines(src)
	checkSpan := func(what string, s ast.Span) {
		if s.Start.Offset < 0 || s.End.Offset > len(src) || s.Start.Offset > s.End.Offset {
			t.Fatalf("%s: bad span %v for %d bytes", what, s, len(src))
		}
		if s.Start != lines.Pos(s.Start.Offset) || s.End != lines.Pos(s.End.Offset) {
			t.Fatalf("%s: span %+v disagrees with its offsets", what, s)
		}
	}
	type piece struct{ start, end int }
	var pieces []piece
	addBlock := func(b *ast.Block) {
		checkSpan("block", b.Span)
		checkSpan("block content", b.ContentSpan)
		if got := string(src[b.ContentSpan.Start.Offset:b.ContentSpan.End.Offset]); got != b.Content {
			t.Fatalf("block at %v: content %q != source slice %q", b.Span, b.Content, got)
		}
		if b.ContentSpan.Start.Offset < b.Span.Start.Offset || b.ContentSpan.End.Offset > b.Span.End.Offset {
			t.Fatalf("block content span %v outside block span %v", b.ContentSpan, b.Span)
		}
		pieces = append(pieces, piece{b.Span.Start.Offset, b.Span.End.Offset})
	}
	for _, b := range doc.Blocks {
		addBlock(b)
	}
	for _, a := range doc.Actions {
		checkSpan("action", a.Span)
		checkSpan("action name", a.NameSpan)
		if a.Head != nil {
			addBlock(a.Head)
		}
		for _, b := range a.Blocks {
			addBlock(b)
		}
		for _, p := range a.Params {
			if p.Span != nil {
				checkSpan("param "+p.Name, *p.Span)
			}
		}
	}
	for _, p := range doc.Prose {
		checkSpan("prose", p.Span)
		if got := string(src[p.Span.Start.Offset:p.Span.End.Offset]); got != p.Text {
			t.Fatalf("prose %q != source slice %q", p.Text, got)
		}
		pieces = append(pieces, piece{p.Span.Start.Offset, p.Span.End.Offset})
	}
	covered := make([]int, len(src)+1)
	for _, p := range pieces {
		covered[p.start]++
		covered[p.end]--
	}
	n := 0
	for i := 0; i < len(src); i++ {
		n += covered[i]
		if n != 1 {
			t.Fatalf("byte %d (%q) covered %d times", i, src[i], n)
		}
	}
	for _, d := range doc.Diagnostics {
		checkSpan("diagnostic "+d.Message, d.Span)
	}
}

func FuzzEditFormats(f *testing.F) {
	for _, dialect := range editDialects {
		files, _ := filepath.Glob("../golden/" + dialect + "/*.md")
		for _, file := range files {
			if data, err := os.ReadFile(file); err == nil {
				f.Add(data)
			}
		}
	}
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, dialect := range editDialects {
			doc, err := Parse(ctx, "fuzz.md", src, Options{Dialect: dialect})
			if err != nil {
				t.Fatal(err)
			}
			checkLossless(t, src, doc)
			if _, err := json.Marshal(doc); err != nil {
				t.Fatal(err)
			}
		}
		_ = Detect(src)
		// Under auto: detection, and the looks-like-edit warning of a
		// document with no plan.
		doc, err := Parse(ctx, "fuzz.md", src, Options{})
		if err != nil {
			t.Fatal(err)
		}
		checkLossless(t, src, doc)
	})
}

// TestDetectKeepsActsAndPlans: documents that are plans or hold an act
// block keep their dialect whatever edit-format text they show.
func TestDetectKeepsActsAndPlans(t *testing.T) {
	for src, want := range map[string]string{
		"~~~act\nwrite_file a.txt\n~~~\n~~~\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n~~~\n":              DialectActs,
		"~~~act\nwrite_file a.diff\n~~~\n~~~\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n~~~\n":                      DialectActs,
		"# Plan\n\n## Action Plan\n\n### CREATE\n- **File Path:** p\n```\n*** Begin Patch\n*** End Patch\n```\n": DialectPlan,
		"just prose\n":                                DialectActs,
		"<<<<<<< SEARCH\nno divider\n":                DialectSearchReplace,
		"<<<< SEARCH\ntoo short\n":                    DialectActs,
		"--- a\n+++ b\nno hunk\n":                     DialectUdiff, // starts as a diff: LeadingEditFormat
		"text\n--- a\n+++ b\nno hunk\n":               DialectActs,
		"*** Begin Patch\n*** End Patch\n":            DialectApplyPatch,
		"<<<<<<< SEARCH\n=======\n--- a\n+++ b\n@@\n": DialectSearchReplace,
	} {
		if got := Detect([]byte(src)); got != want {
			t.Errorf("Detect(%q) = %q, want %q", src, got, want)
		}
	}
}

// TestDetectStructureFirst: a document that starts as a diff or an
// apply-patch envelope is one, and the lines of a hunk or an envelope are
// content: a `git diff` of a Markdown file whose context shows an act fence
// is a diff, not an acts document (issue 28, item 4).
func TestDetectStructureFirst(t *testing.T) {
	gitDiff := "diff --git a/docs/plan.md b/docs/plan.md\nindex ab54198..c4110e9 100644\n--- a/docs/plan.md\n+++ b/docs/plan.md\n@@ -3,3 +3,4 @@\n ```act\n write_file a.txt\n ```\n+more\n"
	for _, c := range []struct{ name, src, want string }{
		{"git diff first", gitDiff, DialectUdiff},
		{"blank lines and a BOM first", "\uFEFF\n\n" + gitDiff, DialectUdiff},
		{"--- +++ first", "--- a/x.md\n+++ b/x.md\n@@ -1,3 +1,3 @@\n ```act\n-write_file a\n+write_file b\n ```\n", DialectUdiff},
		{"--- +++ first, CRLF", "--- a/x.md\r\n+++ b/x.md\r\n@@ -1 +1 @@\r\n ```act\r\n", DialectUdiff},
		{"prose then a diff", "Here is the change:\n\n" + gitDiff + "\nThat is all.\n", DialectUdiff},
		{"prose then two file diffs", "Change:\n\n--- a/x.md\n+++ b/x.md\n@@ -1 +1 @@\n-a\n+b\n--- a/y.md\n+++ b/y.md\n@@ -1,2 +1,2 @@\n ~~~act\n-echo a\n+echo b\n", DialectUdiff},
		{"a hunk that adds a plan's headings", "Change:\n\n--- a/p.md\n+++ b/p.md\n@@ -1 +1,3 @@\n x\n+# T\n+## Action Plan\n", DialectUdiff},
		{"Begin Patch first", "*** Begin Patch\n*** Update File: a.md\n@@\n ```act\n-echo a\n+echo b\n ```\n*** End Patch\n", DialectApplyPatch},
		{"prose then an envelope", "Sure:\n\n*** Begin Patch\n*** Update File: a.md\n@@\n ```act\n-echo a\n+echo b\n ```\n*** End Patch\n", DialectApplyPatch},
		{"an act block after a diff", "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n", DialectUdiff},
		{"acts after the hunk", "Change:\n\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n\nThen:\n\n```act\necho hi\n```\n", DialectActs},
		{"@@ without a +++ line before it", "Note:\n@@ -1 +1 @@\n ```act\n echo hi\n ```\n", DialectActs},
		{"a diff in a fenced block of an acts document", "```act\necho hi\n```\n\n```diff\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n```\n", DialectActs},
	} {
		if got := Detect([]byte(c.src)); got != c.want {
			t.Errorf("%s: Detect = %q, want %q", c.name, got, c.want)
		}
	}
}

func ExampleParseSearchReplace() {
	src := "src/app.py\n```python\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n```\n"
	doc, _ := ParseSearchReplace(context.Background(), "edit.md", []byte(src))
	a := doc.Actions[0]
	fmt.Printf("%s %s: %q -> %q\n", a.Name, a.Params.String("path"), a.Params.String("search"), a.Params.String("replace"))
	fmt.Println("SEARCH text at", a.Blocks[0].ContentSpan.Start)
	// Output:
	// search_replace src/app.py: "x = 1\n" -> "x = 2\n"
	// SEARCH text at 4:1
}

func ExampleParseUdiff() {
	src := "--- a/greet.py\n+++ b/greet.py\n@@ -1,2 +1,2 @@\n def greet():\n-    print('hi')\n+    print('hello')\n"
	doc, _ := ParseUdiff(context.Background(), "change.diff", []byte(src))
	a := doc.Actions[0]
	h := a.Params
	hunks, _ := h.Get("hunks")
	fmt.Println(a.Name, h.String("path"), len(hunks.([]any)), "hunk at", a.Blocks[0].Span)
	// Output:
	// update_file greet.py 1 hunk at 3:1-7:1
}

func ExampleParseApplyPatch() {
	src := "*** Begin Patch\n*** Add File: hello.txt\n+Hello world\n*** Delete File: old.txt\n*** End Patch\n"
	doc, _ := ParseApplyPatch(context.Background(), "patch.txt", []byte(src))
	for _, a := range doc.Actions {
		fmt.Println(a.Name, a.Params.String("path"), a.NameSpan.Start)
	}
	// Output:
	// add_file hello.txt 2:1
	// delete_file old.txt 4:1
}

// TestLooksLikeEdit: under auto, a document with no plan that holds a hunk
// without its file header, or apply-patch lines without their envelope,
// gets one looks-like-edit warning at the first of them; an explicit
// dialect, a real diff and a document with a plan get none (issue 28,
// item 1).
func TestLooksLikeEdit(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name, src, dialect string
		want               string // "line:col" of the warning, or ""
		more               bool   // the message counts more places
	}{
		{"fenced hunk", "Sure:\n\n```diff\n@@ -1 +1 @@\n-a\n+b\n```\n", "auto", "4:1", false},
		{"bare @@ hunk", "Sure:\n\n```\n@@\n-a\n+b\n```\n", "", "4:1", false},
		{"two hunks in a run count once", "```diff\n@@ -1 +1 @@\n-a\n+b\n@@ -5 +5 @@\n-c\n+d\n```\n", "auto", "2:1", false},
		{"two blocks", "```diff\n@@ -1 +1 @@\n-a\n```\n\n```diff\n@@ -5 +5 @@\n-c\n```\n", "auto", "2:1", true},
		{"apply-patch lines without the envelope", "Here:\n\n```\n*** Update File: a.txt\n@@\n-a\n+b\n```\n", "auto", "4:1", false},
		{"explicit acts", "```diff\n@@ -1 +1 @@\n-a\n+b\n```\n", "acts", "", false},
		{"prose about @@", "The @@ marker starts a hunk.\n\n@@\nnot a hunk line\n", "auto", "", false},
		{"a real diff", "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n", "auto", "", false},
		{"an acts plan showing a hunk", "```act\necho hi\n```\n\n```diff\n@@ -1 +1 @@\n-a\n```\n", "auto", "", false},
	} {
		doc, err := Parse(ctx, "r.md", []byte(c.src), Options{Dialect: c.dialect})
		if err != nil {
			t.Fatal(err)
		}
		var got *ast.Diagnostic
		for _, d := range doc.Diagnostics {
			if d.Code == CodeLooksLikeEdit {
				if got != nil {
					t.Errorf("%s: two %s diagnostics", c.name, CodeLooksLikeEdit)
				}
				got = d
			}
		}
		switch {
		case c.want == "" && got != nil:
			t.Errorf("%s: unexpected %s", c.name, got.Format("r.md"))
		case c.want != "" && got == nil:
			t.Errorf("%s: no %s warning; diagnostics %v", c.name, CodeLooksLikeEdit, doc.Diagnostics)
		case got != nil:
			if pos := fmt.Sprintf("%d:%d", got.Span.Start.Line, got.Span.Start.Col); pos != c.want || got.Severity != ast.Warning {
				t.Errorf("%s: %s at %s, want a warning at %s", c.name, got.Severity, pos, c.want)
			}
			if strings.Contains(got.Message, "more places") != c.more {
				t.Errorf("%s: message %q", c.name, got.Message)
			}
		}
	}
}

// TestFileDialect: under auto a .diff or .patch file is a unified diff by
// its name; an explicit dialect and other names are left alone.
func TestFileDialect(t *testing.T) {
	for _, c := range []struct{ name, dialect, want string }{
		{"change.diff", "auto", DialectUdiff},
		{"x/0001-fix.PATCH", "", DialectUdiff},
		{"change.diff", DialectActs, DialectActs},
		{"plan.md", "auto", "auto"},
		{"diff", "auto", "auto"},
	} {
		if got := FileDialect(c.name, c.dialect); got != c.want {
			t.Errorf("FileDialect(%q, %q) = %q, want %q", c.name, c.dialect, got, c.want)
		}
	}
}

// TestHunkHeader pins how a udiff hunk header splits (GNU diff's unified
// format: `@@ -l[,s] +l[,s] @@`, a count of 1 left out) and what is not
// a numbered header.
func TestHunkHeader(t *testing.T) {
	for _, c := range []struct {
		in      string
		nums    [4]string
		section string
		ok      bool
	}{
		{"@@ -1,2 +3,4 @@", [4]string{"1", "2", "3", "4"}, "", true},
		{"@@ -1 +3 @@ func f() {", [4]string{"1", "", "3", ""}, "func f() {", true},
		{"@@ -10,0 +11 @@x", [4]string{"10", "0", "11", ""}, "x", true},
		{"@@ -1,2 +3,4 @@  two", [4]string{"1", "2", "3", "4"}, " two", true},
		{"@@ ... @@", [4]string{}, "", false},
		{"@@ -1, +3 @@", [4]string{}, "", false},
		{"@@ -1 +3", [4]string{}, "", false},
		{"@@ -1  +3 @@", [4]string{}, "", false},
		{"@@ -a +3 @@", [4]string{}, "", false},
		{"@@ -1,2 +3,4@@", [4]string{}, "", false},
	} {
		nums, section, ok := hunkHeader(c.in)
		if ok != c.ok || (ok && (nums != c.nums || section != c.section)) {
			t.Errorf("hunkHeader(%q) = %q, %q, %v; want %q, %q, %v", c.in, nums, section, ok, c.nums, c.section, c.ok)
		}
	}
}
