package stream

import (
	"bytes"
	"context"
	"fmt"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/internal/view"
	"github.com/plangram/plangram/lexer"
	"github.com/plangram/plangram/schema"
)

// blockKind says what an open fenced block is.
type blockKind uint8

const (
	strayBlock blockKind = iota // a block that belongs to no action: text
	actBlock                    // an act block
	argBlock                    // an argument block of the pending action
)

// fence is an open fenced block.
type fence struct {
	kind blockKind
	run  string   // the opening run; "" when no block is open
	line string   // the opening line
	span ast.Span // the opening line's span
	// A stray block's content lines as grammar judges them when it closes
	// (lexer.MisnestedFence, lexer.ExactFenceWithText): the nested
	// opening lines still open (offset and run), and the first line of the
	// run followed by text.
	nested []nestedLine
	with   *withText
}

// nestedLine is a content line that opens a nested block: its offset and
// run length.
type nestedLine struct{ off, run int }

// withText is the first content line of a stray block whose trimmed text
// is the block's run followed by text: the line's offset, the text, its
// span and whether it reads as an info string (lexer.LooksLikeInfo).
type withText struct {
	off  int
	text string
	span ast.Span
	info bool
	// fenceAfter: a later content line opens a fence (lexer.FenceBetween):
	// the block ran on over it, which makes the line an error.
	fenceAfter bool
}

// acts is the scanner of the fenced-acts dialect. It works on whole lines:
// prose lines are emitted as Text once complete; an action is parsed (by
// package grammar, so the rules are those of `plangram parse`) once it can
// no longer grow: when the next act block opens or the stream ends.
type acts struct {
	s *schema.Schema
	// c is the document's fence character, 0 until the first act fence
	// line; until then open[0] and open[1] track blocks of both characters.
	c    byte
	open [2]fence
	// held are the fence-trailing-text errors of stray blocks of each
	// fence character closed while c is 0: sent once c is known to be
	// that character (or at the end, for backticks, the default), dropped
	// otherwise (the other character's blocks are prose).
	held [2][]*Event
	// near is the fence character of the first line, before the first
	// act fence line, whose info string only looks like act
	// (lexer.NearAct): the document's when no act fence line comes
	// (lexer.Detect), 0 when there is none. Such a line that opens a
	// block gets a near-act error, held with the others until the
	// document's character is known.
	near byte
	text int // start of the pending run of text lines, -1 when none
	out  int // start of the next line
	pos  int // bytes before pos hold no line ending after out
	act  *pending
	// cap counts the errors of each code; past grammar.MaxPerCode they
	// are summed up at the end, as the batch parser sums them up. The
	// parses of the actions' sources count against it too. holdCap caps
	// the errors held for each fence character (held) the same way: the
	// ones it leaves out join cap's count when they are released.
	cap     grammar.Cap
	holdCap [2]grammar.Cap
	// comment is the HTML comment open at the line being read, as a
	// document of each fence character reads it (grammar.CommentOpens):
	// an act block inside one gets a hidden-act warning.
	comment [2]htmlComment
}

// htmlComment is the state of an HTML comment: open, and since which line.
type htmlComment struct {
	open bool
	line int
}

// report sends the error e, or counts it once grammar.MaxPerCode errors
// of its code went out.
func (a *acts) report(p *Parser, e *Event) error {
	if a.cap.Take(e.Severity, e.Kind, e.Span, e.Raw) {
		return p.send(e)
	}
	return nil
}

// reportAfter sends the pending text up to offset to, then reports e.
func (a *acts) reportAfter(p *Parser, to int, e *Event) error {
	if err := a.flushText(p, to); err != nil {
		return err
	}
	return a.report(p, e)
}

// hold holds the error e until the fence character of index k is known to
// be the document's (release), unless grammar.MaxPerCode errors of its
// code are held already: then it is only counted.
func (a *acts) hold(k int, e *Event) {
	if a.holdCap[k].Take(e.Severity, e.Kind, e.Span, e.Raw) {
		a.held[k] = append(a.held[k], e)
	}
}

// summarise sends, at the end of the input, the error that sums up the
// errors of each code past grammar.MaxPerCode. other-fence-act is not
// streamed (emit), nor is its sum.
func (a *acts) summarise(p *Parser) error {
	for _, o := range a.cap.Overflows() {
		if o.Code == grammar.CodeOtherFenceAct {
			continue
		}
		if err := p.send(&Event{Type: Error, Severity: o.Severity, Kind: o.Code, Raw: o.Raw, Span: o.First,
			Message: o.Message()}); err != nil {
			return err
		}
	}
	return nil
}

