package searchreplace_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"

	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/internal/gentest"
	"github.com/plangram/plangram/typed/searchreplace"
)

func TestGeneratedFresh(t *testing.T) {
	gentest.CheckFresh(t, "search-replace", "searchreplace", "searchreplace_gen.go")
}

// TestDecodeGolden decodes every document of the golden corpus
// (golden/search-replace/*.md) and pins the typed actions (golden/typed/search-replace.golden).
// A document without error diagnostics must decode.
func TestDecodeGolden(t *testing.T) {
	files, err := filepath.Glob("../../golden/search-replace/*.md")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	var all strings.Builder
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := grammar.Parse(context.Background(), filepath.Base(f), src, grammar.Options{Dialect: "search-replace"})
		if err != nil {
			t.Fatal(err)
		}
		got := gentest.Summary(searchreplace.Decode(doc))
		if !doc.HasErrors() && strings.Contains(got, "error: ") {
			t.Errorf("%s: a document without errors does not decode:\n%s", f, got)
		}
		all.WriteString("== " + filepath.Base(f) + "\n" + got)
	}
	g := goldie.New(t, goldie.WithFixtureDir("../../golden/typed"), goldie.WithNameSuffix(".golden"))
	g.Assert(t, "search-replace", []byte(all.String()))
}
