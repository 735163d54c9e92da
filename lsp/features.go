package lsp

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"go.lsp.dev/uri"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/internal/textpos"
	"github.com/plangram/plangram/lexer"
	"github.com/plangram/plangram/lint"
	"github.com/plangram/plangram/lsp/internal/protocol"
	"github.com/plangram/plangram/schema"
)

// ---- document symbols ----

// heading is an ATX heading line outside every fenced block.
type heading struct {
	level      int
	text       string
	start, end int // the line, without its line ending
}

var headingRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^ {0,3}(#{1,6})(?:[ \t]+|$)(.*?)[ \t]*#*[ \t]*$`)
})

// headings lists the document's headings, skipping lines inside the blocks
// the parser found. `#Title` without the space counts as a level-1 heading
// (the plan dialect accepts it with a warning).
func headings(src []byte, doc *ast.Document) []heading {
	blocks := lint.BlockSpans(doc)
	var out []heading
	off := 0
	for l := range bytes.Lines(src) {
		start := off
		off += len(l)
		line := strings.TrimSuffix(strings.TrimSuffix(string(l), "\n"), "\r")
		t := strings.TrimLeft(line, " ")
		if !strings.HasPrefix(t, "#") || slices.ContainsFunc(blocks, func(b ast.Span) bool { return b.Contains(start) }) {
			continue
		}
		if m := headingRE().FindStringSubmatch(line); m != nil {
			out = append(out, heading{level: len(m[1]), text: m[2], start: start, end: start + len(line)})
		} else if len(t) > 1 && t[1] != '#' && len(line)-len(t) < 4 {
			out = append(out, heading{level: 1, text: strings.TrimSpace(t[1:]), start: start, end: start + len(line)})
		}
	}
	return out
}

// symbolNode is a DocumentSymbol under construction.
type symbolNode struct {
	sym      protocol.DocumentSymbol
	level    int // heading level; 7 for an action
	start    int
	end      int
	children []*symbolNode
}

// outline builds the document's symbols: headings nest by level (the title,
// the sections, a plan's action headings), and every action is a function
// symbol under the heading before it, or the action's own heading.
func outline(src []byte, tx *textpos.Text, doc *ast.Document) []protocol.DocumentSymbol {
	actionAt := map[int]*ast.Action{} // heading line -> action named on it
	for _, a := range doc.Actions {
		actionAt[a.NameSpan.Start.Line] = a
	}
	used := map[*ast.Action]bool{}
	setAction := func(n *symbolNode, a *ast.Action) {
		used[a] = true
		n.sym.Name, n.sym.Kind = cmp.Or(a.Name, "(unnamed action)"), protocol.SymbolKindFunction
		n.sym.Detail = actionDetail(a)
		n.end = max(n.end, a.Span.End.Offset)
	}
	var nodes []*symbolNode
	for _, h := range headings(src, doc) {
		n := &symbolNode{level: h.level, start: h.start, end: h.end}
		n.sym = protocol.DocumentSymbol{Name: cmp.Or(h.text, "(untitled)"), Kind: protocol.SymbolKindNamespace,
			SelectionRange: protocol.Range{Start: position(tx, h.start), End: position(tx, h.end)}}
		if h.level == 1 {
			n.sym.Kind = protocol.SymbolKindFile
		}
		if a := actionAt[tx.Lines().Pos(h.start).Line]; a != nil && !used[a] && a.Head == nil { // a plan action's own heading
			setAction(n, a)
			if a.NameSpan.Start.Line > 0 {
				n.sym.SelectionRange = toRange(tx, a.NameSpan)
			}
		}
		nodes = append(nodes, n)
	}
	for _, a := range doc.Actions {
		if !used[a] {
			n := &symbolNode{level: 7, start: a.Span.Start.Offset, end: a.Span.End.Offset}
			n.sym.SelectionRange = toRange(tx, a.NameSpan)
			setAction(n, a)
			nodes = append(nodes, n)
		}
	}
	sort.SliceStable(nodes, func(i, j int) bool { return nodes[i].start < nodes[j].start })

	// A heading's section runs to the next heading of its level or higher,
	// which pops it off the stack, else to the end of the document.
	closeSection := func(n *symbolNode, end int) {
		n.end = max(n.end, n.start+len(bytes.TrimRight(src[n.start:end], "\r\n")))
	}
	var roots, stack []*symbolNode
	for _, n := range nodes {
		// Only headings are pushed, so an action (level 7) pops nothing.
		for len(stack) > 0 && stack[len(stack)-1].level >= n.level {
			closeSection(stack[len(stack)-1], n.start)
			stack = stack[:len(stack)-1]
		}
		if len(stack) == 0 {
			roots = append(roots, n)
		} else {
			parent := stack[len(stack)-1]
			parent.children = append(parent.children, n)
		}
		if n.level < 7 {
			stack = append(stack, n)
		}
	}
	for _, n := range stack {
		closeSection(n, len(src))
	}
	var conv func([]*symbolNode) []protocol.DocumentSymbol
	conv = func(ns []*symbolNode) []protocol.DocumentSymbol {
		out := make([]protocol.DocumentSymbol, 0, len(ns))
		for _, n := range ns {
			n.sym.Children = conv(n.children)
			for _, c := range n.children {
				n.end = max(n.end, c.end)
			}
			n.sym.Range = protocol.Range{Start: position(tx, n.start), End: position(tx, n.end)}
			n.sym.SelectionRange = clampRange(n.sym.SelectionRange, n.sym.Range)
			out = append(out, n.sym)
		}
		return out
	}
	return conv(roots)
}