// Acts registers the acts syntax. It is never detected by --syntax auto:
// its act fences only count at the start of a line. A reasoning block at
// the start of the stream is thinking (see leading).
func (registry) Acts() *Syntax {
	return &Syntax{Name: "acts", Schema: "acts", Summary: "the fenced-acts dialect (docs/acts.md)",
		open: func(c *config) (scanner, error) {
			return newLeading(c.opts, c.start, func(start int) scanner {
				return &acts{s: c.schema, text: -1, out: start, pos: start}
			}), nil
		}}
}

// pending is the action being read.
type pending struct {
	id       int
	start    int
	startPos ast.Pos
	end      int // end of its last closed block
}

func (a *acts) keep() int {
	if a.act != nil {
		return a.act.start
	}
	if a.text >= 0 {
		return a.text
	}
	return a.out
}

// blk returns the open block of the document's fence character.
func (a *acts) blk() *fence { return &a.open[fenceIndex(a.c)] }

// fenceIndex is the index of fence character c in open, held and comment.
func fenceIndex(c byte) int {
	if c == lexer.Tilde {
		return 1
	}
	return 0
}

func (a *acts) scan(p *Parser, eof bool) error {
	for {
		i := bytes.IndexByte(p.bytes(a.pos, p.end()), '\n')
		end := a.pos + i + 1
		if i < 0 {
			a.pos = p.end()
			if !eof || a.out == p.end() {
				break
			}
			end = p.end()
		}
		if err := a.line(p, a.out, end); err != nil {
			return err
		}
		a.out, a.pos = end, end
	}
	if err := a.flushText(p, a.out); err != nil || !eof {
		return err
	}
	var near *Event // the unclosed block's own near-act error, which parse gives after its unclosed-fence
	if a.c == 0 {
		// No act fence line came: the document's character is the first
		// near-act line's, else the backtick (lexer.Detect).
		k := fenceIndex(a.near)
		a.c = [2]byte{lexer.Backtick, lexer.Tilde}[k]
		if b, held := a.open[k], a.held[k]; b.run != "" && len(held) > 0 {
			if e := held[len(held)-1]; e.Kind == grammar.CodeNearAct && e.Span.Start == b.span.Start {
				near, a.held[k] = e, held[:len(held)-1]
			}
		}
		if err := a.release(p, k, a.out); err != nil {
			return err
		}
	}
	if b := a.blk(); b.run != "" && b.kind == strayBlock {
		if err := a.report(p, &Event{Type: Error, Kind: grammar.CodeUnclosedFence, Raw: b.line, Span: b.span,
			Message: fmt.Sprintf("fence %q opened here is never closed; its block runs to the end of the input", b.run)}); err != nil {
			return err
		}
	}
	if near != nil {
		if err := a.report(p, near); err != nil {
			return err
		}
	}
	if a.act != nil && a.blk().run != "" {
		a.act.end = p.end() // an unclosed block runs to the end
	}
	if err := a.emit(p, p.end()); err != nil {
		return err
	}
	return a.summarise(p)
}

// line handles the line [start, end). A line read while no action is
// pending (before the first act block) is checked for lone CRs that hide
// a structural line here; the lines of an action's source are checked by
// its parse, and the text after its last block by emit.
func (a *acts) line(p *Parser, start, end int) error {
	var ds []*ast.Diagnostic
	pending := a.act != nil
	if !pending && bytes.IndexByte(p.bytes(start, end), '\r') >= 0 {
		c, run := a.crFence()
		if ds = grammar.ActsLineLoneCRs(nil, p.bytes(start, end), p.pos(start), c, run); len(ds) > 0 {
			// The text before the line goes out first, whatever the
			// chunking, so that the merged events do not depend on it.
			if err := a.flushText(p, start); err != nil {
				return err
			}
		}
	}
	if err := a.read(p, start, end); err != nil {
		return err
	}
	if a.act != nil {
		return nil // the line opened an action: its parse reports it
	}
	return a.sendLoneCRs(p, ds)
}

// crFence returns the fence character and the open block's run length (0
// outside any block) that a text line is checked for lone CRs with.
// Before the first act fence line the fence character is not known yet:
// the line is read as a document with backtick fences reads it
// (lexer.Detect's default; docs/acts.md, "Lone CRs").
func (a *acts) crFence() (byte, int) {
	if a.c == 0 {
		return lexer.Backtick, len(a.open[0].run)
	}
	return a.c, len(a.blk().run)
}

