package grammar

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/alecthomas/participle/v2"
	plex "github.com/alecthomas/participle/v2/lexer"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/lexer"
	"github.com/plangram/plangram/schema"
)

// The structured Markdown plan grammar (docs/plan.md), over the Markdown
// lexer's tokens (lexer.Markdown):
//
//	File    = Body Part* Section*
//	Section = H2 Body Part*     ## Rationale, ## Memos, ## Action Plan, ## Message, …
//	Part    = H3 Body           ### `CREATE` and the action's body
//	Body    = (~(H2 | H3))*     every other token: H1, H4–H6, Tight, Item, Line, Fence, Break, Blank
//
// The grammar accepts every token sequence and gives the document its
// outline: sections, their actions, and the tokens of each. The builder
// then reads each body as Markdown nodes — consecutive Item tokens (blank
// lines between them allowed) form one list, consecutive Line tokens one
// paragraph — and what the plan must look like (title, metadata list,
// Rationale, optional Memos, then `## Action Plan` or `## Message`) is
// checked over those nodes (plan_check.go), so that each problem is reported
// against the node where the document left the expected shape, with the AST
// diff. (Declaring lists and paragraphs as grammar rules as well made
// participle allocate 80% more per parse in BenchmarkPlan.)
type planFile struct {
	Intro    []plex.Token   `parser:"@((~(H2 | H3))*)"`
	Parts    []*planPart    `parser:"@@*"`
	Sections []*planSection `parser:"@@*"`
}

type planSection struct {
	Head  plex.Token   `parser:"@H2"`
	Intro []plex.Token `parser:"@((~(H2 | H3))*)"`
	Parts []*planPart  `parser:"@@*"`
}

type planPart struct {
	Head plex.Token   `parser:"@H3"`
	Body []plex.Token `parser:"@((~(H2 | H3))*)"`
}

// Diagnostic codes of the plan dialect (docs/plan.md lists each with an
// example). CodeUnclosedFence, CodeEmptyActionName and CodeParse are shared
// with the acts dialect; unknown actions use validate.CodeUnknownAction's
// code, as an error.
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
	CodeURLNotAllowed     = "url-not-allowed"
	CodeUnknownKey        = "unknown-key"
	CodeDuplicateKey      = "duplicate-key"
	CodeNestedFence       = "improperly-nested-fence"
)

// PlanParser parses structured Markdown plans; it is safe for concurrent use.
type PlanParser struct {
	p      *participle.Parser[planFile]
	schema *schema.Schema
	keys   map[*schema.Action]map[string]keyRef
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
	p, err := participle.Build[planFile](participle.Lexer(lexer.Markdown()))
	if err != nil {
		return nil, fmt.Errorf("building plan grammar: %w", err)
	}
	return &PlanParser{p: p, schema: s, keys: keyIndex(s)}, nil
}

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

// Parse parses one document.
func (p *PlanParser) Parse(ctx context.Context, filename string, src []byte) (*ast.Document, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	text := string(src)
	lines := ast.NewLines(src)
	doc := &ast.Document{Dialect: DialectPlan, Span: lines.Span(0, len(src))}
	tree, err := p.p.ParseString(filename, text)
	if err != nil {
		// The grammar accepts every token sequence; an error here is a bug,
		// reported, never hidden, with the input kept as prose.
		doc.Add(ast.Error, CodeParse, lines.Span(0, 0), "internal parse error: %v", err)
		doc.Prose = append(doc.Prose, &ast.Prose{Kind: "text", Text: text, Span: lines.Span(0, len(src))})
		return doc, nil
	}
	b := &planBuilder{ctx: ctx, src: text, lines: lines, doc: doc, schema: p.schema, keys: p.keys}
	t := b.outline(tree)
	if err := b.check(t); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil { // checked between sections and actions
		return nil, err
	}
	b.finish()
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
)

// mark is a node's state in the AST view.
type mark uint8

const (
	unchecked mark = iota
	matched
	warned
	failed
)

// pnode is one Markdown node of the plan: whole lines [start, end).
type pnode struct {
	kind       nodeKind
	level      int // headings: 1–6
	start, end int
	items      [][2]int   // lists: the item tokens
	block      *ast.Block // fences
	placed     bool       // the block went to an action or the document
	meta       bool       // a list read as metadata
	idx        int        // index in planBuilder.nodes
	view       int        // index in the AST view; -1 for blank lines
	mark       mark
	reasons    []string
}

type ppart struct {
	head *pnode
	body []*pnode
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
	ctx    context.Context
	src    string
	lines  *ast.Lines
	doc    *ast.Document
	schema *schema.Schema
	keys   map[*schema.Action]map[string]keyRef
	nodes  []*pnode // every node in source order, blank lines included
	eof    *pnode
	// structural errors, which carry the AST diff
	structural []*ast.Diagnostic
}

// outline turns the parse tree into nodes, keeping every byte: fences become
// blocks, everything else prose.
func (b *planBuilder) outline(f *planFile) *ptree {
	t := &ptree{intro: b.nodeList(f.Intro), parts: b.partList(f.Parts)}
	for _, s := range f.Sections {
		sec := &psection{head: b.tokNode(s.Head)}
		sec.intro = b.nodeList(s.Intro)
		sec.parts = b.partList(s.Parts)
		t.sections = append(t.sections, sec)
	}
	view := 0
	for _, n := range b.nodes {
		n.view = -1
		if n.kind != kBlank {
			n.view = view
			view++
		}
	}
	b.eof = &pnode{kind: kEOF, start: len(b.src), end: len(b.src), view: view}
	return t
}

