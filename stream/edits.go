package stream

import (
	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
)

// The edit formats (search-replace, udiff, apply-patch) stream through
// grammar.EditStream, the parser of `plangram parse` run incrementally, so
// a complete document's events agree with its parse: each action (a
// SEARCH/REPLACE block, a file diff, a patch operation) is a call, its
// hunks are Hunk events, prose is text. See docs/stream.md.

// SearchReplace registers the search-replace syntax (aider's SEARCH/REPLACE
// blocks). It is not detected by --syntax auto: a block's path comes
// before its first marker.
func (registry) SearchReplace() *Syntax {
	return editSyntax(grammar.DialectSearchReplace, "aider's SEARCH/REPLACE blocks (docs/search-replace.md)")
}

// Udiff registers the udiff syntax (unified diffs). It is not detected by
// --syntax auto: its markers (`--- `, `@@`) are common prose.
func (registry) Udiff() *Syntax {
	return editSyntax(grammar.DialectUdiff, "unified diffs (docs/udiff.md)")
}

// ApplyPatch registers the apply-patch syntax (codex's apply_patch
// envelopes).
func (registry) ApplyPatch() *Syntax {
	return editSyntax(grammar.DialectApplyPatch, "codex apply_patch envelopes (docs/apply-patch.md)")
}

func editSyntax(name, summary string) *Syntax {
	return &Syntax{Name: name, Schema: name, Summary: summary,
		open: func(c *config) (scanner, error) {
			return newLeading(c.opts, c.start, func(start int) scanner {
				e := &edits{start: start, pos: start}
				e.es, e.err = grammar.NewEditStream(name, e)
				if e.err == nil {
					e.es.Lean() // the events are all it needs (not Document)
				}
				return e
			}), nil
		}}
}

// edits is the scanner of an edit-format syntax: it feeds the bytes to a
// grammar.EditStream and turns what it reports into events.
type edits struct {
	es    *grammar.EditStream
	start int     // the stream offset of the EditStream's offset 0
	at    ast.Pos // its position
	pos   int     // the next stream byte to feed
	p     *Parser // during scan
	err   error   // the open error
	// the action being read, its id, and the prose reported while it is
	// open (blank lines between hunks may still turn out to be inside it)
	open *ast.Action
	name string // its name as its header says
	id   int
	held [][2]int
}

func (e *edits) keep() int { return e.pos }

func (e *edits) scan(p *Parser, eof bool) error {
	if e.err != nil {
		return e.err
	}
	e.p = p
	if e.pos == e.start && e.start > 0 {
		e.at = p.pos(e.start)
	}
	if end := p.end(); end > e.pos {
		if _, err := e.es.Write(p.bytes(e.pos, end)); err != nil {
			return err
		}
		e.pos = end
		p.pos(end) // the core's line tracker moves on, so it can drop the bytes fed
	}
	if eof {
		return e.es.Close()
	}
	return nil
}

// span returns the stream span of the EditStream's byte range [from, to).
func (e *edits) span(from, to int) ast.Span { return e.shift(e.es.Lines().Span(from, to)) }

// shift returns s, a span of the EditStream's input, as a stream span.
func (e *edits) shift(s ast.Span) ast.Span {
	if e.start > 0 {
		shift(&s, e.at)
	}
	return s
}

func (e *edits) src(from, to int) string { return e.es.Source()[from:to] }

// Prose implements grammar.EditEvents: prose is text, held while an
// action is open.
func (e *edits) Prose(start, end int) error {
	if e.open != nil {
		e.held = append(e.held, [2]int{start, end})
		return nil
	}
	return e.text(start, end)
}

func (e *edits) text(start, end int) error {
	t := e.src(start, end)
	return e.p.send(&Event{Type: Text, Text: t, Raw: t, Span: e.span(start, end)})
}

