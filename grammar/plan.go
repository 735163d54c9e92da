package grammar

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/alecthomas/participle/v2"
	plex "github.com/alecthomas/participle/v2/lexer"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/internal/number"
	"github.com/plangram/plangram/internal/view"
	"github.com/plangram/plangram/lexer"
	"github.com/plangram/plangram/schema"
)

// The structured Markdown plan grammar (docs/plan.md), over the tokens of
// the Markdown lexer (lexer.Markdown):
//
//	File    = Intro? Actions? Section*
//	Intro   = Text? (Title Meta? Text?)*
//	Section = H2 Text? Actions?       ## Rationale, ## Memos, ## Action Plan, ## Message, …
//	Actions = H3                      ### `CREATE`, its metadata list, its blocks and text, ### `EDIT`, …
//	Title   = H1 | Tight              # Title, or #Title without its space
//	H2      = the headings of empty sections, then the section's own
//	Meta    = Item                    a list right after a title
//	Text    = a run of paragraphs, other lists, code blocks, breaks, blank
//	          lines, headings 4–6 and, past the first H2 or H3, headings 1
//
// A section's run of actions is one token (lexer.MarkdownScanner), captured
// as a token rather than a struct value: each token and each value cost
// participle many times their bytes, and the builder reads each action's
// heading, metadata list and blocks from the token's range as it does a
// Text's.
// The grammar accepts every token sequence: what the plan must look like
// (title, metadata list, Rationale, optional Memos, then `## Action Plan`
// or `## Message`, each action's parameters and blocks) is checked over
// the Markdown nodes of the tree's tokens (plan_check.go), so that each
// problem is reported against the node where the document left the
// expected shape, with the AST diff. Each tree node keeps its tokens
// (participle's Tokens field: a view of the lexer's tokens, not a copy),
// and the builder reads a token's Markdown nodes from its byte range
// (lexer.RunScanner: one node per heading, code block, list, paragraph,
// break and run of blank lines).
type planFile struct {
	Intro    *planIntro     `parser:"@@?"`
	Actions  []plex.Token   `parser:"@H3?"`
	Sections []*planSection `parser:"@@*"`
}

type planIntro struct {
	Tokens []plex.Token
	Syntax struct{} `parser:"(Text (H1 | Tight)? | (H1 | Tight)) Item? Text? ((H1 | Tight) Item? Text?)*"`
}

// planSection's Tokens hold its heading, its text and its actions.
type planSection struct {
	Tokens []plex.Token
	Syntax struct{} `parser:"H2 Text? H3?"`
}

// Diagnostic codes of the plan dialect (docs/plan.md lists each with an
// example). CodeUnclosedFence and CodeEmptyActionName are shared with the
// acts dialect, and so is CodeParse, which the plan dialect reports only
// should participle fail (past participle.MaxIterations sections in a
// row); unknown actions use validate.CodeUnknownAction's code, as an
// error.
const (
	CodePreamble          = "preamble"
	CodeTitleSpace        = "title-missing-space"
	CodeMissingTitle      = "missing-title"
	CodeMissingMetadata   = "missing-metadata"
	CodeBadMetadataItem   = "bad-metadata-item"
	CodeMissingRationale  = "missing-rationale"
	CodeMissingMemos      = "missing-memos-block"
	CodeBadMemo           = "bad-memo-line"
	CodeWrongOrder        = "wrong-order"
	CodeDuplicateSection  = "duplicate-section"
	CodeUnknownSection    = "unknown-section"
	CodeMissingPlan       = "missing-action-plan"
	CodePlanAndMessage    = "plan-and-message"
	CodeEmptyPlan         = "empty-action-plan"
	CodeUnknownPlanAction = "unknown-action"
	CodeStrayParagraph    = "stray-paragraph"
	CodeStrayHeading      = "stray-heading"
	CodeStrayList         = "stray-list"
	CodeStrayBlock        = "stray-block"
	CodeMissingBlock      = "missing-block"
	CodeMissingPair       = "missing-pair"
	CodeUnpairedBlock     = "unpaired-block"
	CodeMissingParam      = "missing-param"
	CodeEmptyParam        = "empty-param"
	CodeBadValue          = "bad-value"
	CodeURLNotAllowed     = schema.CodeURLNotAllowed
	CodeUnknownKey        = "unknown-key"
	CodeDuplicateKey      = "duplicate-key"
	CodeNestedFence       = "improperly-nested-fence"
	CodeFenceTrailingText = "fence-trailing-text"
	CodeHeadingLevel      = "wrong-heading-level"
	// CodeTooManyParts: an action (a heading 3 and what follows it) of
	// more than MaxActionParts Markdown parts, or a list of more than
	// MaxActionParts items; the rest is not read.
	CodeTooManyParts = "too-many-parts"
)

