package grammar

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"iter"
	"strings"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/internal/view"
)

// The edit-format parsers (search-replace, udiff, apply-patch) run the same
// code on a whole document (ParseSearchReplace, ParseUdiff,
// ParseApplyPatch) and on a stream (EditStream): they read their lines
// through editBase.has, which in a stream suspends the parser (it runs as
// a coroutine, iter.Pull) until the next line has arrived or the input has
// ended, and they report what they decide through editBase's on* methods,
// which a stream records as EditEvents. Lines are read once, so a stream
// is parsed in time linear in its length whatever its chunking.

// editBase is the state every edit-format parser shares.
type editBase struct {
	doc   *ast.Document
	lines *ast.Lines
	src   string // the input so far (all of it for a whole document)
	// n is how many lines of src the parser has (line): the lines are
	// not kept, but read from lines' index when asked for, so that the
	// parser holds the index's 4 bytes a line, not a 40-byte record.
	n     int
	prose *proseBuilder
	in    *editInput // nil for a whole document
	// ctx is a whole document's: once it is done, the input ends (has).
	ctx context.Context
	// lean drops each action once its End is reported, and the prose
	// (EditStream.Lean); acts counts the actions, seen the path breaches
	// reported.
	lean bool
	acts int
	seen pathSeen
	// cap lists the first MaxPerCode diagnostics of each code and counts
	// the rest (report); finish sums them up (docs/check.md, "Bounded
	// output").
	cap Cap
}

// report reports a diagnostic unless MaxPerCode of its code were reported;
// then it is only counted, and the diagnostic returned, which the caller
// may still fill in, is not kept.
func (p *editBase) report(sev ast.Severity, code string, span ast.Span, format string, args ...any) *ast.Diagnostic {
	if !p.cap.Take(sev, code, span, "") {
		return &ast.Diagnostic{Severity: sev, Code: code, Span: span}
	}
	return p.doc.Add(sev, code, span, format, args...)
}

// finish ends the document's diagnostics: the no-edits note, and one
// diagnostic per code that overflowed the cap.
func (p *editBase) finish(srcLen int) {
	noEdits(p.doc, srcLen, p.acts)
	p.doc.Diagnostics = append(p.doc.Diagnostics, p.cap.Summaries()...)
}

// parseEdit parses the whole edit-format document src with opts'
// Uncapped and Silenced.
func parseEdit(ctx context.Context, dialect string, src []byte, opts Options) (*ast.Document, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	run := editRunner(dialect)
	if run == nil {
		return nil, fmt.Errorf("grammar: %q is not an edit-format dialect", dialect)
	}
	lines := ast.NewLines(src)
	b := &editBase{doc: &ast.Document{Dialect: dialect, Span: lines.Span(0, len(src))}, lines: lines, src: view.String(src),
		n: lineCount(lines, len(src)), seen: pathSeen{}, ctx: ctx}
	b.prose = &proseBuilder{b: b, start: -1}
	b.cap.NoLimit, b.cap.Silenced = opts.Uncapped, opts.Silenced
	run(b)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	b.finish(len(src))
	ast.SortDiagnostics(b.doc.Diagnostics)
	// Diagnostic text is valid UTF-8 (ast.EscapeDiagnostics) from every
	// entry point: ParseUdiff and the others, not only Parse.
	ast.EscapeDiagnostics(b.doc.Diagnostics)
	return b.doc, nil
}

// editRunner returns the parser of an edit-format dialect, nil for
// another dialect.
func editRunner(dialect string) func(*editBase) {
	switch dialect {
	case DialectSearchReplace:
		return runSearchReplace
	case DialectUdiff:
		return runUdiff
	case DialectApplyPatch:
		return runApplyPatch
	}
	return nil
}

// lineCount returns how many lines the first size bytes indexed by
// lines have: an empty source has none, and a source that ends with a
// line ending has no empty line after it.
func lineCount(lines *ast.Lines, size int) int {
	n := lines.Count()
	if lines.LineStart(n) >= size {
		n--
	}
	return n
}

// line returns line i (< p.n) of the source.
func (p *editBase) line(i int) srcLine {
	start, end := p.lines.LineStart(i+1), min(p.lines.LineStart(i+2), len(p.src))
	return srcLine{start: start, end: end, text: strings.TrimSuffix(strings.TrimSuffix(p.src[start:end], "\n"), "\r")}
}

// lineSpan returns the span of line i without its line ending.
func (p *editBase) lineSpan(i int) ast.Span {
	l := p.line(i)
	return p.lines.Span(l.start, l.start+len(l.text))
}

// has reports whether line i exists, waiting for it in a stream; a whole
// document's input ends where its ctx is done (every 4096 lines asked).
func (p *editBase) has(i int) bool {
	if i%4096 == 0 && p.ctx != nil && p.ctx.Err() != nil {
		return false
	}
	for i >= p.n {
		if p.in == nil || !p.in.more(p) {
			return false
		}
		p.src, p.n = p.in.src, p.in.n
	}
	return true
}

