package grammar

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/alecthomas/participle/v2"
	plex "github.com/alecthomas/participle/v2/lexer"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/internal/number"
	"github.com/plangram/plangram/internal/view"
	"github.com/plangram/plangram/lexer"
	"github.com/plangram/plangram/schema"
	"github.com/plangram/plangram/validate"
)

// The fenced-acts grammar, over the coarse lexer's tokens (lexer.Coarse),
// its Text tokens (prose) elided:
//
//	File = Lead Act*
//	Lead = Block*
//	Act  = ActBlock Block*
//
// The blocks of the lead are stray (a warning); the blocks of an act are
// its arguments; the text between blocks is prose. Parse reads the Lead,
// then one Act at a time, each with its rule's participle parser (parseRule),
// and builds each as it is read. Every token sequence is a File.
type actsLead struct {
	Blocks struct{} `parser:"Block*"`
}

type actsAct struct {
	Blocks struct{} `parser:"ActBlock Block*"`
}

// actsGrammar holds the participle parsers of the acts grammar's rules.
// They are immutable once built and do not depend on the fence character
// (Parse hands them the lexer's tokens), so one pair serves every parse:
// the stream parses each action's source with a parser of its own, and
// building the grammar costs more than parsing an action.
var actsGrammar = sync.OnceValues(func() (g struct {
	lead *participle.Parser[actsLead]
	act  *participle.Parser[actsAct]
}, err error) {
	def, elide := participle.Lexer(lexer.Coarse(0)), participle.Elide("Text")
	if g.lead, err = participle.Build[actsLead](def, elide); err == nil {
		g.act, err = participle.Build[actsAct](def, elide)
	}
	if err != nil {
		err = fmt.Errorf("building acts grammar: %w", err)
	}
	return g, err
})

// Diagnostic codes of the acts dialect (docs/acts.md, "Diagnostics").
const (
	CodeUnclosedFence   = "unclosed-fence"
	CodeBlockBeforeAct  = "block-before-act"
	CodeEmptyActionName = "empty-action-name"
	CodeUnterminated    = "unterminated-quote"
	CodeParse           = "parse-error"
	// CodeOtherFenceAct: an act block written with the document's other
	// fence character, which the fence rule reads as prose (docs/acts.md).
	CodeOtherFenceAct = "other-fence-act"
	// CodeNearAct: a block whose info string starts with the word act but
	// is not exactly act (`act python`, `act:`, `{act}`): not an act block,
	// so the action it seems to name is not read (docs/acts.md).
	CodeNearAct = "near-act"
	// CodeQuotedAct: an act block inside a block quote (`> ```act`), which
	// is prose: its action is not read (docs/acts.md).
	CodeQuotedAct = "quoted-act"
	// CodeHiddenAct: an act block inside an HTML comment (`<!--` … `-->`):
	// read as an action, but hidden by every Markdown viewer (docs/acts.md).
	CodeHiddenAct = "hidden-act"
	// CodeNoPlan: a document with no act block at all gets this one note
	// rather than a warning per code block (docs/check.md).
	CodeNoPlan = "no-plan"
	// CodeBlockRun: more blocks in a row before the first act block, or
	// after one act block, than one rule of the grammar reads (MaxBlockRun);
	// the rest of the document is prose (docs/acts.md).
	CodeBlockRun = "too-many-blocks-in-a-row"
)

// MaxBlockRun is how many blocks the grammar reads in a row (the text
// between them aside) before the first act block or after one act block:
// participle's bound on the repetitions of one rule (participle.MaxIterations,
// reached by one more). Past it, the document from the start of that rule's
// tokens to its end is one prose node, its actions not read, with a
// too-many-blocks-in-a-row error (docs/acts.md, "Bounded output"). Reaching
// it takes a million blocks: eight megabytes at the least.
const MaxBlockRun = 999_999

// ActsParser parses fenced-acts documents; it is safe for concurrent use.
//
// Parse reads the document with the participle grammar above over the
// coarse lexer's tokens and builds the document's nodes from the tokens
// each rule matched (actsBuilder).
type ActsParser struct {
	schema *schema.Schema
	fence  byte
	// Cap, when set, is the cap the parser counts its diagnostics against
	// instead of one of its own, and it adds no summary of what went past
	// it: for a caller that parses a document piece by piece and caps
	// across the pieces (the stream, one action's source at a time), which
	// reports Cap.Overflows itself. A parser with a Cap is not safe for
	// concurrent use.
	Cap *Cap
	// Silenced, when set, drops the diagnostics it names before they are
	// counted against the cap (Options.Silenced).
	Silenced func(code string, line int) bool
}

