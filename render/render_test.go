package render

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sebdah/goldie/v2"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/schema"
)

// renderFile renders a fixture the way `plangram render` does in auto mode:
// a document without an act block a Markdown reader would see, in which
// the acts parser reads no action and finds no problem, is a plain page.
func renderFile(t testing.TB, file string) ([]byte, *ast.Document) {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Base(file)
	opts := Options{Title: name, Filename: name}
	doc, err := grammar.Parse(context.Background(), name, src, grammar.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if grammar.Detect(src) == grammar.DialectActs && !HasActBlocks(src) && len(doc.Actions) == 0 && !hasProblem(doc) {
		out, err := Markdown(src, opts)
		if err != nil {
			t.Fatal(err)
		}
		return out, nil
	}
	out, err := HTML(doc, src, opts)
	if err != nil {
		t.Fatal(err)
	}
	return out, doc
}

// hasProblem reports whether doc has a warning or an error.
func hasProblem(doc *ast.Document) bool {
	for _, d := range doc.Diagnostics {
		if d.Severity == ast.Error || d.Severity == ast.Warning {
			return true
		}
	}
	return false
}

func fixtures(t testing.TB) []string {
	files, err := filepath.Glob("../golden/render/*.md")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	return files
}

func TestGolden(t *testing.T) {
	g := goldie.New(t, goldie.WithFixtureDir("../golden/render"), goldie.WithNameSuffix(".golden"))
	for _, file := range fixtures(t) {
		name := strings.TrimSuffix(filepath.Base(file), ".md")
		t.Run(name, func(t *testing.T) {
			out, doc := renderFile(t, file)
			checkPage(t, out, doc)
			g.Assert(t, name+".html", out)
		})
	}
}

var (
	tagRE = regexp.MustCompile(`<(/?)([a-zA-Z][a-zA-Z0-9]*)([^>]*)>`)
	// alignStyle is the style of an aligned table cell.
	alignStyle = regexp.MustCompile(`^text-align:(left|center|right)$`)
	attrRE     = regexp.MustCompile(`\s([a-zA-Z][a-zA-Z0-9:-]*)(?:="([^"]*)")?`)
	preRE      = regexp.MustCompile(`(?s)<pre class="code"><code>(.*?)</code></pre>`)
	// diagIDRE finds a diagnostic's anchor (id) and the summary's links
	// to it (href).
	diagIDRE = regexp.MustCompile(`\s(id|href)="#?(diag-[0-9]+)"`)
)

// allowed lists every element and attribute a rendered page may contain.
// Plan text is always escaped, so any other tag or attribute (a <script>,
// an onerror=, a style=) would mean plan text reached the page as markup.
func allowed() (tags map[string]bool, attrs map[string]bool) {
	tags = map[string]bool{}
	for _, t := range strings.Fields(`html head meta title style body div header main footer h1 h2 h3 h4 h5 h6 p
		span a code pre details summary ol ul li section table thead tbody tr th td article figure figcaption
		em strong del blockquote hr br input`) {
		tags[t] = true
	}
	attrs = map[string]bool{}
	for _, a := range strings.Fields(`lang charset http-equiv content name class id href rel title scope open
		data-cp start align checked disabled type`) {
		attrs[a] = true
	}
	return tags, attrs
}

// checkPage checks a rendered page's safety and structure without a
// browser: valid UTF-8, only known tags and attributes, only safe hrefs, one
// card per action, and every block shown with its exact bytes.
func checkPage(t testing.TB, page []byte, doc *ast.Document) {
	t.Helper()
	var s *schema.Schema
	if doc != nil {
		s, _ = schema.Builtin(doc.Dialect)
	}
	checkPageSchema(t, page, doc, s)
}

// checkPageSchema is checkPage for a page rendered with the schema s.
func checkPageSchema(t testing.TB, page []byte, doc *ast.Document, sch *schema.Schema) {
	t.Helper()
	if !utf8.Valid(page) {
		t.Error("page is not valid UTF-8")
	}
	s := string(page)
	body := s[strings.Index(s, "</style>"):] // the CSS is a constant
	tags, attrs := allowed()
	for _, m := range tagRE.FindAllStringSubmatch(body, -1) {
		if !tags[strings.ToLower(m[2])] {
			t.Errorf("unexpected element <%s%s>", m[2], m[3])
		}
		for _, a := range attrRE.FindAllStringSubmatch(m[3], -1) {
			// A table cell's alignment is its one style attribute, a
			// constant the page writes, never the plan's text
			// (FuzzRender/3b63903572914da4: "0\n-:" is a table).
			cell := strings.EqualFold(m[2], "th") || strings.EqualFold(m[2], "td")
			if cell && strings.EqualFold(a[1], "style") && alignStyle.MatchString(a[2]) {
				continue
			}
			if !attrs[strings.ToLower(a[1])] {
				t.Errorf("unexpected attribute %s in <%s%s>", a[1], m[2], m[3])
			}
			if strings.EqualFold(a[1], "href") {
				if !safeURL(html.UnescapeString(a[2])) {
					t.Errorf("unsafe href %q", a[2])
				}
			}
		}
	}
	if strings.Count(s, "<script") != 0 || strings.Count(s, "<img") != 0 {
		t.Error("page contains <script or <img")
	}
	if doc == nil {
		return
	}
	if got := strings.Count(s, `<article class="action`); got != len(doc.Actions) {
		t.Errorf("%d action cards, %d actions", got, len(doc.Actions))
	}
	// Every diagnostic is shown once (with its id) and listed once in the
	// summary (linking to it), whichever node it is attached to.
	ids, links := map[string]int{}, map[string]int{}
	for _, m := range diagIDRE.FindAllStringSubmatch(body, -1) {
		if m[1] == "id" {
			ids[m[2]]++
		} else {
			links[m[2]]++
		}
	}
	for i, d := range doc.Diagnostics {
		if id := "diag-" + strconv.Itoa(i+1); ids[id] != 1 || links[id] != 1 {
			t.Errorf("%s (%s) shown %d times and linked %d times, not once each", id, d.Code, ids[id], links[id])
		}
	}
	// Every argument and stray block is shown byte for byte, in order.
	var want []string
	var add func(b *ast.Block)
	add = func(b *ast.Block) { want = append(want, b.Content) }
	r := newRenderer(Options{})
	r.schema = sch
	hidden := r.hiddenNodes(doc) // shown in the page's header instead
	for _, b := range doc.Blocks {
		if !hidden[b] {
			add(b)
		}
	}
	for _, a := range doc.Actions {
		for _, b := range a.Blocks {
			add(b)
		}
	}
	got := map[string]int{}
	for _, m := range preRE.FindAllStringSubmatch(s, -1) {
		got[preText(m[1])]++
	}
	for _, w := range want {
		if strings.ContainsAny(w, "\x00") || !utf8.ValidString(w) {
			continue // NUL and invalid bytes cannot exist in an HTML page
		}
		if got[w] == 0 {
			t.Errorf("no <pre> shows block content %q exactly", w)
			continue
		}
		got[w]--
	}
}

// preText returns the text a browser reads from a <pre>'s inner HTML:
// tags removed, references decoded (hidden raw spans included, CSS labels
// not).
func preText(inner string) string {
	return html.UnescapeString(tagRE.ReplaceAllString(inner, ""))
}

// TestPlanCorpus renders every plan of the plan dialect's golden corpus:
// the page is safe and complete whatever the plan's errors.
func TestPlanCorpus(t *testing.T) {
	files, _ := filepath.Glob("../golden/plan/*.md")
	for _, file := range files {
		out, doc := renderFile(t, file)
		checkPage(t, out, doc)
		// The AST diff is on the page once, however many errors it shows.
		if n := bytes.Count(out, []byte("Expected:  [0] Heading 1")); n > 1 {
			t.Errorf("%s: the AST diff is on the page %d times", file, n)
		}
	}
}

func TestSafeURL(t *testing.T) {
	for _, tc := range []struct {
		url string
		ok  bool
	}{
		{"https://example.com/a?b#c", true},
		{"HTTP://EXAMPLE.COM", true},
		{"mailto:a@example.com", true},
		{"docs/acts.md#fences", true},
		{"#frag", true},
		{"?q=1", true},
		{"/abs/path:with-colon", true},
		{"a/b:c", true},
		{"javascript:alert(1)", false},
		{"JaVaScRiPt:alert(1)", false},
		{" javascript:alert(1)", false},
		{"java\tscript:alert(1)", false},
		{"java\nscript:alert(1)", false},
		{"\x01javascript:alert(1)", false},
		{"vbscript:msgbox(1)", false},
		{"data:text/html,<script>", false},
		{"data:image/png;base64,AAAA", false},
		{"file:///etc/passwd", false},
		{"ftp://example.com", false},
		{"chrome://settings", false},
		{"x:y", false},
		{"%6Aavascript:alert(1)", false},
	} {
		if got := safeURL(tc.url); got != tc.ok {
			t.Errorf("safeURL(%q) = %v, want %v", tc.url, got, tc.ok)
		}
	}
}

func TestLinkHrefResolvesReferences(t *testing.T) {
	for _, dest := range []string{"&#106;avascript&#58;alert(1)", "&#x6A;avascript:alert(1)", "javascript&colon;alert(1)", "&Tab;javascript:alert(1)"} {
		if href, ok := linkHref(dest); ok {
			t.Errorf("linkHref(%q) allowed, href %q", dest, href)
		}
	}
	if href, ok := linkHref("https://example.com/a b"); !ok || href != "https://example.com/a%20b" {
		t.Errorf("https link: %q %v", href, ok)
	}
}

func TestWriteCodeKeepsText(t *testing.T) {
	in := "a<b>&\"'\t\r\n\x1b\u202e\u200b\ufeffé"
	var b strings.Builder
	writeCode(&b, in)
	if got := preText(b.String()); got != in {
		t.Errorf("text %q, want %q\nhtml %s", got, in, b.String())
	}
	for _, label := range []string{`data-cp="CR"`, `data-cp="ESC"`, `data-cp="U+202E"`, `data-cp="U+200B"`, `data-cp="BOM"`} {
		if !strings.Contains(b.String(), label) {
			t.Errorf("no label %s in %s", label, b.String())
		}
	}
	b.Reset()
	writeCode(&b, "\x00\xff")
	if !utf8.ValidString(b.String()) || !strings.Contains(b.String(), `data-cp="NUL"`) || !strings.Contains(b.String(), `data-cp="\xFF"`) {
		t.Errorf("NUL and invalid byte: %q", b.String())
	}
}

func TestHighlightKeepsBytes(t *testing.T) {
	r := newRenderer(Options{})
	for _, tc := range []struct{ content, info string }{
		{"package main\n\nfunc main() {\r\n\tprintln(\"hi\")\n}", "go"},
		{"x = '''multi\nline'''\n", "python.old"},
		{"invalid \xff utf-8", "python"},
		{"no newline at end", "bash"},
		{"", "go"},
	} {
		pieces, _ := r.highlight(tc.content, codeOpts{info: tc.info})
		var got strings.Builder
		for _, p := range pieces {
			got.WriteString(p.text)
		}
		if got.String() != tc.content {
			t.Errorf("%q: pieces join to %q", tc.content, got.String())
		}
		if txt := preText(preRE.FindStringSubmatch(string(r.code(tc.content, codeOpts{info: tc.info})))[1]); utf8.ValidString(tc.content) && txt != tc.content {
			t.Errorf("%q: <pre> text %q", tc.content, txt)
		}
	}
	if p, _ := r.highlight("package main", codeOpts{info: "go"}); len(p) < 2 {
		t.Errorf("go code not highlighted: %v", p)
	}
	nr := newRenderer(Options{NoHighlight: true})
	if p, _ := nr.highlight("package main", codeOpts{info: "go"}); len(p) != 1 {
		t.Errorf("NoHighlight still highlights: %v", p)
	}
}

func TestHasActBlocks(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want bool
	}{
		{"~~~act\necho\n~~~\n", true},
		{"text\n\n```ACT\necho\n```\n", true},
		{"````markdown\n~~~act\necho\n~~~\n````\n", false},
		{"# README\n\nno acts\n", false},
	} {
		if got := HasActBlocks([]byte(tc.src)); got != tc.want {
			t.Errorf("HasActBlocks(%q) = %v", tc.src, got)
		}
	}
}

