package render

import (
	"bytes"
	"context"

	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

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

// FuzzRenderStream: the page of any input, read in the dialect it is
// detected as and as fenced acts, is written without error, and WriteHTML
// writes the bytes HTML returns.
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
		for _, popts := range []grammar.Options{{}, {Dialect: grammar.DialectActs}} {
			doc, err := grammar.Parse(context.Background(), "fuzz.md", src, popts)
			if err != nil {
				t.Fatal(err)
			}
			page, err := HTML(doc, src, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var w bytes.Buffer
			if err := WriteHTML(&w, doc, src, Options{}); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(w.Bytes(), page) {
				t.Fatalf("WriteHTML wrote %d bytes, HTML returned %d", w.Len(), len(page))
			}
		}
	})
}

// TestHasActBlocksLong: act blocks are found or not whatever is around
// them: a long block that shows act blocks as content, an HTML comment, a
// long line.
func TestHasActBlocksLong(t *testing.T) {
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
		if got := HasActBlocks([]byte(c.src)); got != c.want {
			t.Errorf("%s: HasActBlocks %v, want %v", c.name, got, c.want)
		}
	}
}
