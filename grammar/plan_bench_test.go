package grammar

import (
	"context"
	"testing"

	"github.com/yuin/goldmark"
	gast "github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"

	"github.com/plangram/plangram/internal/corpus"
)

// TestBenchPlanIsValid keeps the benchmark honest: the generated plan must
// parse without a single diagnostic.
func TestBenchPlanIsValid(t *testing.T) {
	src := corpus.Plan(200 << 10)
	doc, err := ParsePlan(context.Background(), "bench.md", src, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Diagnostics) > 0 || len(doc.Actions) < 100 {
		t.Fatalf("%d actions, diagnostics: %v", len(doc.Actions), doc.Diagnostics[0].Format("bench.md"))
	}
	if Detect(src) != DialectPlan {
		t.Fatal("the benchmark plan is not detected as a plan")
	}
}

// BenchmarkPlan parses a 5 MB structured Markdown plan with plangram and,
// as the baseline a user would otherwise write, with goldmark walking its
// AST to every heading, list item and fenced block and reading the blocks'
// content.
func BenchmarkPlan(b *testing.B) {
	src := corpus.Plan(benchSize)
	b.Run("plangram", func(b *testing.B) {
		p, err := NewPlanParser(nil)
		if err != nil {
			b.Fatal(err)
		}
		ctx := context.Background()
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		for b.Loop() {
			doc, err := p.Parse(ctx, "bench.md", src)
			if err != nil || len(doc.Actions) == 0 || len(doc.Diagnostics) > 0 {
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
			nodes, size := 0, 0
			_ = gast.Walk(root, func(n gast.Node, entering bool) (gast.WalkStatus, error) {
				if !entering {
					return gast.WalkContinue, nil
				}
				switch n := n.(type) {
				case *gast.Heading, *gast.ListItem:
					nodes++
				case *gast.FencedCodeBlock:
					nodes++
					_ = n.Language(src)
					lines := n.Lines()
					for i := 0; i < lines.Len(); i++ {
						seg := lines.At(i)
						size += len(seg.Value(src))
					}
				}
				return gast.WalkContinue, nil
			})
			if nodes == 0 {
				b.Fatal("no nodes")
			}
		}
	})
}
