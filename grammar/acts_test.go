package grammar

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sebdah/goldie/v2"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/lexer"
)

// goldenDoc renders what golden files pin for a document: its JSON and its
// diagnostics as printed by the CLI.
func goldenDoc(t *testing.T, name string, doc *ast.Document) (js, diags []byte) {
	t.Helper()
	js, err := ast.JSON(doc)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, d := range doc.Diagnostics {
		b.WriteString(d.Format(name))
		b.WriteByte('\n')
	}
	return js, []byte(b.String())
}

// fenceFromName reads a forced fence from a golden file name
// ("x.fence-tilde.md"), else 0 (detect).
func fenceFromName(name string) byte {
	switch {
	case strings.Contains(name, ".fence-tilde."):
		return lexer.Tilde
	case strings.Contains(name, ".fence-backtick."):
		return lexer.Backtick
	}
	return 0
}

func TestActsGolden(t *testing.T) {
	files, err := filepath.Glob("../golden/acts/*.md")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	g := goldie.New(t, goldie.WithFixtureDir("../golden/acts"), goldie.WithNameSuffix(".golden"))
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".md")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			doc, err := Parse(context.Background(), filepath.Base(f), src, Options{Dialect: DialectActs, Fence: fenceFromName(filepath.Base(f))})
			if err != nil {
				t.Fatal(err)
			}
			checkLossless(t, src, doc)
			js, diags := goldenDoc(t, filepath.Base(f), doc)
			g.Assert(t, name+".json", js)
			g.Assert(t, name+".diag", diags)
		})
	}
}

func TestActsSemantics(t *testing.T) {
	ctx := context.Background()
	parse := func(src string) *ast.Document {
		t.Helper()
		doc, err := Parse(ctx, "t.md", []byte(src), Options{Dialect: DialectActs})
		if err != nil {
			t.Fatal(err)
		}
		checkLossless(t, []byte(src), doc)
		return doc
	}
	t.Run("content minus one line ending", func(t *testing.T) {
		for src, want := range map[string]string{
			"~~~act\necho\n~~~\n~~~\n~~~\n":          "",
			"~~~act\necho\n~~~\n~~~\n\n~~~\n":        "",
			"~~~act\necho\n~~~\n~~~\n\n\n~~~\n":      "\n",
			"~~~act\necho\n~~~\n~~~\r\nx\r\n~~~\r\n": "x",
			"~~~act\necho\n~~~\n~~~\nx \t\n~~~":      "x \t",
			"~~~act\necho\n~~~\n~~~\na\r\nb\n~~~\n":  "a\r\nb",
		} {
			doc := parse(src)
			if got := doc.Actions[0].Blocks[0].Content; got != want {
				t.Errorf("%q: content %q, want %q", src, got, want)
			}
		}
	})
	t.Run("unclosed keeps everything", func(t *testing.T) {
		doc := parse("~~~act\necho\n~~~\n~~~\nrest\nof file\n")
		b := doc.Actions[0].Blocks[0]
		if !b.Unclosed || b.Content != "rest\nof file\n" || !doc.HasErrors() {
			t.Fatalf("got %+v", b)
		}
	})
	t.Run("params inline first then blocks", func(t *testing.T) {
		doc := parse("~~~act\npatch_file a.go\n~~~\n~~~\nold\n~~~\n~~~\nnew\n~~~\n")
		got := doc.Actions[0].Params
		if got.String("path") != "a.go" || got.String("old") != "old" || got.String("new") != "new" || len(doc.Diagnostics) != 0 {
			t.Fatalf("params %v diags %v", got, doc.Diagnostics)
		}
	})
}

func FuzzActs(f *testing.F) {
	files, _ := filepath.Glob("../golden/acts/*.md")
	for _, file := range files {
		if data, err := os.ReadFile(file); err == nil {
			f.Add(data)
		}
	}
	ctx := context.Background()
	parsers := actsParsers(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		doc, err := Parse(ctx, "fuzz.md", src, Options{Dialect: DialectActs})
		if err != nil {
			t.Fatal(err)
		}
		checkLossless(t, src, doc)
		data, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		// Read back, the JSON gives every action's name, args and string
		// params byte for byte (the *_base64 members, docs/acts.md).
		var back ast.Document
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatal(err)
		}
		for i, a := range doc.Actions {
			b := back.Actions[i]
			if b.Name != a.Name || !slices.Equal(b.Args, a.Args) {
				t.Fatalf("action %d read back: %q %q, want %q %q", i, b.Name, b.Args, a.Name, a.Args)
			}
			for _, p := range a.Params {
				var want, got string
				if ast.DecodeValue(p.Value, &want) != nil {
					continue
				}
				v, _ := b.Params.Get(p.Name)
				if err := ast.DecodeValue(v, &got); err != nil || got != want {
					t.Fatalf("action %d param %s read back: %q, want %q (%v)", i, p.Name, got, want, err)
				}
			}
		}
		blocks := doc.Blocks
		for _, a := range doc.Actions {
			blocks = append(append(blocks, a.Head), a.Blocks...)
		}
		for _, b := range blocks {
			if (b.ContentBase64 != "") == utf8.ValidString(b.Content) {
				t.Fatalf("block at %v: content_base64 %q for content %q", b.Span, b.ContentBase64, b.Content)
			}
		}
		// The acts invariants (checkActs: no parse-error, spans inside the
		// input and in source order, blocks byte for byte, every byte in
		// one node), with the fence detected and with each one forced.
		checkActs(t, "fuzz.md", src, parsers[len(src)%3])
	})
}
