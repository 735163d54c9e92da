// Package format prints plangram documents in one canonical form, from their
// AST, for each dialect (docs/fmt.md).
//
// The printer never changes what a document means: parsing the output gives
// the same actions, inline arguments, parameters and block bytes as parsing
// the input, and formatting the output again changes nothing. Block content
// is copied byte for byte; only the lines plangram itself interprets (fences,
// act lines, blank lines between blocks) are rewritten.
package format

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/schema"
)

// ErrUnsupported is returned (wrapped) for a document whose dialect has no
// canonical printer.
var ErrUnsupported = errors.New("no canonical printer for this dialect")

// Document returns the canonical form of doc, which was parsed from src
// with the built-in schema of its dialect.
func Document(doc *ast.Document, src []byte) ([]byte, error) {
	return document(context.Background(), doc, src, grammar.Options{})
}

func document(ctx context.Context, doc *ast.Document, src []byte, opts grammar.Options) ([]byte, error) {
	if doc == nil {
		return nil, errors.New("format: nil document")
	}
	// An input whose lines are not known is printed as it is: UTF-16,
	// binary or CR-only input (the diagnostics say why), and one whose
	// lone CRs hide lines (lone-cr), which plangram and CommonMark read
	// differently, so that rewriting it by one reading (longer fences
	// around a block that runs on) would fix that reading silently. A
	// tools reply has no printer: it is its own canonical form (docs/fmt.md,
	// "Tool calls").
	if grammar.InputRejected(doc) || grammar.HasLoneCRError(doc) || doc.Dialect == grammar.DialectTools {
		return append([]byte(nil), src...), nil
	}
	reparse := opts
	reparse.Dialect = doc.Dialect
	// print is doc's last use here: a plan's printer lets the tree go
	// before it checks its output (plan), and so must this frame.
	out, err := print(ctx, doc, src, opts)
	if err != nil {
		return nil, err
	}
	// Keep the input where a lone CR in content or prose that hid nothing
	// would hide a line in the canonical form (a fence shortened to the
	// run that CR comes before), or where the canonical form would be
	// rejected: a first line that ends with a lone CR once leading blank
	// lines are dropped (old Mac line endings), or a share of bytes that
	// are not text raised past the binary threshold by shorter text. The
	// input still means the same.
	if grammar.LoneCRHidesLine(ctx, out, reparse) || grammar.Rejects(out) {
		return append([]byte(nil), src...), nil
	}
	return out, nil
}

// print returns the canonical form of doc by its dialect's printer.
func print(ctx context.Context, doc *ast.Document, src []byte, opts grammar.Options) ([]byte, error) {
	switch doc.Dialect {
	case grammar.DialectActs:
		return acts(doc, src), nil
	case grammar.DialectSearchReplace, grammar.DialectUdiff, grammar.DialectApplyPatch:
		return editFormat(doc, src), nil
	case grammar.DialectPlan:
		opts.Dialect = grammar.DialectPlan
		// Every diagnostic, not the first grammar.MaxPerCode of a code and
		// one that sums up the rest: the printer keeps each node a
		// diagnostic points at.
		opts.Uncapped = true
		if slices.ContainsFunc(doc.Diagnostics, grammar.IsOverflow) {
			var err error
			if doc, err = grammar.Parse(ctx, "fmt.md", src, opts); err != nil {
				return nil, err
			}
		}
		s := opts.Schema
		if s == nil {
			var err error
			if s, err = schema.Builtin(grammar.DialectPlan); err != nil {
				return nil, fmt.Errorf("format: %w", err)
			}
		}
		return plan(doc, src, s, func(out []byte) (*ast.Document, error) {
			return grammar.Parse(ctx, "fmt.md", out, opts)
		})
	}
	return nil, fmt.Errorf("format: dialect %q: %w", doc.Dialect, ErrUnsupported)
}

// Source parses src (named filename in diagnostics) with opts and returns its
// canonical form together with the parsed document, whose diagnostics say
// what is wrong with the input. The error is for cancellation, unusable
// options and dialects without a printer; bad input is still formatted.
func Source(ctx context.Context, filename string, src []byte, opts grammar.Options) ([]byte, *ast.Document, error) {
	doc, err := grammar.Parse(ctx, filename, src, opts)
	if err != nil {
		return nil, nil, fmt.Errorf("format: %w", err)
	}
	out, err := document(ctx, doc, src, opts)
	return out, doc, err
}

// Canonical is Source for a caller that needs only the diagnostics of
// the input, as `plangram fmt` does: it returns the canonical form of src
// and the diagnostics of its parse (those of Source's document).
func Canonical(ctx context.Context, filename string, src []byte, opts grammar.Options) ([]byte, []*ast.Diagnostic, error) {
	out, doc, err := Source(ctx, filename, src, opts)
	if doc == nil {
		return nil, nil, err
	}
	return out, doc.Diagnostics, err
}