// NewActsParser returns a parser for fence character fence (0: detect per
// document) binding actions with schema s (the built-in acts schema when
// nil, as NewPlanParser does).
func NewActsParser(fence byte, s *schema.Schema) (*ActsParser, error) {
	if s == nil {
		var err error
		if s, err = schema.Builtin(DialectActs); err != nil {
			return nil, err
		}
	}
	return &ActsParser{schema: s, fence: fence}, nil
}

// ParseActs parses a fenced-acts document with a one-off parser.
func ParseActs(ctx context.Context, filename string, src []byte, fence byte, s *schema.Schema) (*ast.Document, error) {
	p, err := NewActsParser(fence, s)
	if err != nil {
		return nil, err
	}
	return p.Parse(ctx, filename, src)
}

// Parse parses one document. Bad input never fails: it yields diagnostics.
// The document's strings share memory with src (no copy is made), so src
// must not be modified while the document is in use. Time and memory are
// linear in the input; the only errors are ctx's and a grammar that does
// not build. The blocks' ContentBase64 is not set here (grammar.Parse sets
// it when the input is not valid UTF-8).
func (p *ActsParser) Parse(ctx context.Context, filename string, src []byte) (*ast.Document, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	g, err := actsGrammar()
	if err != nil {
		return nil, err
	}
	text := view.String(src)
	sc := lexer.NewScanner(filename, text, p.fence)
	fence := sc.Fence()
	doc := &ast.Document{Dialect: DialectActs}
	b := actsBuilder{doc: doc, text: text, lines: ast.NewCursor(text), schema: p.schema, fence: fence,
		crs: hasLoneCR(text), cap: p.Cap, shared: p.Cap != nil}
	if p.Cap == nil {
		b.cap = &Cap{Silenced: p.Silenced}
	}
	toks := &ruleTokens{s: sc}
	toks.peek, _ = sc.Next() // the scanner never fails
	lead, err := parseRule(toks, g.lead)
	if err != nil {
		b.unread(0, err)
	} else {
		for _, t := range lead {
			b.item(nil, t)
		}
	}
	for n := 0; err == nil && !toks.done(); n++ {
		if n%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		start := toks.all[toks.next].Pos.Offset // a batch's EOF is at the next token
		act, err := parseRule(toks, g.act)
		if err != nil {
			b.unread(start, err)
			break
		}
		if n == 0 { // the first act: the blocks before it belong to none (capped; with no act, the no-plan note says it)
			for _, blk := range b.doc.Blocks {
				b.add(ast.Warning, CodeBlockBeforeAct, blk.Span, "block before the first act belongs to no action (info %q)", blk.Info)
			}
		}
		a := b.action(act[0].Value, act[0].Pos.Offset)
		for _, t := range act[1:] {
			b.item(a, t)
		}
		b.finish(a)
	}
	doc.Span = ast.Span{Start: ast.Pos{Line: 1, Col: 1}, End: b.lines.Pos(len(text))} // the cursor goes on forward
	p.finishDocument(text, fence, &b)
	ast.EscapeDiagnostics(doc.Diagnostics) // valid UTF-8 text
	return doc, nil
}

// ruleTokens hands participle the document's tokens one batch at a time,
// and each rule of the grammar is parsed from its batch: the parse stops
// before the first token the rule does not match (the next act block, or
// the batch's EOF). A batch ends before the first act block after
// batchTokens tokens, so that no rule is split between batches and each
// buffer stays small.
type ruleTokens struct {
	s    *lexer.Scanner
	peek plex.Token // the scanner's next token
	n    int        // tokens handed to the current batch
	buf  *plex.PeekingLexer
	all  []plex.Token // the current batch's tokens, its EOF included
	next int          // the index in all of the next rule's first token
}

// batchTokens is how many tokens a batch holds before it may end.
const batchTokens = 256

// Next implements participle's lexer.Lexer.
func (r *ruleTokens) Next() (plex.Token, error) {
	t := r.peek
	if t.EOF() || t.Type == lexer.ActBlock && r.n >= batchTokens {
		return plex.EOFToken(t.Pos), nil
	}
	r.n++
	r.peek, _ = r.s.Next()
	return t, nil
}

// done reports whether every token was parsed.
func (r *ruleTokens) done() bool {
	return r.peek.EOF() && (r.all == nil || r.all[r.next].EOF())
}

