// Package stream parses LLM output while it arrives, chunk by chunk, into
// events: text to show, thinking, tool calls with typed parameters, errors.
//
// Each way of writing tool calls is a syntax (see Syntax and Syntaxes):
// "tools" is the XML-style tool-call format
// (<write_to_file><path>a.go</path><content>…</content></write_to_file>),
// also accepted as <function_calls><invoke name="…"><parameter name="…">…
// </parameter></invoke></function_calls>, with <thinking> blocks; "acts" is
// the fenced-acts dialect; others follow models' own formats, and "auto"
// detects the syntax from the first marker. All take their actions and
// parameters from a declarative schema (package schema); docs/stream.md
// documents the rules.
//
// Results never depend on how the input is cut into chunks: the events of
// any chunking equal those of the whole input in one chunk once adjacent
// Text, Thinking and ParamDelta events are merged. Text is emitted as soon as
// it is certain (only a suffix that may still become a known tag is held
// back), and the work is linear in the input length whatever the chunk size.
package stream

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/internal/view"
	"github.com/plangram/plangram/schema"
)

// minBlock is the least capacity of a new buffer once the stream has grown
// past the first small blocks.
const minBlock = 64 << 10

// DefaultMaxCallSize is the MaxCallSize used when Options leave it zero.
const DefaultMaxCallSize = 4 << 20

// Options configure a Parser. The zero value parses the tools syntax with
// the built-in schema.
type Options struct {
	// Syntax names the syntax to parse (SyntaxNames lists them; "auto"
	// detects it). Empty means Dialect, then the Schema's syntax (a custom
	// dialect names the grammar that reads it), then "tools".
	Syntax string
	// Dialect is the former name of Syntax, still accepted; when both are
	// set they must agree.
	Dialect string
	// Schema declares the actions and their parameters; nil means the
	// syntax's built-in schema.
	Schema *schema.Schema
	// ThinkingTags are the names of thinking blocks (tools dialect); nil
	// means "thinking" and "think", an empty slice none.
	ThinkingTags []string
	// HideThinking drops Thinking events (the blocks are still recognised,
	// so the tags inside them are never calls).
	HideThinking bool
	// InThinking says the stream starts inside a thinking block: the chat
	// template opened it (<think>), so the stream begins with reasoning and
	// a bare closing tag (</think>).
	InThinking bool
	// MaxCallSize bounds a tool call's source size in bytes (tools
	// dialect); zero or less means DefaultMaxCallSize. A larger call is reported
	// (kind too-large) and its text is emitted as Text.
	MaxCallSize int
	// OmitFraming leaves out the events that carry only framing: a Text
	// or Thinking event whose Text is empty (a wrapper's tags, the white
	// space between calls, an SSE event without text, a thinking block's
	// tags), and a Thinking event carries only its block's content (its
	// Raw is its Text, its Span the content's). The events then no longer
	// give back every byte of the input; `plangram stream` sets it unless
	// --exact is given.
	OmitFraming bool
	// ToolsHint says, in an unknown-tool error under the built-in
	// registry (Schema nil), how the model's own tools are given: it
	// completes "give the model's tools …". Empty means "with --tools
	// FILE", `plangram stream`'s flag; the document commands, which take
	// an action schema, say "as an action schema with --schema FILE".
	ToolsHint string
}

// ErrClosed is returned by Write and Close after Close.
var ErrClosed = errors.New("stream: parser is closed")

// Parser is an incremental parser. Feed it with Write (it is an
// io.WriteCloser) and finish with Close; it calls the emit function given
// to New for each event, in order, as soon as the event is decided. The
// *Event given to emit is the parser's own, valid only during the call and
// not to be changed: copy it (or what is needed of it) to keep it. A Parser
// is not safe for concurrent use.
//
// The strings of events share memory with the parser's input blocks (of
// 64 KiB or more), which are never modified once written: keeping a string
// keeps its block. This is what makes allocations grow with the number of
// calls rather than the number of chunks.
type Parser struct {
	emit func(*Event) error
	ev   Event // the event being delivered, passed to emit by pointer
	// full says ev may hold fields a ParamDelta leaves zero (it was
	// copied whole by send, or built by text): the tools scanner's delta
	// clears it before setting its own.
	full   bool
	err    error
	closed bool
	d      scanner
	syntax string // the syntax's name, reported on End
	ids    int    // the last call id given
	omit   bool   // Options.OmitFraming

	// buf holds the stream bytes from offset base on: at least those not
	// yet decided or still needed (the source of an open call). Its last
	// tail bytes are an incomplete UTF-8 character, hidden from the
	// scanner until the next Write or Close.
	buf  []byte
	base int
	tail int
	// tight (set by tests) makes every Write drop the bytes before
	// keep() from the buffer: a scanner that reads one, slices it or asks
	// its position fails at once, whatever the input's size, instead of
	// only when a large stream moves the buffer.
	tight bool
	// The line tracker: line is the 1-based line of offset off, which
	// starts at offset start. It only moves forward.
	off, line, start int
	// baseStart is the offset where the line of offset base starts (it
	// may be before base): the column of an offset behind the tracker
	// is counted from it when no line ending lies between base and the
	// offset.
	baseStart int
	// ws remembers the white space runs spaces measured last, so that a
	// scanner waiting after white space does not count it again on every
	// Write (which would be quadratic in the run's length).
	ws [2]wsRun
}

