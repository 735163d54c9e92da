package render

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/plangram/plangram/grammar"
)

// TestConcurrentPages renders the golden documents from several
// goroutines at once, which share chroma's lexers, and checks each page is
// the page rendered alone.
func TestConcurrentPages(t *testing.T) {
	var files []string
	for _, pat := range []string{"../golden/render/*.md", "../golden/acts/*.md", "../golden/plan/*.md"} {
		m, _ := filepath.Glob(pat)
		files = append(files, m...)
	}
	if len(files) < 20 {
		t.Fatalf("only %d golden documents", len(files))
	}
	type page struct {
		name    string
		html    bool
		src     []byte
		want    []byte
		colored bool
	}
	render := func(p page) []byte {
		opts := Options{Filename: p.name}
		if !p.html {
			out, err := Markdown(p.src, opts)
			if err != nil {
				t.Fatal(err)
			}
			return out
		}
		doc, err := grammar.Parse(context.Background(), p.name, p.src, grammar.Options{})
		if err != nil {
			t.Fatal(err)
		}
		out, err := HTML(doc, p.src, opts)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	var pages []page
	colored := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, html := range []bool{true, false} {
			p := page{name: f, html: html, src: src}
			p.want = render(p)
			if bytes.Contains(p.want, []byte(`<span class="t-`)) {
				colored++
			}
			pages = append(pages, p)
		}
	}
	if colored < 5 {
		t.Fatalf("only %d pages have syntax colours: the test would not see a lexer shared wrongly", colored)
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range pages {
				p := pages[(i*7+g*13)%len(pages)] // each goroutine in its own order
				if got := render(p); !bytes.Equal(got, p.want) {
					t.Errorf("%s (html=%v): page differs when rendered concurrently", p.name, p.html)
				}
			}
		}()
	}
	wg.Wait()
}