// MaxActionParts is how many Markdown parts (headings, code blocks,
// paragraphs, lists, blank lines) the body of one action of a plan holds:
// the parser keeps a node for each until the action is checked, which
// costs many times the bytes of a body of tiny parts. The parts
// past it, up to the next heading 2 or 3, are folded into one node that
// is not read, with one too-many-parts error, as the acts dialect's
// MaxBlocks does (docs/plan.md). fmt and fix read them all
// (Options.Uncapped).
const MaxActionParts = 1 << 16

// PlanParser parses structured Markdown plans; it is safe for concurrent use.
type PlanParser struct {
	// Uncapped makes the parser report every diagnostic one by one, with
	// no MaxPerCode cap and no summing up: for a caller that acts on each
	// of them (fix repairs every heading at the wrong level). Output is
	// then no longer bounded by the cap.
	Uncapped bool
	// Silenced, when set, drops the diagnostics it names before they are
	// counted against the cap (Options.Silenced).
	Silenced func(code string, line int) bool
	schema   *schema.Schema
	keys     map[*schema.Action]map[string]keyRef
}

// NewPlanParser returns a plan parser binding actions with schema s (the
// built-in plan schema when nil).
func NewPlanParser(s *schema.Schema) (*PlanParser, error) {
	if s == nil {
		var err error
		if s, err = schema.Builtin(DialectPlan); err != nil {
			return nil, err
		}
	}
	return &PlanParser{schema: s, keys: keyIndex(s)}, nil
}

// planGrammar is the participle parser of the plan grammar, built on first
// use: it is immutable once built, so, as with the acts grammar, one serves
// every parse (grammar.Parse makes a PlanParser per document, and the
// language server parses on every change; building the grammar costs more
// than parsing a small plan).
var planGrammar = sync.OnceValues(func() (*participle.Parser[planFile], error) {
	p, err := participle.Build[planFile](participle.Lexer(lexer.Markdown()))
	if err != nil {
		return nil, fmt.Errorf("building plan grammar: %w", err)
	}
	return p, nil
})

// ParsePlan parses a structured Markdown plan with a one-off parser and
// schema s (the built-in plan schema when nil). Bad input never fails: it
// yields diagnostics; the error is for cancellation.
func ParsePlan(ctx context.Context, filename string, src []byte, s *schema.Schema) (*ast.Document, error) {
	p, err := NewPlanParser(s)
	if err != nil {
		return nil, err
	}
	return p.Parse(ctx, filename, src)
}

// Parse parses one document. Bad input never fails: it yields diagnostics;
// the error is for cancellation. The document's strings share memory with
// src (no copy is made), so src must not be modified while the document is
// in use.
func (p *PlanParser) Parse(ctx context.Context, filename string, src []byte) (*ast.Document, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	text := view.String(src)
	lines := ast.NewLines(src)
	doc := &ast.Document{Dialect: DialectPlan, Span: lines.Span(0, len(src))}
	g, err := planGrammar()
	if err != nil {
		return nil, err
	}
	f, err := g.ParseString(filename, text)
	if err != nil {
		// The grammar accepts every token sequence; should participle
		// still fail, the input is kept as text and the failure reported.
		doc.Add(ast.Error, CodeParse, doc.Span, "the plan grammar could not read the input: %v", err)
		if len(src) > 0 {
			doc.Prose = []*ast.Prose{{Kind: "text", Text: text, Span: doc.Span}}
		}
		ast.EscapeDiagnostics(doc.Diagnostics)
		return doc, nil
	}
	b := &planBuilder{ctx: ctx, src: text, lines: lines, doc: doc, schema: p.schema, keys: p.keys, sc: lexer.NewRunScanner(text, 0)}
	b.cap.NoLimit, b.cap.Silenced = p.Uncapped, p.Silenced
	// Every node holds at least one line, and most plans hold fewer
	// nodes than half their lines (code blocks): sized so, the node list
	// rarely grows, and never to more than twice the lines.
	est := lines.Count()/2 + 16
	b.nodes = make([]*pnode, 0, est)
	if err := b.check(b.outline(f)); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil { // checked between sections and actions
		return nil, err
	}
	b.finish()
	ast.EscapeDiagnostics(doc.Diagnostics) // valid UTF-8 text
	return doc, nil
}

// nodeKind is the kind of one Markdown node of a plan.
type nodeKind uint8

const (
	kBlank nodeKind = iota
	kHeading
	kTight // a heading line without the space after the #s
	kList
	kPara
	kFence
	kBreak
	kEOF // the end of the input, where missing things are reported
	// kFolded is a run of unknown sections that hold nothing but headings
	// and blank lines, folded into one node (see outliner).
	kFolded
	// kOverflow is the parts of an action past MaxActionParts, folded into
	// one node that is not read (see outliner).
	kOverflow
)