func TestNilDocument(t *testing.T) {
	if _, err := HTML(nil, nil, Options{}); err == nil {
		t.Fatal("nil document accepted")
	}
}

func TestDiagnosticsAtTheirNodes(t *testing.T) {
	out, doc := renderFile(t, "../golden/render/edge.md")
	s := string(out)
	for _, d := range doc.Diagnostics {
		// Each diagnostic is shown once in place (with its id) and listed
		// once in the summary (linking to it).
		id := ""
		for i, x := range doc.Diagnostics {
			if x == d {
				id = "diag-" + strconv.Itoa(i+1)
			}
		}
		if strings.Count(s, `id="`+id+`"`) != 1 || strings.Count(s, `href="#`+id+`"`) != 1 {
			t.Errorf("%s (%s) not shown once and linked once", id, d.Code)
		}
	}
	// The unclosed-fence error is inside the unclosed block's figure.
	i := strings.Index(s, `<figure class="block unclosed"`)
	j := strings.Index(s, `unclosed-fence</code>`)
	if i < 0 || j < i || strings.Contains(s[i:j], "</figure>") {
		t.Error("unclosed-fence is not shown at its block")
	}
}

func FuzzRender(f *testing.F) {
	for _, pat := range []string{"../golden/render/*.md", "../golden/acts/*.md", "../golden/plan/*.md"} {
		files, _ := filepath.Glob(pat)
		for _, file := range files {
			if data, err := os.ReadFile(file); err == nil {
				f.Add(data)
			}
		}
	}
	// One parsed schema per dialect for the whole run, as a preview server
	// keeps them.
	schemas := map[string]*schema.Schema{}
	for _, dialect := range []string{grammar.DialectActs, grammar.DialectPlan} {
		s, err := schema.Builtin(dialect)
		if err != nil {
			f.Fatal(err)
		}
		schemas[dialect] = s
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, dialect := range []string{grammar.DialectActs, grammar.DialectPlan} {
			doc, err := grammar.Parse(context.Background(), "fuzz.md", src, grammar.Options{Dialect: dialect, Schema: schemas[dialect]})
			if err != nil {
				t.Fatal(err)
			}
			out, err := HTML(doc, src, Options{Filename: "fuzz.md", Schema: schemas[dialect]})
			if err != nil {
				t.Fatal(err)
			}
			checkPageSchema(t, out, doc, schemas[dialect])
		}
		md, err := Markdown(src, Options{})
		if err != nil {
			t.Fatal(err)
		}
		checkPage(t, md, nil)
	})
}

