package grammar

import (
	"strings"

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
// Grammar.Detect calls it only for documents that are neither plans nor
// hold an act block, so acts and plan documents are detected as before.
//
// One pass over the lines, holding none of them but the two before the
// current one, and no copy of src: Detect calls it for every document
// that holds no act block, ordinary Markdown included.
func DetectEditFormat(src []byte) string {
	text := view.String(src)
	var p2, p1 string // the two lines before t
	for n, off := 0, 0; off < len(text); n++ {
		end := len(text)
		if i := strings.IndexByte(text[off:], '\n'); i >= 0 {
			end = off + i + 1
		}
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