// parseRule parses the next rule of r with g and returns its tokens: those
// it matched and the Text tokens after them, up to the next rule's first.
func parseRule[G any](r *ruleTokens, g *participle.Parser[G]) ([]plex.Token, error) {
	if r.all == nil || r.all[r.next].EOF() {
		r.n = 0
		buf, err := plex.Upgrade(r, lexer.Text)
		if err != nil {
			return nil, err
		}
		r.buf, r.all, r.next = buf, buf.Range(0, plex.RawCursor(r.n+1)), 0
	}
	_, err := g.ParseFromLexer(r.buf, participle.AllowTrailing(true))
	start, end := r.next, int(r.buf.RawCursor())
	for end < len(r.all) && r.all[end].Type == lexer.Text {
		end++
	}
	r.next = end
	return r.all[start:end], err
}

// item builds a Block or Text token: a prose node, or a block that is an
// argument of a (nil: the lead's blocks) or else belongs to no action.
func (b *actsBuilder) item(a *ast.Action, t plex.Token) {
	if t.Type == lexer.Text {
		b.addProse(t.Value, t.Pos.Offset)
		return
	}
	blk := b.block(t.Value, t.Pos.Offset, nil)
	if a != nil && b.argBlock(a, blk) {
		a.Blocks = append(a.Blocks, blk)
		a.Span.End = blk.Span.End
		return
	}
	b.doc.Blocks = append(b.doc.Blocks, blk)
}

// unread keeps the source from offset off to its end as one prose node,
// with the error of the rule that did not read it: too-many-blocks-in-a-row
// past MaxBlockRun, else parse-error (a failure of the grammar, never
// expected).
func (b *actsBuilder) unread(off int, err error) {
	b.addProse(b.text[off:], off)
	sp := b.span(off, off+lineContentEnd(b.text[off:], 0))
	if strings.Contains(err.Error(), "too many iterations") {
		b.add(ast.Error, CodeBlockRun, sp,
			"more than %s blocks in a row from here, with no act block between them: the rest of the document is not read (it is kept as prose, and its actions are not run); split the document",
			number.Thousands(MaxBlockRun))
		return
	}
	b.add(ast.Error, CodeParse, sp, "internal parse error: %v; the rest of the document is kept as prose", err)
}

// finishDocument adds what is said about the document as a whole: act
// blocks of the other fence character and, when there is no act block at
// all, the no-plan note; then it sorts the diagnostics.
func (p *ActsParser) finishDocument(text string, fence byte, b *actsBuilder) {
	doc := b.doc
	others := p.otherFenceActs(text, fence, b)
	b.hiddenActs(fence)
	if b.acts == 0 && others == 0 {
		kept := "only prose"
		if len(text) == 0 {
			kept = "the input is empty"
		} else if n := len(doc.Blocks); n > 0 {
			kept = fmt.Sprintf("its %d fenced %s and its prose are kept as they are", n, number.Noun(n, "block"))
		}
		b.add(ast.Info, CodeNoPlan, b.span(0, 0),
			"no plan: the document has no %s block (%s)", fenceWords(fence), kept)
	}
	if !b.shared {
		doc.Diagnostics = append(doc.Diagnostics, b.cap.Summaries()...)
	}
	ast.SortDiagnostics(doc.Diagnostics)
	b.collapse()
}

// startPos is the position of a source's first byte.
var startPos = ast.Pos{Offset: 0, Line: 1, Col: 1}

// actsBuilder turns tokens into the document's nodes.
type actsBuilder struct {
	doc    *ast.Document
	text   string // the source
	fence  byte   // the fence character of its blocks
	lines  *ast.Cursor
	schema *schema.Schema
	words  []word // readAct's scratch
	// acts counts the actions read; firstLine is the line of the first.
	acts, firstLine int
	// followOns are the ranges whose diagnostics become notes of an
	// improperly nested fence error (collapse), in source order; followAt
	// indexes them by their intended closing line, where a block of its
	// own may open (the range then runs to that block's end). actFollow is
	// the index of the first range found in the current action's blocks;
	// followOf maps a binding diagnostic those ranges caused to its error.
	followOns []followOn
	followAt  map[int]int
	actFollow int
	followOf  map[*ast.Diagnostic]*ast.Diagnostic
	// crs: the source holds a lone CR, so each token's lines are checked
	// for one that hides a structural line (crRules); crDone is the end of
	// the last line checked, crHits the check's scratch.
	crs    bool
	crDone int
	crHits []crHit
	// cap caps the diagnostics of each code (add); shared: it is the
	// parser's Cap, whose overflows its caller reports.
	cap    *Cap
	shared bool
	// blocksOver: the blocks after the current action's MaxBlocks
	// (argBlock).
	blocksOver blocksOver
}

// blocksOver counts the blocks an action did not take and spans them.
type blocksOver struct {
	n    int
	span ast.Span
}

