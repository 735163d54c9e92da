// Package grammar holds plangram's declarative participle grammars and turns
// their parse trees into the shared AST (package ast), one function per
// dialect, with Parse dispatching between them.
package grammar

import (
	"context"
	"fmt"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/schema"
)

// Dialect names.
const (
	DialectAuto = "auto"
	DialectActs = "acts"
	DialectPlan = "plan"
)

// Options configures Parse.
type Options struct {
	// Dialect is "auto" (default), "acts" or "plan".
	Dialect string
	// Fence forces the acts dialect's fence character (lexer.Backtick or
	// lexer.Tilde); 0 detects it from the document's first act block.
	Fence byte
	// Schema replaces the dialect's built-in action schema.
	Schema *schema.Schema
}

// Parse parses src (named filename in positions) into a Document. It never
// fails on bad input: problems are diagnostics in the document. The error is
// for cancellation and for unusable options (such as an unknown dialect).
func Parse(ctx context.Context, filename string, src []byte, opts Options) (*ast.Document, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	dialect := opts.Dialect
	if dialect == "" || dialect == DialectAuto {
		dialect = Detect(src)
	}
	switch dialect {
	case DialectActs:
		s := opts.Schema
		if s == nil {
			var err error
			if s, err = schema.Builtin(DialectActs); err != nil {
				return nil, err
			}
		}
		return ParseActs(ctx, filename, src, opts.Fence, s)
	}
	return nil, fmt.Errorf("unknown dialect %q (want auto, acts or plan)", opts.Dialect)
}

// Detect guesses the dialect of src: "plan" for a Markdown plan (a level-1
// heading and a `## Action Plan` or `## Message` section), else "acts".
func Detect(src []byte) string {
	return DialectActs
}
