package render

import (
	"context"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/plangram/plangram/grammar"
)

// TestDocsLanguages checks the language table of docs/render.md ("Syntax
// colours"): every info string, alias and file pattern it lists gets a
// lexer, and the examples of how an info string is read hold.
func TestDocsLanguages(t *testing.T) {
	doc, err := os.ReadFile("../docs/render.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(doc), "\n## Syntax colours\n")
	if !ok {
		t.Fatal("docs/render.md has no Syntax colours section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	code := regexp.MustCompile("`([^`]+)`")
	r := newRenderer(Options{})
	rows := 0
	for _, line := range strings.Split(section, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) != 5 || strings.HasPrefix(strings.TrimSpace(cells[1]), "---") || strings.TrimSpace(cells[1]) == "language" {
			continue
		}
		rows++
		for _, m := range code.FindAllStringSubmatch(cells[2], -1) {
			if r.pickLexer(codeOpts{info: m[1]}) == nil {
				t.Errorf("info string %q (%s) gets no lexer", m[1], strings.TrimSpace(cells[1]))
			}
		}
		for _, m := range code.FindAllStringSubmatch(cells[3], -1) {
			file := "dir/" + strings.ReplaceAll(m[1], "*", "x")
			if r.pickLexer(codeOpts{path: file}) == nil {
				t.Errorf("path %q (%s) gets no lexer", file, strings.TrimSpace(cells[1]))
			}
		}
	}
	if rows < 10 {
		t.Fatalf("found %d rows in the language table", rows)
	}
	for info, want := range map[string]string{
		"python.old": "Python", "go-new": "Go", "Python": "Python", "py title=x.py": "Python",
		"text": "", "act": "", "nosuchlang": "", "pyhton": "",
		"elisp": "EmacsLisp", "php": "PHP", "objective-c": "Objective-C",
	} {
		got := ""
		if lx := r.pickLexer(codeOpts{info: info}); lx != nil {
			got = lx.Config().Name
		}
		if got != want {
			t.Errorf("info %q: lexer %q, want %q", info, got, want)
		}
	}
	for _, c := range []struct {
		o    codeOpts
		want string
	}{
		{codeOpts{path: "src/x.py.orig"}, "Python"},
		{codeOpts{path: `src\win\Dockerfile`}, "Docker"},
		{codeOpts{lang: "bash"}, "Bash"},
		{codeOpts{info: "nosuchlang", path: "a.go"}, "Go"},
	} {
		got := ""
		if lx := r.pickLexer(c.o); lx != nil {
			got = lx.Config().Name
		}
		if got != c.want {
			t.Errorf("%+v: lexer %q, want %q", c.o, got, c.want)
		}
	}
}

// TestUnknownLanguageKeepsText checks that a block in a language without a
// lexer (a typo) is shown byte for byte, without colour classes.
func TestUnknownLanguageKeepsText(t *testing.T) {
	r := newRenderer(Options{})
	content := "(defun f (x) \"<b>\" x)\n;; é\n"
	html := string(r.code(content, codeOpts{info: "lsip"}))
	if strings.Contains(html, `class="t-`) {
		t.Errorf("coloured: %s", html)
	}
	if !strings.Contains(html, "(defun f (x) &#34;&lt;b&gt;&#34; x)") && !strings.Contains(html, "(defun f (x) &quot;&lt;b&gt;&quot; x)") {
		t.Errorf("text lost: %s", html)
	}
}