// add adds a diagnostic unless MaxPerCode of its code were added already;
// then it only counts it (the summary goes out at the end) and returns
// nil.
func (b *actsBuilder) add(sev ast.Severity, code string, span ast.Span, format string, args ...any) *ast.Diagnostic {
	if !b.cap.Take(sev, code, span, b.raw(span)) {
		return nil
	}
	return b.doc.Add(sev, code, span, format, args...)
}

// raw returns the source text of span.
func (b *actsBuilder) raw(s ast.Span) string {
	return b.text[min(s.Start.Offset, len(b.text)):min(max(s.Start.Offset, s.End.Offset), len(b.text))]
}

// checkCRs reports the lone CRs of the token [start, end) that hide a
// structural line; a block token (run > 0, its fence run's length) has
// its first line read outside any block and the others inside it.
func (b *actsBuilder) checkCRs(start, end, run int) {
	rest := crState{}
	if run > 0 {
		rest = crState{in: true, real: true, char: b.fence, run: run}
	}
	b.crHits = crRules{fence: b.fence}.tokenHits(b.text, start, end, crState{}, rest, &b.crDone, b.crHits[:0])
	for _, h := range b.crHits {
		b.add(ast.Error, CodeLoneCR, b.span(h.cr, h.cr+1), "%s", h.message())
	}
}

// span returns the span of [start, end).
func (b *actsBuilder) span(start, end int) ast.Span {
	return b.lines.Span(start, end)
}

// addProse adds a Text token's prose node, and reports the act blocks
// written inside a block quote in it (quotedActs).
func (b *actsBuilder) addProse(v string, off int) {
	if b.crs {
		b.checkCRs(off, off+len(v), 0)
	}
	b.prose1(v, off)
}

// prose1 adds a prose node (addProse without the lone CR check: a list
// item's markers before a fence run, checked with the block's line).
func (b *actsBuilder) prose1(v string, off int) {
	b.quotedActs(v, off)
	b.doc.Prose = append(b.doc.Prose, &ast.Prose{Kind: "text", Text: v, Span: b.span(off, off+len(v))})
}

// quotedActs warns about each line of the prose v (at offset off) that
// opens an act block inside a block quote (`> ```act`, `> > ~~~act`, with
// either fence character, or an info string that only looks like act):
// containers are not parsed, so the block is prose and its action is not
// read, but a Markdown viewer shows an act block there (docs/acts.md).
func (b *actsBuilder) quotedActs(v string, off int) {
	if strings.IndexByte(v, '>') < 0 {
		return
	}
	for i := 0; i < len(v); {
		end := lineContentEnd(v, i)
		if QuotedAct(v[i:end]) {
			b.add(ast.Warning, CodeQuotedAct, b.span(off+i, off+end), "%s", QuotedActMessage)
		}
		i = lineEndAt(v, i)
	}
}

// QuotedAct reports whether a prose line (without its line ending) opens
// an act block inside a block quote (`> ```act`, `> > ~~~act`, either fence
// character, or an info string that only looks like act): a quoted-act
// warning.
func QuotedAct(line string) bool {
	q := quotePrefix(line)
	if q == 0 {
		return false
	}
	for _, c := range [2]byte{lexer.Backtick, lexer.Tilde} {
		if _, info, ok := lexer.OpenFenceString(line[q:], c); ok && (lexer.IsAct(info) || lexer.NearAct(info)) {
			return true
		}
	}
	return false
}

// QuotedActMessage is the message of a quoted-act warning.
const QuotedActMessage = "act block inside a block quote is read as prose, not as an action: a line starting with > is quoted text; remove the > markers if the action is meant to run"

// quotePrefix returns the length of the block quote markers line starts
// with: at most three spaces, then one or more `>`, each with the spaces
// and tabs after it; 0 when the line is not in a block quote.
func quotePrefix(line string) int {
	i := 0
	for i < len(line) && i < 3 && line[i] == ' ' {
		i++
	}
	if i == len(line) || line[i] != '>' {
		return 0
	}
	for i < len(line) && line[i] == '>' {
		i++
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
	}
	return i
}

// MaxBlocks is how many argument blocks an action takes. The blocks after
// them, up to the next act block, belong to no action (Document.Blocks),
// with one too-many-blocks error that spans them, so that one action cannot
// make a check hold every block of the document at once (docs/acts.md,
// "Bounded output").
const MaxBlocks = 1 << 16

// CodeTooManyBlocks: an act block followed by more than MaxBlocks blocks.
const CodeTooManyBlocks = "too-many-blocks"

