package apply

import (
	"fmt"
	"slices"
	"strings"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/internal/number"
	"github.com/plangram/plangram/workspace"
)

// CodeNothingToApply is the error of an apply whose inputs have no action
// that changes a file: prose only, an empty input, fenced blocks none of
// which is an action, a diff without its file header, or only commands
// and reads. Applying such a reply is not a success: nothing would be
// written.
const CodeNothingToApply = "nothing-to-apply"

// ErrNothingToApply is the error Apply returns when no input has an action
// that changes a file (one CodeNothingToApply diagnostic per input says
// what it holds instead). It wraps ErrRefused: nothing was written.
var ErrNothingToApply = fmt.Errorf("nothing to apply: %w", ErrRefused)

// settle decides what the tallies of the documents' actions make of the
// apply, before the checks' errors are looked at: with no action that
// changes a file, it adds a CodeNothingToApply error to each document
// (docOf(i) is document i, parsed whole, nil for none) and returns
// ErrNothingToApply; with every such action already applied, it sets
// res.AlreadyApplied (nothing is changed, and that is a success); with
// some of them already applied and others not, it makes their
// already-applied warnings errors, so the plan is refused (a plan applied
// in part cannot be told from a plan applied before and changed since).
func settle(res *Result, tallies []workspace.Tally, docOf func(i int) *ast.Document) error {
	total, applied := 0, 0
	for _, t := range tallies {
		total += t.Changing
		applied += t.AlreadyApplied
	}
	switch {
	case total == 0:
		for i := range res.Diagnostics {
			if doc := docOf(i); doc != nil {
				var t workspace.Tally
				if i < len(tallies) {
					t = tallies[i]
				}
				res.Diagnostics[i] = append(res.Diagnostics[i], nothingToApply(doc, t))
			}
		}
		return ErrNothingToApply
	case applied == total:
		res.AlreadyApplied = true
	case applied > 0:
		for _, ds := range res.Diagnostics {
			for j, d := range ds {
				if d.Code == workspace.CodeAlreadyApplied && d.Severity == ast.Warning {
					e := *d
					e.Severity = ast.Error
					e.Message += fmt.Sprintf("; apply refuses a plan that is applied in part (%d of its %d actions that change files are already applied)", applied, total)
					ds[j] = &e
				}
			}
		}
	}
	return nil
}

// nothingToApply is the CodeNothingToApply error of doc, whose actions
// t counts: it names what the document holds instead of a file change,
// at the block that looks like an edit but is not one, else at its start.
func nothingToApply(doc *ast.Document, t workspace.Tally) *ast.Diagnostic {
	span := ast.Span{Start: doc.Span.Start, End: doc.Span.Start}
	what := "only prose, no action"
	var parts []string
	if t.Commands > 0 {
		parts = append(parts, number.Plural(t.Commands, "command")+" (apply never runs one)")
	}
	if t.Reads > 0 {
		parts = append(parts, number.Plural(t.Reads, "read"))
	}
	if t.Others > 0 {
		parts = append(parts, number.Plural(t.Others, "other action"))
	}
	blocks := len(doc.Blocks)
	prose := slices.ContainsFunc(doc.Prose, func(p *ast.Prose) bool { return strings.TrimSpace(p.Text) != "" })
	var look string
	var at ast.Span
	for _, b := range doc.Blocks {
		if l := lookalike(b.Info, b.Content); l != "" {
			look, at = "the fenced block here "+l, b.Span
			break
		}
	}
	if look == "" {
		for _, p := range doc.Prose {
			if l := lookalike("", p.Text); l != "" {
				look, at = "the text here "+l, p.Span
				break
			}
		}
	}
	switch {
	case len(parts) > 0:
		what = "no action changes a file: the plan has " + strings.Join(parts, ", ")
	case look != "":
		what = look
		span = ast.Span{Start: at.Start, End: at.Start}
		if blocks > 1 {
			what = fmt.Sprintf("%d fenced blocks, none an action; %s", blocks, look)
		}
	case blocks > 0:
		what = fmt.Sprintf("%s, none an action", number.Plural(blocks, "fenced block"))
		if prose {
			what += ", and prose"
		}
	case !prose && len(doc.Actions) == 0:
		what = "the input is empty"
	}
	return &ast.Diagnostic{Severity: ast.Error, Code: CodeNothingToApply, Span: span,
		Message: "nothing to apply: " + what + "; apply changes files only by actions that write, edit, delete or move them"}
}

// lookalike says what an edit format a text (a block's content, its info
// string info, or prose) looks like without being one: a diff's hunks
// with no `---`/`+++` file header, or a SEARCH/REPLACE block with no file
// path. It returns "" for anything else.
func lookalike(info, text string) string {
	hunk, header, search := false, false, false
	for l := range strings.Lines(text) {
		switch {
		case strings.HasPrefix(l, "@@ ") || strings.TrimRight(l, "\r\n") == "@@":
			hunk = true
		case strings.HasPrefix(l, "+++ ") || strings.HasPrefix(l, "*** Update File:") || strings.HasPrefix(l, "*** Add File:"):
			header = true
		case strings.HasPrefix(strings.TrimSpace(l), "<<<<<<< SEARCH"):
			search = true
		}
	}
	switch f := strings.Fields(info); {
	case search:
		return "looks like a SEARCH/REPLACE edit but names no file (the path goes alone on the line before the opening fence)"
	case hunk && !header, !header && len(f) > 0 && (f[0] == "diff" || f[0] == "patch") && strings.Contains(text, "\n+"):
		return "looks like a diff but has no file header (`--- a/path` and `+++ b/path` lines before its `@@` hunks)"
	}
	return ""
}
