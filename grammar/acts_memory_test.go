package grammar

import (
	"context"
	"io"
	"runtime"
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/internal/testkit/corpus"
)

// allocatedBy returns the bytes and the number of objects f allocates.
func allocatedBy(f func()) (bytes, objects uint64) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc, after.Mallocs - before.Mallocs
}

// TestActsMemoryLinear pins the acts parse's memory (issue 29's floor):
// parsing allocates at most 4 times the input (participle's token buffer
// and parse, and the document's nodes; its strings share the input),
// parsing and writing the JSON output at most that plus the writer's 64
// KiB buffer, and four times the input allocates four times the bytes and
// objects (linear). Bytes and objects allocated, not time.
func TestActsMemoryLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates 5 MB documents")
	}
	ctx := context.Background()
	parse := func(src []byte, json bool) func() {
		return func() {
			doc, err := Parse(ctx, "m.md", src, Options{Dialect: DialectActs})
			if err != nil || len(doc.Actions) == 0 {
				t.Fatalf("%v", err)
			}
			if json {
				if err := ast.WriteJSON(io.Discard, doc, false); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	small, large := corpus.Acts(1<<20), corpus.Acts(4<<20)
	parse(small, true)() // first use: built-in schema and the like
	sb, so := allocatedBy(parse(small, false))
	lb, lo := allocatedBy(parse(large, false))
	jb, _ := allocatedBy(parse(large, true))
	t.Logf("parse: %d bytes, %d objects for %d bytes; %d bytes, %d objects for %d bytes; with JSON %d bytes",
		sb, so, len(small), lb, lo, len(large), jb)
	if r := float64(lb) / float64(len(large)); r > 4 {
		t.Errorf("parse allocated %.2f × the input, want at most 4 ×", r)
	}
	if r := float64(jb) / float64(len(large)); jb > lb+256<<10 || r > 4 {
		t.Errorf("parse and JSON allocated %.2f × the input (%d bytes more than the parse)", r, jb-lb)
	}
	n := float64(len(large)) / float64(len(small))
	for _, r := range []float64{float64(lb) / float64(sb) / n, float64(lo) / float64(so) / n} {
		if r < 0.85 || r > 1.15 {
			t.Errorf("4n/n allocation ratio %.2f of linear (bytes %d → %d, objects %d → %d)", r, sb, lb, so, lo)
		}
	}
}

// TestActsListMarkersLinear checks that blocks opened on list items'
// marker lines (each with a prose node for its markers) cost linear
// memory: four times the input allocates four times the bytes and
// objects.
func TestActsListMarkersLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates 4 MB documents")
	}
	ctx := context.Background()
	parse := func(src []byte) func() {
		return func() {
			doc, err := Parse(ctx, "m.md", src, Options{Dialect: DialectActs})
			if err != nil || len(doc.Actions) == 0 || len(doc.Diagnostics) > 0 {
				t.Fatalf("%v %v", err, doc.Diagnostics)
			}
		}
	}
	small, large := markerSteps(1<<20), markerSteps(4<<20)
	parse(small)()
	sb, so := allocatedBy(parse(small))
	lb, lo := allocatedBy(parse(large))
	t.Logf("%d bytes, %d objects for %d bytes; %d bytes, %d objects for %d bytes", sb, so, len(small), lb, lo, len(large))
	n := float64(len(large)) / float64(len(small))
	for _, r := range []float64{float64(lb) / float64(sb) / n, float64(lo) / float64(so) / n} {
		if r < 0.85 || r > 1.15 {
			t.Errorf("4n/n allocation ratio %.2f of linear (bytes %d → %d, objects %d → %d)", r, sb, lb, so, lo)
		}
	}
}
