package grammar

import (
	"context"
	"io"
	"testing"

	"github.com/yuin/goldmark"
	gast "github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/internal/corpus"
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
			root := md.Parser().Parse(text.NewReader(src))
			size := 0
			_ = gast.Walk(root, func(n gast.Node, entering bool) (gast.WalkStatus, error) {
				if fc, ok := n.(*gast.FencedCodeBlock); ok && entering {
					_ = fc.Language(src)
					lines := fc.Lines()
					for i := 0; i < lines.Len(); i++ {
						seg := lines.At(i)
						size += len(seg.Value(src))
					}
				}
				return gast.WalkContinue, nil
			})
			if size == 0 {
				b.Fatal("no blocks")
			}
		}
	})
}