// TestHighlightTokenBudget checks that a page's colours stop at its token
// budget (maxHighlightTokens): the block that overruns the budget and
// every block after it are shown without colours, byte for byte, with
// the note, and the blocks before it keep theirs.
func TestHighlightTokenBudget(t *testing.T) {
	block := strings.Repeat("x = f(1, 'a')  # c\n", 20)
	coloured := func(html string) bool { return strings.Contains(html, `class="t-`) }
	one := newRenderer(Options{})
	if !coloured(string(one.code(block, codeOpts{info: "python"}))) {
		t.Fatal("a python block has no colours")
	}
	per := maxHighlightTokens - one.hl.tokens
	if per < 20 {
		t.Fatalf("%d tokens for %d bytes of python", per, len(block))
	}
	r := newRenderer(Options{})
	r.hl.tokens = 2*per + per/2
	for i, want := range []bool{true, true, false, false} {
		content := block
		if i == 3 {
			content = "y = 2\n" // fits what is left, but the budget is spent
		}
		html := string(r.code(content, codeOpts{info: "python"}))
		if coloured(html) != want || strings.Contains(html, hlNote) == want {
			t.Errorf("block %d: coloured %v, want %v (and the note when not)", i, coloured(html), want)
		}
		if i == 2 && strings.Count(html, "x = f(1, &#39;a&#39;)  # c\n") != 20 {
			t.Errorf("block %d: text lost: %s", i, html)
		}
	}
	if html := string(r.code("y = 2\n", codeOpts{info: "nosuchlang"})); strings.Contains(html, hlNote) {
		t.Error("a block no lexer colours has the budget's note")
	}
}

// TestHighlightScanBudget checks that the highlighting of a line on which
// a lexer's patterns scan to the line's end for every token (a Makefile
// line of "(", which took chroma seconds) is stopped by the bytes scanned,
// a figure of the input: the page is the same bytes whatever the machine's
// load, here while other goroutines keep the processors busy (a budget of
// 3 s of time left such a block coloured or not by the load).
func TestHighlightScanBudget(t *testing.T) {
	hostile := "all: x\n" + strings.Repeat("(", 2100) + "\n"
	r := newRenderer(Options{})
	pieces, spent := r.highlight(hostile, codeOpts{info: "make"})
	if !spent || len(pieces) != 1 || pieces[0].text != hostile {
		t.Fatalf("the hostile block: spent %v, %d pieces; want the plain block", spent, len(pieces))
	}
	if used := maxHighlightTokens - r.hl.tokens; r.hl.scan >= 0 || used >= 2100 {
		t.Errorf("stopped after %d tokens with %d bytes of scanning left: not by the scan budget", used, r.hl.scan)
	}
	// On a page, the block says why it has no colours, and its bytes are
	// all there.
	src := []byte("~~~act\nwrite_file Makefile\n~~~\n~~~make\n" + hostile + "~~~\n")
	doc, err := grammar.Parse(context.Background(), "plan.md", src, grammar.Options{})
	if err != nil {
		t.Fatal(err)
	}
	out, err := HTML(doc, src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), hlNote) {
		t.Error("the page does not say why the block has no colours")
	}
	checkPage(t, out, doc)
	// The same budget scaled down: the bytes scanned of a line of n "("
	// are about n*n/2, so a budget between those of two lengths colours
	// the shorter one and not the longer one, on any machine.
	line := func(n int) string { return "all: x\n" + strings.Repeat("(", n) + "\n" }
	page := func() string {
		r := newRenderer(Options{})
		r.hl.scan = 300 * 300 / 2 * 3
		var b strings.Builder
		for _, n := range []int{300, 600, 100} {
			b.WriteString(string(r.code(line(n), codeOpts{info: "make"})))
		}
		return b.String()
	}
	want := page()
	if n := strings.Count(want, hlNote); n != 2 || !strings.HasPrefix(want, `<pre class="code">`) || !strings.Contains(want, `class="t-`) {
		t.Fatalf("%d notes, want 2 (the 600 line and the block after it):\n%.300s", n, want)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
					_ = page()
				}
			}
		}()
	}
	for range 3 {
		if got := page(); got != want {
			t.Error("the page differs under load")
		}
	}
	close(stop)
	wg.Wait()
}

