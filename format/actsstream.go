package format

import (
	"context"
	"fmt"
	"strings"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
)

// actsStream is Canonical for the acts dialect without the document's
// tree: the acts printer needs, besides each item in source order, the
// fence character of the first block and the first line ending of the text
// it keeps, so the document is parsed twice with the actions handed over
// (Options.OnAction, OnBlock). The first pass finds those two, the prose
// spans and the diagnostics; the second writes each item as it comes. ok
// is false when the parser hands blocks over out of source order, or its
// prose is not the source's bytes: the caller then prints from the whole
// tree (acts).
func actsStream(ctx context.Context, filename string, src []byte, opts grammar.Options) (out []byte, diags []*ast.Diagnostic, ok bool, err error) {
	// The first pass.
	var (
		fence     byte
		haveFence bool
		at        = -1 // start of the last block handed over
		eolAt     = -1 // start of the first block whose kept text ends a line
		eol       string
		order     = true
	)
	see := func(it item) {
		if it.start < at {
			order = false
		}
		at = it.start
		if !haveFence && it.block.Fence != "" {
			fence, haveFence = it.block.Fence[0], true
		}
		if eolAt < 0 && (it.act == nil || it.block.Unclosed) {
			if e, found := firstLineEnding(keptText(it)); found {
				eolAt, eol = it.start, e
			}
		}
	}
	// The dialect is left as asked (Canonical found acts): under auto the
	// parse says what auto says of a document, its looks-like-edit warning
	// included, as Source's does.
	o := opts
	o.ReuseActions, o.KeepProse = true, true
	o.OnBlock = func(b *ast.Block) { see(item{start: b.Span.Start.Offset, block: b}) }
	o.OnAction = func(a *ast.Action) { eachItem(a, see) }
	doc, err := grammar.Parse(ctx, filename, src, o)
	if err != nil {
		return nil, nil, false, fmt.Errorf("format: %w", err)
	}
	diags = doc.Diagnostics
	if !order {
		return nil, diags, false, nil
	}
	if unreadLines(doc) {
		return append([]byte(nil), src...), diags, true, nil
	}
	prose := make([]ast.Span, 0, len(doc.Prose))
	for _, p := range doc.Prose {
		s, e := p.Span.Start.Offset, p.Span.End.Offset
		if s < 0 || e < s || e > len(src) || p.Text != string(src[s:e]) || len(prose) > 0 && s < prose[len(prose)-1].Start.Offset {
			return nil, diags, false, nil
		}
		prose = append(prose, p.Span)
		if eolAt < 0 || s <= eolAt {
			if e, found := firstLineEnding(keptText(item{prose: p})); found {
				eolAt, eol = s, e
			}
		}
	}
	doc = nil
	if !haveFence {
		fence = '`'
	}
	if eolAt < 0 {
		eol = "\n"
	}

	// The second pass: prose and blocks merged by their starts, prose
	// first on a tie (the order acts sorts them in).
	p := newActsPrinter(src, fence, eol)
	next := 0 // the next prose span to write
	flush := func(upTo int, block bool) {
		for next < len(prose) && prose[next].Start.Offset <= upTo {
			sp := prose[next]
			next++
			text := string(src[sp.Start.Offset:sp.End.Offset])
			it := item{start: sp.Start.Offset, prose: &ast.Prose{Text: text, Span: sp}}
			following := block && sp.End.Offset == upTo && (next == len(prose) || prose[next].Start.Offset > upTo)
			p.item(&it, keptText(it), following)
		}
	}
	write := func(it item) {
		flush(it.start, true)
		p.item(&it, keptText(it), false)
	}
	o = opts
	o.Dialect = grammar.DialectActs
	o.ReuseActions = true
	o.OnBlock = func(b *ast.Block) { write(item{start: b.Span.Start.Offset, block: b}) }
	o.OnAction = func(a *ast.Action) { eachItem(a, write) }
	if _, err := grammar.Parse(ctx, filename, src, o); err != nil {
		return nil, nil, false, fmt.Errorf("format: %w", err)
	}
	flush(len(src), false)
	return settle(ctx, grammar.DialectActs, src, p.out.Bytes(), opts), diags, true, nil
}

// eachItem calls f with an action's act block and argument blocks, as
// collect lists them.
func eachItem(a *ast.Action, f func(item)) {
	if a.Head != nil {
		f(item{start: a.Head.Span.Start.Offset, block: a.Head, act: a})
	}
	for _, b := range a.Blocks {
		f(item{start: b.Span.Start.Offset, block: b})
	}
}

// firstLineEnding returns the first line ending of s, if it has one.
func firstLineEnding(s string) (string, bool) {
	j := strings.IndexByte(s, '\n')
	if j < 0 {
		return "", false
	}
	if j > 0 && s[j-1] == '\r' {
		return "\r\n", true
	}
	return "\n", true
}