func before(a, b protocol.Position) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Character < b.Character
}

// clampRange keeps a selection range inside its symbol's range, as the
// protocol requires.
func clampRange(sel, r protocol.Range) protocol.Range {
	if before(sel.Start, r.Start) || before(r.End, sel.Start) {
		sel.Start = r.Start
	}
	if before(r.End, sel.End) || before(sel.End, sel.Start) {
		sel.End = sel.Start
	}
	return sel
}

// actionDetail summarises an action for the outline: its path, resource,
// agent, command or description.
func actionDetail(a *ast.Action) string {
	for _, name := range []string{"path", "resource", "src", "agent", "command", "description"} {
		if s := strings.TrimSpace(a.Params.String(name)); s != "" {
			if first, _, more := strings.Cut(s, "\n"); more {
				s = first + " …"
			}
			if len(s) > 60 {
				s = s[:57] + "…"
			}
			return s
		}
	}
	return strings.Join(a.Args, " ")
}

// DocumentSymbol returns the document's outline.
func (s *server) DocumentSymbol(ctx context.Context, p *protocol.TextDocumentParams) ([]protocol.DocumentSymbol, error) {
	d, doc, err := s.snapshot(ctx, p.TextDocument.URI)
	if err != nil {
		return []protocol.DocumentSymbol{}, nil
	}
	return outline(d.text, d.tx, doc), nil
}

// ---- hover ----

var metaKeyRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*[-*+]\s+(?:\*\*)?([^*:]+?)\s*(?:\*\*)?\s*:`)
})

// Hover documents the action or parameter under the cursor from the
// dialect's schema.
func (s *server) Hover(ctx context.Context, p *protocol.TextDocumentPositionParams) (*protocol.Hover, error) {
	d, doc, err := s.snapshot(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, nil
	}
	sc := s.schemaFor(doc)
	if sc == nil {
		return nil, nil
	}
	off := offset(d.tx, p.Position)
	line := d.tx.Lines().Pos(off).Line
	for _, a := range doc.Actions {
		def := sc.Lookup(a.Name)
		if def == nil {
			continue
		}
		onName := a.NameSpan.Contains(off) || off == a.NameSpan.End.Offset && a.NameSpan.Len() > 0
		if onName || (a.Head == nil && a.NameSpan.Start.Line == line) {
			return hover(actionDoc(def, doc.Dialect), d.tx, a.NameSpan), nil
		}
		if !a.Span.Contains(off) {
			continue
		}
		for _, prm := range a.Params {
			if prm.Span != nil && (prm.Span.Contains(off) || off == prm.Span.End.Offset && prm.Span.Len() > 0) {
				if pd := def.Param(prm.Name); pd != nil {
					return hover(paramDoc(def, pd, doc.Dialect), d.tx, *prm.Span), nil
				}
			}
		}
		// A plan metadata line: `- **File Path:** …`.
		ls := d.tx.Lines().LineStart(line)
		le := d.tx.LineEnd(line)
		if m := metaKeyRE().FindStringSubmatch(string(d.text[ls:le])); m != nil {
			if pd := paramByKey(def, m[1]); pd != nil {
				return hover(paramDoc(def, pd, doc.Dialect), d.tx, ast.Span{Start: ast.Pos{Offset: ls}, End: ast.Pos{Offset: le}}), nil
			}
		}
	}
	return nil, nil
}

func hover(md string, tx *textpos.Text, sp ast.Span) *protocol.Hover {
	r := toRange(tx, sp)
	return &protocol.Hover{Contents: protocol.MarkupContent{Kind: protocol.Markdown, Value: md}, Range: &r}
}

// paramByKey finds a parameter by its metadata key or an alias, ignoring case.
func paramByKey(def *schema.Action, key string) *schema.Param {
	key = strings.TrimSpace(strings.Trim(key, "`"))
	for _, p := range def.Params {
		if strings.EqualFold(p.KeyOrName(), key) || slices.ContainsFunc(p.Aliases, func(al string) bool { return strings.EqualFold(al, key) }) {
			return p
		}
	}
	return nil
}

