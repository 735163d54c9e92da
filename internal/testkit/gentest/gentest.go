// Package gentest holds test helpers for the generated typed packages
// (typed/...): a staleness check, a golden summary of decoded actions and
// the golden test of a dialect's decoder over its corpus.
package gentest

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
)

// CheckFresh regenerates the Go code of a built-in dialect in memory, as
// its //go:generate line does, and fails when file differs from it.
func CheckFresh(t *testing.T, dialect, pkg, file string) {
	t.Helper()
	s, err := schema.Builtin(dialect)
	if err != nil {
		t.Fatal(err)
	}
	want, err := codegen.Go(s, codegen.GoOptions{Package: pkg})
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is stale: the %s schema changed; run `go generate ./typed/...`", file, dialect)
	}
}

// Summary renders decoded actions, one line each (Go type, then the
// fields as JSON, clipped to 200 bytes), then the decoding error, if any,
// for golden files.
func Summary[A any](actions []A, err error) string {
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

// DecodeGolden parses every document of a dialect's golden corpus
// (golden/DIALECT/*.md, from a typed/PKG directory) and pins what summary
// makes of each, after a "== FILE" line, in golden/typed/DIALECT.golden.
// summary is Summary over the package's Decode. A document without error
// diagnostics must decode.
func DecodeGolden(t *testing.T, dialect string, summary func(*ast.Document) string) {
	t.Helper()
	files, err := filepath.Glob("../../golden/" + dialect + "/*.md")
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
		got := summary(doc)
		if !doc.HasErrors() && strings.Contains(got, "error: ") {
			t.Errorf("%s: a document without errors does not decode:\n%s", f, got)
		}
		all.WriteString("== " + filepath.Base(f) + "\n" + got)
	}
	g := goldie.New(t, goldie.WithFixtureDir("../../golden/typed"), goldie.WithNameSuffix(".golden"))
	g.Assert(t, dialect, []byte(all.String()))
}
