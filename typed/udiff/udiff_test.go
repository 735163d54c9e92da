package udiff_test

import (
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/internal/testkit/gentest"
	"github.com/plangram/plangram/typed/udiff"
)

func TestGeneratedFresh(t *testing.T) {
	gentest.CheckFresh(t, "udiff", "udiff", "udiff_gen.go")
}

// TestDecodeGolden decodes every document of the golden corpus
// (golden/udiff/*.md) and pins the typed actions (golden/typed/udiff.golden).
// A document without error diagnostics must decode.
func TestDecodeGolden(t *testing.T) {
	gentest.DecodeGolden(t, "udiff", func(doc *ast.Document) string { return gentest.Summary(udiff.Decode(doc)) })
}
