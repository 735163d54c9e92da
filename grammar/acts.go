package grammar

import (
	"context"
	"fmt"
	"strings"
	"unsafe"

	"github.com/alecthomas/participle/v2"
	plex "github.com/alecthomas/participle/v2/lexer"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/lexer"
	"github.com/plangram/plangram/schema"
	"github.com/plangram/plangram/validate"
)

// The fenced-acts grammar, over the lexer's coarse tokens:
//
//	File = Item* Act*
//	Act  = ActBlock Item*
//	Item = Block | Text
//
// Items before the first act are stray (a warning); items after an act are
// its argument blocks and the prose between them.
type actsFile struct {
	Lead []plex.Token `parser:"@((Block | Text)*)"`
	Acts []*actsAct   `parser:"@@*"`
}

type actsAct struct {
	Head  plex.Token   `parser:"@ActBlock"`
	Items []plex.Token `parser:"@((Block | Text)*)"`
}

// Diagnostic codes of the acts dialect (docs/diagnostics.md).
const (
	CodeUnclosedFence   = "unclosed-fence"
	CodeBlockBeforeAct  = "block-before-act"
	CodeEmptyActionName = "empty-action-name"
	CodeUnterminated    = "unterminated-quote"
	CodeParse           = "parse-error"
	// CodeOtherFenceAct: an act block written with the document's other
	// fence character, which the fence rule reads as prose (docs/acts.md).
	CodeOtherFenceAct = "other-fence-act"
	// CodeNoPlan: a document with no act block at all gets this one note
	// rather than a warning per code block (docs/check.md).
	CodeNoPlan = "no-plan"
)

// actsParser builds the participle parser for one fence character (0:
// detect per document). Building costs microseconds; callers parsing many
// documents can keep one ActsParser.
func actsParser(fence byte) (*participle.Parser[actsFile], error) {
	return participle.Build[actsFile](participle.Lexer(lexer.Coarse(fence)))
}

// ActsParser parses fenced-acts documents; it is safe for concurrent use.
type ActsParser struct {
	p      *participle.Parser[actsFile]
	schema *schema.Schema
	fence  byte
}

// NewActsParser returns a parser for fence character fence (0: detect per
// document) binding actions with schema s.
func NewActsParser(fence byte, s *schema.Schema) (*ActsParser, error) {
	p, err := actsParser(fence)
	if err != nil {
		return nil, fmt.Errorf("building acts grammar: %w", err)
	}
	return &ActsParser{p: p, schema: s, fence: fence}, nil
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
// must not be modified while the document is in use.
func (p *ActsParser) Parse(ctx context.Context, filename string, src []byte) (*ast.Document, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	text := unsafe.String(unsafe.SliceData(src), len(src))
	lines := ast.NewLines(src)
	doc := &ast.Document{Dialect: DialectActs, Span: lines.Span(0, len(src))}
	tree, err := p.p.ParseString(filename, text)
	if err != nil {
		// The grammar accepts every token sequence; an error here is a bug,
		// but it is reported, never hidden, and the input is kept as prose.
		doc.Add(ast.Error, CodeParse, lines.Span(0, 0), "internal parse error: %v", err)
		doc.Prose = append(doc.Prose, &ast.Prose{Kind: "text", Text: text, Span: lines.Span(0, len(src))})
		return doc, nil
	}
	b := actsBuilder{doc: doc, lines: lines, src: text}
	for _, it := range tree.Lead {
		if blk := b.item(it); blk != nil {
			doc.Blocks = append(doc.Blocks, blk)
			if len(tree.Acts) > 0 { // with no act at all, one no-plan note says it (below)
				doc.Add(ast.Warning, CodeBlockBeforeAct, blk.Span,
					"block before the first act belongs to no action (info %q)", blk.Info)
			}
		}
	}
	others := p.otherFenceActs(filename, text, tree, &b)
	if len(tree.Acts) == 0 && others == 0 {
		kept := "only prose"
		if len(src) == 0 {
			kept = "the input is empty"
		} else if n := len(doc.Blocks); n > 0 {
			kept = fmt.Sprintf("its %d fenced %s and its prose are kept as they are", n, plural(n, "block"))
		}
		doc.Add(ast.Info, CodeNoPlan, lines.Span(0, 0),
			"no plan: the document has no %s block (%s)", fenceWords(p.activeFence(src)), kept)
	}
	for i, act := range tree.Acts {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		a := b.action(act.Head)
		for _, it := range act.Items {
			if blk := b.item(it); blk != nil {
				a.Blocks = append(a.Blocks, blk)
				a.Span.End = blk.Span.End
			}
		}
		doc.Diagnostics = append(doc.Diagnostics, validate.BindAct(a, p.schema)...)
		doc.Actions = append(doc.Actions, a)
	}
	ast.SortDiagnostics(doc.Diagnostics)
	return doc, nil
}

type actsBuilder struct {
	doc   *ast.Document
	lines *ast.Lines
	src   string
}

// item turns a Text token into prose (returning nil) or a Block token into a block.
func (b *actsBuilder) item(t plex.Token) *ast.Block {
	if t.Type == lexer.Text {
		b.doc.Prose = append(b.doc.Prose, &ast.Prose{Kind: "text", Text: t.Value, Span: b.lines.Span(t.Pos.Offset, t.Pos.Offset+len(t.Value))})
		return nil
	}
	return b.block(t)
}

// block analyses a whole-block token: its opening line, its content and
// whether a closing line ends it.
func (b *actsBuilder) block(t plex.Token) *ast.Block {
	v, off := t.Value, t.Pos.Offset
	first := len(v)
	if i := strings.IndexByte(v, '\n'); i >= 0 {
		first = i + 1
	}
	run, info, _ := lexer.OpenFence([]byte(v[:first]), fenceChar(v[:first]))
	blk := &ast.Block{Fence: run, Info: info, Span: b.lines.Span(off, off+len(v))}
	cstart, cend := first, len(v)
	last := strings.LastIndexByte(strings.TrimSuffix(v, "\n"), '\n') + 1 // start of the last line
	if last >= first && first < len(v) && lexer.ClosesFence([]byte(v[last:]), run) {
		cend = last
		if cend > cstart { // drop the one line ending before the closing fence
			cend--
			if cend > cstart && v[cend-1] == '\r' {
				cend--
			}
		}
	} else {
		blk.Unclosed = true
		b.doc.Add(ast.Error, CodeUnclosedFence, b.lines.Span(off, off+first),
			"fence %q opened here is never closed; its block runs to the end of the input", run)
	}
	blk.Content = v[cstart:cend]
	blk.ContentSpan = b.lines.Span(off+cstart, off+cend)
	return blk
}

// fenceChar returns the fence character an opening line starts with.
func fenceChar(line string) byte {
	line = strings.TrimLeft(strings.TrimPrefix(line, "\uFEFF"), " \t\r")
	if line != "" && line[0] == lexer.Tilde {
		return lexer.Tilde
	}
	return lexer.Backtick
}

// action reads an act block: the first word of its first non-blank line is
// the action name; the rest of that line, split like a shell would, and each
// further non-blank line, trimmed, are inline arguments.
func (b *actsBuilder) action(t plex.Token) *ast.Action {
	head := b.block(t)
	a := &ast.Action{Head: head, Span: head.Span, NameSpan: head.Span}
	base := head.ContentSpan.Start.Offset
	content := head.Content
	first := true
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
			words, open := shellSplit(line)
			if open {
				b.doc.Add(ast.Warning, CodeUnterminated, b.lines.Span(base+lineStart, base+end),
					"unterminated quote in act line; the rest of the line is taken literally")
			}
			a.Name = words[0].text
			a.NameSpan = b.lines.Span(base+lineStart+words[0].start, base+lineStart+words[0].end)
			for _, w := range words[1:] {
				a.Args = append(a.Args, w.text)
				a.ArgSpans = append(a.ArgSpans, b.lines.Span(base+lineStart+w.start, base+lineStart+w.end))
			}
			continue
		}
		lead := strings.Index(line, trimmed)
		a.Args = append(a.Args, trimmed)
		a.ArgSpans = append(a.ArgSpans, b.lines.Span(base+lineStart+lead, base+lineStart+lead+len(trimmed)))
	}
	if a.Name == "" {
		b.doc.Add(ast.Error, CodeEmptyActionName, b.lines.Span(head.Span.Start.Offset, head.ContentSpan.Start.Offset),
			"act block names no action: its first non-blank line must start with the action name")
	}
	return a
}