// wsRun is a run of n white space bytes from offset at on.
type wsRun struct{ at, n int }

// New returns a parser that calls emit for each event. The event is valid
// only during the call (the parser reuses it): emit copies what it keeps
// and changes nothing in it.
// An error from emit stops the parser and is returned (wrapped) by Write
// or Close.
func New(opts Options, emit func(*Event) error) (*Parser, error) {
	if emit == nil {
		return nil, errors.New("stream: New needs an emit function")
	}
	if opts.Syntax != "" && opts.Dialect != "" && opts.Dialect != opts.Syntax {
		return nil, fmt.Errorf("stream: Options.Syntax %q and Options.Dialect %q disagree", opts.Syntax, opts.Dialect)
	}
	name := cmp.Or(opts.Syntax, opts.Dialect)
	if name == "" && opts.Schema != nil {
		name = opts.Schema.SyntaxName()
	}
	name = cmp.Or(name, "tools")
	var d scanner
	var err error
	if name == Auto {
		d, err = newAuto(opts)
	} else if syn, lerr := LookupSyntax(name); lerr != nil {
		err = lerr
	} else {
		d, err = open(syn, opts, 0)
	}
	if err != nil {
		return nil, err
	}
	return &Parser{emit: emit, d: d, line: 1, syntax: name, omit: opts.OmitFraming}, nil
}

// open returns syntax syn's scanner starting at offset start.
func open(syn *Syntax, opts Options, start int) (scanner, error) {
	s, err := schemaFor(syn, opts)
	if err != nil {
		return nil, err
	}
	d, err := syn.open(&config{schema: s, opts: opts, start: start})
	if err != nil {
		return nil, fmt.Errorf("stream: syntax %s: %w", syn.Name, err)
	}
	return d, nil
}

// Syntax returns the name of the syntax the parser reads: the one given to
// New, or under "auto" the one detected so far ("auto" while undecided).
func (p *Parser) Syntax() string {
	if a, ok := p.d.(*auto); ok && a.syn != nil {
		return a.syn.Name
	}
	return p.syntax
}

// nextID returns the next call id.
func (p *Parser) nextID() int {
	p.ids++
	return p.ids
}

// Write feeds the next chunk of the stream. It returns len(b) unless emit
// failed or the parser is closed.
func (p *Parser) Write(b []byte) (int, error) {
	if p.err != nil {
		return 0, p.err
	}
	if p.closed {
		return 0, ErrClosed
	}
	if len(p.buf)+len(b) > cap(p.buf) || p.tight && min(p.d.keep(), p.off) > p.base {
		p.grow(len(b))
	}
	n := len(p.buf)
	p.buf = p.buf[:n+len(b)] // (a reslice in place stores no pointer: no write barrier, unlike append)
	copy(p.buf[n:], b)
	if p.tail = 0; len(p.buf) > 0 && p.buf[len(p.buf)-1] >= utf8.RuneSelf { // (else incomplete's answer is 0)
		p.tail = incomplete(p.buf)
	}
	if err := p.d.scan(p, false); err != nil {
		p.err = err
		return 0, err
	}
	return len(b), nil
}

// Close ends the stream: everything still held back is decided (an open
// thinking block or call is reported as unterminated) and End is emitted.
func (p *Parser) Close() error {
	if p.err != nil {
		return p.err
	}
	if p.closed {
		return ErrClosed
	}
	p.closed = true
	p.tail = 0
	if err := p.d.scan(p, true); err != nil {
		p.err = err
		return err
	}
	end := p.end()
	p.err = p.send(&Event{Type: End, Syntax: p.Syntax(), Span: p.span(end, end)})
	return p.err
}

