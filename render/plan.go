package render

import (
	"sort"
	"strings"

	"github.com/plangram/plangram/ast"
)

// hiddenNodes returns the prose and blocks a page does not render in place
// because it shows them elsewhere: whitespace-only prose always, and for a
// structured Markdown plan the parts its header and cards already show (the
// title heading, the metadata list, the Rationale and Memos sections, the
// section headings, each action's heading, metadata list and FIND/REPLACE
// headings, and the prose a Markdown-valued parameter holds). Diagnostics
// pointing into hidden nodes are shown at the enclosing card, else at the top.
func (r *renderer) hiddenNodes(doc *ast.Document) map[any]bool {
	hidden := map[any]bool{}
	for _, p := range doc.Prose {
		if strings.TrimSpace(p.Text) == "" {
			hidden[p] = true
		}
	}
	if doc.Dialect != "plan" {
		return hidden
	}
	acts := treeLayout(doc, nil).acts // the prose inside an action is its card's
	titleSeen, sectionSeen, metaSeen := false, false, false
	prose := append([]*ast.Prose(nil), doc.Prose...)
	sort.SliceStable(prose, func(i, j int) bool { return prose[i].Span.Start.Offset < prose[j].Span.Start.Offset })
	// An action with a Markdown parameter shows it rendered on its card:
	// the prose inside it is that parameter's.
	markdownActs := map[int]bool{}
	for i, a := range doc.Actions {
		if r.schema == nil {
			break
		}
		if def := r.schema.Lookup(a.Name); def != nil {
			for _, p := range def.Params {
				_, ok := a.Params.Get(p.Name)
				markdownActs[i] = markdownActs[i] || ok && p.From == "markdown"
			}
		}
	}
	for _, p := range prose {
		if k, ok := find(acts, p.Span.Start.Offset); ok {
			hidden[p] = hidden[p] || p.Kind == "heading" || p.Kind == "list" || markdownActs[k.i]
			continue
		}
		if p.Kind != "heading" {
			if p.Kind == "list" && !sectionSeen && !metaSeen && len(doc.Metadata) > 0 {
				hidden[p], metaSeen = true, true
			}
			continue
		}
		level, text := headingLevel(p.Text)
		switch {
		case level == 1 && !titleSeen && doc.Title != "":
			hidden[p], titleSeen = true, true
		case level == 2:
			sectionSeen = true
			t := strings.ToLower(text)
			if strings.Contains(t, "rationale") && doc.Rationale != nil ||
				strings.Contains(t, "memos") && len(doc.Memos) > 0 ||
				strings.Contains(t, "action plan") || strings.Contains(t, "message") {
				hidden[p] = true
			}
		}
	}
	for _, b := range doc.Blocks {
		l := strings.ToLower(b.Label)
		if strings.Contains(l, "rationale") && doc.Rationale != nil || strings.Contains(l, "memos") && len(doc.Memos) > 0 {
			hidden[b] = true
		}
	}
	return hidden
}

// headingLevel returns the level of an ATX heading line (`## Text`, also
// without the space) and its text.
func headingLevel(line string) (int, string) {
	t := strings.TrimLeft(line, " \t")
	rest := strings.TrimLeft(t, "#")
	return len(t) - len(rest), strings.Trim(rest, " \t\r\n#`")
}
