// Package benchutil holds what the benchmarks of several packages share:
// the goldmark baseline plangram's parsers are measured against
// (docs/benchmarks.md). Benchmarks and the baseline program
// cmd/plangram/testdata/goldmarkwalk import it; the library and the
// plangram command never do.
package benchutil

import (
	"github.com/yuin/goldmark"
	gast "github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// GoldmarkFences is the baseline a Go user would otherwise write in an
// afternoon: md parses src and the tree is walked to every fenced code
// block, reading its info string and its content. It returns the number of
// fenced blocks and the bytes of their content.
func GoldmarkFences(md goldmark.Markdown, src []byte) (blocks, size int) {
	root := md.Parser().Parse(text.NewReader(src))
	_ = gast.Walk(root, func(n gast.Node, entering bool) (gast.WalkStatus, error) {
		if fc, ok := n.(*gast.FencedCodeBlock); ok && entering {
			blocks++
			_ = fc.Language(src)
			lines := fc.Lines()
			for i := 0; i < lines.Len(); i++ {
				seg := lines.At(i)
				size += len(seg.Value(src))
			}
		}
		return gast.WalkContinue, nil
	})
	return blocks, size
}
