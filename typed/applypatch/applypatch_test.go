package applypatch_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"

	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/internal/gentest"
	"github.com/plangram/plangram/typed/applypatch"
)

func TestGeneratedFresh(t *testing.T) {
	gentest.CheckFresh(t, "apply-patch", "applypatch", "applypatch_gen.go")
}

// TestDecodeGolden decodes every document of the golden corpus
// (golden/apply-patch/*.md) and pins the typed actions (golden/typed/apply-patch.golden).
// A document without error diagnostics must decode.
func TestDecodeGolden(t *testing.T) {
	files, err := filepath.Glob("../../golden/apply-patch/*.md")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	var all strings.Builder
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := grammar.Parse(context.Background(), filepath.Base(f), src, grammar.Options{Dialect: "apply-patch"})
		if err != nil {
			t.Fatal(err)
		}
		got := gentest.Summary(applypatch.Decode(doc))
		if !doc.HasErrors() && strings.Contains(got, "error: ") {
			t.Errorf("%s: a document without errors does not decode:\n%s", f, got)
		}
		all.WriteString("== " + filepath.Base(f) + "\n" + got)
	}
	g := goldie.New(t, goldie.WithFixtureDir("../../golden/typed"), goldie.WithNameSuffix(".golden"))
	g.Assert(t, "apply-patch", []byte(all.String()))
}