// TestHighlightTokensOneByOne checks that the highlighter takes the
// lexer's tokens one at a time and joins a run of one class as a slice of
// the content: a 200 KB line of one token type used to reach it as a
// single token joined by chroma.Coalesce through repeated concatenation
// (a make block of "(((…" took 199 s to render, and the budget was never
// looked at), so the budget is now counted token by token.
func TestHighlightTokensOneByOne(t *testing.T) {
	content := strings.Repeat("(", 10000)
	r := newRenderer(Options{})
	r.hl.tokens = 100
	if got, spent := r.highlight(content, codeOpts{info: "python"}); !spent || len(got) != 1 || got[0].class != "" || got[0].text != content {
		t.Errorf("over the budget: %d pieces, want the plain content", len(got))
	}
	if r.hl.tokens != -1 {
		t.Errorf("the budget of 100 tokens stopped after %d tokens, want 101 (tokens taken one by one)", 100-r.hl.tokens)
	}
	r = newRenderer(Options{})
	r.hl.scan = len(content) * len(content) // a line of n "(" scans about n*n/2 bytes
	got, _ := r.highlight(content, codeOpts{info: "python"})
	if used := maxHighlightTokens - r.hl.tokens; used < 10000 {
		t.Errorf("%d tokens for %d parentheses", used, len(content))
	}
	if len(got) != 1 || got[0].text != content || unsafe.StringData(got[0].text) != unsafe.StringData(content) {
		t.Errorf("a run of one class is not one slice of the content: %d pieces", len(got))
	}
	// A lexer that ends the text with a newline the block lacks
	// (chroma's EnsureNL) still reproduces the block exactly.
	for _, c := range []struct{ info, content string }{
		{"python", "x = 1"}, {"python", "# comment"}, {"go", "// c"}, {"bash", "echo \"a\""}, {"python", "x = 1\n"},
	} {
		var joined strings.Builder
		coloured := false
		pieces, _ := newRenderer(Options{}).highlight(c.content, codeOpts{info: c.info})
		for _, p := range pieces {
			joined.WriteString(p.text)
			coloured = coloured || p.class != ""
		}
		if joined.String() != c.content || !coloured {
			t.Errorf("%s %q: pieces join to %q (coloured %v)", c.info, c.content, joined.String(), coloured)
		}
	}
}

// FuzzHighlight checks the highlighter's pieces for any content in each
// language of a sample: they join to the content exactly (or the content
// is one plain piece), none is empty, two in a row never share a class,
// and each is a slice of the content, not a copy.
func FuzzHighlight(f *testing.F) {
	langs := []string{"python", "go", "js", "c++", "bash", "json", "yaml", "diff", "html", "css", "markdown", "rust", "java", "sql", "ruby", "perl", "toml", "xml", "docker", "make"}
	for i, s := range []string{"x = 1\n", "func f() {}\r\n", "'''\n", "<a href=\"x\">", "\xff\xfe", "-a\n+b\n", "a: [1, 2]", "", "\n", "/* \n"} {
		f.Add(s, uint8(i))
	}
	f.Fuzz(func(t *testing.T, content string, lang uint8) {
		if len(content) > 4096 {
			return
		}
		r := newRenderer(Options{})
		pieces, _ := r.highlight(content, codeOpts{info: langs[int(lang)%len(langs)]})
		var joined strings.Builder
		base := uintptr(unsafe.Pointer(unsafe.StringData(content)))
		for i, p := range pieces {
			joined.WriteString(p.text)
			if p.text == "" && len(pieces) > 1 {
				t.Errorf("piece %d is empty", i)
			}
			if i > 0 && pieces[i-1].class == p.class {
				t.Errorf("pieces %d and %d share the class %q", i-1, i, p.class)
			}
			if at := uintptr(unsafe.Pointer(unsafe.StringData(p.text))); p.text != "" && (at < base || at+uintptr(len(p.text)) > base+uintptr(len(content))) {
				t.Errorf("piece %d is not a slice of the content", i)
			}
		}
		if joined.String() != content {
			t.Errorf("pieces join to %q, want %q", joined.String(), content)
		}
	})
}