// Parse reads r in reads of at most chunk bytes (4096 when chunk <= 0),
// feeds them to a parser made with opts and closes it. It stops with ctx's
// error when ctx is done; cancellation is checked between reads. emit is
// as for New: the event is valid only during the call.
func Parse(ctx context.Context, r io.Reader, chunk int, opts Options, emit func(*Event) error) error {
	p, err := New(opts, emit)
	if err != nil {
		return err
	}
	if chunk <= 0 {
		chunk = 4096
	}
	buf := make([]byte, chunk)
	for {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("stream: %w", err)
		}
		n, rerr := r.Read(buf)
		if n > 0 {
			if _, err := p.Write(buf[:n]); err != nil {
				return err
			}
		}
		if rerr == io.EOF {
			return p.Close()
		}
		if rerr != nil {
			return fmt.Errorf("stream: read: %w", rerr)
		}
	}
}

// send delivers event e, copied into the parser's own event unless it is
// that one already (an event built in place).
func (p *Parser) send(e *Event) error {
	if p.omit && (e.Type == Text || e.Type == Thinking) && e.Text == "" {
		return nil // framing only (Options.OmitFraming)
	}
	if e.Message != "" {
		e.Message = ast.EscapeInvalidUTF8(e.Message) // diagnostic text is valid UTF-8 (docs/acts.md)
	}
	if e != &p.ev {
		p.ev, p.full = *e, true
	}
	if err := p.emit(&p.ev); err != nil {
		return fmt.Errorf("stream: emit: %w", err)
	}
	return nil
}

// end returns the offset just after the last byte a scanner may read: the
// last byte received, less an incomplete UTF-8 character at the end until
// more bytes or the end of the stream complete or decide it.
func (p *Parser) end() int { return p.base + len(p.buf) - p.tail }

// incomplete returns the length of the incomplete UTF-8 character b ends
// with: the start of a valid multi-byte encoding still missing bytes.
func incomplete(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax+1; i-- {
		if utf8.RuneStart(b[i]) {
			if utf8.FullRune(b[i:]) {
				return 0
			}
			return len(b) - i
		}
	}
	return 0
}

// charStart returns off, or, when off falls inside a valid multi-byte
// UTF-8 character of the bytes received, the offset of that character's
// first byte: a cut at a byte count (a call's size limit) is moved back so
// that no event ends inside a character. A continuation byte can never
// start a character, so the first byte found before off that can is a
// character boundary whatever came before it.
func (p *Parser) charStart(off int) int {
	if off >= p.base+len(p.buf) {
		return off // past what was received: no character straddles it yet
	}
	lo := max(p.base, off-utf8.UTFMax+1)
	for s := off - 1; s >= lo; s-- {
		b := p.buf[s-p.base]
		if !utf8.RuneStart(b) {
			continue
		}
		if r, n := utf8.DecodeRune(p.buf[s-p.base : min(s+utf8.UTFMax, p.base+len(p.buf))-p.base]); r != utf8.RuneError && s+n > off {
			return s // (an ASCII byte's n is 1: s+1 <= off)
		}
		return off
	}
	return off
}

// bytes returns the received bytes [from, to) (offsets).
func (p *Parser) bytes(from, to int) []byte { return p.buf[from-p.base : to-p.base] }

// pos returns the position of offset off. Offsets are asked for in
// non-decreasing order almost always, so the tracker counts every line
// ending once; an offset behind it (still in the buffer) is counted back.
// The tracker's own offset, the usual case, is answered inline.
func (p *Parser) pos(off int) ast.Pos {
	if off != p.off {
		return p.seek(off)
	}
	return ast.Pos{Offset: off, Line: p.line, Col: off - p.start + 1}
}

// seek returns the position of offset off, moving the line tracker
// forward to it when it lies ahead.
func (p *Parser) seek(off int) ast.Pos {
	if off < p.off {
		return p.back(off)
	}
	seg := p.bytes(p.off, off)
	if len(seg) > 64 {
		if n := bytes.Count(seg, []byte{'\n'}); n > 0 {
			p.line += n
			p.start = p.off + bytes.LastIndexByte(seg, '\n') + 1
		}
	} else {
		// a short segment (a small chunk's piece) holds a line ending or
		// two at most: one IndexByte for each, and one
		for i := bytes.IndexByte(seg, '\n'); i >= 0; i = bytes.IndexByte(seg, '\n') {
			seg = seg[i+1:]
			p.line++
			p.start = off - len(seg)
		}
	}
	p.off = off
	return ast.Pos{Offset: off, Line: p.line, Col: off - p.start + 1}
}

