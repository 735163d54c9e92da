package render

import (
	"bytes"
	"fmt"
	"html"
	"regexp"
	"strings"
	"testing"

	gast "github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// pathological is a corpus of inputs on which Markdown parsers have been
// slower than linear: commonmark/cmark's and cmark-gfm's
// test/pathological_tests.py, the md4c, pulldown-cmark and markdown-it
// reports (mostly by andersk), goldmark's own issues (#555) and what
// plangram's guard found in goldmark itself (email linkify scans, table
// padding). Each builds an input of about n units.
var pathological = []struct {
	name string
	gen  func(n int) string
}{
	{"nested strong emph", func(n int) string { return strings.Repeat("*a **a ", n) + "b" + strings.Repeat(" a** a*", n) }},
	{"emph closers no openers", func(n int) string { return strings.Repeat("a_ ", n) }},
	{"emph openers no closers", func(n int) string { return strings.Repeat("_a ", n) }},
	{"link closers no openers", func(n int) string { return strings.Repeat("a]", n) }},
	{"link openers no closers", func(n int) string { return strings.Repeat("[a", n) }},
	{"mismatched openers closers", func(n int) string { return strings.Repeat("*a_ ", n) }},
	{"cmark issue 389", func(n int) string { return strings.Repeat("*a ", n) + strings.Repeat("_a*_ ", n) }},
	{"openers closers multiple of 3", func(n int) string { return "a**b" + strings.Repeat("c* ", n) }},
	{"link openers emph closers", func(n int) string { return strings.Repeat("[ a_", n) }},
	{"pattern [ (]( repeated", func(n int) string { return strings.Repeat("[ (](", n) }},
	{"pattern ![[]() repeated", func(n int) string { return strings.Repeat("![[]()", n) }},
	{"nested brackets", func(n int) string { return strings.Repeat("[", n) + "a" + strings.Repeat("]", n) }},
	{"backticks", func(n int) string {
		var b strings.Builder
		for i := 1; b.Len() < 4*n; i++ {
			b.WriteString("e" + strings.Repeat("`", i))
		}
		return b.String()
	}},
	{"unclosed links A", func(n int) string { return strings.Repeat("[a](<b", n) }},
	{"unclosed links B", func(n int) string { return strings.Repeat("[a](b", n) }},
	{"unclosed links C", func(n int) string { return strings.Repeat("[a](", n) }},
	{"unclosed link lines", func(n int) string { return strings.Repeat("]([\n", n) }},
	{"unclosed <!--", func(n int) string { return "</" + strings.Repeat("<!--", n) }},
	{"processing instructions", func(n int) string { return "a" + strings.Repeat("<?", n) }},
	{"declarations", func(n int) string { return "a" + strings.Repeat("<!D ", n) }},
	{"cdata", func(n int) string { return "a" + strings.Repeat("<![CDATA[", n) }},
	{"empty tags <>", func(n int) string { return strings.Repeat("<>", n) }},
	{"many <", func(n int) string { return strings.Repeat("<a", n) }},
	{"escaped backticks", func(n int) string { return strings.Repeat("\\``", n) }},
	{"backticks escaped", func(n int) string { return strings.Repeat("``\\", n) }},
	{"a***", func(n int) string { return strings.Repeat("a***", n) }},
	{"[*_a", func(n int) string { return strings.Repeat("[*_a", n) }},
	{"[](", func(n int) string { return strings.Repeat("[](", n) }},
	{"**_* ", func(n int) string { return strings.Repeat("**_* ", n) }},
	{"goldmark 555", func(n int) string { return strings.Repeat("*a_b*c_d**e_f*g**h*i_j**", n/8+1) }},
	{"emph in deep blockquote", func(n int) string { return strings.Repeat(">", n) + strings.Repeat("a*", n) }},
	// Deep lists (issue 10: a 1 MB nested list took 44 s): every marker
	// on one line, and one level deeper on each line.
	{"nested list one line", func(n int) string { return strings.Repeat("- ", n) + "x\n" }},
	{"nested list per line", func(n int) string {
		var b strings.Builder
		for d := 0; b.Len() < 8*n; d++ {
			b.WriteString(strings.Repeat("  ", d%500) + "- x\n")
		}
		return b.String()
	}},
	{"email linkify", func(n int) string { return strings.Repeat("a_", n) }},
	{"www linkify", func(n int) string { return strings.Repeat("~www.a", n) }},
	{"strikethrough", func(n int) string { return strings.Repeat("~a~~", n) }},
	{"link titles", func(n int) string { return strings.Repeat("[a](b \"", n) }},
	{"reference uses", func(n int) string {
		return strings.Repeat("[a]: /u\n", n/4) + "\n" + strings.Repeat("[a] ", n)
	}},
	{"reference definitions", func(n int) string { return strings.Repeat("[a]: /u\n", n) }},
	{"multi-line code span", func(n int) string { return strings.Repeat("`a\n", n) }},
	{"table padding", func(n int) string {
		k := isqrt(n)
		return "|" + strings.Repeat("a|", k) + "\n|" + strings.Repeat("-|", k) + "\n" + strings.Repeat("x\n", n)
	}},
	{"heading links", func(n int) string { return "# " + strings.Repeat("[a](", n) }},
	{"table cell links", func(n int) string { return "|a|\n|-|\n|" + strings.Repeat("[a](", n) + "|\n" }},
	{"list item links", func(n int) string { return "- " + strings.Repeat("[a](", n) }},
}

func isqrt(n int) int {
	k := 1
	for (k+1)*(k+1) <= n {
		k++
	}
	return k
}

// goldmarkPrice is what the guard's price says goldmark's inline parsing
// of src costs once plangram has prepared it (flattened and guarded): the
// sum over goldmark's inline chunks of inlineCost.
func goldmarkPrice(t testing.TB, src []byte) (price int, guarded int) {
	t.Helper()
	flat, _, _ := flattenNesting(src)
	cells := maxPageCells
	flat, ranges := guardInline(newBlockParser(true), flat, &cells)
	doc := newBlockParser(true).Parse(text.NewReader(flat))
	_ = gast.Walk(doc, func(n gast.Node, entering bool) (gast.WalkStatus, error) {
		if entering && n.Type() == gast.TypeBlock && !n.IsRaw() && n.Lines().Len() > 0 {
			cost, _ := inlineCost(flat, n.Lines().Sliced(0, n.Lines().Len()))
			price += cost
		}
		return gast.WalkContinue, nil
	})
	return price, len(ranges)
}

// TestPathologicalLinear pins that rendering prose stays linear (issue 10)
// on every input of the corpus: at 4n the inline price of what goldmark is
// given stays within inlineBudget per byte and about 4 times that at n, and
// so do the page's allocations and size. Nothing here is timed.
func TestPathologicalLinear(t *testing.T) {
	const n = 2000
	const perByte = 256 // the documented budget, fixed here on purpose
	for _, p := range pathological {
		t.Run(p.name, func(t *testing.T) {
			small, large := []byte(p.gen(n)), []byte(p.gen(4*n))
			ps, _ := goldmarkPrice(t, small)
			pl, guarded := goldmarkPrice(t, large)
			if pl > perByte*len(large) {
				t.Errorf("price %d at %d bytes: over %d per byte", pl, len(large), perByte)
			}
			ratio := float64(len(large)) / float64(len(small))
			if float64(pl) > 1.25*ratio*float64(ps)+float64(perByte*len(large))/4 {
				t.Errorf("price grows from %d to %d for %.1f times the input", ps, pl, ratio)
			}
			var outL []byte
			as := testing.AllocsPerRun(1, func() { _, _ = Markdown(small, Options{}) })
			al := testing.AllocsPerRun(1, func() { outL, _ = Markdown(large, Options{}) })
			if al > 1.25*ratio*as+1000 {
				t.Errorf("allocations grow from %.0f to %.0f for %.1f times the input", as, al, ratio)
			}
			if len(outL) > 40*len(large)+20000 {
				t.Errorf("page of %d bytes for %d bytes of input", len(outL), len(large))
			}
			checkPage(t, outL, nil)
			// No byte is lost: every input line's text is on the page (a
			// guarded chunk is shown as written).
			if guarded > 0 && !bytes.Contains(outL, []byte("shown as plain text")) {
				t.Errorf("%d chunks guarded, no note", guarded)
			}
		})
	}
}

// TestGuardKeepsText pins the guarded chunk's rendering: the note names the
// lines, the text appears as written (escaped for HTML only), and the
// prose around it is rendered as Markdown.
func TestGuardKeepsText(t *testing.T) {
	bad := strings.Repeat("[a](<b `x *y_ ", 300)
	src := "# Title\n\nSome *emphasis* before.\n\n" + bad + "\n\nAfter, `code` and [a link](https://example.com).\n"
	out, err := Markdown([]byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	page := string(out)
	for _, want := range []string{
		"The paragraph, heading or table cell at line 5 holds so many Markdown markers",
		"<em>emphasis</em>", "<code>code</code>", `href="https://example.com"`,
		html.EscapeString(strings.TrimSpace(bad)),
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %.80q", want)
		}
	}
	// An escaped chunk costs goldmark nothing more.
	if p, _ := goldmarkPrice(t, []byte(src)); p > inlineBudget*len(src) {
		t.Errorf("price %d after guarding", p)
	}
}

// BenchmarkRenderPathological renders each input of the corpus at n, 2n and
// 4n: time per byte must stay flat (docs/benchmarks.md).
func BenchmarkRenderPathological(b *testing.B) {
	for _, p := range pathological {
		for _, n := range []int{4000, 8000, 16000} {
			src := []byte(p.gen(n))
			b.Run(fmt.Sprintf("%s/n=%d", p.name, n), func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := Markdown(src, Options{}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// TestGuardedTitle pins that a page's title taken from a heading shows its
// text as written, guarded or not (a backslash escape is not shown).
func TestGuardedTitle(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"# a \\* b\n", "<title>a * b · plangram</title>"},
		{"# " + strings.Repeat("[a](", 300) + "\n", "<title>" + html.EscapeString(strings.Repeat("[a](", 300)) + " · plangram</title>"},
	} {
		out, err := Markdown([]byte(c.src), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(out), c.want) {
			t.Errorf("Markdown(%.30q): no %.60q", c.src, c.want)
		}
	}
}

// blockKinds lists the kinds of the blocks of src, in order.
func blockKinds(src []byte) string {
	var b strings.Builder
	doc := newBlockParser(false).Parse(text.NewReader(src))
	_ = gast.Walk(doc, func(n gast.Node, entering bool) (gast.WalkStatus, error) {
		if entering && n.Type() == gast.TypeBlock {
			b.WriteString(n.Kind().String() + " ")
		}
		return gast.WalkContinue, nil
	})
	return b.String()
}

// TestGuardKeepsBlocks pins that escaping a chunk's punctuation changes no
// block around it: in a list item, a block quote or a heading, the guarded
// source has the same blocks as the original.
func TestGuardKeepsBlocks(t *testing.T) {
	compared := 0
	for _, p := range pathological {
		if p.name == "table padding" || p.name == "reference definitions" || p.name == "reference uses" {
			continue // guarded whole: the table or definitions become a paragraph
		}
		body := p.gen(2000)
		for _, src := range []string{
			body,
			"- x\n- " + strings.ReplaceAll(body, "\n", "\n  ") + "\n- y\n",
			"> " + strings.ReplaceAll(body, "\n", "\n> ") + "\n\nafter\n",
			"# " + strings.ReplaceAll(body, "\n", " ") + "\n" + body + "\n===\n",
		} {
			flat, _, _ := flattenNesting([]byte(src))
			cells := maxPageCells
			guarded, ranges := guardInline(newBlockParser(true), flat, &cells)
			if len(ranges) == 0 {
				continue
			}
			compared++
			if a, b := blockKinds(flat), blockKinds(guarded); a != b {
				t.Errorf("%s: blocks %.120s became %.120s", p.name, a, b)
			}
		}
	}
	if compared < 100 {
		t.Errorf("only %d guarded inputs compared", compared)
	}
}

// TestTableCellBudget checks the page's table-cell budget (maxPageCells):
// the tables that fit it are tables, those past it (in the same prose or
// a later one of the page) are shown as plain text with every byte of
// their text and a note that says where, and a table within the budget
// after a guarded one is still a table only if it fits what is left.
func TestTableCellBudget(t *testing.T) {
	table := func(cols, rows int, cell string) string {
		var b strings.Builder
		b.WriteString("|" + strings.Repeat(" h |", cols) + "\n|" + strings.Repeat("---|", cols) + "\n")
		for i := 0; i < rows; i++ {
			b.WriteString("|" + strings.Repeat(" "+cell+" |", cols) + "\n")
		}
		return b.String()
	}
	// 100 columns × 300 rows (+ header) = 30,100 cells: one fits, two do not.
	big := table(100, 300, "b")
	src := "# Tables\n\n" + big + "\nbetween\n\n" + table(100, 300, "c") + "\nafter\n\n" + table(2, 2, "d")
	out, err := Markdown([]byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	page := string(out)
	if got := strings.Count(page, "<table>"); got != 2 {
		t.Errorf("%d tables, want 2 (the first and the small last one)", got)
	}
	if got := strings.Count(page, "<td>b</td>"); got != 30000 {
		t.Errorf("%d cells of the first table, want 30000", got)
	}
	if strings.Contains(page, "<td>c</td>") {
		t.Error("the second table, past the budget, is a table")
	}
	if got := strings.Count(page, " c |"); got != 30000 {
		t.Errorf("the second table's text: %d cells shown, want 30000", got)
	}
	if !strings.Contains(page, "<td>d</td>") {
		t.Error("the small table after it, within what is left of the budget, is not a table")
	}
	line := strings.Count(src[:strings.Index(src, "| c |")], "\n") - 1 // the header's line (1-based)
	want := fmt.Sprintf("The table at lines %d–%d would take this page past 50000 table cells", line, line+301)
	if !strings.Contains(page, want) {
		t.Errorf("no note %q in %q", want, regexp.MustCompile(`<p class="note">[^<]*</p>`).FindAllString(page, -1))
	}
	// The budget is the page's: a plan's prose pieces share it.
	r := newRenderer(Options{})
	for i, want := range []bool{true, false} {
		h, err := r.markdown([]byte(big), 1)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(string(h), "<table>"); got != want {
			t.Errorf("prose %d: table %v, want %v", i, got, want)
		}
	}
}