// argBlock reports whether a takes blk as one more argument block: while
// it has fewer than MaxBlocks. Else the block is recorded for a's
// too-many-blocks error (finish).
func (b *actsBuilder) argBlock(a *ast.Action, blk *ast.Block) bool {
	if len(a.Blocks) < MaxBlocks {
		return true
	}
	if b.blocksOver.n == 0 {
		b.blocksOver.span.Start = blk.Span.Start
	}
	b.blocksOver.n++
	b.blocksOver.span.End = blk.Span.End
	return false
}

// finish binds an action's arguments to its parameters and adds it.
func (b *actsBuilder) finish(a *ast.Action) {
	if o := b.blocksOver; o.n > 0 {
		b.blocksOver = blocksOver{}
		b.add(ast.Error, CodeTooManyBlocks, o.span,
			"%s takes at most %s argument blocks: the %s %s after them, to line %d, belong to no action, so the action is not run as written; split it into several actions",
			a.Name, number.Thousands(MaxBlocks), number.Thousands(o.n), number.Noun(o.n, "block"), o.span.End.Line)
	}
	diags := validate.BindAct(a, b.schema)
	if b.actFollow < len(b.followOns) && len(diags) > 0 {
		b.bindFollowOns(a, diags)
	}
	b.actFollow = len(b.followOns)
	for _, d := range diags {
		if b.cap.Take(d.Severity, d.Code, d.Span, b.raw(d.Span)) {
			b.doc.Diagnostics = append(b.doc.Diagnostics, d)
		}
	}
	if b.acts == 0 {
		b.firstLine = a.Head.Span.Start.Line
	}
	b.acts++
	b.doc.Actions = append(b.doc.Actions, a)
}

// block analyses a whole-block token v at offset off: its opening line,
// its content and whether a closing line ends it. With a non-nil a, v is
// a's act block, whose content names the action (readAct). When the
// opening line is a list item's marker line (`1. ```sh`), the markers
// before the fence run are a prose node of their own and the block starts
// at the run (docs/acts.md).
func (b *actsBuilder) block(v string, off int, a *ast.Action) *ast.Block {
	first := lineEndAt(v, 0)
	start := off
	if pre := lexer.MarkerPrefix(v[:first]); pre > 0 {
		b.prose1(v[:pre], off)
		v, off, first = v[pre:], off+pre, first-pre
	}
	run, info, _ := lexer.OpenFenceString(v[:first], b.fence)
	blk := &ast.Block{Fence: run, Info: info}
	cstart, cend := first, len(v)
	last := strings.LastIndexByte(strings.TrimSuffix(v, "\n"), '\n') + 1 // start of the last line
	nested, inner := false, 0
	withText, at, text, textEnd := false, 0, 0, 0
	if last >= first && first < len(v) && lexer.ClosesFenceString(v[last:], run) {
		cend = closedEnd(v, cstart, last)
		if strings.Contains(v[first:last], run) {
			at, text, textEnd, withText = lexer.ExactFenceWithText(v, run, true)
			if a == nil {
				inner, nested = misnested(v, first, last, withText, at)
			}
			// The line matters only when the block ran on over a fence
			// to its closing line; else it reads as written: content.
			withText = withText && !nested && lexer.FenceBetween(v, lineContentEnd(v, at)+1, last, run[0])
		}
	} else {
		blk.Unclosed = true
		at, text, textEnd, withText = lexer.ExactFenceWithText(v, run, false)
	}
	blk.Content = v[cstart:cend]
	// Positions in source order: the cursor counts the bytes between them.
	from, cs := b.lines.Pos(off), b.lines.Pos(off+cstart)
	ce, end := b.lines.Pos(off+cend), b.lines.Pos(off+len(v))
	blk.Span, blk.ContentSpan = ast.Span{Start: from, End: end}, ast.Span{Start: cs, End: ce}
	var unclosed *ast.Diagnostic
	if blk.Unclosed {
		unclosed = b.add(ast.Error, CodeUnclosedFence, b.span(off, off+first),
			"fence %q opened here is never closed; its block runs to the end of the input", run)
	}
	if a == nil && lexer.NearAct(info) {
		b.add(ast.Error, CodeNearAct, b.span(off, off+lineContentEnd(v, 0)),
			"%s", lazy(func() string { return NearActMessage(info, run) })) // built only when listed
	}
	if a != nil {
		b.readAct(a, blk.Content, off+cstart)
	}
	if i, ok := b.followAt[start]; ok {
		// This block opens at the fence meant to close an improperly
		// nested block: all of it follows from that mistake.
		b.followOns[i].to = max(b.followOns[i].to, off+len(v))
	}
	if nested {
		b.nestedFence(v, off, first, last, inner, blk)
	}
	if withText && blk.Unclosed {
		unclosedText(unclosed, v[text:textEnd], b.span(off+text, off+textEnd))
	} else if withText {
		trailingText(b.add, b.span, v, off, text, textEnd, last, blk.Span.Start.Line)
	}
	if b.crs {
		b.checkCRs(start, off+len(v), len(run))
	}
	return blk
}

