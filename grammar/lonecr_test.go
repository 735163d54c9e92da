package grammar

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/plangram/plangram/ast"
)

// loneCROffsets returns the offsets of the lone-cr errors of src parsed
// in dialect, checking that each spans exactly one CR byte with its
// line:col.
func loneCROffsets(t *testing.T, dialect, src string) []int {
	t.Helper()
	doc, err := Parse(context.Background(), "t.md", []byte(src), Options{Dialect: dialect})
	if err != nil {
		t.Fatal(err)
	}
	lines := ast.NewLines([]byte(src))
	var offs []int
	for _, d := range doc.Diagnostics {
		if d.Code != CodeLoneCR {
			continue
		}
		o := d.Span.Start.Offset
		if src[o] != '\r' || d.Span != lines.Span(o, o+1) || d.Severity != ast.Error {
			t.Errorf("%q: lone-cr diagnostic %+v does not span one CR", src, d)
		}
		offs = append(offs, o)
	}
	return offs
}

// TestLoneCRHidesLine pins the rule of docs/acts.md, "Lone CRs": a lone
// CR is an error exactly when the text on one side of it would be a
// structural line of the dialect, there, were the CR a line ending.
func TestLoneCRHidesLine(t *testing.T) {
	// hit marks the CR of the case's input to be reported: "\r" + the
	// text after it, found once in the input.
	type hit = string
	act := "```act\nrun_command make\n```\n"
	for _, c := range []struct {
		name, dialect, src string
		hits               []hit // the CRs reported: "\r" + what follows each
	}{
		// Acts: a CR in prose hides an opening act fence: the action is lost.
		{"prose hides act", "acts", "intro\n\n" + act + "more\r```act\rwrite_file b.txt\r```\r\nafter\n", []hit{"\r```act"}},
		{"crlf file, stray CR", "acts", "intro\r\n\r\n" + strings.ReplaceAll(act, "\n", "\r\n") + "x\r```act\r\nwrite_file a\r\n```\r\n", []hit{"\r```act"}},
		{"hides other-fence act", "acts", act + "note\r~~~act\nrun_command y\n~~~\n", []hit{"\r~~~act"}},
		{"hides list-marker act fence", "acts", act + "see\r1. ```act\nrun_command y\n```\n", []hit{"\r1. "}},
		{"hides closing fence, block runs on", "acts", act + "```\nhello\r```\n\ntext\n```act\nrun_command y\n```\n", []hit{"\r```\n\n"}},
		{"cuts an act fence's info", "acts", "x\n```act\rwrite_file a\n```\n", []hit{"\rwrite"}},
		{"first line: cr-line-endings only", "acts", "```act\rwrite_file a\r```\r", nil},
		{"cuts a closing fence", "acts", act + "```\nx\n```\ry\n```\n", []hit{"\ry"}},
		// Two lines' CRs where the second's offset in its line is the
		// first's in the input: both are reported (CI's
		// FuzzStream/a6f3d035c58ad5be; the second was taken for a repeat).
		{"second line's cr at the first's offset", "acts", "\n```\r`\nnd y\r```", []hit{"\r`\n", "\r```"}},
		// Acts: CRs that hide nothing.
		{"progress bar in content", "acts", act + "```\n10%\r20%\r100%\r\n```\n", nil},
		{"prose", "acts", "a\rb\n" + act, nil},
		{"cr cr lf after a closing fence", "acts", act + "```\nx\n```\r\r\n", nil},
		{"cr at the end", "acts", act + "```\nx\n```\r", nil},
		{"cr before a fence line", "acts", "\r```act\nrun_command x\n```\n", nil},
		{"shorter run in content", "acts", act + "````\nx\r```\n````\n", nil},
		{"act fence in content", "acts", act + "````\nx\r```act\n````\n", nil},
		// Plan: headings, fences, list items.
		{"plan hides heading", "plan", "# T\n\n## Action Plan\n\ntext\r### 2. EXECUTE\n", []hit{"\r###"}},
		{"plan hides closing fence", "plan", "# T\n\n```\necho hi\r```\nmore\n```\n", []hit{"\r```\nmore"}},
		{"plan hides longer closing fence", "plan", "# T\n\n```\necho hi\r````\nmore\n```\n", []hit{"\r````"}},
		{"plan hides opening fence", "plan", "# T\n\ntext\r```sh\nls\n```\n", []hit{"\r```sh"}},
		{"plan hides list item", "plan", "# T\n\n- a\r- b\n", []hit{"\r- b"}},
		{"plan hides item fence", "plan", "# T\n\n- a\r- ```sh\nls\n```\n", []hit{"\r- ```sh"}},
		{"plan second line's cr at the first's offset", "plan", "# T\n```\r`\nabcdefg\r```\n", []hit{"\r`\n", "\r```"}},
		{"plan heading text", "plan", "# T\n\n## Rationale\rwhy\n", nil},
		{"plan progress bar", "plan", "# T\n\n```\n1\r2\r# 3\r- 4\r\n```\n", nil},
		{"plan shorter run", "plan", "# T\n\n````\nx\r```\n````\n", nil},
		{"plan cr cr lf", "plan", "# T\r\r\n\r\n## Rationale\r\n", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			var want []int
			for _, h := range c.hits {
				if strings.Count(c.src, h) != 1 {
					t.Fatalf("mark %q is not unique in %q", h, c.src)
				}
				want = append(want, strings.Index(c.src, h))
			}
			if got := loneCROffsets(t, c.dialect, c.src); !slices.Equal(got, want) {
				t.Errorf("%q: lone-cr at %v, want %v", c.src, got, want)
			}
		})
	}
}