// actionDoc renders an action's schema entry as Markdown.
func actionDoc(a *schema.Action, dialect string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s**", a.Name)
	if len(a.Aliases) > 0 {
		fmt.Fprintf(&b, " (alias %s)", strings.Join(a.Aliases, ", "))
	}
	if a.Description != "" {
		fmt.Fprintf(&b, " — %s", a.Description)
	}
	fmt.Fprintf(&b, "\n\n`%s`\n", a.Signature())
	if len(a.Params) > 0 {
		b.WriteString("\n")
		for _, p := range a.Params {
			b.WriteString("- " + paramLine(p, dialect) + "\n")
		}
	}
	return b.String()
}

// paramDoc renders one parameter as Markdown.
func paramDoc(a *schema.Action, p *schema.Param, dialect string) string {
	return fmt.Sprintf("%s\n\nparameter of **%s**", paramLine(p, dialect), a.Name)
}

func paramLine(p *schema.Param, dialect string) string {
	var attrs []string
	if dialect == grammar.DialectPlan && p.Key != "" {
		attrs = append(attrs, "**"+p.Key+":**")
	}
	t := string(p.TypeOrDefault())
	if p.Items != "" {
		t += " of " + string(p.Items)
	}
	attrs = append(attrs, t)
	if p.Required {
		attrs = append(attrs, "required")
	}
	if p.Variadic {
		attrs = append(attrs, "variadic")
	}
	s := fmt.Sprintf("`%s` (%s)", p.Name, strings.Join(attrs, ", "))
	if p.Doc != "" {
		s += ": " + p.Doc
	}
	return s
}

// ---- completion ----

var (
	planHeadingRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("^###[ \t]+(?:\\d+\\.[ \t]*)?(`?)([A-Za-z_]*)$") })
	bulletKeyRE   = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^([ \t]*[-*+][ \t]+)(\*{0,2})([A-Za-z][A-Za-z ]*)?$`)
	})
	actNameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[ \t]*([A-Za-z0-9_]*)$`) })
)

// Completion offers action names on the first line of an act block and
// after `### ` in a plan, and metadata keys at the start of a list item.
func (s *server) Completion(ctx context.Context, p *protocol.TextDocumentPositionParams) (*protocol.CompletionList, error) {
	d, doc, err := s.snapshot(ctx, p.TextDocument.URI)
	if err != nil {
		return &protocol.CompletionList{Items: []protocol.CompletionItem{}}, nil
	}
	off := offset(d.tx, p.Position)
	lineNo := d.tx.Lines().Pos(off).Line
	ls := d.tx.Lines().LineStart(lineNo)
	prefix := string(d.text[ls:off])
	prev := ""
	if lineNo > 1 {
		pl := lineNo - 1
		prev = string(d.text[d.tx.Lines().LineStart(pl):d.tx.LineEnd(pl)])
	}
	var items []protocol.CompletionItem
	edit := func(from int, text string) *protocol.TextEdit {
		return &protocol.TextEdit{Range: protocol.Range{Start: position(d.tx, from), End: position(d.tx, off)}, NewText: text}
	}
	// The action names of a dialect: the document's schema when the
	// document is of that dialect, else the dialect's built-in one.
	actionItems := func(dialect string, from int, suffix string) {
		sc, _ := schema.Builtin(dialect)
		if doc.Dialect == dialect {
			sc = s.schemaFor(doc)
		}
		if sc == nil {
			return
		}
		for _, a := range sc.Actions {
			it := protocol.CompletionItem{Label: a.Name, Kind: protocol.CompletionItemKindFunction,
				Detail: a.Signature(), TextEdit: edit(from, a.Name+suffix)}
			if a.Description != "" {
				it.Documentation = &protocol.MarkupContent{Kind: protocol.Markdown, Value: actionDoc(a, sc.Dialect)}
			}
			items = append(items, it)
		}
	}
	if m := actNameRE().FindStringSubmatchIndex(prefix); m != nil && isActFence(prev) {
		actionItems(grammar.DialectActs, ls+m[2], "")
	} else if m := planHeadingRE().FindStringSubmatchIndex(prefix); m != nil {
		suffix := ""
		if rest := d.text[off:max(off, d.tx.LineEnd(lineNo))]; m[3] > m[2] && !bytes.ContainsRune(rest, '`') {
			suffix = "`"
		}
		actionItems(grammar.DialectPlan, ls+m[4], suffix)
	} else if m := bulletKeyRE().FindStringSubmatchIndex(prefix); m != nil && doc.Dialect == grammar.DialectPlan {
		from := ls + m[3] // after the bullet and its spaces
		key := func(k, md string) {
			items = append(items, protocol.CompletionItem{Label: k, Kind: protocol.CompletionItemKindProperty,
				FilterText:    string(d.text[from:off]) + k,
				Documentation: &protocol.MarkupContent{Kind: protocol.Markdown, Value: md},
				TextEdit:      edit(from, "**"+k+":** ")})
		}
		if a := actionBefore(doc, off); a == nil {
			for _, k := range []string{"Status", "Agent", "Goal"} { // a plan's document metadata
				key(k, "document metadata")
			}
		} else if sc := s.schemaFor(doc); sc != nil {
			if def := sc.Lookup(a.Name); def != nil {
				for _, pd := range def.Params {
					if pd.Key != "" {
						key(pd.Key, paramLine(pd, doc.Dialect))
					}
				}
			}
		}
	}
	if items == nil {
		items = []protocol.CompletionItem{}
	}
	return &protocol.CompletionList{Items: items}, nil
}