// sendLoneCRs emits the lone-cr errors ds of a text line.
func (a *acts) sendLoneCRs(p *Parser, ds []*ast.Diagnostic) error {
	for _, d := range ds {
		if err := a.report(p, &Event{Type: Error, Severity: d.Severity, Kind: d.Code, Message: d.Message, Raw: "\r", Span: d.Span}); err != nil {
			return err
		}
	}
	return nil
}

// trailingText checks the text lines [from, to) after an action's last
// block, outside any block, as parse checks prose: an act block inside a
// block quote (quoted-act) and lone CRs that hide a structural line.
func (a *acts) trailingText(p *Parser, from, to int) error {
	if from >= to {
		return nil
	}
	if chunk := p.bytes(from, to); bytes.IndexByte(chunk, '\r') < 0 && bytes.IndexByte(chunk, '>') < 0 {
		return nil
	}
	for ls := from; ls < to; {
		le := to
		if i := bytes.IndexByte(p.bytes(ls, to), '\n'); i >= 0 {
			le = ls + i + 1
		}
		if q := a.quoted(p, ls, le); q != nil {
			if err := a.report(p, q); err != nil {
				return err
			}
		}
		if line := p.bytes(ls, le); bytes.IndexByte(line, '\r') >= 0 {
			if err := a.sendLoneCRs(p, grammar.ActsLineLoneCRs(nil, line, p.pos(ls), a.c, 0)); err != nil {
				return err
			}
		}
		ls = le
	}
	return nil
}

// read handles the line [start, end), and follows the HTML comments it
// opens or closes as the batch parser does (hiddenActs): a prose line
// outside every block of a fence character can open one, any line can
// close it.
func (a *acts) read(p *Parser, start, end int) error {
	line := p.bytes(start, end)
	s := view.String(line)
	// A line that opens a comment (it starts with <!--, so it opens no
	// block) does so in a document of fence character c only outside every
	// block of c, which is known only before read1 moves on.
	var opens [2]bool
	if grammar.CommentOpens(s) {
		for k, c := range [2]byte{lexer.Backtick, lexer.Tilde} {
			opens[k] = (a.c == 0 || a.c == c) && a.open[k].run == ""
		}
	}
	err := a.read1(p, line, start, end)
	for k := range a.comment {
		switch h := &a.comment[k]; {
		case h.open:
			h.open = !bytes.Contains(line, []byte("-->"))
		case opens[k]:
			*h = htmlComment{open: true, line: p.pos(start).Line}
		}
	}
	return err
}

// hidden sends the hidden-act warning of the act fence line [start, end)
// when an HTML comment is open there (a document of fence character
// index k).
func (a *acts) hidden(p *Parser, k, start, end int) error {
	h := a.comment[k]
	if !h.open {
		return nil
	}
	from, to := start+lexer.MarkerPrefix(p.bytes(start, end)), contentEnd(p, start, end)
	return a.reportAfter(p, start, &Event{Type: Error, Severity: ast.Warning, Kind: grammar.CodeHiddenAct, Raw: p.str(from, to),
		Span: p.span(from, to), Message: grammar.HiddenActMessage(h.line)})
}

