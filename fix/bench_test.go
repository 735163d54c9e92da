package fix

import (
	"fmt"
	"strings"
	"testing"

	"github.com/plangram/plangram/grammar"
)

// actsRepairs returns a fenced-acts document of n argument blocks, each
// needing one repair: alternately a closing fence with text that swallows
// the next act block, and an improperly nested block.
func actsRepairs(n int) []byte {
	var b strings.Builder
	b.WriteString("```act\nwrite_file a\n```\n")
	for i := range n {
		if i%2 == 0 {
			b.WriteString("```\nhello\n``` end of file\n```act\necho\n```\n")
		} else {
			b.WriteString("```md\n```go\nx\n```\n```\n")
		}
	}
	return []byte(b.String())
}

// BenchmarkFixActs: fix on n, 2n and 4n repairs of the acts dialect;
// time per op grows linearly (each repaired block is final at once).
func BenchmarkFixActs(b *testing.B) {
	for _, n := range []int{2000, 4000, 8000} {
		src := actsRepairs(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				if _, r := Apply(src, grammar.DialectActs); countRepairs(r) < n {
					b.Fatalf("%d repairs, want %d", countRepairs(r), n)
				}
			}
		})
	}
}

// planRepairs returns a plan of n CREATE sections whose closing fences
// carry trailing text (each block runs on over the next ones until
// repaired), each needing one fence-trailing-text repair.
func planRepairs(n int) []byte {
	var b strings.Builder
	b.WriteString("# Test plan\n\n- **Status:** Green\n- **Agent:** Developer\n- **Goal:** Exercise.\n\n## Action Plan\n\n")
	for i := range n {
		fmt.Fprintf(&b, "### `CREATE`\n- **File Path:** a%d.py\n\n```python\nx = %d\n``` <- end of the file\n\n", i, i)
	}
	return []byte(b.String())
}

// BenchmarkFixPlan: fix on n, 2n and 4n fence repairs of the plan
// dialect, each of which left its block unclosed to the end of the
// document: each repair rescans and rebuilds the text, so time grows with
// repairs × size, within the work budget (fixer.fences).
func BenchmarkFixPlan(b *testing.B) {
	for _, n := range []int{100, 200, 400} {
		src := planRepairs(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				if _, r := Apply(src, grammar.DialectPlan); countRepairs(r) < n {
					b.Fatalf("%d repairs, want %d", countRepairs(r), n)
				}
			}
		})
	}
}

// BenchmarkFixActsUnclosed: fix on an acts document of n, 2n and 4n
// blocks whose closing lines carry text (each block unclosed until its
// repair, so read to the end of the document): quadratic, within the work
// budget (fixer.actsFences).
func BenchmarkFixActsUnclosed(b *testing.B) {
	for _, n := range []int{2000, 4000, 8000} {
		src := []byte("```act\nwrite_file a\n```\n" + strings.Repeat("```py\nx\n", n))
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				if _, r := Apply(src, grammar.DialectActs); countRepairs(r) < n/2-1 {
					b.Fatalf("%d repairs, want %d", countRepairs(r), n/2)
				}
			}
		})
	}
}
