package grammar

import (
	"context"
	"io"
	"testing"

	"github.com/yuin/goldmark"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/internal/testkit/benchutil"
	"github.com/plangram/plangram/internal/testkit/corpus"
)

// BenchmarkParseJSON is `plangram parse --format json` in process on a
// 10 MB acts document: parse plus the direct JSON writer (parse+json), the
// writer alone on the parsed tree (json) and, as the baseline,
// goldmark parsing the same bytes and walking its AST to every fenced
// block's content (goldmark).
func BenchmarkParseJSON(b *testing.B) {
	src := corpus.Acts(10 << 20)
	ctx := context.Background()
	doc, err := Parse(ctx, "bench.md", src, Options{Dialect: DialectActs})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("parse+json", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		for b.Loop() {
			d, err := Parse(ctx, "bench.md", src, Options{Dialect: DialectActs})
			if err != nil {
				b.Fatal(err)
			}
			if err := ast.WriteJSON(io.Discard, d, false); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		for b.Loop() {
			if err := ast.WriteJSON(io.Discard, doc, false); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("goldmark", func(b *testing.B) {
		md := goldmark.New()
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		for b.Loop() {
			_, size := benchutil.GoldmarkFences(md, src)
			if size == 0 {
				b.Fatal("no blocks")
			}
		}
	})
}
