package render_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/render"
)

// Render a plan as a review page: one card per action, every plan byte
// escaped, nothing that could run.
func ExampleHTML() {
	src := []byte("Fix the greeting.\n\n~~~act\nwrite_file hello.html\n~~~\n~~~html\n<script>alert('hi')</script>\n~~~\n")
	doc, err := grammar.Parse(context.Background(), "plan.md", src, grammar.Options{})
	if err != nil {
		panic(err)
	}
	page, err := render.HTML(doc, src, render.Options{Title: "plan.md", NoHighlight: true})
	if err != nil {
		panic(err)
	}
	html := string(page)
	fmt.Println("cards:", strings.Count(html, `<article class="action"`))
	fmt.Println("script elements:", strings.Count(html, "<script"))
	fmt.Println(strings.Contains(html, `<span class="line">&lt;script&gt;alert(&#39;hi&#39;)&lt;/script&gt;</span>`))
	// Output:
	// cards: 1
	// script elements: 0
	// true
}

// pieces counts what a writer was given.
type pieces struct {
	writes int
	page   strings.Builder
}

func (p *pieces) Write(b []byte) (int, error) {
	p.writes++
	return p.page.Write(b)
}

// Write a page as it is rendered, to any io.Writer (a file, an HTTP
// response): the head with the summary, each top-level item (here two
// action cards, each written as its head, each block, its end), the foot.
// Neither the page nor a card is ever held whole, and the bytes are those
// HTML returns.
func ExampleWriteHTML() {
	src := []byte("~~~act\nwrite_file a.txt\n~~~\n~~~\nA\n~~~\n~~~act\nwrite_file b.txt\n~~~\n~~~\nB\n~~~\n")
	doc, err := grammar.Parse(context.Background(), "plan.md", src, grammar.Options{})
	if err != nil {
		panic(err)
	}
	var w pieces
	if err := render.WriteHTML(&w, doc, src, render.Options{NoHighlight: true}); err != nil {
		panic(err)
	}
	whole, _ := render.HTML(doc, src, render.Options{NoHighlight: true})
	fmt.Println("writes:", w.writes)
	fmt.Println("cards:", strings.Count(w.page.String(), `<article class="action"`))
	fmt.Println("same as HTML:", w.page.String() == string(whole))
	// Output:
	// writes: 8
	// cards: 2
	// same as HTML: true
}

// Render a plain Markdown document (a README, a page of docs) with the same
// safety rules: raw HTML is shown as text, javascript: links lose their href.
func ExampleMarkdown() {
	page, err := render.Markdown([]byte("# Notes\n\n<img src=x onerror=alert(1)> [click](javascript:alert(1))\n"), render.Options{})
	if err != nil {
		panic(err)
	}
	html := string(page)
	fmt.Println(strings.Contains(html, "<title>Notes · plangram</title>"))
	fmt.Println(strings.Contains(html, "&lt;img src=x onerror=alert(1)&gt;"))
	fmt.Println(strings.Contains(html, `<span class="link-removed"`), strings.Contains(html, "javascript:"))
	// Output:
	// true
	// true
	// true false
}

// HasActBlocks tells a fenced-acts plan from a page that only shows acts
// inside other code blocks.
func ExampleHasActBlocks() {
	fmt.Println(render.HasActBlocks([]byte("~~~act\nend\n~~~\n")))
	fmt.Println(render.HasActBlocks([]byte("````markdown\n~~~act\nend\n~~~\n````\n")))
	// Output:
	// true
	// false
}
