package render

import (
	"bytes"
	"fmt"
	"html"
	"html/template"
	"io"
	"strings"

	"github.com/yuin/goldmark"
	gast "github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	grender "github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/plangram/plangram/internal/number"
	"github.com/plangram/plangram/lexer"
)

// newMarkdown returns the goldmark converter for prose: GitHub-flavoured
// Markdown with goldmark's safe defaults (raw HTML is never passed through)
// and plangram's own renderers for the nodes that touch safety or bytes:
//
//   - links and autolinks get an href only when safeURL allows it, else they
//     are shown as text marked "link removed";
//   - images are never loaded (the page fetches nothing): they become a
//     link to the image, under the same URL rule;
//   - raw HTML, inline or as a block, is shown as escaped text, so a
//     reviewer sees everything the plan contains;
//   - code blocks are shown like plan blocks (numbered lines, highlighting).
func (r *renderer) newMarkdown() goldmark.Markdown {
	return goldmark.New(
		goldmark.WithExtensions(extension.GFM),
		goldmark.WithRendererOptions(
			grender.WithNodeRenderers(util.Prioritized(&mdNodes{r: r}, 100)),
		),
	)
}

// markdown converts Markdown source to HTML. Lines nesting deeper than
// maxNesting are flattened first (see flattenNesting), and chunks whose
// inline Markdown would cost more than inlineBudget per byte are shown as
// plain text (see guardInline), each with a note saying which. line is
// the document line src starts on (1 for a whole document): the notes
// give the document's line numbers.
func (r *renderer) markdown(src []byte, line int) (template.HTML, error) {
	md := r.parseMarkdown(src, line)
	var buf bytes.Buffer
	if err := md.render(r, &buf); err != nil {
		return "", err
	}
	return template.HTML(buf.String()), nil
}

// parsedMarkdown is Markdown source parsed for markdown: the notes on
// what was flattened or guarded (HTML), the goldmark document and the
// source it refers to.
type parsedMarkdown struct {
	notes []byte
	doc   gast.Node
	src   []byte
}

// parseMarkdown parses src as markdown does, without rendering it.
func (r *renderer) parseMarkdown(src []byte, line int) parsedMarkdown {
	var notes bytes.Buffer
	shift := max(line, 1) - 1
	flat, n, first := flattenNesting(src)
	if n > 0 {
		fmt.Fprintf(&notes, "<p class=\"note\">%s from line %d nest too deep for the Markdown renderer, whose time grows faster than the input with the depth: they are shown with at most %d columns of indentation and %d nested lists or block quotes opened on one line; their text is all there.</p>\n",
			number.Plural(n, "line"), first+shift, maxIndent, maxNesting)
	}
	flat, guarded := guardInline(r.blocks, flat, &r.cellsLeft)
	for i := range guarded {
		guarded[i].first += shift
		guarded[i].last += shift
	}
	if len(guarded) > 0 {
		notes.WriteString(guardNote(guarded))
	}
	return parsedMarkdown{notes.Bytes(), r.md.Parser().Parse(text.NewReader(flat)), flat}
}

// render writes the notes and the HTML of the document to w.
func (md parsedMarkdown) render(r *renderer, w io.Writer) error {
	if _, err := w.Write(md.notes); err != nil {
		return err
	}
	return r.md.Renderer().Render(w, md.src, md.doc)
}

// maxNesting is the most list items and block quotes one line may open
// (`- - - x`, `> > x`) when it is given to goldmark, whose parser rescans
// the rest of the line for every container it opens there, which is
// quadratic in the line's length.
const maxNesting = 32

// maxIndent is the most indentation (in columns) a line outside fenced
// blocks keeps when it is given to goldmark. Each line costs goldmark the
// number of containers open times the indentation it measures for each, so
// a list nested by indentation alone costs more than its size times its
// depth.
const maxIndent = 4 * maxNesting

