package grammar

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// detectEditFormatRef is DetectEditFormat as it was written first, over
// a slice of every line: the reference of TestDetectEditFormatSameAsRef.
func detectEditFormatRef(src []byte) string {
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

// TestDetectEditFormatSameAsRef: the one-pass DetectEditFormat answers as
// the reference over documents made of the lines that decide it.
func TestDetectEditFormatSameAsRef(t *testing.T) {
	pieces := []string{"--- a\n", "+++ b\n", "@@ -1 +1 @@\n", "@@", "diff --git a b\n", "*** Begin Patch\n", "  *** Begin Patch \r\n",
		"<<<<<<< SEARCH\n", "=======\n", ">>>>>>> REPLACE\n", "text\n", "\n", "\r\n", "--- \r\n", "+++ \r\n", "--- a", "x"}
	r := rand.New(rand.NewPCG(5, 6))
	for range 20000 {
		var b strings.Builder
		for range r.IntN(8) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		src := []byte(b.String())
		if got, want := DetectEditFormat(src), detectEditFormatRef(src); got != want {
			t.Fatalf("%q: %q, want %q", src, got, want)
		}
	}
}

// splitSrcLines returns every line of text, in order, as the edit
// parsers read them before they read lines from the index (editBase.line); the last line may
// have no line ending. Empty input has no lines.
func splitSrcLines(text string) []srcLine {
	lines := make([]srcLine, 0, strings.Count(text, "\n")+1)
	for off := 0; off < len(text); {
		i := strings.IndexByte(text[off:], '\n')
		end := len(text)
		if i >= 0 {
			end = off + i + 1
		}
		t := text[off:end]
		t = strings.TrimSuffix(t, "\n")
		t = strings.TrimSuffix(t, "\r")
		lines = append(lines, srcLine{start: off, end: end, text: t})
		off = end
	}
	return lines
}
