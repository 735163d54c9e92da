package render

import (
	_ "embed"
	"html/template"
	"sync"

	"github.com/plangram/plangram/internal/number"
)

// pageTemplate is parsed once, when a page is first rendered (not at
// start-up: every command of the plangram binary would pay for it); a
// parsed html/template is safe for concurrent use and never modified
// after parsing.
var pageTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("page").Funcs(template.FuncMap{
		"plural": number.Plural[int],
	}).Parse(pageHTML))
})

// pageHTML is the page in parts that a writer executes in turn, so that
// a page is written one item at a time (writePage): "head" (the header,
// the summary, metadata, rationale, memos and the diagnostics of the
// document), "item" once per top-level item (prose, a stray block), an
// action card in parts ("item-action-head", each "part", "steps" against
// a workspace, "action-foot") and "foot". Its Content-Security-Policy
// forbids everything but the page's own inline styles: no scripts, no
// fetches of any kind (images, fonts, frames), no forms, no <base>. The
// steps' styles are in the head only for a page rendered against a
// workspace.
//
//go:embed page.html
var pageHTML string
