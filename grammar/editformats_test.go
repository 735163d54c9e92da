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
			checkPathsOnly(t, "fuzz.md", src, dialect)
		}
		_ = Detect(src)
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
		"--- a\n+++ b\nno hunk\n":                     DialectActs,
		"*** Begin Patch\n*** End Patch\n":            DialectApplyPatch,
		"<<<<<<< SEARCH\n=======\n--- a\n+++ b\n@@\n": DialectSearchReplace,
	} {
		if got := Detect([]byte(src)); got != want {
			t.Errorf("Detect(%q) = %q, want %q", src, got, want)
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
