package plan_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"

	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/internal/gentest"
	"github.com/plangram/plangram/typed/plan"
)

func TestGeneratedFresh(t *testing.T) {
	gentest.CheckFresh(t, "plan", "plan", "plan_gen.go")
}

// TestDecodeGolden decodes every plan of the golden corpus
// (golden/plan/*.md) and pins the typed actions (golden/typed/plan.golden).
// A plan without error diagnostics must decode.
func TestDecodeGolden(t *testing.T) {
	files, err := filepath.Glob("../../golden/plan/*.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Skip("no plan corpus (golden/plan/*.md) yet")
	}
	var all strings.Builder
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := grammar.Parse(context.Background(), filepath.Base(f), src, grammar.Options{Dialect: grammar.DialectPlan})
		if err != nil {
			t.Fatal(err)
		}
		got := gentest.Summary(plan.Decode(doc))
		if !doc.HasErrors() && strings.Contains(got, "error: ") {
			t.Errorf("%s: a plan without errors does not decode:\n%s", f, got)
		}
		all.WriteString("== " + filepath.Base(f) + "\n" + got)
	}
	g := goldie.New(t, goldie.WithFixtureDir("../../golden/typed"), goldie.WithNameSuffix(".golden"))
	g.Assert(t, "plan", []byte(all.String()))
}
