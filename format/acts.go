package format

import (
	"bytes"
	"slices"
	"sort"
	"strings"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/lexer"
)

const bom = "\uFEFF"

// item is one top-level piece of a document (acts or plan) in source order.
type item struct {
	start, end int
	prose      *ast.Prose
	block      *ast.Block
	act        *ast.Action // set for the act block (head) of an action
}

// acts prints a fenced-acts document canonically (docs/fmt.md):
//
//   - Every block is fenced with the document's fence character, its run
//     one longer than the longest run of that character beginning a line of
//     its content (at least three), so no content line can close it.
//   - Act blocks hold one line: the action name and the inline arguments,
//     shell-quoted where needed; the info string is `act`.
//   - Argument blocks follow their act block directly; one blank line
//     separates actions from each other and blocks from prose.
//   - Prose keeps its bytes but loses leading and trailing blank lines;
//     prose of blank lines only is dropped.
//   - An unclosed block stays unclosed: its opening line is rewritten and its
//     content, which runs to the end of the input, is copied unchanged.
//   - Lines fmt writes itself end like the first line ending of the text it
//     keeps (prose and block content): "\r\n" or "\n", "\n" when there is none.
func acts(doc *ast.Document, src []byte) []byte {
	items := collect(doc)
	fence := byte('`')
	if i := slices.IndexFunc(items, func(it item) bool { return it.block != nil && it.block.Fence != "" }); i >= 0 {
		fence = items[i].block.Fence[0]
	}
	kept := make([]string, len(items))
	for i, it := range items {
		kept[i] = keptText(it)
	}
	p := &actsPrinter{src: src, fence: fence, eol: lineEnding(items, kept), first: true}
	p.out.Grow(len(src) + len(src)/16 + 64)
	for i := range items {
		it := &items[i]
		next := i+1 < len(items) && items[i+1].block != nil && items[i+1].start == it.end
		p.item(it, kept[i], next)
	}
	return p.out.Bytes()
}

// keptText is what the canonical form keeps of an item: prose without its
// leading and trailing blank lines, a closed act block's canonical act
// line, a block's content.
func keptText(it item) string {
	switch {
	case it.prose != nil:
		k := trimBlankLines(it.prose.Text)
		if strings.HasSuffix(k, "\r") {
			k += "\n" // prose at the end of the input, "\r" and no "\n"
		}
		return k
	case canonicalAct(&it):
		return actLine(it.act)
	default:
		return it.block.Content
	}
}

// canonicalAct reports whether the item is an act block whose content
// the canonical form writes as its act line (actLine). An act block of
// MaxArgs arguments or more may hold more than the action read
// (too-many-args): its content is kept. So is an act block with a line
// that is a fence line of either character (a name of three backticks):
// the document read with the other fence character (other-fence-act,
// --fence) sees a fence there, which the quoted canonical line would
// take away.
func canonicalAct(it *item) bool {
	return it.act != nil && !it.block.Unclosed && len(it.act.Args) < grammar.MaxArgs &&
		longestRun(it.block.Content, '`') < 3 && longestRun(it.block.Content, '~') < 3
}

// actsPrinter writes the canonical form of an acts document item by item,
// in source order (acts).
type actsPrinter struct {
	src             []byte
	fence           byte
	eol             string
	out             bytes.Buffer
	first, attached bool
	prevProse       bool // the last item written was prose
}

// item writes one item whose kept text is kept; nextBlock says whether the
// next item is a block that starts where this one ends.
func (p *actsPrinter) item(it *item, kept string, nextBlock bool) {
	if it.prose != nil && kept == "" {
		return
	}
	if p.first && it.block != nil && it.start == 0 && bytes.HasPrefix(p.src, []byte(bom)) {
		p.out.WriteString(bom) // keep a file's byte-order mark
	}
	// One blank line between actions and around prose; argument blocks
	// follow their act block (and stray blocks each other) directly,
	// and a block its list item's markers (attached).
	if !p.first && !p.attached && (it.prose != nil || p.prevProse || it.act != nil) {
		p.out.WriteString(p.eol)
	}
	p.first, p.attached = false, false
	p.prevProse = it.prose != nil
	if it.prose != nil {
		p.out.WriteString(kept)
		if markerTail(p.src, it.prose.Span.End.Offset) && nextBlock {
			p.attached = true // the markers of a list item whose block opens on their line
			return
		}
		if !strings.HasSuffix(kept, "\n") {
			p.out.WriteString(p.eol)
		}
		return
	}
	// A closed act block's kept text is its act line, which fmt writes
	// itself: indented like the closing fence.
	info, first, indent := it.block.Info, "", markerIndent(p.src, it.start)
	if it.act != nil {
		info = "act"
	}
	if canonicalAct(it) {
		first = indent
	}
	writeFenced(&p.out, p.fence, info, kept, it.block.Unclosed, first, indent, p.eol)
}

