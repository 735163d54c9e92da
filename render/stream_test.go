package render

import (
	"context"
	"runtime"
	"testing"

	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/internal/corpus"
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