// mark is a node's state in the AST view.
type mark uint8

const (
	unchecked mark = iota
	matched
	warned
	failed
)

// pnode is one Markdown node of the plan: whole lines [start, end). It
// holds only what every kind needs, so that a document of many small
// parts costs little per node: a list's items and a heading's text are
// read again from the source when asked for (items, headingSpan).
type pnode struct {
	kind   nodeKind
	mark   mark
	level  uint8 // headings: 1–6
	placed bool  // the block went to an action or the document
	meta   bool  // a list read as metadata
	lines  int32 // folded runs: how many headings they hold
	idx    int   // index in planBuilder.nodes
	start  int
	end    int
	block  *ast.Block // fences
	reason string     // why the node is marked, reasons joined by "; "
}

// because adds a reason to the node's mark.
func (n *pnode) because(reason string) {
	if n.reason == "" {
		n.reason = reason
	} else {
		n.reason += "; " + reason
	}
}

type ppart struct {
	head *pnode
	body []*pnode
	// level is the heading level of an action heading written at another
	// level than 3 (`## EDIT`, `#### READ`); 0 for a heading 3.
	level uint8
}

type psection struct {
	head  *pnode
	intro []*pnode
	parts []*ppart
}

type ptree struct {
	intro    []*pnode
	parts    []*ppart
	sections []*psection
}

type planBuilder struct {
	ctx       context.Context
	src       string
	lines     *ast.Lines
	doc       *ast.Document
	schema    *schema.Schema
	keys      map[*schema.Action]map[string]keyRef
	nodes     []*pnode          // every node in source order, blank lines included
	sc        *lexer.RunScanner // reads the tokens' nodes (outliner) and the lists' items again (items)
	entryList []entry           // an action binder's entries (bind)
	scratch   *[2]entry         // listEntries' scratch entries, between calls
	vals      []value           // actionBinder.params' scratch space
	set       []bool
	eof       *pnode
	// structural errors; the first of them carries the AST diff
	structural []*ast.Diagnostic
	// cap counts the diagnostics reported per code; past MaxPerCode they
	// are summed up instead (see report), unless it has NoLimit
	// (PlanParser.Uncapped).
	cap Cap
	// followOns are the ranges whose diagnostics become notes of a fence
	// error (collapse); followAt indexes them by their intended closing
	// line, to find a block that opens there (see tokNode).
	followOns []followOn
	followAt  map[int][]int
	// crDone and crHits are the lone CR check's state (checkCRs).
	crDone int
	crHits []crHit
}

// followOn is the range [from, to) after an improperly nested fence, up to
// the fence meant to close the outer block (and, when that fence opens a
// block of its own, to the end of that block), whose diagnostics only
// follow from that one mistake.
type followOn struct {
	d        *ast.Diagnostic
	from, to int
}

// followOnLimit bounds how many lines the search for a block's intended
// closing fence reads (plangram fix reads as many).
const followOnLimit = 10000

// isLineError reports whether a structural error is about one line that
// its message says how to correct — a fence, a heading's level — rather
// than the document's shape: those carry their lines as notes, not the AST
// diff.
func isLineError(d *ast.Diagnostic) bool {
	return d.Code == CodeNestedFence || d.Code == CodeFenceTrailingText || d.Code == CodeHeadingLevel
}

// collapse turns the diagnostics inside each follow-on range into notes of
// the fence error that caused them, in position order, so that one nested
// fence mistake reads as one problem. Ranges are in source order; a range
// starting inside an earlier one is absorbed by it.
func (b *planBuilder) collapse() {
	if len(b.followOns) == 0 {
		return
	}
	// When the intended closing line was read as the opening line of a
	// block of its own, all of that block is follow-on too: tokNode
	// extended the range to its end as it made the block.
	gone := collapseFollowOns(b.doc.Diagnostics, b.followOns, nil)
	b.doc.Diagnostics = withoutGone(b.doc.Diagnostics, gone)
	b.structural = withoutGone(b.structural, gone)
}

// collapseFollowOns turns the diagnostics of ds (sorted by position) that
// lie inside a follow-on range of ranges (in source order; a range
// starting inside an earlier one is absorbed by it), or that owner names
// an error for, into "follow-on:" notes of that fence error, and returns
// the set of diagnostics it turned into notes. Both dialects collapse
// with it (docs/acts.md, docs/plan.md).
func collapseFollowOns(ds []*ast.Diagnostic, ranges []followOn, owner map[*ast.Diagnostic]*ast.Diagnostic) map[*ast.Diagnostic]bool {
	gone := map[*ast.Diagnostic]bool{}
	var cur *followOn
	j := 0
	for _, d := range ds {
		off := d.Span.Start.Offset
		if cur != nil && off >= cur.to {
			cur = nil
		}
		for ; j < len(ranges) && ranges[j].from <= off; j++ {
			if r := &ranges[j]; cur == nil && off < r.to && !gone[r.d] {
				cur = r
			}
		}
		o := owner[d]
		if o == nil && cur != nil && d != cur.d {
			o = cur.d
		}
		if o == nil || gone[o] {
			continue
		}
		gone[d] = true
		msg := followOnPrefix + d.Message
		if d.Code != "" {
			msg += " [" + d.Code + "]"
		}
		o.Related = append(o.Related, ast.Related{Message: msg, Span: d.Span})
	}
	return gone
}

