package render

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/schema"
)

// Pass says how a Parse hands a document over: each action to OnAction
// once it is complete, in source order, and each block of no action to
// OnBlock (grammar.Options.OnAction and OnBlock); KeepProse keeps the
// prose nodes in the document returned (grammar.Options.KeepProse). The
// functions keep neither the action nor the block once they return, so
// the parser may reuse their memory (grammar.Options.ReuseActions).
type Pass struct {
	OnAction  func(*ast.Action)
	OnBlock   func(*ast.Block)
	KeepProse bool
}

// Parse parses one document the way pass says: grammar.Parse with
// grammar.Options' OnAction, OnBlock, KeepProse and ReuseActions set from
// pass. It returns the document without the actions and blocks it handed
// over. Each call must read the same document.
type Parse func(pass Pass) (*ast.Document, error)

// WriteHTMLStream writes to w the page HTML would write for the document
// parse reads, of the acts or an edit-format dialect (search-replace,
// udiff, apply-patch), without holding its tree: parse is called three
// times (twice when there is no diagnostic and no prose to place). The
// first pass keeps the diagnostics and the prose, which is all the page's
// head needs; the second, where the actions and blocks that hold a
// diagnostic or a prose node are, for placing them; the third renders
// each action's card as it is handed over and keeps nothing of it. The
// tree of a document of small actions is many times its size
// (docs/render.md, "Memory"). It returns the document of the first pass
// (its diagnostics; no actions). A structured plan (the plan dialect) is
// refused: its page hides the parts of the plan its header and cards
// show, which takes the whole tree (HTML, WriteHTML).
func WriteHTMLStream(w io.Writer, parse Parse, opts Options) (*ast.Document, error) {
	actions, strays := 0, 0
	doc, err := parse(Pass{
		OnAction:  func(*ast.Action) { actions++ },
		OnBlock:   func(*ast.Block) { strays++ },
		KeepProse: true,
	})
	if err != nil {
		return nil, err
	}
	if doc.Dialect == "plan" || doc.Dialect == "" {
		return doc, fmt.Errorf("render: WriteHTMLStream reads the acts and edit-format dialects, not %q", doc.Dialect)
	}
	r := newRenderer(opts)
	r.schema = opts.Schema
	if r.schema == nil {
		if s, err := schema.Builtin(doc.Dialect); err == nil {
			r.schema = s
		}
	}
	hidden := r.hiddenNodes(doc)
	lay, err := layoutAt(parse, doc, hidden, actions, strays)
	if err != nil {
		return doc, err
	}
	// Blocks of no action that were kept in the document (the dialects
	// other than acts hand none over) are placed with the prose.
	var kept []int
	for i, b := range doc.Blocks {
		if !hidden[b] {
			lay.addStray(b, strays+i)
			kept = append(kept, i)
		}
	}
	lay.addProse(doc, hidden)
	lay.sort()
	if r.steps, err = newSteps(opts.Workspace, doc.Dialect, opts); err != nil {
		return doc, fmt.Errorf("render: %w", err)
	}
	defer r.steps.close()
	pw := &pageWriter{w: w}
	body, err := r.writeHead(pw, doc, lay, hidden, actions)
	if err != nil {
		return doc, fmt.Errorf("render: %w", err)
	}

	// The items the document holds (top-level prose, kept blocks) are
	// written in source order before each item the last pass hands over
	// that starts at or after them: prose before a block or an action at
	// the same offset, as the page of the whole tree orders them.
	type held struct {
		start, prose, block int // prose: index in doc.Prose, or -1
	}
	var items []held
	for _, i := range body.topProse {
		items = append(items, held{start: doc.Prose[i].Span.Start.Offset, prose: i, block: -1})
	}
	for _, i := range kept {
		items = append(items, held{start: doc.Blocks[i].Span.Start.Offset, prose: -1, block: i})
	}
	sort.SliceStable(items, func(i, j int) bool { return items[i].start < items[j].start })
	next := 0
	flush := func(upTo int) error {
		for ; next < len(items) && items[next].start <= upTo; next++ {
			var err error
			if it := items[next]; it.prose >= 0 {
				err = body.prose(it.prose)
			} else {
				err = body.stray(doc.Blocks[it.block], strays+it.block)
			}
			if err != nil {
				return err
			}
		}
		return nil
	}
	var werr error
	ai, si, last := 0, 0, -1
	// handed writes an item the last pass handed over, which starts at
	// start, after the held items before it; more says the first pass saw
	// no such item. After an error nothing more is written.
	handed := func(start int, more bool, write func() error) {
		switch {
		case werr != nil:
		case more || start < last:
			werr = errChanged
		default:
			last = start
			if werr = flush(start); werr == nil {
				werr = write()
			}
		}
	}
	_, err = parse(Pass{
		OnAction: func(a *ast.Action) {
			handed(a.Span.Start.Offset, ai >= actions, func() error { return body.action(a, ai) })
			ai++
		},
		OnBlock: func(b *ast.Block) {
			handed(b.Span.Start.Offset, si >= strays, func() error { return body.stray(b, si) })
			si++
		},
	})
	switch {
	case err != nil:
		return doc, err
	case werr != nil:
		return doc, fmt.Errorf("render: %w", werr)
	case ai != actions || si != strays:
		return doc, fmt.Errorf("render: %w", errChanged)
	}
	if err := flush(int(^uint(0) >> 1)); err != nil {
		return doc, fmt.Errorf("render: %w", err)
	}
	if err := body.finish(); err != nil {
		return doc, fmt.Errorf("render: %w", err)
	}
	return doc, nil
}

// layoutAt lays out, in another pass of parse, the actions and blocks
// that hold the start of one of doc's diagnostics or of a prose node the
// page shows: attach and the placing of prose in cards ask only about
// those offsets, and of the nodes that do not hold one (most of them)
// only the count is needed, so the layout grows with those offsets, not
// with the actions. With nothing to place, no pass is made.
func layoutAt(parse Parse, doc *ast.Document, hidden map[any]bool, actions, strays int) (*layout, error) {
	lay := &layout{}
	var at []int
	for _, d := range doc.Diagnostics {
		at = append(at, d.Span.Start.Offset)
	}
	for _, p := range doc.Prose {
		if !hidden[p] {
			at = append(at, p.Span.Start.Offset)
		}
	}
	if len(at) > 0 {
		slices.Sort(at)
		holds := func(sp ast.Span) bool {
			i, _ := slices.BinarySearch(at, sp.Start.Offset)
			return i < len(at) && at[i] < sp.End.Offset
		}
		ai, si := 0, 0
		_, err := parse(Pass{
			OnAction: func(a *ast.Action) {
				lay.addAction(a, ai, holds)
				ai++
			},
			OnBlock: func(b *ast.Block) {
				if holds(b.Span) {
					lay.addStray(b, si)
				}
				si++
			},
		})
		switch {
		case err != nil:
			return nil, err
		case ai != actions || si != strays:
			return nil, fmt.Errorf("render: %w", errChanged)
		}
	}
	return lay, nil
}

// errChanged says the passes of WriteHTMLStream did not read the same
// document.
var errChanged = errors.New("a later pass read another document than the first")
