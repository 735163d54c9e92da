package jsonargs

import (
	"fmt"
	"strings"
	"testing"
)

// args returns a write_file argument object of about size bytes whose
// content has escapes on every line.
func args(size int) []byte {
	var b strings.Builder
	b.WriteString(`{"path": "src/big.go", "content": "`)
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, `func f%d() string { return \"caf\u00e9\" }\n`, i)
	}
	b.WriteString(`", "line": 12, "opts": {"a": [1, 2, 3]}}`)
	return []byte(b.String())
}

// BenchmarkFeed reads arguments of 50 KiB to 10 MB in 20-byte chunks: the
// time per byte stays flat (linear in the input).
func BenchmarkFeed(b *testing.B) {
	for _, size := range []int{50 << 10, 100 << 10, 200 << 10, 10 << 20} {
		in := args(size)
		b.Run(fmt.Sprintf("%dKiB/20-byte-chunks", size>>10), func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			for b.Loop() {
				p := New(Options{}, func(Event) {})
				for i := 0; i < len(in); i += 20 {
					p.Feed(in[i:min(i+20, len(in))])
				}
				p.Close()
			}
		})
	}
}