// followOnPrefix starts the message of a "follow-on:" note
// (collapseFollowOns), which ends with the note's code in brackets.
const followOnPrefix = "follow-on: "

// isFollowOn reports whether r is a follow-on note of a diagnostic of code.
func isFollowOn(r ast.Related, code string) bool {
	return strings.HasPrefix(r.Message, followOnPrefix) && strings.HasSuffix(r.Message, " ["+code+"]")
}

// withoutGone returns ds without the diagnostics in gone, in place.
func withoutGone(ds []*ast.Diagnostic, gone map[*ast.Diagnostic]bool) []*ast.Diagnostic {
	return slices.DeleteFunc(ds, func(d *ast.Diagnostic) bool { return gone[d] })
}

// report adds a diagnostic unless MaxPerCode of its code were reported
// already; then it only counts it and returns nil.
func (b *planBuilder) report(sev ast.Severity, code string, span ast.Span, format string, args ...any) *ast.Diagnostic {
	if !b.cap.Take(sev, code, span, "") {
		return nil
	}
	return b.doc.Add(sev, code, span, format, args...)
}

// MaxPerCode is how many diagnostics of one code a document reports one by
// one (Cap); the rest are summed up in one diagnostic of the same code, so
// the output of a document stays small whatever it repeats (docs/plan.md,
// "Bounded output").
const MaxPerCode = 100

// OverflowMessage is the message of the diagnostic that sums up the n
// diagnostics of code (at most severity sev) past MaxPerCode, the first of
// them on line first and the last on line last.
func OverflowMessage(n int, code string, sev ast.Severity, first, last int) string {
	return fmt.Sprintf("%s more %s %ss like the %d above are not listed one by one (lines %d–%d); correct those and check again",
		number.Thousands(n), code, sev, MaxPerCode, first, last)
}

// outline gives the document's tokens, in the tree's order (which is the
// input's), to an outliner: the tokens of the file's intro, then those of
// each action and section. An H2 starts a section, an H3 an action of the
// current section (or of the file before the first section); every other
// token belongs to the body of the latest of them.
func (b *planBuilder) outline(f *planFile) *ptree {
	o := &outliner{b: b, t: &ptree{}, crs: hasLoneCR(b.src)}
	o.body, o.parts = &o.t.intro, &o.t.parts
	b.eof = &pnode{kind: kEOF, start: len(b.src), end: len(b.src)}
	if f.Intro != nil {
		o.tokens(f.Intro.Tokens)
	}
	o.tokens(f.Actions)
	for _, s := range f.Sections {
		o.tokens(s.Tokens)
	}
	o.token(plex.EOF, len(b.src), len(b.src), nil)
	return o.t
}

// outliner turns tokens into nodes, keeping every byte (fences become
// blocks, everything else prose), and the nodes into the outline.
//
// Unknown sections are reported by their heading only: nothing in them is
// checked (but for the first one, which may stand for the missing Action
// Plan). So an unknown section that follows another one and holds only
// headings (of any level) and blank lines, and the like sections after it,
// are folded into one node of kind kFolded, a section of its own: one
// prose, one row of the AST view, and an unknown-section error per heading
// 2 it holds (see checkFolded). A document of nothing but headings thus
// costs a few nodes, not two per heading. When other text follows a
// folded heading, it goes to an unchecked section of its own, as it would
// have gone to the unknown section before it.
type outliner struct {
	b *planBuilder
	t *ptree
	// body is the nodes from index from of b.nodes up to the next head:
	// a slice of b.nodes, set when it ends; parts is where an H3 goes.
	body  *[]*pnode
	parts *[]*ppart
	from  int
	run   *pnode // the folded run being read
	// over is the node the parts of an action past MaxActionParts are
	// folded into (partBody: body is an action's).
	over                 *pnode
	partBody             bool
	sink, none           []*pnode // the body of text after a folded run (unchecked); a run's
	sinkParts, noneParts []*ppart
	lastUnknown, message bool // the last section is unknown; a Message section was seen
	crs                  bool // the input holds a lone CR
}

