package plan_test

import (
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/internal/testkit/gentest"
	"github.com/plangram/plangram/typed/plan"
)

func TestGeneratedFresh(t *testing.T) {
	gentest.CheckFresh(t, "plan", "plan", "plan_gen.go")
}

// TestDecodeGolden decodes every plan of the golden corpus
// (golden/plan/*.md) and pins the typed actions (golden/typed/plan.golden).
// A plan without error diagnostics must decode.
func TestDecodeGolden(t *testing.T) {
	gentest.DecodeGolden(t, "plan", func(doc *ast.Document) string { return gentest.Summary(plan.Decode(doc)) })
}
