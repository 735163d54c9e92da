// Package render turns a parsed plangram document into a self-contained HTML
// page for reviewers: inline CSS, no scripts, nothing fetched (docs/render.md).
//
// Each action becomes a card (class "action") with its name, its typed
// parameters and its blocks, whose bytes are shown exactly, with numbered
// lines and optional syntax highlighting; FIND/REPLACE and old/new pairs are
// shown side by side with the changed lines marked. Diagnostics appear at the
// node they concern and in a summary at the top. Prose is rendered as
// GitHub-flavoured Markdown by goldmark.
//
// The page is safe to open for an untrusted plan: every byte of the plan is
// escaped; raw HTML in prose is shown as text; links keep an href only for
// http, https, mailto and relative destinations; images are never loaded;
// characters that hide or reorder text (controls, bidirectional overrides,
// zero-width characters) are shown as labels; and a Content-Security-Policy
// forbids scripts, frames, forms and any fetch, as a second line of defence.
package render

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/parser"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/internal/linediff"
	"github.com/plangram/plangram/internal/number"
	"github.com/plangram/plangram/schema"
)

// Options configures a rendered page.
type Options struct {
	// Title names the page when the document has no title of its own
	// (typically the file name).
	Title string
	// Filename is shown with positions ("plan.md:12"); empty shows "line 12".
	Filename string
	// Schema supplies action descriptions and parameter docs (tooltips and
	// missing-parameter rows). Nil uses the built-in schema of the
	// document's dialect, when there is one.
	Schema *schema.Schema
	// NoHighlight shows code without syntax colours.
	NoHighlight bool
	// Workspace, when set, is the directory the plan would be applied to:
	// the card of each action that changes files shows the unified diff
	// of what the action does to each of them there, as `plangram apply
	// -d` prints a change (docs/render.md, "Against a workspace"). Nil
	// shows the plan alone.
	Workspace *Workspace
}

// renderer holds the state of one rendering.
type renderer struct {
	opts   Options
	md     goldmark.Markdown
	blocks parser.Parser // block structure only, with the inline guard
	schema *schema.Schema
	// hl is what is left of the page's highlighting budget (code.go).
	hl hlBudget
	// cellsLeft is what is left of the page's table-cell budget
	// (maxPageCells, guard.go).
	cellsLeft int
	// steps simulates the actions against Options.Workspace as their
	// cards are written (nil without one).
	steps *steps
}

func newRenderer(opts Options) *renderer {
	r := &renderer{opts: opts, cellsLeft: maxPageCells, hl: hlBudget{maxHighlightDoc, maxHighlightTokens, maxHighlightScan}}
	r.md = r.newMarkdown()
	r.blocks = newBlockParser(true)
	return r
}

// HTML renders a parsed document (any dialect) as a page. src is the source
// the document was parsed from; the page is built from the AST alone (which
// holds every byte of it), so src may be nil.
func HTML(doc *ast.Document, src []byte, opts Options) ([]byte, error) {
	return written(func(w io.Writer) error { return WriteHTML(w, doc, src, opts) })
}