// tokens reads the tokens of one node of the tree as the Markdown nodes
// they hold (each token is a run of them).
func (o *outliner) tokens(ts []plex.Token) {
	for i := range ts {
		start, end := ts[i].Pos.Offset, ts[i].Pos.Offset+len(ts[i].Value)
		for o.b.sc.Seek(start); start < end; {
			typ, s, e := o.b.sc.Next()
			o.token(typ, s, e, o.b.sc.Items())
			start = e
		}
	}
}

// end sets the current body.
func (o *outliner) end() {
	if n := len(o.b.nodes); n > o.from {
		*o.body = o.b.nodes[o.from:n:n]
	}
}

// token reads the token [start, stop) of type typ; items are a list's.
func (o *outliner) token(typ plex.TokenType, start, stop int, items [][2]int) {
	b := o.b
	if o.crs && typ != plex.EOF {
		b.checkCRs(typ, start, stop)
	}
	if o.run != nil {
		if foldable(typ) || typ == lexer.MdH2 && b.unknownH2(start, stop) {
			o.run.end = stop
			if typ != lexer.MdBlank {
				o.run.lines++
			}
			return
		}
		o.run = nil
		if typ != plex.EOF && typ != lexer.MdH2 {
			o.sink, o.sinkParts = nil, o.sinkParts[:0]
			o.body, o.parts, o.from = &o.sink, &o.sinkParts, len(b.nodes)
			o.partBody = false
		}
	}
	if o.over != nil {
		if typ != plex.EOF && typ != lexer.MdH2 && typ != lexer.MdH3 {
			o.over.end = stop
			return
		}
		b.closeOver(o.over)
		o.over = nil
	} else if o.partBody && len(b.nodes)-o.from >= MaxActionParts && !b.cap.NoLimit &&
		typ != plex.EOF && typ != lexer.MdH2 && typ != lexer.MdH3 {
		o.over = b.add(&pnode{kind: kOverflow, start: start, end: stop})
		return
	}
	switch typ {
	case plex.EOF:
		o.end()
	case lexer.MdH2:
		o.end()
		unknown := !o.message && b.unknownH2(start, stop)
		if unknown && o.lastUnknown {
			o.run = b.add(&pnode{kind: kFolded, start: start, end: stop, lines: 1})
			o.t.sections = append(o.t.sections, &psection{head: o.run})
			o.body, o.parts, o.from = &o.none, &o.noneParts, len(b.nodes) // the run has neither
			return
		}
		o.lastUnknown = unknown
		sec := &psection{head: b.tokNode(typ, start, stop)}
		o.message = o.message || sectionKind(b.headingText(sec.head)) == secMessage
		o.t.sections = append(o.t.sections, sec)
		o.body, o.parts, o.from = &sec.intro, &sec.parts, len(b.nodes)
		o.partBody = false
	case lexer.MdH3:
		o.end()
		p := &ppart{head: b.tokNode(typ, start, stop)}
		o.partBody = true
		*o.parts = append(*o.parts, p)
		o.body, o.from = &p.body, len(b.nodes)
	case lexer.MdItem:
		// A list: the token holds the run of items and the blank lines
		// between them (lexer.RunScanner).
		if len(items) > MaxActionParts && !b.cap.NoLimit {
			// The items past the cap are not read (their bytes stay
			// the list's): one too-many-parts error says so.
			first, last := items[MaxActionParts][0], items[len(items)-1][0]
			b.report(ast.Error, CodeTooManyParts, b.lines.Span(first, first+lineContentEnd(b.src[first:], 0)),
				"this list has more than %s items: the rest, lines %d–%d, is not read; split it",
				number.Thousands(MaxActionParts), b.lines.Pos(first).Line, b.lines.Pos(last).Line)
		}
		b.tokNode(typ, start, stop)
	default:
		b.tokNode(typ, start, stop)
	}
}

// items returns the item ranges of list node n, read again from the
// source (a node keeps no slice of its own): at most MaxActionParts of
// them unless uncapped, as the outliner reported. The slice is reused by
// the next call.
func (b *planBuilder) items(n *pnode) [][2]int {
	b.sc.Seek(n.start)
	b.sc.Next()
	items := b.sc.Items()
	if len(items) > MaxActionParts && !b.cap.NoLimit {
		items = items[:MaxActionParts]
	}
	return items
}

// lastLineNo is the number of the last line of node n.
func (b *planBuilder) lastLineNo(n *pnode) int { return b.lines.Pos(max(n.end-1, n.start)).Line }

// closeOver ends the node the parts of an action past MaxActionParts were
// folded into: its one too-many-parts error.
func (b *planBuilder) closeOver(n *pnode) {
	first, last := b.line(n), b.lastLineNo(n)
	msg := fmt.Sprintf("this action has more than %s parts (headings, code blocks, paragraphs, lists, blank lines): the rest, lines %d–%d, is not read, so the action is not run as written; split it into several actions",
		number.Thousands(MaxActionParts), first, last)
	b.failAt(n, b.firstLine(n), CodeTooManyParts, "not read: past "+number.Thousands(MaxActionParts)+" parts", "%s", msg)
}

