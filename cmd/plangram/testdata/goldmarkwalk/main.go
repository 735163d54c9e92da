// Command goldmarkwalk is the whole-process baseline of
// BenchmarkProcess: it reads a Markdown file, parses it with goldmark and
// walks the tree to every fenced block's info string and content, as a Go
// user would in an afternoon. It prints the number of blocks and bytes.
package main

import (
	"fmt"
	"os"

	"github.com/yuin/goldmark"
	gast "github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: goldmarkwalk FILE")
		os.Exit(2)
	}
	src, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	root := goldmark.New().Parser().Parse(text.NewReader(src))
	blocks, size := 0, 0
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
	fmt.Println(blocks, size)
}