// renderExample matches `<!-- render-example -->`, a plan and its
// expectations in docs/render.md.
var renderExample = regexp.MustCompile("(?s)<!-- render-example -->\n(`{4,})markdown\n(.*?\n)`{4,}\n\n```text\n(.*?)\n```")

// TestDocsExamples checks the examples of docs/render.md.
func TestDocsExamples(t *testing.T) {
	data, err := os.ReadFile("../docs/render.md")
	if err != nil {
		t.Fatal(err)
	}
	examples := renderExample.FindAllStringSubmatch(string(data), -1)
	if len(examples) == 0 {
		t.Fatal("docs/render.md: no examples found")
	}
	for i, m := range examples {
		src := []byte(m[2])
		doc, err := grammar.Parse(context.Background(), "example.md", src, grammar.Options{})
		if err != nil {
			t.Fatal(err)
		}
		page, err := HTML(doc, src, Options{Filename: "example.md", NoHighlight: true})
		if err != nil {
			t.Fatal(err)
		}
		checkPage(t, page, doc)
		for _, line := range strings.Split(m[3], "\n") {
			switch {
			case strings.HasPrefix(line, "has: "):
				if !strings.Contains(string(page), line[5:]) {
					t.Errorf("example %d: page lacks %s", i+1, line[5:])
				}
			case strings.HasPrefix(line, "not: "):
				if strings.Contains(string(page), line[5:]) {
					t.Errorf("example %d: page contains %s", i+1, line[5:])
				}
			default:
				t.Errorf("example %d: bad expectation line %q", i+1, line)
			}
		}
	}
}

