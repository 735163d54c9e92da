package searchreplace_test

import (
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/internal/testkit/gentest"
	"github.com/plangram/plangram/typed/searchreplace"
)

func TestGeneratedFresh(t *testing.T) {
	gentest.CheckFresh(t, "search-replace", "searchreplace", "searchreplace_gen.go")
}

// TestDecodeGolden decodes every document of the golden corpus
// (golden/search-replace/*.md) and pins the typed actions (golden/typed/search-replace.golden).
// A document without error diagnostics must decode.
func TestDecodeGolden(t *testing.T) {
	gentest.DecodeGolden(t, "search-replace", func(doc *ast.Document) string { return gentest.Summary(searchreplace.Decode(doc)) })
}