// Begin implements grammar.EditEvents: a call starts, with its paths as
// Params; each path read from the call's own header whose value is its
// source text (not a quoted path with escapes) is also a ParamDelta (a
// SEARCH/REPLACE block's path line comes before the block: it is text).
func (e *edits) Begin(a *ast.Action, name string, start, end int) error {
	e.open, e.name, e.id = a, name, e.p.nextID()
	var paths ast.Params
	var deltas []*Event
	for _, prm := range a.Params {
		if prm.Name != "path" && prm.Name != "move_to" {
			continue
		}
		v, _ := prm.Value.(string)
		span := prm.Span
		if span != nil {
			s := e.shift(*span)
			span = &s
			if prm.Span.Start.Offset >= start && e.src(prm.Span.Start.Offset, prm.Span.End.Offset) == v && v != "" {
				deltas = append(deltas, &Event{Type: ParamDelta, ID: e.id, Name: e.name, Param: prm.Name, Text: v, Span: s})
			}
		}
		paths = append(paths, ast.Param{Name: prm.Name, Value: v, Span: span})
	}
	evs := append([]*Event{{Type: ToolCallStart, ID: e.id, Name: e.name, Params: paths, Span: e.span(start, end)}}, deltas...)
	for _, ev := range evs { // the start, then the paths' deltas
		if err := e.p.send(ev); err != nil {
			return err
		}
	}
	return nil
}

// Delta implements grammar.EditEvents.
func (e *edits) Delta(a *ast.Action, param, text string, start, end int) error {
	return e.p.send(&Event{Type: ParamDelta, ID: e.id, Name: e.name, Param: param, Text: text, Span: e.span(start, end)})
}

// Hunk implements grammar.EditEvents: one event per complete hunk.
func (e *edits) Hunk(a *ast.Action, h grammar.Hunk, blk *ast.Block) error {
	return e.p.send(&Event{Type: Hunk, ID: e.id, Name: e.name, Param: "hunks", Params: hunkParams(h),
		Raw: e.src(blk.Span.Start.Offset, blk.Span.End.Offset), Span: e.shift(blk.Span)})
}

// hunkParams returns a hunk's fields as parameters (the names of its JSON
// form, empty ones left out).
func hunkParams(h grammar.Hunk) ast.Params {
	var ps ast.Params
	for _, f := range []struct {
		name string
		v    *int
	}{{"old_start", h.OldStart}, {"old_lines", h.OldLines}, {"new_start", h.NewStart}, {"new_lines", h.NewLines}} {
		if f.v != nil {
			ps.Set(f.name, *f.v, nil)
		}
	}
	if h.Section != "" {
		ps.Set("section", h.Section, nil)
	}
	if h.Context != "" {
		ps.Set("context", h.Context, nil)
	}
	ps.Set("old", h.Old, nil)
	ps.Set("new", h.New, nil)
	if h.EndOfFile {
		ps.Set("end_of_file", true, nil)
	}
	return ps
}

// End implements grammar.EditEvents: the complete call, then the prose
// held while it was open that is not inside it.
func (e *edits) End(a *ast.Action) error {
	end := a.Span.End.Offset
	act := a
	if e.start > 0 {
		act = shiftedCopy(a, e.at)
	}
	if err := e.p.send(&Event{Type: ToolCall, ID: e.id, Name: a.Name, Params: act.Params,
		Raw: e.src(a.Span.Start.Offset, end), Span: act.Span, Action: act}); err != nil {
		return err
	}
	e.open = nil
	held := e.held
	e.held = e.held[:0]
	for _, r := range held {
		if r[1] <= end {
			continue
		}
		if err := e.text(max(r[0], end), r[1]); err != nil {
			return err
		}
	}
	return nil
}

// Diagnostic implements grammar.EditEvents: an error event, with the
// call it concerns while one is open.
func (e *edits) Diagnostic(d *ast.Diagnostic) error {
	ev := &Event{Type: Error, Severity: d.Severity, Kind: d.Code, Message: d.Message,
		Raw: e.src(d.Span.Start.Offset, d.Span.End.Offset), Span: e.shift(d.Span)}
	if e.open != nil {
		ev.ID, ev.Name = e.id, e.name
	}
	return e.p.send(ev)
}

// shiftedCopy returns a copy of a with every span moved to where its
// source starts in the stream (a's spans may be shared with other
// actions, so they are copied, not moved in place).
func shiftedCopy(a *ast.Action, at ast.Pos) *ast.Action {
	c := *a
	c.ArgSpans = append([]ast.Span(nil), a.ArgSpans...)
	if a.Head != nil {
		h := *a.Head
		c.Head = &h
	}
	c.Blocks = make([]*ast.Block, len(a.Blocks))
	for i, b := range a.Blocks {
		nb := *b
		c.Blocks[i] = &nb
	}
	c.Params = make(ast.Params, len(a.Params))
	copy(c.Params, a.Params)
	for i := range c.Params {
		if s := c.Params[i].Span; s != nil {
			ns := *s
			c.Params[i].Span = &ns
		}
	}
	shiftAction(&c, at)
	return &c
}