// foldable reports whether a token may be part of a folded run of unknown
// sections besides their headings 2: another heading or a blank line.
func foldable(t plex.TokenType) bool {
	switch t {
	case lexer.MdBlank, lexer.MdH1, lexer.MdH3, lexer.MdH4, lexer.MdH5, lexer.MdH6:
		return true
	}
	return false
}

// unknownH2 reports whether a heading 2 token starts an unknown section
// (not Rationale, Memos, Action Plan or Message, and no action heading
// written at level 2).
func (b *planBuilder) unknownH2(start, end int) bool {
	n := pnode{kind: kHeading, level: 2, start: start, end: end}
	return sectionKind(b.headingText(&n)) == secUnknown && !b.levelAction(&n)
}

// tokNode makes the node of a single token.
func (b *planBuilder) tokNode(typ plex.TokenType, start, end int) *pnode {
	n := &pnode{kind: kHeading, start: start, end: end}
	switch typ {
	case lexer.MdBlank:
		n.kind = kBlank
	case lexer.MdTight:
		n.kind = kTight
		n.level = uint8(len(headingMarks(b.src[start:end])))
	case lexer.MdFence:
		n.kind = kFence
		// A block that opens on the intended closing line of an
		// improperly nested fence is follow-on too (collapse).
		for _, i := range b.followAt[start] {
			b.followOns[i].to = max(b.followOns[i].to, end)
		}
		n.block = b.block(n)
	case lexer.MdBreak:
		n.kind = kBreak
	case lexer.MdItem:
		n.kind = kList
	case lexer.MdLine:
		n.kind = kPara
	default:
		n.level = uint8(lexer.HeadingLevel(typ))
	}
	return b.add(n)
}

// proseKinds names the prose of each node kind.
var proseKinds = [...]string{kBlank: "blank", kHeading: "heading", kTight: "heading", kList: "list", kPara: "text", kBreak: "break", kFolded: "heading", kOverflow: "text"}

// add records a node.
func (b *planBuilder) add(n *pnode) *pnode {
	n.idx = len(b.nodes)
	b.nodes = append(b.nodes, n)
	return n
}

// prose makes the document's prose, one per node but fences, once every
// node has its final range (a folded run grows as it is read), in one
// allocation.
func (b *planBuilder) prose() {
	k := 0
	for _, n := range b.nodes {
		if n.kind != kFence {
			k++
		}
	}
	if k == 0 {
		return
	}
	ps := make([]ast.Prose, 0, k)
	b.doc.Prose = make([]*ast.Prose, k)
	for _, n := range b.nodes {
		if n.kind != kFence {
			ps = append(ps, ast.Prose{Kind: proseKinds[n.kind], Text: b.src[n.start:n.end], Span: b.lines.Span(n.start, n.end)})
			b.doc.Prose[len(ps)-1] = &ps[len(ps)-1]
		}
	}
}

// checkCRs reports the lone CRs of the token [start, end) of type typ
// that hide a structural line (CodeLoneCR): a fence token's first line
// is read outside any block, its other lines inside it; other tokens'
// lines outside any block.
func (b *planBuilder) checkCRs(typ plex.TokenType, start, end int) {
	rest := crState{}
	if typ == lexer.MdFence {
		f, _ := lexer.MdFenceAt(b.src, start)
		rest = crState{in: true, real: true, f: f}
	}
	b.crHits = crRules{plan: true}.tokenHits(b.src, start, end, crState{}, rest, &b.crDone, b.crHits[:0])
	for _, h := range b.crHits {
		b.report(ast.Error, CodeLoneCR, b.lines.Span(h.cr, h.cr+1), "%s", h.message())
	}
}

// headingMarks returns the leading run of #s of a heading line.
func headingMarks(line string) string {
	line = strings.TrimLeft(strings.TrimPrefix(line, "\uFEFF"), " \t")
	i := 0
	for i < len(line) && line[i] == '#' {
		i++
	}
	return line[:i]
}