// read1 handles the line [start, end).
func (a *acts) read1(p *Parser, line []byte, start, end int) error {
	if a.c == 0 {
		fences := [2]byte{lexer.Backtick, lexer.Tilde} // in the order lexer.Detect tries them
		for k, c := range fences {
			if _, info, ok := lexer.OpenFence(line, c); ok && lexer.IsAct(info) {
				a.c = c
				if err := a.release(p, k, start); err != nil {
					return err
				}
				if a.open[k].run == "" {
					if err := a.hidden(p, k, start, end); err != nil {
						return err
					}
					return a.openAct(p, start, end)
				}
				a.strayContent(p, &a.open[k], line, start) // a sample inside an earlier block
				a.textLine(start)
				return nil
			}
		}
		if q := a.quoted(p, start, end); q != nil {
			// Prose outside the blocks of either character; inside a
			// block of one, prose only if the other is the document's.
			switch in0, in1 := a.open[0].run != "", a.open[1].run != ""; {
			case !in0 && !in1:
				if err := a.reportAfter(p, start, q); err != nil {
					return err
				}
			case in0 && !in1:
				a.hold(1, q)
			case !in0 && in1:
				a.hold(0, q)
			}
		}
		for _, c := range fences {
			if _, info, ok := lexer.OpenFence(line, c); ok && a.near == 0 && lexer.NearAct(info) {
				a.near = c
			}
		}
		for k, c := range fences {
			run, opens, err := a.track(p, &a.open[k], c, line, start, end)
			if err != nil {
				return err
			}
			if opens {
				if _, info, _ := lexer.OpenFence(line, c); lexer.NearAct(info) {
					// An error if c turns out to be the document's
					// character: held until it is known (release).
					a.hold(k, a.nearAct(p, info, run, start, end))
				}
				return a.strayLine(p, &a.open[k], run, start, end)
			}
		}
		a.textLine(start)
		return nil
	}
	b := a.blk()
	if b.run != "" {
		if lexer.ClosesFence(line, b.run) {
			switch b.kind {
			case actBlock:
				b.run = ""
				a.act.end = end
				return a.started(p, a.act, end)
			case argBlock:
				b.run = ""
				a.act.end = end
				return nil
			}
			a.textLine(start)
			return a.strayClosed(p, b, start, end, -1)
		}
		if b.kind == strayBlock {
			a.strayContent(p, b, line, start)
			a.textLine(start)
		}
		return nil
	}
	run, info, ok := lexer.OpenFence(line, a.c)
	switch {
	case !ok:
		if q := a.quoted(p, start, end); q != nil && a.act == nil {
			// Before any action (the act fence line came inside a
			// block); an action's prose is checked by its parse and emit.
			if err := a.reportAfter(p, start, q); err != nil {
				return err
			}
		}
		a.textLine(start)
		return nil
	case lexer.IsAct(info):
		if err := a.flushText(p, start); err != nil {
			return err
		}
		if err := a.emit(p, start); err != nil {
			return err
		}
		if err := a.hidden(p, fenceIndex(a.c), start, end); err != nil {
			return err
		}
		return a.openAct(p, start, end)
	case a.act != nil:
		if err := a.flushText(p, start); err != nil {
			return err
		}
		*b = fence{kind: argBlock, run: run}
		return nil
	case lexer.NearAct(info):
		// Before any action (the act fence line came inside a block):
		// not an argument, as parse reports it.
		if err := a.strayLine(p, b, run, start, end); err != nil {
			return err
		}
		return a.report(p, a.nearAct(p, info, run, start, end))
	}
	return a.strayLine(p, b, run, start, end)
}

// contentEnd returns the end of the line [start, end) without its line
// ending: a LF and a CR before it, or a CR that ends the input (as
// grammar's lineContentEnd).
func contentEnd(p *Parser, start, end int) int {
	line := p.bytes(start, end)
	if n := len(line); n > 0 && line[n-1] == '\n' {
		if end--; end > start && line[n-2] == '\r' {
			end--
		}
	} else if n > 0 && line[n-1] == '\r' {
		end--
	}
	return end
}

// quoted returns the quoted-act warning of the prose line [start, end),
// as parse gives it, or nil when the line opens no act block inside a
// block quote.
func (a *acts) quoted(p *Parser, start, end int) *Event {
	le := contentEnd(p, start, end)
	line := p.bytes(start, le)
	if bytes.IndexByte(line, '>') < 0 || !grammar.QuotedAct(view.String(line)) {
		return nil
	}
	return &Event{Type: Error, Severity: ast.Warning, Kind: grammar.CodeQuotedAct, Raw: p.str(start, le), Span: p.span(start, le),
		Message: grammar.QuotedActMessage}
}

// nearAct is the near-act error of the block that the line [start, end)
// opens with run and info, as parse gives it.
func (a *acts) nearAct(p *Parser, info, run string, start, end int) *Event {
	le := contentEnd(p, start, end)
	return &Event{Type: Error, Severity: ast.Error, Kind: grammar.CodeNearAct, Raw: p.str(start, le), Span: p.span(start, le),
		Message: grammar.NearActMessage(info, run)}
}

// track follows the stray blocks of fence character c (their lines are
// text) and reports whether the line [start, end) opens one.
func (a *acts) track(p *Parser, b *fence, c byte, line []byte, start, end int) (run string, opens bool, err error) {
	if b.run != "" {
		if lexer.ClosesFence(line, b.run) {
			return "", false, a.strayClosed(p, b, start, end, fenceIndex(c))
		}
		a.strayContent(p, b, line, start)
		return "", false, nil
	}
	run, _, opens = lexer.OpenFence(line, c)
	return run, opens, nil
}

