package apply

import (
	"context"
	"fmt"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
)

// Input is one plan for [ApplyInputs]: the name its diagnostics are
// reported under and its bytes.
type Input struct {
	Name string
	Src  []byte
}

// ApplyInputs is [Apply] for plans not parsed yet: it parses each input
// with popts (under auto a `.diff` or `.patch` file is a unified diff by
// its name, grammar.FileDialect, as the other commands read it) and
// applies the documents. The error is Apply's, or the parser's
// (cancellation, unusable options).
func ApplyInputs(ctx context.Context, ins []Input, popts grammar.Options, root string, opts Options) (*Result, error) {
	docs := make([]*ast.Document, len(ins))
	for i, in := range ins {
		o := popts
		o.Dialect = grammar.FileDialect(in.Name, popts.Dialect)
		doc, err := grammar.Parse(ctx, in.Name, in.Src, o)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", in.Name, err)
		}
		docs[i] = doc
	}
	return Apply(ctx, docs, root, opts)
}