// The on* methods report to a stream (they do nothing for a whole
// document). Diagnostics added since the last report go first.
func (p *editBase) record(r editRec) {
	if p.in == nil || p.in.stopped {
		return
	}
	p.in.diags(p)
	p.in.recs = append(p.in.recs, r)
}

func (p *editBase) onProse(start, end int) { p.record(editRec{kind: recProse, start: start, end: end}) }
func (p *editBase) onBegin(a *ast.Action) {
	p.record(editRec{kind: recBegin, a: a, text: a.Name, start: a.Span.Start.Offset, end: a.Span.End.Offset})
}
func (p *editBase) onEnd(a *ast.Action) {
	p.acts++
	checkActionPaths(p, a)
	p.record(editRec{kind: recEnd, a: a})
	if p.lean {
		// The action is final (the only one open is the last one
		// added): let it go.
		if n := len(p.doc.Actions); n > 0 && p.doc.Actions[n-1] == a {
			p.doc.Actions[n-1] = nil
			p.doc.Actions = p.doc.Actions[:n-1]
		}
	}
}

// onDelta reports text of parameter param of a, from the source range
// [start, end).
func (p *editBase) onDelta(a *ast.Action, param, text string, start, end int) {
	if text != "" {
		p.record(editRec{kind: recDelta, a: a, param: param, text: text, start: start, end: end})
	}
}

// onHunk reports a complete hunk h of a, whose source is the block blk.
func (p *editBase) onHunk(a *ast.Action, h Hunk, blk *ast.Block) {
	p.record(editRec{kind: recHunk, a: a, hunk: h, blk: blk})
}

// editInput is a stream's input as the parser sees it.
type editInput struct {
	buf     []byte // every byte written; never modified once written
	src     string // buf up to the end of its last complete line
	n       int    // its lines (lines indexes them)
	lines   *ast.Lines
	eof     bool
	stopped bool
	yield   func(struct{}) bool
	recs    []editRec
	nd      int // diagnostics reported so far
}

// more waits for lines p has not seen; it returns false at the end of
// the input.
func (in *editInput) more(p *editBase) bool {
	for in.n == p.n {
		if in.eof || in.stopped {
			return false
		}
		in.diags(p)
		if !in.yield(struct{}{}) {
			in.stopped = true
			return false
		}
	}
	return true
}

// diags records the diagnostics added since the last call.
func (in *editInput) diags(p *editBase) {
	for ; in.nd < len(p.doc.Diagnostics); in.nd++ {
		in.recs = append(in.recs, editRec{kind: recDiag, d: p.doc.Diagnostics[in.nd]})
	}
}

type recKind uint8

const (
	recProse recKind = iota
	recBegin
	recDelta
	recHunk
	recEnd
	recDiag
)

// editRec is one report of the parser, delivered to EditEvents.
type editRec struct {
	kind       recKind
	a          *ast.Action
	start, end int
	param      string
	text       string
	hunk       Hunk
	blk        *ast.Block
	d          *ast.Diagnostic
}

// EditEvents receives what an EditStream decides, in input order, as soon
// as it is decided; an error stops the stream. Offsets and spans are those of the stream's input.
// An action passed to Begin is still being read: its Span, Blocks and
// Params grow until End, after which it is final (it is the action the
// whole document's parse would give, diagnostics included).
type EditEvents interface {
	// Prose reports that the source range [start, end) is prose. A range
	// that lies inside an action's final span (blank lines between its
	// hunks) is also part of that action.
	Prose(start, end int) error
	// Begin reports a new action once its header, the source range
	// [start, end), is read; name is its name as the header says (a
	// `--- /dev/null` diff whose hunks have old lines turns out an
	// update_file by its End), its path parameters are set.
	Begin(a *ast.Action, name string, start, end int) error
	// Delta reports text of parameter param of the action being read
	// (a SEARCH or REPLACE line, a line of an apply-patch new file),
	// read from the source range [start, end). Its deltas, concatenated,
	// are the parameter's value.
	Delta(a *ast.Action, param, text string, start, end int) error
	// Hunk reports a complete hunk (every hunk of a unified diff, each
	// chunk of an apply-patch update), and the block that is its source.
	Hunk(a *ast.Action, h Hunk, blk *ast.Block) error
	// End reports that action a is complete.
	End(a *ast.Action) error
	// Diagnostic reports a diagnostic as soon as it is found.
	Diagnostic(d *ast.Diagnostic) error
}