// block analyses a fence token at offset off: its opening line, its content
// (the bytes between the opening and the closing line minus the one line
// ending before the closing line) and whether a closing line ends it. It
// reports unclosed and improperly nested fences.
func (b *planBuilder) block(n *pnode) *ast.Block {
	off, v := n.start, b.src[n.start:n.end]
	first := lineEndAt(v, 0)
	open := v[:first]
	if off == 0 {
		open = strings.TrimPrefix(open, "\uFEFF")
	}
	f, _ := lexer.MdFenceAt(b.src, off) // off is a line start or the fence run of a list item's marker line
	blk := &ast.Block{Fence: open[f.At : f.At+f.Run], Info: f.Info, Span: b.lines.Span(off, off+len(v))}
	cstart, cend := first, len(v)
	last := strings.LastIndexByte(strings.TrimSuffix(v, "\n"), '\n') + 1 // start of the last line
	if last >= first && first < len(v) && f.Closes(v[last:]) {
		cend = closedEnd(v, cstart, last)
		// Both look for fence lines of f.Char between the opening and the
		// closing line: a block without three of them in a row has none.
		var inner, at int
		var nested, withText bool
		if lexer.HasFenceRun(v[first:last], f.Char) {
			inner, nested = lexer.MisnestedFence(v)
			at, withText = lexer.FenceWithText(v, f, true)
		}
		if withText && nested && at < inner && !lexer.LooksLikeInfo(fenceInfo(v, at)) {
			nested = false // a remark, not an info string: the block should have closed there
		}
		if nested {
			d, closeLine, innerLine := nestedFence(b.report, b.lines.Span, v, off, last, inner, f, blk.Span.Start.Line,
				"this fence closes the block opened at line %d, not the nested block %q opened at line %d: a fence at least as long as the opening one ends the outer block; make the outer block's fences longer than every fence inside it (%s)",
				"the nested block opens here")
			n.mark = failed
			n.because(fmt.Sprintf("closed at L%d by the fence meant for the nested %q at L%d", closeLine.Start.Line, strings.TrimSpace(v[inner:lineContentEnd(v, inner)]), innerLine.Start.Line))
			if d != nil {
				b.structural = append(b.structural, d)
				// What lies between here and the fence meant to close the
				// outer block is its content read as plan: follow-ons.
				if at, _, ok := lexer.IntendedClose(b.src, off+first, f, false, followOnLimit); ok && at >= off+len(v) {
					if b.followAt == nil {
						b.followAt = map[int][]int{}
					}
					b.followAt[at] = append(b.followAt[at], len(b.followOns))
					b.followOns = append(b.followOns, meantToClose(d, b.lines.Span, b.src, off+len(v), at))
				}
			}
		} else if withText {
			text, textEnd := fenceText(v, at)
			d, textSpan, closeLine := trailingText(b.report, b.lines.Span, v, off, text, textEnd, last, blk.Span.Start.Line)
			n.mark = failed
			n.because(fmt.Sprintf("not closed at L%d: text after the fence there; runs on to L%d", textSpan.Start.Line, closeLine.Start.Line))
			if d != nil {
				b.structural = append(b.structural, d)
			}
		}
	} else {
		blk.Unclosed = true
		d := b.report(ast.Error, CodeUnclosedFence, b.lines.Span(off, off+lineContentEnd(v, 0)),
			"fence %q opened here is never closed; its block runs to the end of the input", blk.Fence)
		if at, ok := lexer.FenceWithText(v, f, false); ok {
			text, textEnd := fenceText(v, at)
			unclosedText(d, v[text:textEnd], b.lines.Span(off+text, off+textEnd))
		}
	}
	blk.Content = v[cstart:cend]
	blk.ContentSpan = b.lines.Span(off+cstart, off+cend)
	return blk
}

// closedEnd returns the end of the content, from cstart, of a closed block
// token v whose closing line starts at last: the one line ending before
// that line is not content.
func closedEnd(v string, cstart, last int) int {
	cend := last
	if cend > cstart {
		cend--
		if cend > cstart && v[cend-1] == '\r' {
			cend--
		}
	}
	return cend
}

// fenceInfo returns the text after the fence run of the line at offset at
// of v.
func fenceInfo(v string, at int) string {
	g, _ := lexer.ParseMdFence(v[at:lineContentEnd(v, at)])
	return g.Info
}

// fenceText returns the range in v of the text after the fence run of the
// line at offset at, trimmed.
func fenceText(v string, at int) (int, int) {
	line := v[at:lineContentEnd(v, at)]
	g, _ := lexer.ParseMdFence(line)
	rest := strings.TrimLeft(line[g.At+g.Run:], " \t")
	start := at + len(line) - len(rest)
	return start, start + len(strings.TrimRight(rest, " \t"))
}

// addFunc adds a diagnostic unless its code is capped (then it returns
// nil); spanFunc gives the span of a byte range. Both dialects' builders
// report fence mistakes with theirs.
type (
	addFunc  = func(sev ast.Severity, code string, span ast.Span, format string, args ...any) *ast.Diagnostic
	spanFunc = func(start, end int) ast.Span
)

