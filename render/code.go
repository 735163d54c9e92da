package render

import (
	"fmt"
	"html/template"
	"path"
	"strings"

	"github.com/alecthomas/chroma/v2"
)

// Highlighting limits: a block over maxHighlightBlock, and every block
// once the page's budget (hlBudget) is spent, is shown without colours,
// with hlNote (the bytes are the same either way). The budget is counted
// in bytes, lexer tokens and bytes scanned, never timed, so that which
// blocks of a page have colours depends on the page only: the same page
// renders to the same bytes on any machine, under any load.
const (
	maxHighlightBlock  = 256 << 10
	maxHighlightDoc    = 1 << 20
	maxHighlightTokens = 100_000
	maxHighlightScan   = 2 << 20
)

// hlBudget is what is left of a page's highlighting budget. scan is
// charged, for every token, the bytes from the token's start to the end
// of its line: what a lexer pattern that stops at a line's end may read
// to find it. Ordinary code costs tens of bytes a token; a very long line
// on which a lexer's patterns scan to the line's end for every token (a
// line of "(" in a Makefile, of "<" in Perl) costs its length a token, and
// so spends the budget in about the time ordinary code spends its tokens.
type hlBudget struct{ bytes, tokens, scan int }

// hlNote is shown above a block the budget leaves without colours.
const hlNote = `<p class="note">Shown without colours: a page highlights at most 256 KiB a block, 1 MiB of code, 100,000 tokens and 2 MiB of lexer scanning.</p>`

// piece is a run of text with a highlighting class ("" for none).
type piece struct{ class, text string }

// codeOpts says how to show one block of code.
type codeOpts struct {
	info  string         // the block's info string (language hint)
	path  string         // a file path the block belongs to (language hint)
	lang  string         // a language to use when info and path give none
	marks map[int]string // 0-based line -> extra class ("del", "ins")
}

// code renders content as a <pre> of numbered lines, byte for byte: the
// element's text is exactly content (see writeCode for the exceptions).
func (r *renderer) code(content string, o codeOpts) template.HTML {
	pieces, spent := r.highlight(content, o)
	var b strings.Builder
	b.Grow(len(content)*2 + 64)
	if spent {
		b.WriteString(hlNote)
	}
	b.WriteString(`<pre class="code"><code>`)
	line := 0
	open := func() {
		b.WriteString(`<span class="line`)
		if m := o.marks[line]; m != "" {
			b.WriteString(" " + m)
		}
		b.WriteString(`">`)
	}
	open()
	for _, p := range pieces {
		text := p.text
		for text != "" {
			part, rest, nl := strings.Cut(text, "\n")
			if part != "" {
				if p.class != "" {
					fmt.Fprintf(&b, `<span class="%s">`, p.class)
				}
				writeCode(&b, part)
				if p.class != "" {
					b.WriteString(`</span>`)
				}
			}
			if !nl {
				break
			}
			b.WriteString("\n</span>")
			line++
			open()
			text = rest
		}
	}
	b.WriteString(`</span></code></pre>`)
	return template.HTML(b.String())
}

