package grammar

import "strings"

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
func DetectEditFormat(src []byte) string {
	ls := splitSrcLines(string(src))
	for i, l := range ls {
		t := l.text
		switch {
		case strings.TrimSpace(t) == apBegin:
			return DialectApplyPatch
		case strings.HasPrefix(t, "diff --git "),
			strings.HasPrefix(t, "--- ") && i+2 < len(ls) && strings.HasPrefix(ls[i+1].text, "+++ ") && strings.HasPrefix(ls[i+2].text, "@@"):
			return DialectUdiff
		case classifySR(t) == srHead:
			return DialectSearchReplace
		}
	}
	return ""
}