// nestedFence reports the improperly nested fence error of the closed
// block token v at offset off, opened by f at line open: its closing line,
// at offset last of v, is the fence meant for the nested block whose
// opening line is at inner. msg is the message (its arguments: open, the
// nested line, its line number, the fence run to write), inside the note
// on the nested line. It returns the error (nil when capped) and the spans
// of the closing and the nested line.
func nestedFence(add addFunc, span spanFunc, v string, off, last, inner int, f lexer.MdFenceLine, open int, msg, inside string) (*ast.Diagnostic, ast.Span, ast.Span) {
	g, _ := lexer.ParseMdFence(v[inner:lineContentEnd(v, inner)])
	innerText := strings.TrimSpace(v[inner:lineContentEnd(v, inner)])
	closeLine := span(off+last, off+lineContentEnd(v, last))
	innerLine := span(off+inner, off+lineContentEnd(v, inner))
	d := add(ast.Error, CodeNestedFence, closeLine, msg,
		open, innerText, innerLine.Start.Line, strings.Repeat(string(f.Char), max(f.Run, g.Run)+1))
	if d != nil {
		d.Related = []ast.Related{
			{Message: inside, Span: innerLine},
			{Message: "the outer block opens here", Span: span(off, off+lineContentEnd(v, 0))},
		}
	}
	return d, closeLine, innerLine
}

// meantToClose adds to the nested fence error d the note on the line at
// offset at of src, where the outer block was meant to close, and returns
// the follow-on range from offset from (the end of the block) to the end
// of that line.
func meantToClose(d *ast.Diagnostic, span spanFunc, src string, from, at int) followOn {
	end := at + lineContentEnd(src[at:], 0)
	d.Related = append(d.Related, ast.Related{Message: "the outer block was meant to close here", Span: span(at, end)})
	return followOn{d: d, from: from, to: min(len(src), end+1)}
}

// trailingText reports the fence-trailing-text error of the block token v
// at offset off, opened at line open: the text [text, textEnd) of v after
// the fence run of a content line kept that line from closing the block,
// which ran on to the closing fence at offset last of v. It returns the
// error (nil when capped) and the spans of the text and the closing line.
func trailingText(add addFunc, span spanFunc, v string, off, text, textEnd, last, open int) (*ast.Diagnostic, ast.Span, ast.Span) {
	textSpan := span(off+text, off+textEnd)
	closeLine := span(off+last, off+lineContentEnd(v, last))
	d := add(ast.Error, CodeFenceTrailingText, textSpan,
		"the text %q after this fence keeps it from closing the block opened at line %d, which runs on to the fence at line %d: remove the text to close the block here (plangram fix does), or, if this line is content, make the block's fences longer than it",
		v[text:textEnd], open, closeLine.Start.Line)
	if d != nil {
		d.Related = []ast.Related{
			{Message: "the block opens here", Span: span(off, off+lineContentEnd(v, 0))},
			{Message: "the block closes here instead", Span: closeLine},
		}
	}
	return d, textSpan, closeLine
}

// unclosedText adds to d, the unclosed-fence error of a block (nil when
// capped), the note on the content line whose text t, at span, after its
// fence run kept it from closing the block.
func unclosedText(d *ast.Diagnostic, t string, span ast.Span) {
	if d != nil {
		d.Related = append(d.Related, ast.Related{Span: span,
			Message: fmt.Sprintf("the text %q after this fence keeps it from closing the block (plangram fix removes it)", t)})
	}
}

// lineContentEnd returns the end of the line starting at i in v, without its
// line ending.
func lineContentEnd(v string, i int) int {
	e := len(v)
	if j := strings.IndexByte(v[i:], '\n'); j >= 0 {
		e = i + j
	}
	if e > i && v[e-1] == '\r' {
		e--
	}
	return e
}

// finish places the blocks no action took, sums up what overflowed
// MaxPerCode, orders everything by position, collapses the follow-ons of
// fence errors into notes and gives the first structural error about the
// document's shape the AST diff: one view per document, whatever the
// number of errors it shows, so the output stays linear in the input.
func (b *planBuilder) finish() {
	b.prose()
	for _, n := range b.nodes {
		if n.kind == kFence && !n.placed {
			b.doc.Blocks = append(b.doc.Blocks, n.block)
		}
	}
	sort.SliceStable(b.doc.Blocks, func(i, j int) bool {
		return b.doc.Blocks[i].Span.Start.Offset < b.doc.Blocks[j].Span.Start.Offset
	})
	// Actions outside the Action Plan are bound after it: source order.
	sort.SliceStable(b.doc.Actions, func(i, j int) bool {
		return b.doc.Actions[i].Span.Start.Offset < b.doc.Actions[j].Span.Start.Offset
	})
	b.doc.Diagnostics = append(b.doc.Diagnostics, b.cap.Summaries()...)
	ast.SortDiagnostics(b.doc.Diagnostics)
	b.collapse()
	var first *ast.Diagnostic
	for _, d := range b.structural {
		if !isLineError(d) && (first == nil || d.Span.Start.Offset < first.Span.Start.Offset) {
			first = d
		}
	}
	if first != nil {
		first.Detail = b.view()
	}
}
