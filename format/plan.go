package format

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/lexer"
	"github.com/plangram/plangram/schema"
)

// fixedByFmt lists the plan diagnostics fmt's canonical form removes on
// purpose; every other diagnostic survives formatting.
func fixedByFmt(code string) bool { return code == "title-missing-space" }

// Canonical-form levels of a plan, tried from the highest: every node
// normalised; fences and blank lines only; the input unchanged.
const (
	planFull   = 2
	planFences = 1
)

// plan prints a structured Markdown plan canonically (docs/fmt.md). Every
// candidate output is parsed again and must mean what the input means and
// be its own canonical form, else the next, more conservative level is
// tried; the last resort is the input itself, so fmt can never change what
// a plan says, whatever the input.
//
// plan holds one document tree at a time: it prints every candidate from
// doc first, then lets doc go (the caller must not keep it either, as
// Canonical does not) before it parses the candidates again, so checking
// a candidate does not double the memory of formatting a large plan.
func plan(doc *ast.Document, src []byte, s *schema.Schema, reparse func([]byte) (*ast.Document, error)) ([]byte, error) {
	want, err := planDigest(doc)
	if err != nil {
		return nil, err
	}
	var outs [][]byte
	for level := planFull; level >= planFences; level-- {
		out, ok := printPlan(doc, src, s, level)
		if !ok {
			break
		}
		outs = append(outs, out)
		if bytes.Equal(out, src) {
			break
		}
	}
	doc = nil // not needed past here: the collector may free the tree
	for i, out := range outs {
		if bytes.Equal(out, src) {
			return out, nil
		}
		doc2, err := reparse(out)
		if err != nil {
			return nil, err
		}
		if got, err := planDigest(doc2); err != nil || got != want {
			continue
		}
		if again, ok := printPlan(doc2, out, s, planFull-i); !ok || !bytes.Equal(again, out) {
			continue
		}
		return out, nil
	}
	return append([]byte(nil), src...), nil
}

// planDigest is a digest of writePlanMeaning's text: what formatting a plan
// must keep, without holding it (the text of a large plan's meaning is
// about as long as the plan).
func planDigest(doc *ast.Document) ([sha256.Size]byte, error) {
	h := sha256.New()
	var sum [sha256.Size]byte
	if err := writePlanMeaning(h, doc); err != nil {
		return sum, err
	}
	h.Sum(sum[:0])
	return sum, nil
}

// writePlanMeaning writes what formatting a plan must keep to w as a
// sequence of JSON values, one per line (a JSON text has no raw newline,
// so the lines cannot run into each other): the header (title, metadata,
// rationale, memos), each action with its parameters and blocks, each
// stray block, and the code and severity of each diagnostic that fmt does
// not remove on purpose. One value at a time, so the text of a large plan
// is never built whole.
func writePlanMeaning(w io.Writer, doc *ast.Document) error {
	type block struct {
		Info, Label, Content string
		Unclosed             bool
	}
	type action struct {
		Name   string
		Params ast.Params
		Blocks []block
	}
	blocks := func(bs []*ast.Block) []block {
		var out []block
		for _, b := range bs {
			out = append(out, block{b.Info, b.Label, b.Content, b.Unclosed})
		}
		return out
	}
	enc := json.NewEncoder(w)
	var head struct {
		Title     string
		Metadata  ast.Params
		Rationale *string
		Memos     []string
	}
	head.Title, head.Metadata, head.Rationale = doc.Title, doc.Metadata, doc.Rationale
	for _, x := range doc.Memos {
		head.Memos = append(head.Memos, map[bool]string{true: "+", false: "-"}[x.Add]+x.Text)
	}
	var err error
	encode := func(v any) {
		if err == nil {
			err = enc.Encode(v)
		}
	}
	encode(head)
	for _, a := range doc.Actions {
		encode(struct{ Action action }{action{a.Name, a.Params, blocks(a.Blocks)}})
	}
	for _, b := range blocks(doc.Blocks) {
		encode(struct{ Stray block }{b})
	}
	for _, d := range doc.Diagnostics {
		if !fixedByFmt(d.Code) {
			encode(struct{ Code string }{d.Code + " " + d.Severity.String()})
		}
	}
	return err
}