// flattenNesting returns src as plangram gives it to goldmark: outside
// fenced blocks, a line indented more than maxIndent columns keeps
// maxIndent columns of spaces, and a line opening more than maxNesting
// containers keeps its first maxNesting markers; the text of every line is
// kept. It returns how many lines it changed and the first of them
// (1-based); src itself when none.
func flattenNesting(src []byte) (out []byte, changed, first int) {
	out = src
	line, end := 0, 0 // the line l is, and where it ends
	var fence lexer.MdFenceLine
	inFence := false
	pad := []byte(strings.Repeat(" ", maxIndent))
	for l := range bytes.Lines(src) {
		start := end
		line, end = line+1, end+len(l)
		var indent, cut, text int
		switch {
		case inFence:
			inFence = !fence.Closes(string(l))
		default:
			if f, ok := lexer.ParseMdFence(string(l)); ok {
				fence, inFence = f, true
				if !f.Item {
					break
				}
				// A fence on a list item's marker line: its markers
				// and indentation are flattened like any line's.
			}
			if w, i := lexer.Indent(l); w > maxIndent {
				indent = i
			}
			cut, text = deepMarkers(l[indent:])
		}
		if indent == 0 && cut == 0 {
			if changed > 0 {
				out = append(out, l...)
			}
			continue
		}
		if changed == 0 {
			out = append(make([]byte, 0, len(src)), src[:start]...)
			first = line
		}
		changed++
		if indent > 0 {
			out = append(out, pad...)
			l = l[indent:]
		}
		if cut > 0 {
			out = append(out, l[:cut]...)
			l = l[text:]
		}
		out = append(out, l...)
	}
	return out, changed, first
}

// deepMarkers reads the container markers at the start of line: `>`, a
// bullet (`-`, `*`, `+`) or an ordered marker (`1.`, `1)`) followed by a
// space or tab. When there are more than maxNesting, it returns the offset
// of the first marker past them and of the text after the last one; else
// 0, 0.
func deepMarkers(line []byte) (cut, text int) {
	i, n := 0, 0
	for {
		i = len(line) - len(bytes.TrimLeft(line[i:], " \t"))
		at := i
		switch m := lexer.MarkerLen(line[i:]); {
		case i < len(line) && line[i] == '>':
			i++
		case m > 0:
			i += m
		case n > maxNesting:
			return cut, at
		default:
			return 0, 0
		}
		n++
		if n == maxNesting+1 {
			cut = at
		}
	}
}

// mdNodes is the goldmark NodeRenderer for the nodes plangram renders itself.
type mdNodes struct{ r *renderer }

// RegisterFuncs implements goldmark's renderer.NodeRenderer.
func (m *mdNodes) RegisterFuncs(reg grender.NodeRendererFuncRegisterer) {
	reg.Register(gast.KindLink, m.link)
	reg.Register(gast.KindAutoLink, m.autoLink)
	reg.Register(gast.KindImage, m.image)
	reg.Register(gast.KindRawHTML, m.rawHTML)
	reg.Register(gast.KindHTMLBlock, m.htmlBlock)
	reg.Register(gast.KindFencedCodeBlock, m.codeBlock)
	reg.Register(gast.KindCodeBlock, m.codeBlock)
}

const linkRel = ` rel="nofollow noopener noreferrer"`

// linkHref returns the href for a link destination and whether it is
// allowed. The check applies to the destination as written, with its
// entities decoded, and to the final href goldmark's escaping produces (which
// resolves references such as &#106;avascript&#58;): all three must pass.
func linkHref(dest string) (string, bool) {
	href := string(util.URLEscape([]byte(dest), true))
	return href, safeURL(dest) && safeURL(html.UnescapeString(dest)) && safeURL(href)
}

// openLink writes the start of a link to dest, or of a marked span when dest
// is refused, and returns the closing tag.
func openLink(w util.BufWriter, dest, title, class string) string {
	href, ok := linkHref(dest)
	if !ok {
		_, _ = w.WriteString(`<span class="link-removed" title="link removed: only http, https, mailto and relative links are kept">`)
		return `</span>`
	}
	_, _ = w.WriteString(`<a href="` + esc(href) + `"` + linkRel)
	if class != "" {
		_, _ = w.WriteString(` class="` + class + `"`)
	}
	if title != "" {
		_, _ = w.WriteString(` title="` + esc(title) + `"`)
	}
	_ = w.WriteByte('>')
	return `</a>`
}

// closeLink writes the closing tag openLink chose for dest.
func closeLink(w util.BufWriter, dest string) {
	if _, ok := linkHref(dest); ok {
		_, _ = w.WriteString(`</a>`)
	} else {
		_, _ = w.WriteString(`</span>`)
	}
}

func (m *mdNodes) link(w util.BufWriter, src []byte, node gast.Node, entering bool) (gast.WalkStatus, error) {
	if n := node.(*gast.Link); entering {
		openLink(w, string(n.Destination), string(n.Title), "")
	} else {
		closeLink(w, string(n.Destination))
	}
	return gast.WalkContinue, nil
}

func (m *mdNodes) autoLink(w util.BufWriter, src []byte, node gast.Node, entering bool) (gast.WalkStatus, error) {
	if !entering {
		return gast.WalkContinue, nil
	}
	n := node.(*gast.AutoLink)
	url := string(n.URL(src))
	if n.AutoLinkType == gast.AutoLinkEmail && !strings.HasPrefix(strings.ToLower(url), "mailto:") {
		url = "mailto:" + url
	}
	closeTag := openLink(w, url, "", "")
	_, _ = w.WriteString(esc(string(n.Label(src))))
	_, _ = w.WriteString(closeTag)
	return gast.WalkContinue, nil
}

