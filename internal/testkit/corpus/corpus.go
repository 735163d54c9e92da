// Package corpus generates large, realistic plan documents for benchmarks
// and tests. Output is deterministic for a given size.
package corpus

import (
	"fmt"
	"strings"
)

// Acts returns a fenced-acts document of at least size bytes: prose, acts
// with inline and block arguments, indented code, info strings and nested
// fences of other lengths inside content, like LLM plans in the wild.
func Acts(size int) []byte {
	var b strings.Builder
	b.Grow(size + 4096)
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "## Step %d\n\nWe update module %d so the parser keeps every byte.\nThis prose sits between acts and must be kept.\n\n", i, i)
		switch i % 4 {
		case 0:
			fmt.Fprintf(&b, "~~~~~act\nwrite_file\n~~~~~\n~~~~~\nsrc/pkg%d/file%d.py\n~~~~~\n~~~~~python\n", i%50, i)
			for j := 0; j < 30; j++ {
				fmt.Fprintf(&b, "    def func_%d_%d(self, value):  \n        return value * %d\t# keep tabs and trailing spaces\n", i, j, j)
			}
			b.WriteString("~~~~~\n\n")
		case 1:
			fmt.Fprintf(&b, "~~~~~act\npatch_file src/pkg%d/file%d.py\n~~~~~\n~~~~~python.old\n", i%50, i-1)
			for j := 0; j < 10; j++ {
				fmt.Fprintf(&b, "        return value * %d\n", j)
			}
			b.WriteString("~~~~~\n~~~~~python.new\n")
			for j := 0; j < 10; j++ {
				fmt.Fprintf(&b, "        return value * %d + 1\n", j)
			}
			b.WriteString("~~~~~\n\n")
		case 2:
			fmt.Fprintf(&b, "~~~~~act\nwrite_file\ndocs/page%d.md\n~~~~~\n~~~~~~markdown\n# Page %d\n\n~~~~~act\nexample_only\n~~~~~\n\n```go\nfunc main() {}\n```\n~~~~~~\n\n", i, i)
		case 3:
			fmt.Fprintf(&b, "~~~~~act\nrun_command \"go test ./pkg%d/...\"\n~~~~~\n\n", i%50)
		}
	}
	return []byte(b.String())
}

// SmallActs returns a fenced-acts document of at least size bytes made of
// many small actions: each a write_file act block naming its path and a
// one-line content block (about 66 bytes an action, a blank line between
// them). It is the worst case for memory per input byte: the tree of each
// action is several times its text.
func SmallActs(size int) []byte {
	b := make([]byte, 0, size+128)
	for i := 0; len(b) < size; i++ {
		b = fmt.Appendf(b, "~~~act\nwrite_file src/pkg%d/file%d.txt\n~~~\n~~~\nline %d\n~~~\n\n", i%50, i, i)
	}
	return b
}