// back returns the position of offset off behind the line tracker,
// counted back from it: a position asked for late (a scanner that emits
// markup after an error that ends further on).
func (p *Parser) back(off int) ast.Pos {
	if off < p.base {
		if p.tight {
			panic(fmt.Sprintf("stream: %T asked the position of offset %d, before its keep() (%d)", p.d, off, p.base))
		}
		return ast.Pos{Offset: off, Line: p.line, Col: off - p.start + 1}
	}
	line := p.line - bytes.Count(p.bytes(off, p.off), []byte{'\n'})
	start := p.start
	if off < start {
		start = p.lineStart(off)
	}
	return ast.Pos{Offset: off, Line: line, Col: off - start + 1}
}

// spaces returns the number of white space bytes (space, tab, CR, LF)
// from offset at on, as skipSpace(p.bytes(at, p.end())) does; it counts
// each byte once however often it is asked while the run grows.
func (p *Parser) spaces(at int) int {
	r := &p.ws[0]
	switch {
	case r.at == at:
	case p.ws[1].at == at:
		p.ws[0], p.ws[1] = p.ws[1], p.ws[0]
	default:
		p.ws[1] = p.ws[0]
		*r = wsRun{at: at}
	}
	r.n += skipSpace(p.bytes(at+r.n, p.end()))
	return r.n
}

// lineStart returns the offset where the line of offset off (in the
// buffer) starts, which may be before the buffer.
func (p *Parser) lineStart(off int) int {
	if i := bytes.LastIndexByte(p.bytes(p.base, off), '\n'); i >= 0 {
		return p.base + i + 1
	}
	return p.baseStart
}

func (p *Parser) span(from, to int) ast.Span { return ast.Span{Start: p.pos(from), End: p.pos(to)} }

// text emits the bytes from start to offset to as a Text event; markup (the
// <function_calls> wrapper) is emitted with an empty Text.
func (p *Parser) text(start ast.Pos, to int, markup bool) error {
	if to <= start.Offset {
		return nil
	}
	raw, end := p.str(start.Offset, to), p.pos(to)
	e := &p.ev // built in place
	*e, p.full = Event{}, true
	e.Type, e.Raw, e.Span = Text, raw, ast.Span{Start: start, End: end}
	if !markup {
		e.Text = raw
	}
	return p.send(e)
}

// cutTag ends the stream, whose bytes from offset at on are the start of a
// call's opening tag (a syntax's marker) cut off: a cut-tag error, then the
// bytes as markup (a Text event with empty Text).
func (p *Parser) cutTag(at int) error {
	end := p.end()
	raw := p.str(at, end)
	start := p.pos(at) // before pos(end): the line tracker only moves forward
	err := p.send(&Event{Type: Error, Kind: KindCutTag, Raw: raw, Span: ast.Span{Start: start, End: p.pos(end)},
		Message: fmt.Sprintf("the stream ends inside the opening tag of a call: %q", raw)})
	if err != nil {
		return err
	}
	return p.text(start, end, true)
}

// grow makes room for n more bytes. The buffer is append-only: the bytes
// it holds are never overwritten, since event strings share them (str);
// the bytes still needed move to a new buffer, which leaves the old one to
// the strings that use it. The copying stays linear in the stream length.
func (p *Parser) grow(n int) {
	keep := min(p.d.keep(), p.off)
	live := p.buf[keep-p.base:]
	need := len(live) + n
	// Blocks start at 4 KiB and double up to minBlock, so that a short
	// stream does not pay for a large block (a tight parser's hold what
	// is live: it moves them at every Write).
	blk := min(minBlock, max(4<<10, 2*cap(p.buf)))
	if p.tight {
		blk = 0
	}
	buf := make([]byte, len(live), need+max(len(live), blk)) // room for as much again as was copied
	copy(buf, live)
	p.baseStart = p.lineStart(keep)
	p.buf, p.base = buf, keep
}

// str returns the received bytes [from, to) as a string that shares the
// buffer's memory, which is never overwritten.
func (p *Parser) str(from, to int) string {
	return view.String(p.bytes(from, to))
}
