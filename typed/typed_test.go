// Package typed_test tests the generated typed packages of the built-in
// dialects (typed/acts, typed/plan, …) together: each is fresh, and each
// decodes its dialect's golden corpus as golden/typed/DIALECT.golden pins.
package typed_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/codegen"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/schema"
	"github.com/plangram/plangram/typed/applypatch"
	"github.com/plangram/plangram/typed/plan"
	"github.com/plangram/plangram/typed/searchreplace"
	"github.com/plangram/plangram/typed/udiff"
)

// TestGeneratedFresh regenerates the Go code of each built-in dialect in
// memory, as its //go:generate line does, and fails when its file differs.
func TestGeneratedFresh(t *testing.T) {
	for _, c := range []struct{ dialect, pkg string }{
		{"acts", "acts"}, {"plan", "plan"}, {"tools", "tools"},
		{"search-replace", "searchreplace"}, {"udiff", "udiff"}, {"apply-patch", "applypatch"},
	} {
		s, err := schema.Builtin(c.dialect)
		if err != nil {
			t.Fatal(err)
		}
		want, err := codegen.Go(s, codegen.GoOptions{Package: c.pkg})
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(c.pkg, c.pkg+"_gen.go")
		got, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: the %s schema changed; run `go generate ./typed/...`", file, c.dialect)
		}
	}
}

// summary renders decoded actions, one line each (Go type, then the
// fields as JSON, clipped to 200 bytes), then the decoding error, if any,
// for golden files.
func summary[A any](actions []A, err error) string {
	var b bytes.Buffer
	for _, a := range actions {
		var js bytes.Buffer
		enc := json.NewEncoder(&js)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(a); err != nil {
			js.WriteString(err.Error())
		}
		line := strings.TrimSpace(js.String())
		if len(line) > 200 { // long file contents: the start shows enough
			line = strings.ToValidUTF8(line[:200], "") + "…"
		}
		fmt.Fprintf(&b, "%T %s\n", a, line)
	}
	if err != nil {
		fmt.Fprintf(&b, "error: %s\n", strings.ReplaceAll(err.Error(), "\n", "\n  "))
	}
	return b.String()
}

// TestDecodeGolden parses every document of the golden corpus of the plan
// and edit-format dialects (golden/DIALECT/*.md) and pins what the
// dialect's Decode makes of each, after a "== FILE" line, in
// golden/typed/DIALECT.golden. A document without error diagnostics must
// decode. (The acts and tools dialects have tests of their own.)
func TestDecodeGolden(t *testing.T) {
	for dialect, decode := range map[string]func(*ast.Document) string{
		"plan":           func(doc *ast.Document) string { return summary(plan.Decode(doc)) },
		"search-replace": func(doc *ast.Document) string { return summary(searchreplace.Decode(doc)) },
		"udiff":          func(doc *ast.Document) string { return summary(udiff.Decode(doc)) },
		"apply-patch":    func(doc *ast.Document) string { return summary(applypatch.Decode(doc)) },
	} {
		t.Run(dialect, func(t *testing.T) {
			files, err := filepath.Glob("../golden/" + dialect + "/*.md")
			if err != nil || len(files) == 0 {
				t.Fatalf("no golden inputs: %v", err)
			}
			var all strings.Builder
			for _, f := range files {
				src, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				doc, err := grammar.Parse(context.Background(), filepath.Base(f), src, grammar.Options{Dialect: dialect})
				if err != nil {
					t.Fatal(err)
				}
				got := decode(doc)
				if !doc.HasErrors() && strings.Contains(got, "error: ") {
					t.Errorf("%s: a document without errors does not decode:\n%s", f, got)
				}
				all.WriteString("== " + filepath.Base(f) + "\n" + got)
			}
			g := goldie.New(t, goldie.WithFixtureDir("../golden/typed"), goldie.WithNameSuffix(".golden"))
			g.Assert(t, dialect, []byte(all.String()))
		})
	}
}