// TestFlattenNesting pins the cap on containers one line opens (issue 10:
// goldmark is quadratic in that depth): lines past maxNesting keep their
// first maxNesting markers and their text; other lines are untouched.
func TestFlattenNesting(t *testing.T) {
	deep := strings.Repeat("- ", maxNesting+8) + "x\n"
	quote := strings.Repeat("> ", maxNesting+1) + "q\n"
	ordered := strings.Repeat("1. ", maxNesting+2) + "o"
	for _, c := range []struct {
		in, want    string
		changed, at int
	}{
		{"- - x\n> > y\n", "- - x\n> > y\n", 0, 0},
		{strings.Repeat("- ", maxNesting) + "x\n", strings.Repeat("- ", maxNesting) + "x\n", 0, 0},
		{"a\n" + deep, "a\n" + strings.Repeat("- ", maxNesting) + "x\n", 1, 2},
		{quote + "b\n" + ordered, strings.Repeat("> ", maxNesting) + "q\nb\n" + strings.Repeat("1. ", maxNesting) + "o", 2, 1},
		{strings.Repeat("- ", maxNesting+3) + "\n", strings.Repeat("- ", maxNesting) + "\n", 1, 1}, // a thematic break stays one
		// Indentation past maxIndent columns is cut to maxIndent, outside fences only.
		{strings.Repeat(" ", maxIndent) + "- a\n" + strings.Repeat("\t", maxIndent/4+1) + "- b\n",
			strings.Repeat(" ", maxIndent) + "- a\n" + strings.Repeat(" ", maxIndent) + "- b\n", 1, 2},
		{"```\n" + strings.Repeat(" ", maxIndent+1) + "code\n```\n" + strings.Repeat(" ", maxIndent+1) + "x",
			"```\n" + strings.Repeat(" ", maxIndent+1) + "code\n```\n" + strings.Repeat(" ", maxIndent) + "x", 1, 4},
		// A fence on a marker line opens a block, and its markers are capped too.
		{strings.Repeat("- ", maxNesting+5) + "```\n" + strings.Repeat(" ", maxIndent+1) + "code\n```\n",
			strings.Repeat("- ", maxNesting) + "```\n" + strings.Repeat(" ", maxIndent+1) + "code\n```\n", 1, 1},
	} {
		out, n, at := flattenNesting([]byte(c.in))
		if string(out) != c.want || n != c.changed || at != c.at {
			t.Errorf("flattenNesting(%.40q) = %.60q, %d, %d; want %.60q, %d, %d", c.in, out, n, at, c.want, c.changed, c.at)
		}
	}
}