// strayContent follows the content line at offset start of the open stray
// block b as the batch parser judges the block once closed: the nested
// opening lines still open (lexer.MisnestedFence) and the first line of
// the block's run followed by text (lexer.ExactFenceWithText).
func (a *acts) strayContent(p *Parser, b *fence, line []byte, start int) {
	s := view.String(line)
	if g, ok := lexer.ParseMdFence(s); ok && g.Char == b.run[0] {
		switch n := len(b.nested); {
		case g.Info != "" || g.Item:
			b.nested = append(b.nested, nestedLine{off: start, run: g.Run})
		case n > 0 && g.Run >= b.nested[n-1].run:
			b.nested = b.nested[:n-1]
		}
	}
	if b.with != nil {
		if !b.with.fenceAfter {
			_, _, b.with.fenceAfter = lexer.OpenFence(line, b.run[0])
		}
		return
	}
	v := "\n" + s // ExactFenceWithText reads content lines after a first line
	if _, t, te, ok := lexer.ExactFenceWithText(v, b.run, false); ok {
		text := p.str(start+t-1, start+te-1)
		b.with = &withText{off: start, text: text, span: p.span(start+t-1, start+te-1),
			info: lexer.LooksLikeInfo(text)}
	}
}

// strayClosed closes the stray block b at its closing line [start, end)
// and says, as the batch parser does, when a content line of the block's
// run followed by text kept it from closing there, so that it ran on over
// a later fence line (fence-trailing-text): unless the block was closed by the fence meant for a nested block
// opened at or after that line (and the text may be an info string), an
// improperly nested fence, which the stream does not report before the
// first act (docs/acts.md). k is the index of b's fence character while
// the document's is not known (its error is held until it is), else -1.
func (a *acts) strayClosed(p *Parser, b *fence, start, end, k int) error {
	run := len(b.run)
	w, nested := b.with, b.nested
	opening := b.span
	*b = fence{nested: nested[:0]}
	if w == nil || !w.fenceAfter {
		return nil
	}
	if n := len(nested); n > 0 && nested[n-1].run == run && !(w.off <= nested[n-1].off && !w.info) {
		return nil // improperly nested
	}
	e := &Event{Type: Error, Severity: ast.Error, Kind: grammar.CodeFenceTrailingText, Raw: w.text, Span: w.span,
		Message: fmt.Sprintf("the text %q after this fence keeps it from closing the block opened at line %d, which runs on to the fence at line %d: remove the text to close the block here (plangram fix does), or, if this line is content, make the block's fences longer than it",
			w.text, opening.Start.Line, p.pos(start).Line)}
	if k >= 0 {
		a.hold(k, e)
		return nil
	}
	return a.reportAfter(p, end, e)
}

// release sends the held errors of fence character index k, now known to
// be the document's (the text before offset to first), and drops the
// other character's.
func (a *acts) release(p *Parser, k, to int) error {
	held, left := a.held[k], a.holdCap[k].Overflows()
	a.held, a.holdCap = [2][]*Event{}, [2]grammar.Cap{}
	if len(held) > 0 {
		if err := a.flushText(p, to); err != nil {
			return err
		}
	}
	for _, e := range held {
		if err := a.report(p, e); err != nil {
			return err
		}
	}
	for _, o := range left { // after the ones held, as parse meets them
		a.cap.Absorb(*o)
	}
	return nil
}

// strayLine opens stray block b with run at the text line [start, end),
// which is emitted on its own: its span is kept for the error an unclosed
// block gets at the end.
func (a *acts) strayLine(p *Parser, b *fence, run string, start, end int) error {
	if err := a.flushText(p, start); err != nil {
		return err
	}
	*b = fence{kind: strayBlock, run: run, line: p.str(start, end), span: p.span(start, end)}
	return p.text(b.span.Start, end, false)
}

// textLine adds the line starting at start to the pending text.
func (a *acts) textLine(start int) {
	if a.text < 0 {
		a.text = start
	}
}

// flushText emits the pending text lines, which end at to.
func (a *acts) flushText(p *Parser, to int) error {
	if a.text < 0 {
		return nil
	}
	from := a.text
	a.text = -1
	return p.text(p.pos(from), to, false)
}

// openAct starts a new action at the act fence line [start, end). On a
// list item's marker line (`1. ~~~act`) the markers are text and the
// action starts at the fence run, as the batch parser reads it.
func (a *acts) openAct(p *Parser, start, end int) error {
	if pre := lexer.MarkerPrefix(p.bytes(start, end)); pre > 0 {
		a.textLine(start)
		start += pre
	}
	if err := a.flushText(p, start); err != nil {
		return err
	}
	run, _, _ := lexer.OpenFence(p.bytes(start, end), a.c)
	*a.blk() = fence{kind: actBlock, run: run}
	a.act = &pending{id: p.nextID(), start: start, startPos: p.pos(start), end: end}
	return nil
}

