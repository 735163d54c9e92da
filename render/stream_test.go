package render

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/internal/testkit/corpus"
)

// liveSampler is a writer that discards the page and, every so many
// writes, measures the live heap (after a collection).
type liveSampler struct {
	writes, every int
	bytes         int64
	peak          uint64
}

func (s *liveSampler) Write(p []byte) (int, error) {
	s.writes++
	s.bytes += int64(len(p))
	if s.writes%s.every == 0 {
		s.sample()
	}
	return len(p), nil
}

func (s *liveSampler) sample() {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	s.peak = max(s.peak, ms.HeapAlloc)
}

// TestWriteHTMLHoldsOneItem: WriteHTML holds the document and the view of
// the item it writes, not the page: on 1 MiB of small actions (a page of
// about 19 MB) the live heap grows by less than twice the input while it
// writes (the order of the top-level items, about 50 bytes each, is most
// of it). Before, the page held every item's view and then the page
// itself, which alone is 19 times the input.
func TestWriteHTMLHoldsOneItem(t *testing.T) {
	if testing.Short() {
		t.Skip("renders a 19 MB page")
	}
	src := corpus.SmallActs(1 << 20)
	doc, err := grammar.Parse(context.Background(), "small.md", src, grammar.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := &liveSampler{every: 2000}
	s.sample()
	base := s.peak
	if err := WriteHTML(s, doc, src, Options{}); err != nil {
		t.Fatal(err)
	}
	s.sample()
	growth := int64(s.peak) - int64(base)
	t.Logf("input %d bytes, page %d bytes in %d writes, live heap growth %d bytes", len(src), s.bytes, s.writes, growth)
	if s.bytes < 10*int64(len(src)) {
		t.Fatalf("page of %d bytes: the test needs a page far larger than its input", s.bytes)
	}
	if growth > 2*int64(len(src)) {
		t.Errorf("live heap grew by %d bytes while writing a page of %d bytes from %d bytes of input", growth, s.bytes, len(src))
	}
	runtime.KeepAlive(doc)
}

// streamParse returns the Parse of src with opts that WriteHTMLStream
// calls.
func streamParse(src []byte, opts grammar.Options) Parse {
	return func(p Pass) (*ast.Document, error) {
		o := opts
		o.OnAction, o.OnBlock, o.KeepProse, o.ReuseActions = p.OnAction, p.OnBlock, p.KeepProse, true
		return grammar.Parse(context.Background(), "doc.md", src, o)
	}
}

// checkStreamSame checks that WriteHTMLStream writes the page HTML makes
// of the whole tree, byte for byte, and returns the same diagnostics.
func checkStreamSame(t testing.TB, src []byte, popts grammar.Options, opts Options) {
	t.Helper()
	doc, err := grammar.Parse(context.Background(), "doc.md", src, popts)
	if err != nil {
		t.Fatal(err)
	}
	if doc.Dialect == grammar.DialectPlan {
		return
	}
	want, err := HTML(doc, src, opts)
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	sdoc, err := WriteHTMLStream(&got, streamParse(src, popts), opts)
	if err != nil {
		t.Fatalf("%q: %v", src, err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		g, w := got.String(), string(want)
		i := 0
		for i < len(g) && i < len(w) && g[i] == w[i] {
			i++
		}
		t.Fatalf("%s document %q: the streamed page differs from the tree's at byte %d:\nstream: %q\ntree:   %q", doc.Dialect, src, i, g[max(0, i-80):min(len(g), i+120)], w[max(0, i-80):min(len(w), i+120)])
	}
	if len(sdoc.Diagnostics) != len(doc.Diagnostics) {
		t.Fatalf("%d diagnostics streamed, %d in the tree", len(sdoc.Diagnostics), len(doc.Diagnostics))
	}
}

// TestWriteHTMLStreamSame: the streamed page of every golden document of
// the acts dialect and the edit formats (and the render goldens read as
// acts) is the tree's, byte for byte; so are those of generated plans of
// many small actions.
func TestWriteHTMLStreamSame(t *testing.T) {
	var files []string
	for _, pat := range []string{"../golden/acts/*.md", "../golden/render/*.md", "../golden/search-replace/*.md", "../golden/udiff/*.md", "../golden/apply-patch/*.md"} {
		m, _ := filepath.Glob(pat)
		files = append(files, m...)
	}
	if len(files) < 20 {
		t.Fatalf("only %d documents", len(files))
	}
	n := 0
	for _, file := range files {
		if strings.HasSuffix(file, ".golden") {
			continue
		}
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		n++
		checkStreamSame(t, src, grammar.Options{}, Options{Filename: filepath.Base(file)})
		checkStreamSame(t, src, grammar.Options{Dialect: grammar.DialectActs}, Options{NoHighlight: true})
	}
	for _, size := range []int{1000, 20000} {
		checkStreamSame(t, corpus.SmallActs(size), grammar.Options{}, Options{})
		checkStreamSame(t, corpus.Acts(size), grammar.Options{}, Options{})
	}
	t.Logf("%d documents", n)
}

// TestWriteHTMLStreamRefusesPlans: a structured plan needs the whole tree.
func TestWriteHTMLStreamRefusesPlans(t *testing.T) {
	src := corpus.Plan(2000)
	var out bytes.Buffer
	if _, err := WriteHTMLStream(&out, streamParse(src, grammar.Options{Dialect: grammar.DialectPlan}), Options{}); err == nil || out.Len() > 0 {
		t.Fatalf("plan streamed: %v, %d bytes written", err, out.Len())
	}
}

// FuzzRenderStream: the streamed page of any input, read in the dialect
// it is detected as and as fenced acts, is the page of its whole tree.
func FuzzRenderStream(f *testing.F) {
	for _, pat := range []string{"../golden/acts/*.md", "../golden/search-replace/*.md", "../golden/udiff/*.md", "../golden/apply-patch/*.md"} {
		files, _ := filepath.Glob(pat)
		for _, file := range files {
			if data, err := os.ReadFile(file); err == nil {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		checkStreamSame(t, src, grammar.Options{}, Options{})
		checkStreamSame(t, src, grammar.Options{Dialect: grammar.DialectActs}, Options{})
	})
}

// TestHasActBlocksPrefixes: asking ever longer prefixes gives the answer
// of the whole document, whatever crosses a prefix's end: a long block
// that shows act blocks as content, an HTML comment, a line longer than a
// prefix.
func TestHasActBlocksPrefixes(t *testing.T) {
	act := "~~~act\nwrite_file a\n~~~\n"
	prose := strings.Repeat("Some prose about the change.\n\n", 3000) // 90 KB
	content := strings.Repeat("text\n"+act, 4000)                     // 100 KB
	for _, c := range []struct {
		name, src string
		want      bool
	}{
		{"act after long prose", prose + act, true},
		{"act at the start", act + prose, true},
		{"no act", prose, false},
		{"acts shown inside a long block", "````markdown\n" + content + "````\n", false},
		{"acts shown, then a real one", "````markdown\n" + content + "````\n" + act, true},
		{"acts shown in an unclosed block", "````markdown\n" + content, false},
		{"acts in a long HTML comment", "<!--\n" + content + "-->\n", false},
		{"acts in a long HTML comment, then one", "<!--\n" + content + "-->\n\n" + act, true},
		{"a line longer than a prefix", strings.Repeat("x", 300<<10) + "\n\n" + act, true},
		{"a long line and no act", strings.Repeat("x", 300<<10), false},
	} {
		if got, whole := HasActBlocks([]byte(c.src)), hasActBlocks([]byte(c.src)); got != c.want || whole != c.want {
			t.Errorf("%s: HasActBlocks %v, whole document %v, want %v", c.name, got, whole, c.want)
		}
	}
}

// TestWriteHTMLStreamChanged: a Parse whose later pass reads another
// document is an error, not a page that mixes two documents.
func TestWriteHTMLStreamChanged(t *testing.T) {
	docs := [][]byte{corpus.SmallActs(2000), corpus.SmallActs(1000)}
	for _, order := range [][2]int{{0, 1}, {1, 0}} {
		calls := 0
		parse := func(p Pass) (*ast.Document, error) {
			src := docs[order[min(calls, 1)]]
			calls++
			return streamParse(src, grammar.Options{})(p)
		}
		if _, err := WriteHTMLStream(io.Discard, parse, Options{}); !errors.Is(err, errChanged) {
			t.Errorf("passes over %d then %d bytes: %v", len(docs[order[0]]), len(docs[order[1]]), err)
		}
	}
}