// printPlan prints a plan at a canonical-form level. ok is false when the
// document's nodes do not partition the source (then nothing is changed).
func printPlan(doc *ast.Document, src []byte, s *schema.Schema, level int) (out []byte, ok bool) {
	nodes := collect(doc) // a plan action has no head: its heading is prose
	// Fill gaps with raw nodes; overlapping nodes mean an AST this printer
	// does not understand.
	all := make([]item, 0, 2*len(nodes)+1) // with the gaps between nodes
	at := 0
	for _, n := range nodes {
		if n.start < at || n.end < n.start || n.end > len(src) {
			return nil, false
		}
		if n.start > at {
			all = append(all, item{start: at, end: n.start})
		}
		all = append(all, n)
		at = n.end
	}
	if at < len(src) {
		all = append(all, item{start: at, end: len(src)})
	}

	verbatim := verbatimRanges(doc, s) // sorted, not overlapping
	inVerbatim := func(off int) bool {
		i := sort.Search(len(verbatim), func(i int) bool { return verbatim[i][1] > off })
		return i < len(verbatim) && verbatim[i][0] <= off
	}
	// Nodes a diagnostic points at keep their bytes, so the diagnostic
	// keeps its meaning (an improperly nested fence is fix's business).
	var points []int
	for _, d := range doc.Diagnostics {
		if fixedByFmt(d.Code) {
			continue
		}
		points = append(points, d.Span.Start.Offset)
		for _, r := range d.Related {
			points = append(points, r.Span.Start.Offset)
		}
	}
	sort.Ints(points)
	flagged := func(n item) bool {
		i := sort.SearchInts(points, n.start)
		return i < len(points) && (points[i] < n.end || points[i] == n.start)
	}
	actionHeads := map[int]string{}
	for _, a := range doc.Actions {
		actionHeads[a.Span.Start.Offset] = a.Name
	}

	const (
		kRaw = iota // verbatim: its own line endings, never trimmed
		kBlank
		kBlock
		kHeading
		kList
	)
	kinds := make([]int, len(all))
	for i, n := range all {
		raw := src[n.start:n.end]
		switch {
		case inVerbatim(n.start) || flagged(n) || n.prose == nil && n.block == nil:
			kinds[i] = kRaw
		case n.block != nil:
			kinds[i] = kBlock
		case len(bytes.Trim(raw, " \t\r\n")) == 0:
			kinds[i] = kBlank
		case level >= planFull && n.prose.Kind == "heading":
			kinds[i] = kHeading
		case level >= planFull && n.prose.Kind == "list":
			kinds[i] = kList
		default:
			kinds[i] = kRaw
		}
	}
	// The line ending fmt writes: the first one in the text it keeps.
	eol := "\n"
	for i, n := range all {
		var text string
		switch kinds[i] {
		case kRaw:
			text = string(src[n.start:n.end])
		case kBlock:
			text = n.block.Content
		default:
			continue
		}
		if e := lexer.FirstLineEnding(text); e != "" {
			eol = e
			break
		}
	}

	var b bytes.Buffer
	b.Grow(len(src) + 64)
	pendingBlank, wrote, last, trailing := false, false, kRaw, false
	for i, n := range all {
		k := kinds[i]
		if k == kBlank {
			pendingBlank = wrote // one blank line; none at the start
			trailing = true
			continue
		}
		trailing = false
		if pendingBlank {
			b.WriteString(eol)
			pendingBlank = false
		}
		wrote, last = true, k
		if k != kRaw && n.start == 0 && bytes.HasPrefix(src, []byte(bom)) {
			b.WriteString(bom)
		}
		switch k {
		case kBlock:
			// The fence rule of acts, the block's own character.
			c := byte('`')
			if n.block.Fence != "" {
				c = n.block.Fence[0]
			}
			writeFenced(&b, c, n.block.Info, n.block.Content, n.block.Unclosed, "", markerIndent(src, n.start), eol)
		case kHeading:
			b.WriteString(canonicalHeading(string(src[n.start:n.end]), actionHeads, n.start))
			b.WriteString(eol)
		case kList:
			b.WriteString(canonicalList(strings.TrimPrefix(string(src[n.start:n.end]), bom), eol, markerTail(src, n.end)))
		default:
			b.Write(src[n.start:n.end])
		}
	}
	out = b.Bytes()
	// A list written last, or text followed by the blank lines fmt drops at
	// the end, still ends its line.
	if (last == kList || trailing) && len(out) > 0 && out[len(out)-1] != '\n' {
		out = append(out, eol...)
	}
	return out, true
}