// parse parses the source [pa.start, end) of an action as `plangram parse`
// would, with positions in the whole stream. With capped, its diagnostics
// count against the stream's cap (those it returns are the ones to send);
// else they are not counted (started only needs the action's name).
func (a *acts) parse(p *Parser, pa *pending, end int, capped bool) (*ast.Action, []*ast.Diagnostic, []byte, error) {
	src := p.bytes(pa.start, end) // never overwritten: grammar may keep it
	ap, err := grammar.NewActsParser(a.c, a.s)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("stream: acts: %w", err)
	}
	if capped {
		ap.Cap = &a.cap
		a.cap.At(pa.startPos)
		defer a.cap.At(ast.Pos{})
	}
	doc, err := ap.Parse(context.Background(), "", src)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("stream: acts: %w", err)
	}
	if len(doc.Actions) != 1 {
		return nil, nil, nil, fmt.Errorf("stream: acts: %d actions in one action's source", len(doc.Actions))
	}
	act := doc.Actions[0]
	shiftAction(act, pa.startPos)
	for _, d := range doc.Diagnostics {
		shift(&d.Span, pa.startPos)
		for i := range d.Related {
			shift(&d.Related[i].Span, pa.startPos)
		}
	}
	return act, doc.Diagnostics, src, nil
}

// started emits ToolCallStart for the action whose act block ends at end.
func (a *acts) started(p *Parser, pa *pending, end int) error {
	act, _, _, err := a.parse(p, pa, end, false)
	if err != nil {
		return err
	}
	return p.send(&Event{Type: ToolCallStart, ID: pa.id, Name: act.Name, Span: ast.Span{Start: pa.startPos, End: p.pos(end)}})
}

// emit emits the pending action, if any: its errors, then the ToolCall,
// then the lone-cr errors of the text after its last block, up to to.
func (a *acts) emit(p *Parser, to int) error {
	pa := a.act
	if pa == nil {
		return nil
	}
	a.act = nil
	b := a.blk()
	if b.kind == actBlock && b.run != "" { // the act block never closed
		if err := a.started(p, pa, pa.end); err != nil {
			return err
		}
	}
	*b = fence{}
	act, diags, src, err := a.parse(p, pa, pa.end, true)
	if err != nil {
		return err
	}
	for _, d := range diags {
		if d.Code == grammar.CodeOtherFenceAct {
			// Document-level, as parse's other warnings about text
			// around the actions, which are not streamed: the action's
			// source alone cannot say it (an act block of the other
			// character inside a block of that character opened before
			// the action is no act block to a reader, and parse does not
			// report it), and outside the actions' sources it is not
			// said either (docs/stream.md).
			continue
		}
		e := &Event{Type: Error, ID: pa.id, Name: act.Name, Severity: d.Severity, Kind: d.Code, Message: d.Message,
			Raw: string(src[d.Span.Start.Offset-pa.start : d.Span.End.Offset-pa.start]), Span: d.Span}
		if err := p.send(e); err != nil { // counted by the parse
			return err
		}
	}
	if err := p.send(&Event{Type: ToolCall, ID: pa.id, Name: act.Name, Params: act.Params, Raw: string(src),
		Span: act.Span, Action: act}); err != nil {
		return err
	}
	return a.trailingText(p, pa.end, to)
}

// shift moves a span of a source that starts at position at of the stream
// to its place in the stream.
func shift(s *ast.Span, at ast.Pos) { *s = s.In(at) }

// shiftAction shifts every span of an action parsed from its own source.
func shiftAction(a *ast.Action, at ast.Pos) {
	shift(&a.Span, at)
	shift(&a.NameSpan, at)
	for i := range a.ArgSpans {
		shift(&a.ArgSpans[i], at)
	}
	for _, b := range append([]*ast.Block{a.Head}, a.Blocks...) {
		if b != nil {
			shift(&b.Span, at)
			shift(&b.ContentSpan, at)
		}
	}
	seen := map[*ast.Span]bool{}
	for _, prm := range a.Params {
		if prm.Span != nil && !seen[prm.Span] {
			seen[prm.Span] = true
			shift(prm.Span, at)
		}
	}
}
