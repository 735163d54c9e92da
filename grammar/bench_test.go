package grammar

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/yuin/goldmark"

	"github.com/plangram/plangram/internal/testkit/benchutil"
	"github.com/plangram/plangram/internal/testkit/corpus"
	"github.com/plangram/plangram/schema"
)

const benchSize = 5 << 20

// BenchmarkActs parses a 5 MB fenced-acts document with plangram and, as the
// baseline a user would otherwise write, with goldmark walking its AST to
// every fenced block and reading its content.
func BenchmarkActs(b *testing.B) {
	src := corpus.Acts(benchSize)
	p := benchActsParser(b)
	ctx := context.Background()
	b.Run("plangram", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		defer benchutil.ReportCPU(b)()
		for b.Loop() {
			doc, err := p.Parse(ctx, "bench.md", src)
			if err != nil || len(doc.Actions) == 0 {
				b.Fatal(err)
			}
		}
	})
	b.Run("goldmark", func(b *testing.B) {
		md := goldmark.New()
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		defer benchutil.ReportCPU(b)()
		for b.Loop() {
			if blocks, _ := benchutil.GoldmarkFences(md, src); blocks == 0 {
				b.Fatal("no blocks")
			}
		}
	})
}

// BenchmarkActsScaling parses acts documents of n, 2n and 4n bytes: the
// time and the allocations per op double with the input (linear).
func BenchmarkActsScaling(b *testing.B) {
	p := benchActsParser(b)
	ctx := context.Background()
	for _, n := range []int{1 << 20, 2 << 20, 4 << 20} {
		src := corpus.Acts(n)
		b.Run(fmt.Sprintf("%dMiB", n>>20), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			defer benchutil.ReportCPU(b)()
			for b.Loop() {
				if _, err := p.Parse(ctx, "bench.md", src); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// markerSteps returns an acts document of about n bytes: numbered steps,
// each an act block on its list item's marker line and an argument block,
// some under a nested bullet.
func markerSteps(n int) []byte {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "%d. ```act\n   write_file src/step_%d.py\n   ```\n   - ```python\n     print(\"step %d\")\n     ```\n", i%9+1, i, i)
	}
	return []byte(b.String())
}

// BenchmarkActsListMarkers parses acts documents of n, 2n and 4n bytes of
// blocks opened on list items' marker lines (markerSteps): the time and
// the allocations per op double with the input (TestActsListMarkersLinear).
func BenchmarkActsListMarkers(b *testing.B) {
	p := benchActsParser(b)
	ctx := context.Background()
	for _, n := range []int{1 << 20, 2 << 20, 4 << 20} {
		src := markerSteps(n)
		b.Run(fmt.Sprintf("%dMiB", n>>20), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := p.Parse(ctx, "bench.md", src); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// benchActsParser returns an acts parser of the built-in acts schema that
// detects the fence character.
func benchActsParser(b *testing.B) *ActsParser {
	s, err := schema.Builtin(DialectActs)
	if err != nil {
		b.Fatal(err)
	}
	p, err := NewActsParser(0, s)
	if err != nil {
		b.Fatal(err)
	}
	return p
}

// hiddenQuoted returns an acts document of about n bytes whose act blocks
// alternate between the inside of one long HTML comment (hidden-act
// warnings) and block quotes (quoted-act warnings).
func hiddenQuoted(n int) []byte {
	var b strings.Builder
	b.WriteString("<!--\n")
	for b.Len() < n/2 {
		b.WriteString("~~~act\necho hi\n~~~\n")
	}
	b.WriteString("-->\n")
	for b.Len() < n {
		b.WriteString("> ~~~act\n> echo hi\n> ~~~\n")
	}
	return []byte(b.String())
}

// BenchmarkActsHiddenQuoted parses documents of n, 2n and 4n bytes full of
// hidden-act and quoted-act warnings (hiddenQuoted): the time and the
// allocations per op double with the input (the HTML comment's opening
// line is looked up once, not once per act block after it).
func BenchmarkActsHiddenQuoted(b *testing.B) {
	p := benchActsParser(b)
	ctx := context.Background()
	for _, n := range []int{256 << 10, 512 << 10, 1 << 20} {
		src := hiddenQuoted(n)
		b.Run(fmt.Sprintf("%dKiB", n>>10), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := p.Parse(ctx, "bench.md", src); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