// activeFence returns the fence character the parser reads src with.
func (p *ActsParser) activeFence(src []byte) byte {
	if p.fence != 0 {
		return p.fence
	}
	return lexer.Detect(src)
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
// It returns the number of such blocks. One pass over the source.
func (p *ActsParser) otherFenceActs(filename, text string, tree *actsFile, b *actsBuilder) int {
	active := p.activeFence(unsafe.Slice(unsafe.StringData(text), len(text)))
	other := lexer.Tilde
	if active == lexer.Tilde {
		other = lexer.Backtick
	}
	if !strings.Contains(text, strings.Repeat(string(other), 3)) {
		return 0
	}
	// The prose regions of the parse, in source order.
	var prose []plex.Token
	for _, t := range tree.Lead {
		if t.Type == lexer.Text {
			prose = append(prose, t)
		}
	}
	for _, a := range tree.Acts {
		for _, t := range a.Items {
			if t.Type == lexer.Text {
				prose = append(prose, t)
			}
		}
	}
	why := "--fence " + fenceName(active) + " is in effect"
	if p.fence == 0 && len(tree.Acts) > 0 {
		why = fmt.Sprintf("this document's act blocks use %s (from its first act block, line %d)",
			fenceWords(active), tree.Acts[0].Head.Pos.Line)
	}
	n, i := 0, 0
	sc := lexer.NewScanner(filename, text, other, true)
	for {
		t, _ := sc.Next()
		if t.EOF() {
			break
		}
		if t.Type != lexer.ActBlock {
			continue
		}
		off := t.Pos.Offset
		for i < len(prose) && prose[i].Pos.Offset+len(prose[i].Value) <= off {
			i++
		}
		if i == len(prose) || prose[i].Pos.Offset > off {
			continue // inside a block of the active character: content
		}
		n++
		b.doc.Add(ast.Warning, CodeOtherFenceAct, b.lines.Span(off, off+len(t.Value)),
			"act block written with %s is read as prose, not as an action: %s; write every act block with one fence character, or read the %s blocks with --fence %s",
			fenceWords(other), why, fenceWords(other), fenceName(other))
	}
	return n
}