// isActFence reports whether a line opens an act block (``` act, ~~~act,
// also on a list item's marker line: 1. ```act).
func isActFence(line string) bool {
	return slices.ContainsFunc([]byte{lexer.Backtick, lexer.Tilde}, func(c byte) bool {
		_, info, ok := lexer.OpenFenceString(line, c)
		return ok && lexer.IsAct(info)
	})
}

// actionBefore returns the last action that starts before offset.
func actionBefore(doc *ast.Document, off int) *ast.Action {
	var found *ast.Action
	for _, a := range doc.Actions {
		if a.Span.Start.Offset < off {
			found = a
		}
	}
	return found
}

// ---- code action ----

// CodeAction offers one quick fix that applies `plangram fix` to the whole
// document, as a minimal text edit.
func (s *server) CodeAction(ctx context.Context, p *protocol.CodeActionParams) ([]*protocol.CodeAction, error) {
	if s.opts.Fix == nil {
		return []*protocol.CodeAction{}, nil
	}
	d, _, err := s.snapshot(ctx, p.TextDocument.URI)
	if err != nil {
		return []*protocol.CodeAction{}, nil
	}
	fixed, repairs, err := s.opts.Fix(ctx, filename(p.TextDocument.URI), d.text)
	if err != nil || bytes.Equal(fixed, d.text) {
		return []*protocol.CodeAction{}, nil
	}
	// The smallest single edit: drop the common prefix and suffix.
	pre := 0
	for pre < len(fixed) && pre < len(d.text) && fixed[pre] == d.text[pre] {
		pre++
	}
	suf := 0
	for suf < len(fixed)-pre && suf < len(d.text)-pre && fixed[len(fixed)-1-suf] == d.text[len(d.text)-1-suf] {
		suf++
	}
	// Keep the edit on UTF-8 boundaries.
	for pre > 0 && pre < len(d.text) && d.text[pre]&0xC0 == 0x80 {
		pre--
	}
	for suf > 0 && len(d.text)-suf < len(d.text) && d.text[len(d.text)-suf]&0xC0 == 0x80 {
		suf--
	}
	te := protocol.TextEdit{
		Range:   protocol.Range{Start: position(d.tx, pre), End: position(d.tx, len(d.text)-suf)},
		NewText: string(fixed[pre : len(fixed)-suf]),
	}
	title := "Apply plangram fix"
	if len(repairs) > 0 {
		title += ": " + strings.Join(repairs, "; ")
		if len(title) > 120 {
			title = fmt.Sprintf("Apply plangram fix (%d repairs)", len(repairs))
		}
	}
	var diags []any
	for _, raw := range p.Context.Diagnostics {
		if dg, ok := fixableDiagnostic(raw); ok {
			diags = append(diags, dg)
		}
	}
	ca := &protocol.CodeAction{Title: title, Kind: protocol.QuickFix, IsPreferred: true, Diagnostics: diags,
		Edit: &protocol.WorkspaceEdit{Changes: map[uri.URI][]protocol.TextEdit{p.TextDocument.URI: {te}}}}
	return []*protocol.CodeAction{ca}, nil
}

// fixableDiagnostic decodes one diagnostic of a code action's context and
// reports whether its code is one `plangram fix` repairs (a quick fix names
// those of them the client sent). The diagnostic is
// returned whole, as the client sent it (numbers as written), so that the
// quick fix names it in the client's own terms.
func fixableDiagnostic(raw json.RawMessage) (any, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var d map[string]any
	if dec.Decode(&d) != nil {
		return nil, false
	}
	switch d["code"] {
	case "improperly-nested-fence", "title-missing-space", "unclosed-fence":
		return d, true
	}
	return nil, false
}