func (b *planBuilder) partList(ps []*planPart) []*ppart {
	out := make([]*ppart, 0, len(ps))
	for _, p := range ps {
		part := &ppart{head: b.tokNode(p.Head)}
		part.body = b.nodeList(p.Body)
		out = append(out, part)
	}
	return out
}

// nodeList reads a body's tokens as Markdown nodes: a run of Item tokens
// (blank lines between them included) is one list, a run of Line tokens one
// paragraph, every other token a node of its own.
func (b *planBuilder) nodeList(ts []plex.Token) []*pnode {
	out := make([]*pnode, 0, len(ts))
	for i := 0; i < len(ts); i++ {
		t := ts[i]
		switch t.Type {
		case lexer.MdItem:
			pn := &pnode{kind: kList, start: t.Pos.Offset}
			j := i
			for j < len(ts) {
				if ts[j].Type == lexer.MdItem {
					pn.items = append(pn.items, [2]int{ts[j].Pos.Offset, ts[j].Pos.Offset + len(ts[j].Value)})
					i = j
				} else if ts[j].Type != lexer.MdBlank {
					break
				}
				j++
			}
			last := ts[i]
			pn.end = last.Pos.Offset + len(last.Value)
			out = append(out, b.add(pn))
		case lexer.MdLine:
			j := i
			for j+1 < len(ts) && ts[j+1].Type == lexer.MdLine {
				j++
			}
			out = append(out, b.add(&pnode{kind: kPara, start: t.Pos.Offset, end: ts[j].Pos.Offset + len(ts[j].Value)}))
			i = j
		default:
			out = append(out, b.tokNode(t))
		}
	}
	return out
}

// tokNode makes the node of a single token.
func (b *planBuilder) tokNode(t plex.Token) *pnode {
	n := &pnode{start: t.Pos.Offset, end: t.Pos.Offset + len(t.Value)}
	switch t.Type {
	case lexer.MdBlank:
		n.kind = kBlank
	case lexer.MdTight:
		n.kind = kTight
		n.level = strings.Count(headingMarks(t.Value), "#")
	case lexer.MdFence:
		n.kind = kFence
		n.block = b.block(n)
	case lexer.MdBreak:
		n.kind = kBreak
	default:
		n.kind = kHeading
		n.level = lexer.HeadingLevel(t.Type)
	}
	return b.add(n)
}

// add records a node and its prose.
func (b *planBuilder) add(n *pnode) *pnode {
	n.idx = len(b.nodes)
	b.nodes = append(b.nodes, n)
	if n.kind != kFence {
		kind := [...]string{kBlank: "blank", kHeading: "heading", kTight: "heading", kList: "list", kPara: "text", kBreak: "break"}[n.kind]
		b.doc.Prose = append(b.doc.Prose, &ast.Prose{Kind: kind, Text: b.src[n.start:n.end], Span: b.lines.Span(n.start, n.end)})
	}
	return n
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
	first := len(v)
	if i := strings.IndexByte(v, '\n'); i >= 0 {
		first = i + 1
	}
	open := v[:first]
	if off == 0 {
		open = strings.TrimPrefix(open, "\uFEFF")
	}
	f, _ := lexer.ParseMdFence(open)
	blk := &ast.Block{Fence: f.Fence(), Info: f.Info, Span: b.lines.Span(off, off+len(v))}
	cstart, cend := first, len(v)
	last := strings.LastIndexByte(strings.TrimSuffix(v, "\n"), '\n') + 1 // start of the last line
	if last >= first && first < len(v) && f.Closes(v[last:]) {
		cend = last
		if cend > cstart {
			cend--
			if cend > cstart && v[cend-1] == '\r' {
				cend--
			}
		}
		if inner, ok := lexer.MisnestedFence(v); ok {
			closeLine := b.lines.Span(off+last, off+lineContentEnd(v, last))
			innerLine := b.lines.Span(off+inner, off+lineContentEnd(v, inner))
			g, _ := lexer.ParseMdFence(v[inner:lineContentEnd(v, inner)])
			d := b.doc.Add(ast.Error, CodeNestedFence, closeLine,
				"this fence closes the block opened at line %d, not the nested block %q opened at line %d: a fence at least as long as the opening one ends the outer block; make the outer block's fences longer than every fence inside it (%s)",
				blk.Span.Start.Line, strings.TrimSpace(v[inner:lineContentEnd(v, inner)]), innerLine.Start.Line, strings.Repeat(string(f.Char), max(f.Run, g.Run)+1))
			n.mark = failed
			n.reasons = append(n.reasons, fmt.Sprintf("closed at L%d by the fence meant for the nested %q at L%d", closeLine.Start.Line, strings.TrimSpace(v[inner:lineContentEnd(v, inner)]), innerLine.Start.Line))
			d.Related = []ast.Related{
				{Message: "the nested block opens here", Span: innerLine},
				{Message: "the outer block opens here", Span: b.lines.Span(off, off+lineContentEnd(v, 0))},
			}
			b.structural = append(b.structural, d)
		}
	} else {
		blk.Unclosed = true
		b.doc.Add(ast.Error, CodeUnclosedFence, b.lines.Span(off, off+lineContentEnd(v, 0)),
			"fence %q opened here is never closed; its block runs to the end of the input", blk.Fence)
	}
	blk.Content = v[cstart:cend]
	blk.ContentSpan = b.lines.Span(off+cstart, off+cend)
	return blk
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

// finish places the blocks no action took, builds the AST diff of the
// structural errors and orders everything by position.
func (b *planBuilder) finish() {
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
	if len(b.structural) > 0 {
		view := b.view()
		for _, d := range b.structural {
			d.Detail = view
		}
	}
	ast.SortDiagnostics(b.doc.Diagnostics)
}
