// Command goldmarkwalk is the whole-process baseline of
// BenchmarkProcess: it reads a Markdown file, parses it with goldmark and
// walks the tree to every fenced block's info string and content, as a Go
// user would in an afternoon (benchutil.GoldmarkFences, also the
// in-process baseline of BenchmarkActs and BenchmarkParseJSON). It prints
// the number of blocks and bytes.
package main

import (
	"fmt"
	"os"

	"github.com/yuin/goldmark"

	"github.com/plangram/plangram/internal/testkit/benchutil"
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
	blocks, size := benchutil.GoldmarkFences(goldmark.New(), src)
	fmt.Println(blocks, size)
}
