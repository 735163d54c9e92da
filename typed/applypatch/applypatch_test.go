package applypatch_test

import (
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/internal/testkit/gentest"
	"github.com/plangram/plangram/typed/applypatch"
)

func TestGeneratedFresh(t *testing.T) {
	gentest.CheckFresh(t, "apply-patch", "applypatch", "applypatch_gen.go")
}

// TestDecodeGolden decodes every document of the golden corpus
// (golden/apply-patch/*.md) and pins the typed actions (golden/typed/apply-patch.golden).
// A document without error diagnostics must decode.
func TestDecodeGolden(t *testing.T) {
	gentest.DecodeGolden(t, "apply-patch", func(doc *ast.Document) string { return gentest.Summary(applypatch.Decode(doc)) })
}