// verbatimRanges returns the spans of actions whose parameters are read
// from their Markdown text (a prompt, a message): fmt leaves them alone.
func verbatimRanges(doc *ast.Document, s *schema.Schema) [][2]int {
	var out [][2]int
	for _, a := range doc.Actions {
		var def *schema.Action
		if s != nil {
			def = s.Lookup(a.Name)
		}
		if def == nil || slices.ContainsFunc(def.Params, func(p *schema.Param) bool { return p.From == "markdown" }) {
			out = append(out, [2]int{a.Span.Start.Offset, a.Span.End.Offset})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}

// markerTail reports whether a node ending at end stops inside a line:
// before the fence run of a list item's marker line (`- ```python`), whose
// block follows on the same line.
func markerTail(src []byte, end int) bool {
	return end > 0 && end < len(src) && src[end-1] != '\n'
}

// canonicalHeading writes a heading line as `#`s, one space and its text
// (closing #s and surrounding space removed). An action heading holding
// only the action's name (plain, in backticks or bold, numbered or not)
// becomes "### `NAME`".
func canonicalHeading(line string, actions map[int]string, start int) string {
	line = strings.TrimRight(strings.TrimPrefix(line, bom), "\r\n")
	t := strings.TrimLeft(line, " \t")
	text := strings.TrimLeft(t, "#")
	level := len(t) - len(text)
	text = strings.Trim(text, " \t")
	if k := strings.TrimRight(text, "#"); k != text && (k == "" || k[len(k)-1] == ' ' || k[len(k)-1] == '\t') {
		text = strings.Trim(k, " \t")
	}
	if name, ok := actions[start]; ok && name != "" && !strings.Contains(name, "`") {
		bare := text
		if i := strings.IndexAny(bare, ".)"); i > 0 && strings.Trim(bare[:i], "0123456789") == "" {
			bare = strings.TrimLeft(bare[i+1:], " \t")
		}
		for _, form := range []string{name, "`" + name + "`", "**" + name + "**", name + ":"} {
			if bare == form {
				text = "`" + name + "`"
			}
		}
	}
	if text == "" {
		return strings.Repeat("#", level)
	}
	return strings.Repeat("#", level) + " " + text
}

// canonicalList rewrites the top-level items of a metadata list as
// `- **Key:** value` (other items get a `-` bullet); nested items and
// continuation lines keep their bytes, and so does the last line when tail
// is set: the markers of a list item whose fenced block follows on that
// line (markerTail).
func canonicalList(text, eol string, tail bool) string {
	var b strings.Builder
	read := 0
	for line := range strings.Lines(text) {
		read += len(line)
		body := strings.TrimRight(line, "\r\n")
		indent := len(body) - len(strings.TrimLeft(body, " "))
		t := body[indent:]
		if tail && read == len(text) || indent > 3 || len(t) == 0 || !strings.ContainsRune("-*+", rune(t[0])) || len(t) > 1 && t[1] != ' ' && t[1] != '\t' {
			b.WriteString(line)
			continue
		}
		item := strings.Trim(t[1:], " \t")
		switch key, value, ok := keyValue(item); {
		case ok && value != "":
			b.WriteString("- **" + key + ":** " + value)
		case ok:
			b.WriteString("- **" + key + ":**")
		case item != "":
			b.WriteString("- " + item)
		default:
			b.WriteString("-")
		}
		if strings.HasSuffix(line, "\n") {
			b.WriteString(eol)
		}
	}
	return b.String()
}

// keyValue splits a metadata item as grammar.ParseKV does, when its key is
// plain text (safe to print between ** and :**) and, after a bold key, its
// value is set off by white space.
func keyValue(item string) (key, value string, ok bool) {
	key, _, _, vs, ok := grammar.ParseKV(item)
	if !ok || !grammar.PlainKey(key) || vs < len(item) && item[vs] != ' ' && item[vs] != '\t' {
		return "", "", false
	}
	return key, strings.TrimSpace(item[vs:]), true
}
