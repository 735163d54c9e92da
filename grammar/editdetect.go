package grammar

import (
	"fmt"
	"strings"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/internal/view"
)

// DetectEditFormat returns the edit-format dialect of src, or "" when it
// holds none. The evidence, whichever comes first in the document decides:
//
//   - apply-patch: a line `*** Begin Patch` (surrounding white space
//     allowed);
//   - search-replace: a `<<<<<<< SEARCH` marker line (5 to 9 '<');
//   - udiff: a `diff --git ` line, or a `--- ` line directly followed by a
//     `+++ ` line and an `@@` line.
//
// One pass over the lines, holding none of them but the two before the
// current one, and no copy of src: Detect calls it for every document
// that is not a plan and holds no act block, ordinary Markdown included.
func DetectEditFormat(src []byte) string {
	text := view.String(src)
	var p2, p1 string // the two lines before t
	for n, off := 0, 0; off < len(text); n++ {
		end := lineEndAt(text, off)
		t := strings.TrimSuffix(strings.TrimSuffix(text[off:end], "\n"), "\r")
		off = end
		// A `--- ` line two lines back, with `+++ ` and then this `@@`
		// line after it: no other evidence can stand on those two lines,
		// so the udiff it starts is the first evidence.
		if n >= 2 && strings.HasPrefix(p2, "--- ") && strings.HasPrefix(p1, "+++ ") && strings.HasPrefix(t, "@@") {
			return DialectUdiff
		}
		switch {
		case strings.TrimSpace(t) == apBegin:
			return DialectApplyPatch
		case strings.HasPrefix(t, "diff --git "):
			return DialectUdiff
		case classifySR(t) == srHead:
			return DialectSearchReplace
		}
		p2, p1 = p1, t
	}
	return ""
}

// CodeLooksLikeEdit: under `--dialect auto`, a document with no plan (the
// no-plan note) whose text looks like an edit no edit format reads: a
// unified-diff hunk with no `---`/`+++` file header before it, or
// apply-patch file lines with no `*** Begin Patch` envelope. Nothing in it
// would be applied, so it is a warning rather than a silent note
// (docs/check.md).
const CodeLooksLikeEdit = "looks-like-edit"

// looksLikeEdit returns the looks-like-edit warning of a document read as
// acts that holds no plan, or nil: at the first line that looks like an
// edit — a hunk header (`@@ -1,2 +1,2 @@`, or a bare `@@` line followed by
// a `+` or `-` line), or an apply-patch `*** Update File:`, `*** Add
// File:` or `*** Delete File:` line — with the number of such places (a
// run of hunks counts once). One warning a document, so what it prints
// stays bounded.
func looksLikeEdit(src []byte) *ast.Diagnostic {
	text := view.String(src)
	var first ast.Span
	what := ""
	n := 0
	inHunks := false
	lines := ast.NewLines(src)
	for off := 0; off < len(text); {
		end := lineEndAt(text, off)
		t := strings.TrimRight(text[off:end], "\r\n")
		_, _, numbered := hunkHeader(t)
		hunk := numbered || strings.TrimSpace(t) == "@@" && end < len(text) && strings.ContainsAny(text[end:end+1], "+-")
		patch := strings.HasPrefix(t, "*** Update File: ") || strings.HasPrefix(t, "*** Add File: ") || strings.HasPrefix(t, "*** Delete File: ")
		switch {
		case hunk && !inHunks, patch:
			if n == 0 {
				first = lines.Span(off, off+len(t))
				what = "a unified-diff hunk with no `--- a/PATH` and `+++ b/PATH` file header before it"
				if patch {
					what = "apply-patch file lines with no `*** Begin Patch` line before them"
				}
			}
			n++
			inHunks = true
		case inHunks && (t == "" || strings.ContainsAny(t[:1], " +-\\@")):
		default:
			inHunks = false
		}
		off = end
	}
	if n == 0 {
		return nil
	}
	more := ""
	if n > 1 {
		more = fmt.Sprintf(" (and %d more places like it)", n-1)
	}
	return &ast.Diagnostic{Severity: ast.Warning, Code: CodeLooksLikeEdit, Span: first,
		Message: fmt.Sprintf("this looks like an edit but no edit format reads it: %s%s; nothing in this document would be applied", what, more)}
}