// misnested reports whether the closed block token v (content from offset
// first, closing line at offset last) was closed early by the fence meant
// for a nested block, as the plan dialect judges it (lexer.MisnestedFence):
// a bare closing fence of the run of a still open inner line with an info
// string. A content line that would close the block but for the remark
// after its run (“``` end of code”), before that inner line, says the
// block was meant to close there instead, unless the text reads like an info
// string; the same holds when that line is the nested opening line
// itself (“``` end of file”, whose text is no info string, is a remark,
// not a nested block). withText and at are the first such line
// (ExactFenceWithText: in this dialect, a line of exactly the opening run
// then text). It returns the offset in v of the nested opening line.
func misnested(v string, first, last int, withText bool, at int) (int, bool) {
	f, ok := lexer.ActsFenceLine(v[:lineContentEnd(v, 0)])
	if !ok || !lexer.HasFenceRun(v[first:last], f.Char) {
		return 0, false
	}
	inner, nested := lexer.MisnestedFence(v)
	if !nested {
		return 0, false
	}
	if withText && at <= inner && !lexer.LooksLikeInfo(fenceInfo(v, at)) {
		return 0, false
	}
	return inner, true
}

// nestedFence reports the improperly nested block token v at offset off
// (content from first, closing line at last, nested opening line at
// inner) with the plan dialect's message, and records the range after it,
// up to the fence meant to close it, whose diagnostics are its follow-ons.
// Unlike the plan dialect, it reports only when such a fence follows: the
// acts dialect closes a block only by its exact run, so without one the
// document reads consistently as written (docs/acts.md).
func (b *actsBuilder) nestedFence(v string, off, first, last, inner int, blk *ast.Block) {
	f, _ := lexer.ActsFenceLine(v[:lineContentEnd(v, 0)])
	at, _, ok := lexer.IntendedClose(b.text, off+first, f, true, followOnLimit)
	msg, inside := "this fence closes the block opened at line %d, not the nested block %q opened at line %d: a bare fence of the opening run ends the outer block; make the outer block's fences longer than every fence inside it (%s)", "the nested block opens here"
	runsOn := !ok || at < off+len(v)
	if runsOn {
		// No later fence meant to close the block: it reads as written
		// (a nested-looking line of the block's own run is content) —
		// unless the nested line opens an act block: then an action was
		// taken into the block's content (a closing fence with trailing
		// text, "``` done", let the block run on), which is never silent.
		if !lexer.IsAct(strings.TrimSpace(fenceInfo(v, inner))) {
			return
		}
		msg, inside = "the block opened at line %d runs on to this fence and holds the act block %q opened at line %d: that action is content, not an action; close the block before it (a closing fence is its exact run alone on its line), or make its fences longer than every fence inside it (%s)", "the act block inside the block opens here"
	}
	d, _, _ := nestedFence(b.add, b.span, v, off, last, inner, f, blk.Span.Start.Line, msg, inside)
	if d == nil || runsOn {
		// Summed up with others (d nil): as in the plan dialect, what
		// follows from it is reported as it is, not as its notes.
		return
	}
	if b.followAt == nil {
		b.followAt = map[int]int{}
	}
	b.followAt[at] = len(b.followOns)
	b.followOns = append(b.followOns, meantToClose(d, b.span, b.text, off+len(v), at))
}

// bindFollowOns makes the binding diagnostics of a that only its blocks in
// follow-on ranges cause (a stray block taken as one more argument:
// wrong-arg-count, block-args-not-allowed) follow-ons of the fence error
// of their range: a is bound again without those blocks, and a diagnostic
// of a code that binding no longer reports is a follow-on.
func (b *actsBuilder) bindFollowOns(a *ast.Action, diags []*ast.Diagnostic) {
	var owner *ast.Diagnostic
	kept := make([]*ast.Block, 0, len(a.Blocks))
	j := b.actFollow
	for _, blk := range a.Blocks {
		o := blk.Span.Start.Offset
		for j < len(b.followOns) && b.followOns[j].to <= o {
			j++
		}
		if j < len(b.followOns) && b.followOns[j].from <= o {
			if owner == nil {
				owner = b.followOns[j].d
			}
			continue
		}
		kept = append(kept, blk)
	}
	if owner == nil {
		return
	}
	c := *a
	c.Blocks = kept
	still := map[string]bool{}
	for _, d := range validate.BindAct(&c, b.schema) {
		still[d.Code] = true
	}
	for _, d := range diags {
		if !still[d.Code] && (d.Code == validate.CodeArgCount || d.Code == validate.CodeBlockNotTaken) {
			if b.followOf == nil {
				b.followOf = map[*ast.Diagnostic]*ast.Diagnostic{}
			}
			b.followOf[d] = owner
		}
	}
}