// written returns what write writes, or its error.
func written(write func(io.Writer) error) ([]byte, error) {
	var buf bytes.Buffer
	if err := write(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// WriteHTML writes the page HTML returns to w, one top-level item (prose,
// a stray block, an action card) at a time: it holds the document and the
// view of one item, not the page (whose HTML is many times the size of a
// plan of small actions). An error from w ends the page.
func WriteHTML(w io.Writer, doc *ast.Document, src []byte, opts Options) error {
	if doc == nil {
		return errors.New("render: nil document")
	}
	r := newRenderer(opts)
	r.schema = opts.Schema
	if r.schema == nil {
		if s, err := schema.Builtin(doc.Dialect); err == nil {
			r.schema = s
		}
	}
	var err error
	if r.steps, err = newSteps(opts.Workspace, doc.Dialect, opts); err != nil {
		return fmt.Errorf("render: %w", err)
	}
	defer r.steps.close()
	if err := r.writePage(&pageWriter{w: w}, doc); err != nil {
		return fmt.Errorf("render: %w", err)
	}
	return nil
}

// Markdown renders a plain Markdown document (documentation, a README) as a
// page with the same look and the same safety rules as a plan.
func Markdown(src []byte, opts Options) ([]byte, error) {
	return written(func(w io.Writer) error { return WriteMarkdown(w, src, opts) })
}

// WriteMarkdown writes the page Markdown returns to w. An error from w
// ends the page.
func WriteMarkdown(w io.Writer, src []byte, opts Options) error {
	r := newRenderer(opts)
	md := r.parseMarkdown(src, 1)
	title := cmp.Or(headingText(md.doc, md.src), opts.Title)
	p := &page{Title: pageTitle(title), Kind: "document", Document: true, Subtitle: opts.Filename}
	pw := &pageWriter{w: w}
	err := pw.exec("head", p)
	if err == nil {
		err = pw.write(func(w io.Writer) error { return md.render(r, w) })
	}
	if err == nil {
		err = pw.exec("foot", p)
	}
	if err != nil {
		return fmt.Errorf("render: %w", err)
	}
	return nil
}

func pageTitle(t string) string {
	if t == "" {
		return "plangram"
	}
	return t + " · plangram"
}

// pageWriter writes the parts of a page (pageHTML) to w, each executed
// into buf first: plan text may hold invalid UTF-8, and the page is
// always valid UTF-8 (each run of invalid bytes becomes U+FFFD; a part
// begins and ends with the template's own text, so no run spans two
// parts).
type pageWriter struct {
	w   io.Writer
	buf bytes.Buffer
}

// exec executes the part name of the page template with data and writes it.
func (pw *pageWriter) exec(name string, data any) error {
	return pw.write(func(w io.Writer) error { return pageTemplate().ExecuteTemplate(w, name, data) })
}

// write writes what part writes, made valid UTF-8: a part of the page
// template, or the body of a Markdown page (the template text around it is
// ASCII, so no run of invalid bytes spans the body and a part).
func (pw *pageWriter) write(part func(io.Writer) error) error {
	pw.buf.Reset()
	if err := part(&pw.buf); err != nil {
		return err
	}
	out := pw.buf.Bytes()
	if !utf8.Valid(out) {
		out = bytes.ToValidUTF8(out, []byte("\uFFFD"))
	}
	_, err := pw.w.Write(out)
	return err
}

// The view model the page template renders. Strings are escaped by
// html/template; template.HTML fields are built by this package from
// escaped pieces only.
type (
	page struct {
		Title     string
		Heading   string
		Subtitle  string
		Kind      string // dialect name or "document"
		Metadata  []keyValue
		Rationale *string
		Memos     []memoView
		Summary   summary
		DocDiags  []diagView // diagnostics at no node
		// Document marks a plain Markdown page: the head opens the
		// article that WriteMarkdown writes the document's HTML into.
		Document bool
		// Workspace marks a page whose cards show their actions' steps
		// in a workspace: its head carries their style.
		Workspace bool
	}
	keyValue struct {
		Key   string
		Value template.HTML
	}
	memoView struct {
		Add  bool
		Text string
	}
	summary struct {
		Errors, Warnings, Infos int
		List                    []diagView
	}
	diagView struct {
		ID       string
		Severity string
		Code     string
		Message  string
		Pos      string
		Detail   string
		Related  []relatedView
	}
	relatedView struct{ Pos, Message string }
	proseView   struct {
		ID    string
		Label string // the parameter a Markdown value belongs to
		Kind  string
		HTML  template.HTML
		Diags []diagView
	}
	actionView struct {
		ID          string
		Index       int
		Name        template.HTML
		Unknown     bool // a named action the schema does not know
		Description string
		Signature   string
		Pos         string
		Diags       []diagView
		Params      []paramView
		Args        []template.HTML // inline arguments of an action without params
		// Extra are the inline arguments no parameter took (too many for
		// the action, or inline arguments to a block-only action): shown
		// so that the page says all the act line says.
		Extra []template.HTML
	}
	paramView struct {
		Name    string
		Doc     string
		Type    string
		Value   template.HTML
		From    string
		FromID  string
		Missing bool
	}
	// partView is a part of a card, or a top-level item (prose or a
	// stray block).
	partView struct {
		Block *blockView
		Pair  *pairView
		Prose *proseView
	}
	pairView struct {
		Old, New  *blockView
		Identical bool
	}
	blockView struct {
		ID       string
		Title    string
		Info     template.HTML
		Role     string
		Pos      string
		Lines    int
		Bytes    int
		CRLF     bool
		Unclosed bool
		Code     template.HTML
		Diags    []diagView
	}
)

// writePage writes the page of a whole document: the head with the
// summary of every diagnostic, then each top-level item in source order,
// built and written one at a time, then the foot.
func (r *renderer) writePage(pw *pageWriter, doc *ast.Document) error {
	hidden := r.hiddenNodes(doc)
	lay := treeLayout(doc, hidden)
	idx := attach(doc.Diagnostics, lay)
	p := r.head(doc, idx)
	if err := pw.exec("head", p); err != nil {
		return err
	}
	// Top-level items in source order: prose, stray blocks, actions. Prose
	// inside an action's span is shown in its card.
	type top struct {
		start, i int // i: the index in doc.Prose, doc.Blocks or doc.Actions
		prose    *ast.Prose
		block    *ast.Block
		act      *ast.Action
	}
	var tops []top
	inner := map[int][]proseRef{} // by action, the prose inside it
	for i, pr := range doc.Prose {
		if k, ok := find(lay.acts, pr.Span.Start.Offset); ok && !hidden[pr] {
			inner[k.i] = append(inner[k.i], proseRef{pr, i})
		} else if !hidden[pr] {
			tops = append(tops, top{start: pr.Span.Start.Offset, i: i, prose: pr})
		}
	}
	for i, b := range doc.Blocks {
		if !hidden[b] {
			tops = append(tops, top{start: b.Span.Start.Offset, i: i, block: b})
		}
	}
	for i, a := range doc.Actions {
		tops = append(tops, top{start: a.Span.Start.Offset, i: i, act: a})
	}
	sort.SliceStable(tops, func(i, j int) bool { return tops[i].start < tops[j].start })
	proseN := 0
	for _, t := range tops {
		var err error
		switch {
		case t.prose != nil:
			proseN++
			err = r.writeProse(pw, "item", t.prose, fmt.Sprintf("prose-%d", proseN), nodeKey{kind: keyProse, i: t.i}, idx)
		case t.block != nil:
			bv := r.block(t.block, fmt.Sprintf("stray-%d", t.i+1), fmt.Sprintf("stray block %d", t.i+1), "", codeOpts{}, nodeKey{kind: keyStray, i: t.i}, idx)
			err = pw.exec("item", &partView{Block: bv})
		default:
			err = r.action(pw, t.act, t.i, inner[t.i], idx)
		}
		if err != nil {
			return err
		}
	}
	// A diagnostic no item showed (attached to a node no item shows, which
	// the layout never holds) is not lost: it is listed after the items, as
	// the summary's link expects it somewhere on the page.
	var unshown []diagView
	for i, v := range idx.views {
		if !idx.shown[i] {
			unshown = append(unshown, v)
		}
	}
	if len(unshown) > 0 {
		if err := pw.exec("unshown", unshown); err != nil {
			return err
		}
	}
	return pw.exec("foot", p)
}

// proseRef is a prose node and its index in the document's Prose.
type proseRef struct {
	p *ast.Prose
	i int
}

// head returns the view of the head of the page of doc.
func (r *renderer) head(doc *ast.Document, idx *diagIndex) *page {
	p := &page{Kind: doc.Dialect}
	title := cmp.Or(doc.Title, r.opts.Title)
	p.Title, p.Heading = pageTitle(title), cmp.Or(title, "Untitled plan")
	parts := []string{doc.Dialect}
	if r.opts.Filename != "" {
		parts = append(parts, r.opts.Filename)
	}
	parts = append(parts, number.Plural(len(doc.Actions), "action"))
	if ws := r.opts.Workspace; ws != nil {
		parts = append(parts, "against "+ws.Root)
		p.Workspace = true
	}
	p.Subtitle = strings.Join(parts, " · ")
	for _, m := range doc.Metadata {
		p.Metadata = append(p.Metadata, keyValue{Key: m.Name, Value: r.value(m.Value)})
	}
	p.Rationale = doc.Rationale
	for _, m := range doc.Memos {
		p.Memos = append(p.Memos, memoView{Add: m.Add, Text: m.Text})
	}
	p.DocDiags = idx.diags(nodeKey{kind: keyDoc})
	// Each diagnostic is attached to a node that an item shows (the layout
	// holds only such nodes) or to the document.
	for _, d := range doc.Diagnostics {
		switch d.Severity {
		case ast.Error:
			p.Summary.Errors++
		case ast.Warning:
			p.Summary.Warnings++
		default:
			p.Summary.Infos++
		}
	}
	p.Summary.List = idx.views
	return p
}

func (r *renderer) pos(p ast.Pos) string {
	if r.opts.Filename != "" {
		return fmt.Sprintf("%s:%d", r.opts.Filename, p.Line)
	}
	return fmt.Sprintf("line %d", p.Line)
}

// writeProse writes a prose node, rendered as Markdown, with the page
// template's part tmpl; prose of blank lines only is skipped unless a
// diagnostic points into it.
func (r *renderer) writeProse(pw *pageWriter, tmpl string, pr *ast.Prose, id string, key nodeKey, idx *diagIndex) error {
	diags := idx.diags(key)
	if strings.TrimSpace(pr.Text) == "" && len(diags) == 0 {
		return nil
	}
	h, err := r.markdown([]byte(pr.Text), pr.Span.Start.Line)
	if err != nil {
		return err
	}
	return pw.exec(tmpl, &partView{Prose: &proseView{ID: id, Kind: pr.Kind, HTML: h, Diags: diags}})
}

// block renders one fenced block.
func (r *renderer) block(b *ast.Block, id, title, role string, o codeOpts, key nodeKey, idx *diagIndex) *blockView {
	o.info = b.Info
	return &blockView{
		ID:       id,
		Title:    title,
		Info:     codeText(b.Info),
		Role:     role,
		Pos:      r.pos(b.Span.Start),
		Lines:    strings.Count(b.Content, "\n") + 1,
		Bytes:    len(b.Content),
		CRLF:     strings.Contains(b.Content, "\r\n"),
		Unclosed: b.Unclosed,
		Code:     r.code(b.Content, o),
		Diags:    idx.diags(key),
	}
}

// codeText escapes s, showing invisible characters (writeCode).
func codeText(s string) template.HTML {
	var b strings.Builder
	writeCode(&b, s)
	return template.HTML(b.String())
}

// action writes one action's card: its head, each part (the blocks, the
// prose between them, the Markdown parameters) as it is made, so that a
// card of many blocks (one file's diff in many hunks) is never held whole,
// its steps in the workspace and its foot. ai is the action's index in
// source order (its card shows ai+1); prose is the prose inside its span.
func (r *renderer) action(pw *pageWriter, a *ast.Action, ai int, prose []proseRef, idx *diagIndex) error {
	n := ai + 1
	id := fmt.Sprintf("action-%d", n)
	av := &actionView{ID: id, Index: n, Name: codeText(a.Name), Pos: r.pos(a.Span.Start), Diags: idx.diags(nodeKey{kind: keyAction, i: ai})}
	if a.Name == "" {
		av.Name = template.HTML(`<span class="missing">(no name)</span>`)
	}
	var def *schema.Action
	if r.schema != nil && a.Name != "" {
		def = r.schema.Lookup(a.Name)
		av.Unknown = def == nil
	}
	if def != nil {
		av.Description, av.Signature = def.Description, def.Signature()
	}

	// Which block, if any, each parameter came from.
	blockOf := func(sp *ast.Span) int {
		if sp == nil {
			return -1
		}
		return slices.IndexFunc(a.Blocks, func(b *ast.Block) bool {
			return b.ContentSpan.Start.Offset <= sp.Start.Offset && sp.End.Offset <= b.ContentSpan.End.Offset
		})
	}
	argOf := func(sp *ast.Span) int {
		if sp == nil {
			return -1
		}
		return slices.IndexFunc(a.ArgSpans, func(as ast.Span) bool {
			return as.Start.Offset <= sp.Start.Offset && sp.Start.Offset < max(as.End.Offset, as.Start.Offset+1)
		})
	}
	// A block's role: its label (FIND:, REPLACE:), else the parameter it
	// holds.
	roles := make([]string, len(a.Blocks))
	for i, b := range a.Blocks {
		roles[i] = b.Label
	}
	path := ""
	var mdParams []*proseView
	for _, p := range a.Params {
		pv := paramView{Name: p.Name}
		var pdef *schema.Param
		if def != nil {
			pdef = def.Param(p.Name)
		}
		if pdef != nil {
			pv.Doc, pv.Type = pdef.Doc, string(pdef.TypeOrDefault())
		} else {
			pv.Type = goType(p.Value)
		}
		s, isString := p.Value.(string)
		if isString && p.Name == "path" {
			path = s
		}
		bi := blockOf(p.Span)
		if bi >= 0 {
			if roles[bi] == "" {
				roles[bi] = p.Name
			}
			pv.From, pv.FromID = fmt.Sprintf("block %d", bi+1), fmt.Sprintf("%s-block-%d", id, bi+1)
		} else if ai := argOf(p.Span); ai >= 0 {
			pv.From = fmt.Sprintf("argument %d", ai+1)
		} else if p.Span != nil {
			pv.From = fmt.Sprintf("line %d", p.Span.Start.Line)
		}
		switch {
		case isString && pdef != nil && pdef.From == "markdown": // the plan dialect's prompts and messages
			line := 1 // the value's own lines when it has no place
			if p.Span != nil {
				line = p.Span.Start.Line
			}
			h, err := r.markdown([]byte(s), line)
			if err != nil {
				return err
			}
			mdParams = append(mdParams, &proseView{ID: fmt.Sprintf("%s-%s", id, p.Name), Label: p.Name, HTML: h})
			pv.Value = template.HTML(`<span class="see">rendered below</span>`)
		case isString && bi >= 0 && (strings.Contains(s, "\n") || len(s) > 120):
			pv.Value = template.HTML(fmt.Sprintf(`<span class="see">shown in block %d (%s)</span>`, bi+1, number.Plural(strings.Count(s, "\n")+1, "line")))
		default:
			pv.Value = r.nested(p.Value, id, blockOf)
			if pv.Value != "" {
				pv.From, pv.FromID = "", "" // each group links to its blocks
			} else {
				pv.Value = r.value(p.Value)
			}
		}
		av.Params = append(av.Params, pv)
	}
	if def != nil {
		for _, pd := range def.Params {
			if _, ok := a.Params.Get(pd.Name); !ok && pd.Required {
				av.Params = append(av.Params, paramView{Name: pd.Name, Doc: pd.Doc, Type: string(pd.TypeOrDefault()), Missing: true})
			}
		}
	}
	if len(a.Params) == 0 {
		for _, arg := range a.Args {
			av.Args = append(av.Args, codeText(arg))
		}
	} else if def != nil {
		for _, arg := range untaken(a, def) {
			av.Extra = append(av.Extra, codeText(arg))
		}
	}

	// Blocks and the prose between them, in source order; find/replace pairs
	// side by side.
	type part struct {
		start, block int
		prose        *proseRef
	}
	var parts []part
	for i, b := range a.Blocks {
		parts = append(parts, part{start: b.Span.Start.Offset, block: i})
	}
	for k, pr := range prose {
		parts = append(parts, part{start: pr.p.Span.Start.Offset, block: -1, prose: &prose[k]})
	}
	sort.SliceStable(parts, func(i, j int) bool { return parts[i].start < parts[j].start })
	_, hasCommand := a.Params.Get("command")
	blockView := func(i int, marks map[int]string) *blockView {
		b := a.Blocks[i]
		o := codeOpts{path: path, marks: marks}
		if roles[i] == "command" && hasCommand {
			o.lang = "bash"
		}
		if roles[i] == "path" {
			o.path = ""
		}
		return r.block(b, fmt.Sprintf("%s-block-%d", id, i+1), fmt.Sprintf("block %d", i+1), roles[i], o, nodeKey{kind: keyActBlock, i: ai, j: i}, idx)
	}
	if err := pw.exec("item-action-head", av); err != nil {
		return err
	}
	for _, pv := range mdParams {
		if err := pw.exec("part", &partView{Prose: pv}); err != nil {
			return err
		}
	}
	proseN := 0
	for k := 0; k < len(parts); k++ {
		pt := parts[k]
		if pt.prose != nil {
			proseN++
			if err := r.writeProse(pw, "part", pt.prose.p, fmt.Sprintf("%s-prose-%d", id, proseN), nodeKey{kind: keyProse, i: pt.prose.i}, idx); err != nil {
				return err
			}
			continue
		}
		i := pt.block
		var part partView
		if k+1 < len(parts) && parts[k+1].prose == nil && isHalf(roles[i], "OLD", "FIND") && isHalf(roles[parts[k+1].block], "NEW", "REPLACE") {
			j := parts[k+1].block
			oldText, newText := a.Blocks[i].Content, a.Blocks[j].Content
			delMarks, insMarks := lineMarks(oldText, newText)
			part.Pair = &pairView{Old: blockView(i, delMarks), New: blockView(j, insMarks), Identical: oldText == newText}
			k++
		} else {
			part.Block = blockView(i, nil)
		}
		if err := pw.exec("part", &part); err != nil {
			return err
		}
	}
	if sv := r.steps.step(r, a, id); sv != nil {
		if err := pw.exec("steps", sv); err != nil {
			return err
		}
	}
	return pw.exec("action-foot", nil)
}

// isHalf reports whether a block's role is one half of a replacement: the
// acts dialect's parameter (old, new) or a plan's label (FIND, REPLACE),
// in any case.
func isHalf(role, param, label string) bool {
	r := strings.ToUpper(role)
	return r == param || r == label || strings.Contains(r, label+":")
}

// lineMarks marks the lines of old that are removed ("del") and the lines of
// new that are added ("ins").
func lineMarks(oldText, newText string) (del, ins map[int]string) {
	a, b := strings.Split(oldText, "\n"), strings.Split(newText, "\n")
	del, ins = map[int]string{}, map[int]string{}
	for _, c := range linediff.Changes(linediff.Diff(a, b)) {
		for i := c.I1; i < c.I2 && c.Tag != linediff.Same; i++ {
			del[i] = "del"
		}
		for j := c.J1; j < c.J2 && c.Tag != linediff.Same; j++ {
			ins[j] = "ins"
		}
	}
	return del, ins
}

// nested renders a list of parameter groups (a plan EDIT's FIND/REPLACE
// pairs) whose values come from blocks as links to those blocks; "" when v
// is not such a list.
func (r *renderer) nested(v any, id string, blockOf func(*ast.Span) int) template.HTML {
	groups, ok := v.([]ast.Params)
	if !ok {
		return ""
	}
	var b strings.Builder
	b.WriteString(`<ol class="groups">`)
	for _, g := range groups {
		b.WriteString("<li>")
		for i, p := range g {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(`<span class="group-key">` + esc(p.Name) + `</span> `)
			if bi := blockOf(p.Span); bi >= 0 {
				fmt.Fprintf(&b, `<a href="#%s-block-%d">block %d</a>`, id, bi+1, bi+1)
			} else {
				b.WriteString(string(r.value(p.Value)))
			}
		}
		b.WriteString("</li>")
	}
	b.WriteString(`</ol>`)
	return template.HTML(b.String())
}

// value renders a parameter or metadata value by its Go type.
func (r *renderer) value(v any) template.HTML {
	switch x := v.(type) {
	case nil:
		return `<span class="null">null</span>`
	case string:
		if strings.Contains(x, "\n") {
			return template.HTML(`<pre class="text">`) + codeText(x) + `</pre>`
		}
		if x == "" {
			return `<span class="empty">(empty)</span>`
		}
		return `<code>` + codeText(x) + `</code>`
	case bool:
		if x {
			return `<span class="bool true">true</span>`
		}
		return `<span class="bool false">false</span>`
	case []string:
		if len(x) == 0 {
			return `<span class="empty">(none)</span>`
		}
		var b strings.Builder
		b.WriteString(`<ul class="list">`)
		for _, s := range x {
			b.WriteString(`<li><code>` + string(codeText(s)) + `</code></li>`)
		}
		b.WriteString(`</ul>`)
		return template.HTML(b.String())
	case int, int64, float64:
		return template.HTML(esc(fmt.Sprint(x)))
	}
	if list, ok := v.([]any); ok && len(list) > 0 {
		if h, ok := listJSON(list, maxListJSON); ok {
			return h
		}
	}
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return template.HTML(esc(fmt.Sprint(v)))
	}
	return template.HTML(`<pre class="text json">`) + codeText(string(data)) + `</pre>`
}

// maxListJSON bounds the JSON text of a list parameter's value the page
// shows: a unified diff of one file in many hunks has a hunks value
// larger than the diff, which would fill one table cell.
const maxListJSON = 64 << 10

// listJSON renders a list as json.MarshalIndent does, element by element,
// and stops before the element that would take the text past max (the
// first is always shown): a note then says how many elements are not
// shown. ok is false when an element cannot be encoded.
func listJSON(list []any, max int) (template.HTML, bool) {
	var b strings.Builder
	b.WriteString("[\n  ")
	shown := 0
	for i, e := range list {
		data, err := json.MarshalIndent(e, "  ", "  ")
		if err != nil {
			return "", false
		}
		if i > 0 && b.Len()+len(data) > max {
			break
		}
		if i > 0 {
			b.WriteString(",\n  ")
		}
		b.Write(data)
		shown++
	}
	if shown < len(list) {
		b.WriteString(",\n  …")
	}
	b.WriteString("\n]")
	h := template.HTML(`<pre class="text json">`) + codeText(b.String()) + `</pre>`
	if rest := len(list) - shown; rest > 0 {
		h += template.HTML(fmt.Sprintf(`<span class="see">%s more of its %s elements are not shown here: the page shows at most %d KiB of a value as JSON (a diff's hunks are each shown as a block below)</span>`,
			number.Thousands(rest), number.Thousands(len(list)), max>>10))
	}
	return h, true
}

func goType(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case bool:
		return "bool"
	case int, int64:
		return "int"
	case float64:
		return "number"
	case []string:
		return "list"
	}
	return "json"
}

// untaken returns the inline arguments of a that none of def's parameters
// took, as validate.BindAct binds them: none when a parameter is
// variadic, all of them when def takes blocks only, else those past the
// parameters.
func untaken(a *ast.Action, def *schema.Action) []string {
	if slices.ContainsFunc(def.Params, func(p *schema.Param) bool { return p.Variadic }) {
		return nil
	}
	if def.Mode() == schema.ArgsBlock {
		return a.Args
	}
	if len(a.Args) > len(def.Params) {
		return a.Args[len(def.Params):]
	}
	return nil
}