// highlight splits content into classed pieces with chroma, or returns it
// as one plain piece when no lexer fits or the lexer's tokens would not
// reproduce content exactly, and also, with spent set, when the page's
// budget does not cover it. The pieces are slices of content, and each
// token is checked against content as it comes, so the work is linear in
// the tokens: the lexer is not wrapped in chroma.Coalesce, which joins a
// run of same-typed tokens by repeated string concatenation before
// handing any over (quadratic in a long line of one token type, before
// the budget is looked at).
func (r *renderer) highlight(content string, o codeOpts) (pieces []piece, spent bool) {
	plain := []piece{{"", content}}
	if r.opts.NoHighlight || len(content) == 0 {
		return plain, false
	}
	lx := r.pickLexer(o)
	if lx == nil {
		return plain, false
	}
	if len(content) > maxHighlightBlock || len(content) > r.hl.bytes || r.hl.tokens < 0 || r.hl.scan < 0 {
		return plain, true
	}
	r.hl.bytes -= len(content)
	defer func() {
		// chroma reports lexer failures by panicking; the bytes are shown
		// without colours instead.
		if recover() != nil {
			pieces, spent = plain, false
		}
	}()
	it, err := lx.Tokenise(&chroma.TokeniseOptions{State: "root"}, content)
	if err != nil {
		return plain, false
	}
	at := 0   // the bytes of content the tokens so far reproduce
	eol := -1 // the end of the line at holds
	for tok := it(); tok != chroma.EOF; tok = it() {
		if at > eol {
			if eol = strings.IndexByte(content[at:], '\n'); eol < 0 {
				eol = len(content)
			} else {
				eol += at
			}
		}
		// A block whose tokens overrun the budget is shown without colours
		// whole, as are the blocks after it.
		r.hl.tokens--
		if r.hl.scan -= eol - at + 1; r.hl.tokens < 0 || r.hl.scan < 0 {
			return plain, true
		}
		v := tok.Value
		if !strings.HasPrefix(content[at:], v) {
			// The lexer may end the text with a newline content lacks.
			rest := content[at:]
			if v != rest+"\n" {
				return plain, false // e.g. invalid UTF-8, which chroma replaces
			}
			v = rest
		}
		if v == "" {
			continue
		}
		cls := tokenClass(tok.Type)
		if n := len(pieces); n > 0 && pieces[n-1].class == cls {
			last := &pieces[n-1]
			last.text = content[at-len(last.text) : at+len(v)]
		} else {
			pieces = append(pieces, piece{cls, content[at : at+len(v)]})
		}
		at += len(v)
	}
	if at != len(content) {
		return plain, false
	}
	return pieces, false
}

// pickLexer chooses a lexer from the info string's first word (`python.old`
// -> python), else from the file path, else from the fallback language;
// nil when none fits. The languages are chroma's (docs/render.md, "Syntax
// colours"); the others are shown without colours.
func (r *renderer) pickLexer(o codeOpts) chroma.Lexer {
	x := chromaLexers()
	if f := strings.Fields(o.info); len(f) > 0 {
		name := strings.ToLower(f[0])
		for _, cut := range []string{".", "-old", "-new", "_old", "_new"} {
			if i := strings.Index(name, cut); i > 0 {
				name = name[:i]
			}
		}
		switch name {
		case "text", "txt", "plain", "plaintext", "act":
			return nil
		}
		if lx := x.get(name); lx != nil {
			return lx
		}
	}
	if o.path != "" {
		if lx := x.match(path.Base(strings.ReplaceAll(o.path, `\`, "/"))); lx != nil {
			return lx
		}
	}
	if o.lang != "" {
		return x.get(o.lang)
	}
	return nil
}

// tokenClass maps a chroma token type to one of the page's few colour
// classes ("" for plain text).
func tokenClass(t chroma.TokenType) string {
	switch {
	case t == chroma.GenericDeleted:
		return "t-del"
	case t == chroma.GenericInserted:
		return "t-ins"
	case t == chroma.GenericHeading || t == chroma.GenericSubheading:
		return "t-head"
	case t.InSubCategory(chroma.CommentPreproc):
		return "t-pre"
	case t.InCategory(chroma.Comment):
		return "t-com"
	case t.InCategory(chroma.Keyword):
		return "t-kw"
	case t.InSubCategory(chroma.LiteralString):
		return "t-str"
	case t.InSubCategory(chroma.LiteralNumber):
		return "t-num"
	case t.InSubCategory(chroma.NameFunction), t == chroma.NameClass:
		return "t-fn"
	case t.InSubCategory(chroma.NameBuiltin), t == chroma.NameTag:
		return "t-bi"
	case t == chroma.NameAttribute, t == chroma.NameDecorator, t.InSubCategory(chroma.NameVariable):
		return "t-attr"
	case t.InCategory(chroma.Operator):
		return "t-op"
	}
	return ""
}
