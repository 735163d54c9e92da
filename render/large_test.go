package render

import (
	"context"
	"encoding/json"
	"fmt"
	"html/template"
	"strings"
	"testing"

	"github.com/plangram/plangram/grammar"
)

// TestOneLargeActionWrittenInParts: the card of one action with 20k
// blocks (a unified diff of one file in 20k hunks) is written as its head,
// each block and its end, and its hunks value shows at most maxListJSON of
// JSON: no write of the page is larger than four times that (its HTML
// escapes).
func TestOneLargeActionWrittenInParts(t *testing.T) {
	if testing.Short() {
		t.Skip("renders an 8 MB page")
	}
	var b strings.Builder
	b.WriteString("--- a/f.txt\n+++ b/f.txt\n")
	for i := 1; i <= 20_000; i++ {
		fmt.Fprintf(&b, "@@ -%d,1 +%d,1 @@\n-old line %d\n+new line %d\n", i, i, i, i)
	}
	src := []byte(b.String())
	doc, err := grammar.Parse(context.Background(), "large.diff", src, grammar.Options{Dialect: grammar.DialectUdiff})
	if err != nil {
		t.Fatal(err)
	}
	var w maxWriter
	if err := WriteHTML(&w, doc, src, Options{NoHighlight: true}); err != nil {
		t.Fatal(err)
	}
	t.Logf("input %d bytes: a page of %d bytes, the largest write %d bytes", len(src), w.n, w.longest)
	if w.n < 5*len(src) || w.longest > 4*maxListJSON {
		t.Errorf("a page of %d bytes, the largest write %d bytes: the card is not written in parts", w.n, w.longest)
	}
}

// TestListJSON: a list value is shown as json.MarshalIndent shows it when
// it fits, and cut before the element that would take it past the bound
// otherwise (never before the first), with a note that counts what is
// not shown.
func TestListJSON(t *testing.T) {
	lists := [][]any{
		{1},
		{"a", 2.5, nil, true},
		{map[string]any{"a": []any{1, map[string]any{"b": "<&>"}}}, []any{}, map[string]any{}},
		{grammar.Hunk{Old: "a\n", New: "b\r\n"}, grammar.Hunk{Context: "x", EndOfFile: true}},
	}
	for _, l := range lists {
		data, err := json.MarshalIndent(l, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		want := template.HTML(`<pre class="text json">`) + codeText(string(data)) + `</pre>`
		if got, ok := listJSON(l, 1<<20); !ok || got != want {
			t.Errorf("%v:\n got %s\nwant %s", l, got, want)
		}
	}
	long := make([]any, 100)
	for i := range long {
		long[i] = map[string]any{"n": i}
	}
	got, ok := listJSON(long, 200)
	if !ok {
		t.Fatal("not encoded")
	}
	html := string(got)
	shown := strings.Count(html, "&#34;n&#34;:")
	var rest int
	if i := strings.Index(html, `<span class="see">`); i < 0 {
		t.Fatalf("no note:\n%s", html)
	} else if _, err := fmt.Sscanf(html[i+len(`<span class="see">`):], "%d more of its 100 elements", &rest); err != nil {
		t.Fatalf("note: %v\n%s", err, html)
	}
	text := html[:strings.Index(html, "</pre>")]
	if shown < 1 || shown+rest != 100 || !strings.HasSuffix(text, "…\n]") || len(strings.ReplaceAll(text, "&#34;", `"`)) > 200+len(`<pre class="text json">`)+len(",\n  …\n]") {
		t.Errorf("cut list: %d shown, %d counted as not shown:\n%s", shown, rest, html)
	}
	if one, _ := listJSON(long[:2], 1); !strings.Contains(string(one), "&#34;n&#34;: 0") || !strings.Contains(string(one), "1 more of its 2 elements") {
		t.Errorf("the first element is always shown:\n%s", one)
	}
}
