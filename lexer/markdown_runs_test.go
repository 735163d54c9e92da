package lexer

import (
	"fmt"
	"strings"
	"testing"

	plex "github.com/alecthomas/participle/v2/lexer"
)

// wantRuns groups the Markdown lexer's tokens of src by RunScanner's rule
// (a run of items with the blank lines between them, not after the last,
// is one list; a run of lines one paragraph) and prints them.
func wantRuns(src string) string {
	type tk struct {
		typ        plex.TokenType
		start, end int
	}
	var ts []tk
	for off := 0; off < len(src); {
		typ, end := ScanMarkdown(src, off)
		ts = append(ts, tk{typ, off, end})
		off = end
	}
	var b strings.Builder
	for i := 0; i < len(ts); i++ {
		t := ts[i]
		start, end, items := t.start, t.end, ""
		switch t.typ {
		case MdItem:
			items = fmt.Sprintf("{%d,%d}", t.start, t.end)
			for j := i + 1; j < len(ts); j++ {
				if ts[j].typ == MdItem {
					items += fmt.Sprintf("{%d,%d}", ts[j].start, ts[j].end)
					end, i = ts[j].end, j
				} else if ts[j].typ != MdBlank {
					break
				}
			}
		case MdLine:
			for i+1 < len(ts) && ts[i+1].typ == MdLine {
				i++
				end = ts[i].end
			}
		}
		fmt.Fprintf(&b, "%d[%d,%d)%s ", t.typ, start, end, items)
	}
	return b.String()
}

// gotRuns prints RunScanner's tokens of src, checking that they cover it.
func gotRuns(t testing.TB, src string) string {
	var b strings.Builder
	sc := NewRunScanner(src, 0)
	at := 0
	for i := 0; ; i++ {
		typ, start, end := sc.Next()
		if typ == EOF {
			if start != len(src) || end != len(src) || at != len(src) {
				t.Fatalf("EOF at [%d,%d) after %d of %d bytes", start, end, at, len(src))
			}
			return b.String()
		}
		if start != at || end <= start || i > len(src) {
			t.Fatalf("token %d [%d,%d) does not follow %d", i, start, end, at)
		}
		at = end
		items := ""
		if typ == MdItem {
			for _, it := range sc.Items() {
				items += fmt.Sprintf("{%d,%d}", it[0], it[1])
			}
		}
		fmt.Fprintf(&b, "%d[%d,%d)%s ", typ, start, end, items)
	}
}

func checkRuns(t testing.TB, src string) {
	t.Helper()
	if got, want := gotRuns(t, src), wantRuns(src); got != want {
		t.Fatalf("RunScanner on %q:\n%s\nwant (grouped tokens):\n%s", src, got, want)
	}
}

func TestRunScanner(t *testing.T) {
	for _, src := range append(mdSamples,
		"- a\n\n\n- b\n\n- c\n\n\ntext\nmore\n\n```\n- x\n```\n- d\n",
		"- a\n\n```\nx\n```\n",
		"- a\n\n## h\n- b\n",
		"- a\n- b\n\n",
		"text\n- a\ntext\n\n",
	) {
		checkRuns(t, src)
	}
}

// checkFenceEnds checks that each fence token ends where a line-by-line
// search for its closing line ends it (ScanMarkdown jumps between lines
// holding three fence characters).
func checkFenceEnds(t testing.TB, src string) {
	t.Helper()
	for _, tk := range fineTokens(src) {
		if tk.Type != "Fence" {
			continue
		}
		off := tk.Off
		first := LineEnd(src, off)
		f, _ := MdFenceAt(src, off)
		want := len(src)
		for p := first; p < len(src); p = LineEnd(src, p) {
			if f.Closes(src[p:LineEnd(src, p)]) {
				want = LineEnd(src, p)
				break
			}
		}
		if got := off + len(tk.Value); got != want {
			t.Fatalf("fence at %d of %q ends at %d, the line-by-line search at %d", off, src, got, want)
		}
	}
}

func TestFenceEnds(t *testing.T) {
	for _, src := range append(mdSamples,
		"```\na ``` b\n  ```\n",
		"~~~~\n~~~\nx~~~~\n ~~~~~\n",
		"```\n``` x\n````\n",
		"```\nno close ``` here\n",
	) {
		checkFenceEnds(t, src)
	}
}