// TestLoneCRCapActs: the acts dialect lists the first MaxPerCode lone-cr
// errors and sums up the rest in one, at the first one left out, as the
// plan dialect does for every code: a file of 5,000 lone CRs hiding fences
// gets 101 lone-cr diagnostics, not 5,000 (bounded output).
func TestLoneCRCapActs(t *testing.T) {
	src := []byte("```act\nwrite_file a\n```\n```\n" + strings.Repeat("x\r```\n", 5000) + "```\n")
	doc, err := Parse(context.Background(), "cr.md", src, Options{Dialect: DialectActs})
	if err != nil {
		t.Fatal(err)
	}
	var crs []*ast.Diagnostic
	for _, d := range doc.Diagnostics {
		if d.Code == CodeLoneCR {
			crs = append(crs, d)
		}
	}
	if len(crs) != MaxPerCode+1 {
		t.Fatalf("%d lone-cr diagnostics, want %d", len(crs), MaxPerCode+1)
	}
	last := crs[len(crs)-1]
	want := "4,900 more lone-cr errors like the 100 above are not listed one by one (lines 105–5004); correct those and check again"
	if last.Message != want || last.Span.Start.Line != 105 {
		t.Fatalf("summing up: %s, want at line 105: %s", last.Format("cr.md"), want)
	}
}

// TestHasLoneCRErrorInFollowOn: a lone-cr error collapsed into an
// improperly nested fence's follow-on notes still says the document's
// lines read differently (fmt keeps such a document as it is).
func TestHasLoneCRErrorInFollowOn(t *testing.T) {
	src := []byte(".\n~~~\n~~~\n~~~\n2. ~~~\n~~~\n~~~\ny\r~~~\n~~~~\n  ~~~\n  - ~~~\n  ~~~~\n\t* ~~~act\n\t  echo tab\n\t  ~~~")
	doc, err := Parse(context.Background(), "t.md", src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	top, note := false, false
	for _, d := range doc.Diagnostics {
		top = top || d.Code == CodeLoneCR
		for _, r := range d.Related {
			note = note || strings.HasSuffix(r.Message, "["+CodeLoneCR+"]")
		}
	}
	if top || !note {
		t.Fatalf("want the lone-cr error as a follow-on note only (top-level %v, note %v)", top, note)
	}
	if !HasLoneCRError(doc) {
		t.Fatal("HasLoneCRError misses the lone-cr follow-on")
	}
}
