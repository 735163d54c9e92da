package stream

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
)

// openAIOneParam is a call of the tools syntax whose content parameter
// holds n bytes (lines of 16), as a model streams a file it writes.
func openAIOneParam(n int) []byte {
	return []byte("<write_to_file><path>a.go</path><content>" + strings.Repeat("xxxxxxxxxxxxxxx\n", n/16) + "</content></write_to_file>\n")
}

// feedOpenAI parses in, in chunks of the given size, and writes the events
// as OpenAI chunks to io.Discard, as `plangram stream --format openai
// --chunk N` does.
func feedOpenAI(tb testing.TB, in []byte, chunk int) {
	w := NewOpenAIWriter(io.Discard, "c", "m", 0)
	p, err := New(Options{Syntax: "tools"}, w.Write)
	if err != nil {
		tb.Fatal(err)
	}
	for i := 0; i < len(in); i += chunk {
		if _, err := p.Write(in[i:min(i+chunk, len(in))]); err != nil {
			tb.Fatal(err)
		}
	}
	if err := p.Close(); err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkOpenAIScaling streams one parameter of n, 2n and 4n bytes in
// 16-byte chunks (one delta each) through the OpenAI writer: the time per
// byte stays flat. The writer grew the parameter's text with += on a
// string, so a parameter of n deltas cost O(n²): `plangram stream
// --chunk 16 --format openai` took 9.8 s for 256 KiB and 49.9 s for 1 MiB.
func BenchmarkOpenAIScaling(b *testing.B) {
	for _, size := range []int{256 << 10, 512 << 10, 1 << 20} {
		in := openAIOneParam(size)
		b.Run(fmt.Sprintf("%dKiB", size>>10), func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			for b.Loop() {
				feedOpenAI(b, in, 16)
			}
		})
	}
}

// TestOpenAIWriterLinear bounds the bytes the OpenAI writer allocates for
// one parameter streamed in 16-byte deltas: 4× the parameter costs at most
// 5× the bytes (a string grown by += per delta cost 16×).
func TestOpenAIWriterLinear(t *testing.T) {
	allocated := func(n int) uint64 {
		in := openAIOneParam(n)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		feedOpenAI(t, in, 16)
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	small, big := allocated(32<<10), allocated(128<<10)
	if big > 5*small {
		t.Errorf("one parameter of 32 KiB allocates %d bytes, of 128 KiB %d (%.1f×)", small, big, float64(big)/float64(small))
	}
}
