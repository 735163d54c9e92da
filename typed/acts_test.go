package typed_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/typed/acts"
)

// TestDecodeActsGolden decodes every document of the acts golden corpus, both
// as parsed in memory and as read back from its pinned JSON, and pins the
// typed actions (golden/typed/acts.golden).
func TestDecodeActsGolden(t *testing.T) {
	files, err := filepath.Glob("../golden/acts/*.md")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	var all strings.Builder
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		opts := grammar.Options{Dialect: grammar.DialectActs}
		if strings.Contains(f, ".fence-backtick.") {
			opts.Fence = '`'
		}
		doc, err := grammar.Parse(context.Background(), filepath.Base(f), src, opts)
		if err != nil {
			t.Fatal(err)
		}
		got := summary(acts.Decode(doc))
		if !doc.HasErrors() && !hasCode(doc, "unknown-action") && strings.Contains(got, "error: ") {
			t.Errorf("%s: a document without errors does not decode:\n%s", f, got)
		}

		// The same document read back from its JSON decodes the same.
		js, err := os.ReadFile(strings.TrimSuffix(f, ".md") + ".json.golden")
		if err != nil {
			t.Fatal(err)
		}
		var back ast.Document
		if err := json.Unmarshal(js, &back); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if fromJSON := summary(acts.Decode(&back)); fromJSON != got {
			t.Errorf("%s: decoding the JSON differs:\n%s\nparsed:\n%s", f, fromJSON, got)
		}
		all.WriteString("== " + filepath.Base(f) + "\n" + got)
	}
	g := goldie.New(t, goldie.WithFixtureDir("../golden/typed"), goldie.WithNameSuffix(".golden"))
	g.Assert(t, "acts", []byte(all.String()))
}

func hasCode(doc *ast.Document, code string) bool {
	for _, d := range doc.Diagnostics {
		if d.Code == code {
			return true
		}
	}
	return false
}

// TestDecodeActsErrors checks each kind of decoding problem is reported at the
// right place.
func TestDecodeActsErrors(t *testing.T) {
	span := func(line int) *ast.Span {
		return &ast.Span{Start: ast.Pos{Line: line, Col: 1}, End: ast.Pos{Line: line, Col: 2}}
	}
	name := *span(1)
	for _, tc := range []struct {
		a    *ast.Action
		want string
	}{
		{&ast.Action{Name: "frobnicate", NameSpan: name}, "1:1: frobnicate: unknown action \"frobnicate\""},
		{&ast.Action{Name: "write_file", NameSpan: name, Params: ast.Params{{Name: "path", Value: "a", Span: span(2)}}},
			"1:1: write_file: parameter content: missing required parameter"},
		{&ast.Action{Name: "write_file", NameSpan: name, Params: ast.Params{{Name: "path", Value: true, Span: span(2)}, {Name: "content", Value: ""}}},
			"2:1: write_file: parameter path: want a string, got true"},
		{&ast.Action{Name: "echo", NameSpan: name, Params: ast.Params{{Name: "text", Value: "x"}, {Name: "colour", Value: "red", Span: span(3)}}},
			"3:1: echo: parameter colour: the action has no such parameter"},
		{&ast.Action{Name: "git_add", NameSpan: name, Params: ast.Params{{Name: "files", Value: []any{"a", 1}, Span: span(4)}}},
			"4:1: git_add: parameter files: want a list of strings, got [\"a\",1]"},
	} {
		_, err := acts.DecodeAction(tc.a)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: got %v, want %s", tc.a.Name, err, tc.want)
		}
		var de *acts.Error
		if err != nil && !asError(err, &de) {
			t.Errorf("%s: %T is not an *acts.Error", tc.a.Name, err)
		}
	}
}

func asError(err error, target **acts.Error) bool {
	e, ok := err.(*acts.Error)
	if !ok {
		if j, isJoin := err.(interface{ Unwrap() []error }); isJoin && len(j.Unwrap()) > 0 {
			e, ok = j.Unwrap()[0].(*acts.Error)
		}
	}
	*target = e
	return ok
}

// TestDecodeExactBytes: strings that are not UTF-8 reach the typed structs
// byte for byte, parsed or read back from the JSON output (whose
// args_base64 and params_base64 carry them; docs/acts.md "Exact bytes in
// JSON").
func TestDecodeExactBytes(t *testing.T) {
	src := []byte("```act\nwrite_file notes.txt\n```\n```\nR\xe9sum\xe9\n```\n\n```act\necho \"na\xefve \xff\"\n```\n")
	doc, err := grammar.Parse(context.Background(), "x.md", src, grammar.Options{Dialect: "acts"})
	if err != nil {
		t.Fatal(err)
	}
	js, err := ast.JSON(doc)
	if err != nil {
		t.Fatal(err)
	}
	var back ast.Document
	if err := json.Unmarshal(js, &back); err != nil {
		t.Fatal(err)
	}
	for name, d := range map[string]*ast.Document{"parsed": doc, "from JSON": &back} {
		as, err := acts.Decode(d)
		if err != nil || len(as) != 2 {
			t.Fatalf("%s: %v, %v", name, as, err)
		}
		if w, ok := as[0].(*acts.WriteFile); !ok || w.Content != "R\xe9sum\xe9" {
			t.Errorf("%s: write_file = %#v", name, as[0])
		}
		if e, ok := as[1].(*acts.Echo); !ok || e.Text != "na\xefve \xff" {
			t.Errorf("%s: echo = %#v", name, as[1])
		}
	}
}