// EditStream parses an edit-format document (search-replace, udiff,
// apply-patch) while it arrives: Write feeds bytes, Close ends the input,
// and the parser reports to an EditEvents each line's meaning as soon as
// it is certain (a hunk when the line after it shows it is complete). It
// runs the very parser of ParseSearchReplace, ParseUdiff and
// ParseApplyPatch, so the actions, prose and diagnostics it reports are
// those of parsing the whole document at once; the input is read once.
//
// The parser runs as a coroutine: Close (or an error) releases it. An
// EditStream is not safe for concurrent use.
type EditStream struct {
	ev     EditEvents
	in     *editInput
	base   *editBase
	split  int // bytes of in.buf split into lines
	next   func() (struct{}, bool)
	stop   func()
	closed bool
	err    error
}

// NewEditStream returns a stream parser of the edit-format dialect
// (DialectSearchReplace, DialectUdiff or DialectApplyPatch) reporting to
// ev.
func NewEditStream(dialect string, ev EditEvents) (*EditStream, error) {
	run := editRunner(dialect)
	if run == nil {
		return nil, fmt.Errorf("grammar: %q is not an edit-format dialect", dialect)
	}
	if ev == nil {
		return nil, errors.New("grammar: NewEditStream needs an EditEvents")
	}
	in := &editInput{lines: ast.NewLines(nil)}
	b := &editBase{doc: &ast.Document{Dialect: dialect}, lines: in.lines, in: in, seen: pathSeen{}}
	b.prose = &proseBuilder{b: b, start: -1}
	s := &EditStream{ev: ev, in: in, base: b}
	s.next, s.stop = iter.Pull(func(yield func(struct{}) bool) {
		in.yield = yield
		run(b)
		if !in.stopped {
			b.finish(len(in.src))
			in.diags(b)
		}
	})
	return s, nil
}

// Lean makes the stream keep neither the actions once it has reported
// their End nor the prose: Document then holds only the diagnostics (and
// the span after Close). For a consumer that takes what it needs from the
// events, as the stream package does, memory then stays near the input
// and its line index rather than growing with the tree. Call it before
// the first Write.
func (s *EditStream) Lean() { s.base.lean = true }

// Source returns the input read so far, up to the end of its last
// complete line (all of it after Close).
func (s *EditStream) Source() string { return s.in.src }

// Lines returns the line index of the input read so far.
func (s *EditStream) Lines() *ast.Lines { return s.in.lines }

// Document returns the document built so far; after Close it is the
// document the whole-input parser returns, but for its diagnostics'
// order (the order they were found in) and its span.
func (s *EditStream) Document() *ast.Document { return s.base.doc }

// Write feeds more input; the complete lines in it are parsed and what is
// decided is reported before Write returns. An error of the EditEvents
// stops the stream and is returned.
func (s *EditStream) Write(b []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	if s.closed {
		return 0, errors.New("grammar: EditStream is closed")
	}
	s.in.buf = append(s.in.buf, b...)
	last := bytes.LastIndexByte(b, '\n') // b's last line ending, the end of the lines to split
	if last < 0 {
		return len(b), nil
	}
	s.lines(len(s.in.buf) - len(b) + last + 1)
	return len(b), s.resume()
}

// lines splits the bytes up to end into lines for the parser.
func (s *EditStream) lines(end int) {
	chunk := s.in.buf[s.split:end]
	s.in.lines.Extend(chunk)
	s.in.src = view.String(s.in.buf[:end])
	s.in.n = lineCount(s.in.lines, end)
	s.split = end
}

// Close ends the input: the last line, complete or not, is parsed and
// everything still open is decided and reported.
func (s *EditStream) Close() error {
	if s.err != nil {
		return s.err
	}
	if s.closed {
		return errors.New("grammar: EditStream is closed")
	}
	s.closed = true
	if s.split < len(s.in.buf) {
		s.lines(len(s.in.buf))
	}
	s.in.eof = true
	err := s.resume()
	s.base.doc.Span = s.in.lines.Span(0, len(s.in.src))
	ast.EscapeDiagnostics(s.base.doc.Diagnostics) // as parseEdit's
	s.stop()
	return err
}

// resume runs the parser until it waits for more input, then delivers
// its reports.
func (s *EditStream) resume() error {
	s.next()
	recs := s.in.recs
	s.in.recs = s.in.recs[:0]
	for _, r := range recs {
		var err error
		switch r.kind {
		case recProse:
			err = s.ev.Prose(r.start, r.end)
		case recBegin:
			err = s.ev.Begin(r.a, r.text, r.start, r.end)
		case recDelta:
			err = s.ev.Delta(r.a, r.param, r.text, r.start, r.end)
		case recHunk:
			err = s.ev.Hunk(r.a, r.hunk, r.blk)
		case recEnd:
			err = s.ev.End(r.a)
		case recDiag:
			err = s.ev.Diagnostic(r.d)
		}
		if err != nil {
			s.err = err
			s.stop()
			return err
		}
	}
	return nil
}