// BenchmarkRenderNested renders Markdown of n, 2n and 4n nested list items,
// opened on one line (`- - - x`, capped at maxNesting) and one per line,
// each indented further: time must double with n.
func BenchmarkRenderNested(b *testing.B) {
	for _, n := range []int{4000, 8000, 16000} {
		oneLine := []byte("# T\n\n" + strings.Repeat("- ", n) + "x\n")
		var sb strings.Builder
		sb.WriteString("# T\n\n")
		for d := 0; sb.Len() < 2*n*8; d++ {
			sb.WriteString(strings.Repeat("  ", d%500) + "- x\n")
		}
		perLine := []byte(sb.String())
		for name, src := range map[string][]byte{"one-line": oneLine, "per-line": perLine} {
			b.Run(fmt.Sprintf("%s/n=%d", name, n), func(b *testing.B) {
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

// BenchmarkRenderManyBlocks: the review page of n, 2n and 4n write_file
// actions, each with a file path and a block: linear, and fast, since a
// path's lexer is looked up in an index of the lexers' file patterns
// (lexerIndex) rather than by trying each, as chroma's lexers.Match does.
func BenchmarkRenderManyBlocks(b *testing.B) {
	for _, n := range []int{1000, 2000, 4000} {
		var sb strings.Builder
		for i := range n {
			fmt.Fprintf(&sb, "```act\nwrite_file src/a%d.py\n```\n```\nx = %d\n```\n", i, i)
		}
		src := []byte(sb.String())
		doc, err := grammar.Parse(context.Background(), "many.md", src, grammar.Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := HTML(doc, src, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestHasActBlocksFences: an act fence line counts only where a Markdown
// reader opens a block with it.
func TestHasActBlocksFences(t *testing.T) {
	for _, tc := range []struct {
		src string
		has bool
	}{
		{"```act\necho\n```\n", true},
		{"~~~ ACT \t\nx\n~~~\n", true},
		{"> ```Act\n> x\n", true},
		{"- item\n  ````act\n  x\n  ````\n", true},
		{"text\n\n```act", true},
		{"````\n```act\n````\n", false}, // inside another block
		{"```python act\n```\n", false}, // another info string
		{"```\nact\n```\n", false},
		{"`` act\n", false},
		{"no fence at all, an act\n", false},
		{"", false},
		{strings.Repeat("```\n", 1000) + strings.Repeat("~~~x\n", 1000), false},
	} {
		if got := HasActBlocks([]byte(tc.src)); got != tc.has {
			t.Errorf("HasActBlocks(%q) = %v, want %v", tc.src, got, tc.has)
		}
	}
}

// TestNotesGiveDocumentLines checks that the notes above guarded or
// flattened prose name the document's lines, not the lines of the prose
// piece they are in: a plan's prose after an action starts far below
// line 1 (the notes said line 43 and 45 for lines 53 and 55).
func TestNotesGiveDocumentLines(t *testing.T) {
	src := "intro\n\n```act\nwrite_file a.txt\n```\n```\nhi\n```\n\n" + strings.Repeat("line\n", 40) + "\n" +
		strings.Repeat("[a](", 300) + "\n\n" + strings.Repeat("- ", 40) + "deep\n"
	guarded := strings.Count(src[:strings.Index(src, "[a](")], "\n") + 1
	deep := strings.Count(src[:strings.Index(src, "- - ")], "\n") + 1
	doc, err := grammar.Parse(context.Background(), "plan.md", []byte(src), grammar.Options{})
	if err != nil {
		t.Fatal(err)
	}
	page, err := HTML(doc, []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		fmt.Sprintf("The paragraph, heading or table cell at line %d holds", guarded),
		fmt.Sprintf("1 line from line %d nest too deep", deep),
	} {
		if !strings.Contains(string(page), want) {
			t.Errorf("no note %q in the page", want)
		}
	}
}