// collapse turns the diagnostics that follow from an improperly nested
// fence (those inside its follow-on range, and the binding diagnostics
// bindFollowOns found) into notes of that error, in position order, as the
// plan dialect does (docs/acts.md). diags are sorted; a range starting
// inside an earlier one is absorbed by it.
func (b *actsBuilder) collapse() {
	if len(b.followOns) == 0 {
		return
	}
	gone := collapseFollowOns(b.doc.Diagnostics, b.followOns, b.followOf)
	n := len(b.doc.Diagnostics)
	b.doc.Diagnostics = withoutGone(b.doc.Diagnostics, gone)
	clear(b.doc.Diagnostics[len(b.doc.Diagnostics):n])
}

// action reads an act block v at offset off: the first word of its first
// non-blank line is the action name; the rest of that line, split like a
// shell would, and each further non-blank line, trimmed, are inline
// arguments.
func (b *actsBuilder) action(v string, off int) *ast.Action {
	a := &ast.Action{}
	head := b.block(v, off, a)
	a.Head, a.Span = head, head.Span
	if a.NameSpan == (ast.Span{}) { // no non-blank line
		a.NameSpan = head.Span
	}
	if a.Name == "" {
		b.add(ast.Error, CodeEmptyActionName, ast.Span{Start: head.Span.Start, End: head.ContentSpan.Start},
			"act block names no action: its first non-blank line must start with the action name")
	}
	return a
}

// MaxArgs is how many inline arguments an act block gives its action:
// the words of its act line after the name and its further non-blank
// lines. The ones past it are not read, with a too-many-args error that
// spans them, so that one act block cannot make the parser hold a hundred
// times its size in argument nodes (docs/acts.md, "Bounded output").
const MaxArgs = 1 << 16

// CodeTooManyArgs: an act block with more than MaxArgs inline arguments.
const CodeTooManyArgs = "too-many-args"

// readAct reads the name and inline arguments of a from an act block's
// content, which starts at offset base: at most MaxArgs of them.
func (b *actsBuilder) readAct(a *ast.Action, content string, base int) {
	first := true
	over, overEnd := -1, 0 // the span of the arguments past MaxArgs
	for pos := 0; pos < len(content); {
		end := strings.IndexByte(content[pos:], '\n')
		if end < 0 {
			end = len(content)
		} else {
			end += pos
		}
		line := content[pos:end]
		lineStart := pos
		pos = end + 1
		trimmed := strings.Trim(line, " \t\r")
		if trimmed == "" {
			continue
		}
		if first {
			first = false
			words, open, rest := shellSplit(b.words[:0], line, MaxArgs+1)
			b.words = words
			if rest >= 0 {
				over, overEnd = base+lineStart+rest, base+lineStart+len(strings.TrimRight(line, " \t\r"))
			}
			if open {
				b.add(ast.Warning, CodeUnterminated, b.span(base+lineStart, base+end),
					"unterminated quote in act line; the rest of the line is taken literally")
			}
			a.Name = words[0].text
			a.NameSpan = b.span(base+lineStart+words[0].start, base+lineStart+words[0].end)
			for _, w := range words[1:] {
				a.Args = append(a.Args, w.text)
				a.ArgSpans = append(a.ArgSpans, b.span(base+lineStart+w.start, base+lineStart+w.end))
			}
			continue
		}
		lead := strings.Index(line, trimmed)
		if len(a.Args) >= MaxArgs {
			if over < 0 {
				over = base + lineStart + lead
			}
			overEnd = base + lineStart + lead + len(trimmed)
			continue
		}
		a.Args = append(a.Args, trimmed)
		a.ArgSpans = append(a.ArgSpans, b.span(base+lineStart+lead, base+lineStart+lead+len(trimmed)))
	}
	if over >= 0 {
		sp := b.span(over, overEnd)
		b.add(ast.Error, CodeTooManyArgs, sp,
			"act block gives %s more than %s inline arguments: the ones from here to line %d are not read, so the action is not run as written; split it into several actions, or pass the values in an argument block",
			a.Name, number.Thousands(MaxArgs), sp.End.Line)
	}
}

// otherFence returns the fence character that is not c.
func otherFence(c byte) byte {
	if c == lexer.Tilde {
		return lexer.Backtick
	}
	return lexer.Tilde
}