func (m *mdNodes) image(w util.BufWriter, src []byte, node gast.Node, entering bool) (gast.WalkStatus, error) {
	if n := node.(*gast.Image); entering {
		openLink(w, string(n.Destination), "image, not loaded: "+string(n.Destination), "image")
		_, _ = w.WriteString(`<span class="image-mark">image</span> `)
	} else {
		closeLink(w, string(n.Destination))
	}
	return gast.WalkContinue, nil
}

func (m *mdNodes) rawHTML(w util.BufWriter, src []byte, node gast.Node, entering bool) (gast.WalkStatus, error) {
	if !entering {
		return gast.WalkSkipChildren, nil
	}
	_, _ = w.WriteString(`<code class="raw-html" title="raw HTML, shown as text">` + string(codeText(string(node.(*gast.RawHTML).Segments.Value(src)))) + `</code>`)
	return gast.WalkSkipChildren, nil
}

func (m *mdNodes) htmlBlock(w util.BufWriter, src []byte, node gast.Node, entering bool) (gast.WalkStatus, error) {
	if !entering {
		return gast.WalkSkipChildren, nil
	}
	n := node.(*gast.HTMLBlock)
	text := string(n.Lines().Value(src))
	if n.HasClosure() {
		text += string(n.ClosureLine.Value(src))
	}
	_, _ = w.WriteString(`<pre class="raw-html" title="raw HTML, shown as text">` + strings.TrimSuffix(string(codeText(text)), "\n") + "</pre>\n")
	return gast.WalkSkipChildren, nil
}

func (m *mdNodes) codeBlock(w util.BufWriter, src []byte, node gast.Node, entering bool) (gast.WalkStatus, error) {
	if !entering {
		return gast.WalkSkipChildren, nil
	}
	var info string
	if n, ok := node.(*gast.FencedCodeBlock); ok && n.Info != nil {
		info = string(n.Info.Segment.Value(src))
	}
	body := strings.TrimSuffix(string(node.Lines().Value(src)), "\n")
	_, _ = w.WriteString(`<div class="md-code">`)
	if info != "" {
		_, _ = w.WriteString(`<div class="md-code-info">` + esc(info) + `</div>`)
	}
	_, _ = w.WriteString(string(m.r.code(body, codeOpts{info: info})))
	_, _ = w.WriteString("</div>\n")
	return gast.WalkSkipChildren, nil
}

// headingText returns the text of the first level-1 heading of doc, parsed
// from src; "" when there is none.
func headingText(doc gast.Node, src []byte) string {
	var title string
	_ = gast.Walk(doc, func(n gast.Node, entering bool) (gast.WalkStatus, error) {
		if h, ok := n.(*gast.Heading); ok && entering && h.Level == 1 {
			title = strings.TrimSpace(plainText(h, src))
			return gast.WalkStop, nil
		}
		return gast.WalkContinue, nil
	})
	return title
}

// plainText concatenates the text under n.
func plainText(n gast.Node, src []byte) string {
	var b strings.Builder
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch t := c.(type) {
		case *gast.Text:
			b.Write(util.UnescapePunctuations(t.Segment.Value(src)))
			if t.SoftLineBreak() {
				b.WriteByte(' ')
			}
		case *gast.String:
			b.Write(t.Value)
		default:
			b.WriteString(plainText(c, src))
		}
	}
	return b.String()
}

// HasActBlocks reports whether a Markdown reader sees at least one fenced
// block whose info string is `act` in src: the mark of a fenced-acts plan.
// A document that only shows acts inside other code blocks (a page about
// acts, such as docs/acts.md) has none and renders as a plain page.
func HasActBlocks(src []byte) bool {
	src, _, _ = flattenNesting(src) // linear time, as for rendering
	// Only blocks matter here: goldmark's block parsing is linear once the
	// nesting is flattened, and the inline Markdown is not read at all.
	doc := newBlockParser(false).Parse(text.NewReader(src))
	found := false
	_ = gast.Walk(doc, func(n gast.Node, entering bool) (gast.WalkStatus, error) {
		if f, ok := n.(*gast.FencedCodeBlock); ok && entering && f.Info != nil {
			if strings.EqualFold(strings.TrimSpace(string(f.Info.Segment.Value(src))), "act") {
				found = true
				return gast.WalkStop, nil
			}
		}
		return gast.WalkContinue, nil
	})
	return found
}