// markerIndent returns, for a block opened on a list item's marker line
// (it starts inside its line, after the markers), spaces up to the column
// of its opening run, for the lines fmt writes itself: the act line and
// the closing fence, which so stay inside the item for a CommonMark reader
// too. For a block opened at the start of a line it returns "".
func markerIndent(src []byte, start int) string {
	if !markerTail(src, start) {
		return ""
	}
	ls := bytes.LastIndexByte(src[:start], '\n') + 1
	line := src[ls:start]
	if ls == 0 {
		line = bytes.TrimPrefix(line, []byte(bom))
	}
	return strings.Repeat(" ", lexer.Column(line, 0))
}

// collect returns the document's prose, stray blocks, act blocks and
// argument blocks in source order.
func collect(doc *ast.Document) []item {
	var items []item
	for _, p := range doc.Prose {
		items = append(items, item{start: p.Span.Start.Offset, end: p.Span.End.Offset, prose: p})
	}
	for _, b := range doc.Blocks {
		items = append(items, item{start: b.Span.Start.Offset, end: b.Span.End.Offset, block: b})
	}
	for _, a := range doc.Actions {
		if a.Head != nil {
			items = append(items, item{start: a.Head.Span.Start.Offset, end: a.Head.Span.End.Offset, block: a.Head, act: a})
		}
		for _, b := range a.Blocks {
			items = append(items, item{start: b.Span.Start.Offset, end: b.Span.End.Offset, block: b})
		}
	}
	sort.SliceStable(items, func(i, j int) bool { return items[i].start < items[j].start })
	return items
}

// writeFenced prints a fenced block of character c, its run one longer
// than any run beginning a content line (at least three), which also
// holds under CommonMark's closing rule. first is written before the
// content, indent before the closing fence.
func writeFenced(out *bytes.Buffer, c byte, info, content string, unclosed bool, first, indent, eol string) {
	run := strings.Repeat(string(c), max(3, longestRun(content, c)+1))
	out.WriteString(run)
	if info != "" && info[0] == c {
		out.WriteByte(' ') // `~~~ ~x`: without the space the run would grow
	}
	out.WriteString(info)
	out.WriteString(eol)
	if unclosed {
		// The content runs to the end of the input; no line of it closes the
		// new run, so the block stays unclosed and keeps every byte.
		out.WriteString(content)
		return
	}
	if content != "" {
		out.WriteString(first)
		out.WriteString(content)
		// The parser drops one line ending before the closing fence; a
		// content ending in '\r' needs "\r\n" there to keep its '\r'.
		if eol == "\n" && content[len(content)-1] == '\r' {
			out.WriteString("\r\n")
		} else {
			out.WriteString(eol)
		}
	}
	out.WriteString(indent)
	out.WriteString(run)
	out.WriteString(eol)
}

// actLine is the canonical content of an act block: the action name and its
// inline arguments on one line, each quoted when a shell would split it.
func actLine(a *ast.Action) string {
	if a.Name == "" && len(a.Args) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(Quote(a.Name))
	for _, arg := range a.Args {
		b.WriteByte(' ')
		b.WriteString(Quote(arg))
	}
	return b.String()
}

// Quote returns s as one word of an act line: unchanged when it holds only
// letters, digits, non-ASCII text and `_ - . / : @ % + = ,`, else in single
// quotes, each single quote inside written as a closing quote, an escaped
// quote (\') and an opening quote. The acts parser reads the result back as
// exactly s.
func Quote(s string) string {
	if s != "" && !strings.ContainsFunc(s, func(r rune) bool {
		return r < 0x80 && !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_-./:@%+=,", r))
	}) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// longestRun returns the longest run of c that begins a line of s, after
// the line's spaces, tabs, carriage returns and byte-order mark.
func longestRun(s string, c byte) int {
	best := 0
	for line := range strings.Lines(s) {
		line = strings.TrimLeft(line, " \t\r"+bom) // bom is one rune of the cutset
		n := 0
		for n < len(line) && line[n] == c {
			n++
		}
		best = max(best, n)
	}
	return best
}

// trimBlankLines removes the lines holding only spaces, tabs and carriage
// returns from the start and the end of prose.
func trimBlankLines(s string) string {
	for {
		i := strings.IndexByte(s, '\n')
		if i < 0 || strings.Trim(s[:i], " \t\r") != "" {
			break
		}
		s = s[i+1:]
	}
	// The end: the last line with text, with its line ending.
	j := strings.LastIndexFunc(s, func(r rune) bool { return !strings.ContainsRune(" \t\r\n", r) })
	if j < 0 {
		return ""
	}
	if k := strings.IndexByte(s[j:], '\n'); k >= 0 {
		return s[:j+k+1]
	}
	return s
}

// lineEnding returns the line ending fmt writes: the first one in the text
// it keeps, "\n" when there is none.
func lineEnding(items []item, kept []string) string {
	for i, k := range kept {
		if items[i].act != nil && !items[i].block.Unclosed {
			continue // written by fmt itself
		}
		if e := lexer.FirstLineEnding(k); e != "" {
			return e
		}
	}
	return "\n"
}