// fenceWords names a fence character's act block: "```act" or "~~~act".
func fenceWords(c byte) string {
	return strings.Repeat(string(c), 3) + "act"
}

// fenceName is the --fence value of a fence character.
func fenceName(c byte) string {
	if c == lexer.Tilde {
		return "tilde"
	}
	return "backtick"
}

// otherFenceActs warns about every act block written with the fence
// character the document does not use, which the one-character fence rule
// reads as prose: the warning spans the whole block, as the other
// character's rules delimit it, and names --fence. Blocks of the other
// character inside a block of the active one are content, not reported.
// It returns the number of such blocks. One pass over the source, after
// the document's prose (in source order) is built.
func (p *ActsParser) otherFenceActs(text string, active byte, b *actsBuilder) int {
	other := otherFence(active)
	if !strings.Contains(text, strings.Repeat(string(other), 3)) {
		return 0
	}
	doc := b.doc
	why := "--fence " + fenceName(active) + " is in effect"
	if p.fence == 0 && b.acts > 0 {
		why = fmt.Sprintf("this document's act blocks use %s (from its first act block, line %d)",
			fenceWords(active), b.firstLine)
	}
	// The prose regions are in source order.
	n, i := 0, 0
	for off := 0; off < len(text); {
		typ, end := lexer.CoarseToken(text, off, other)
		for i < len(doc.Prose) && doc.Prose[i].Span.End.Offset <= off {
			i++
		}
		if i == len(doc.Prose) {
			break
		}
		if ps := doc.Prose[i].Span.Start.Offset; ps > off {
			// Inside a block of the active character: content. A fence
			// of the other character there opens nothing, so the scan
			// goes on where the prose does, not where that fence's
			// block would end.
			off = ps
			continue
		}
		if typ == lexer.ActBlock {
			n++
			b.add(ast.Warning, CodeOtherFenceAct, b.span(off, end),
				"act block written with %s is read as prose, not as an action: %s; write every act block with one fence character, or read the %s blocks with --fence %s",
				fenceWords(other), why, fenceWords(other), fenceName(other))
		}
		off = end
	}
	return n
}

// hiddenActs warns about every act block that a CommonMark reader sees
// inside an HTML comment: a prose line starting (after at most three
// spaces) with `<!--` opens an HTML block that runs to the first line
// holding `-->`, fence lines included. plangram reads such a block as an
// action, but Markdown viewers (a pull request page) hide it, so a
// reviewer may approve a plan without seeing it. One pass over the
// tokens, only when the source holds `<!--`.
func (b *actsBuilder) hiddenActs(fence byte) {
	text := b.text
	if !strings.Contains(text, "<!--") {
		return
	}
	open, opened := false, 0
	for off := 0; off < len(text); {
		typ, end := lexer.CoarseToken(text, off, fence)
		if typ == lexer.ActBlock && open {
			b.add(ast.Warning, CodeHiddenAct, b.span(off+lexer.MarkerPrefix(text[off:end]), off+lineContentEnd(text[off:end], 0)),
				"%s", HiddenActMessage(opened))
		}
		for i := off; i < end; {
			e := min(lineEndAt(text, i), end)
			line := text[i:e]
			switch {
			case open:
				open = !strings.Contains(line, "-->")
			case typ == lexer.Text && CommentOpens(line):
				open, opened = true, b.lines.Pos(i).Line
			}
			i = e
		}
		off = end
	}
}

// HiddenActMessage is the message of a hidden-act warning about an act
// block inside the HTML comment opened at line opened.
func HiddenActMessage(opened int) string {
	return fmt.Sprintf("act block inside an HTML comment (opened at line %d): it is read as an action, but Markdown viewers hide it, so a review may not show it; take it out of the comment, or delete it if it is not meant to run", opened)
}

// CommentOpens reports whether a prose line opens an HTML comment that
// hides the act blocks after it (hidden-act): after at most three spaces
// it starts with `<!--`, and no `-->` follows on the line. A line of any
// kind that holds `-->` closes the comment.
func CommentOpens(line string) bool {
	for k := 0; k < 3 && strings.HasPrefix(line, " "); k++ {
		line = line[1:]
	}
	rest, ok := strings.CutPrefix(line, "<!--")
	return ok && !strings.Contains(rest, "-->")
}

// NearActMessage is the message of a near-act error: a block opened by the
// fence run with an info string that only looks like act (lexer.NearAct).
func NearActMessage(info, run string) string {
	return fmt.Sprintf("block with info string %q is not an act block (only an info string of exactly \"act\" is): it is read as an ordinary block, an argument of the action before it if there is one, and the action it seems to name is not read; write the fence line as %sact with nothing after it", info, run)
}
