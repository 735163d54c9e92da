package stream

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// hostileInputs are inputs that made a syntax's work grow faster than the
// input (each fixed; see docs/stream.md, "Bounded look-ahead" and
// "Provider APIs"): a marker whose bounded look-ahead was not bounded,
// a wait on white space that counted the run again on every chunk, and
// API streams with many calls open at once. Each takes a size in bytes.
var hostileInputs = []struct {
	name, syntax string
	chunk        int
	gen          func(n int) []byte
}{
	{"harmony-long-headers", "harmony", 1 << 20, func(n int) []byte {
		return repeatTo("<|channel|>"+strings.Repeat("x", 300), n, "<|message|>")
	}},
	{"kimi-k2-long-sections", "kimi-k2", 1 << 20, func(n int) []byte {
		return repeatTo("<|tool_calls_section_begin|>"+strings.Repeat("x", 300), n, "<|tool_call_end|>")
	}},
	{"kimi-k2-long-headers", "kimi-k2", 1 << 20, func(n int) []byte {
		return repeatTo("<|tool_call_begin|>"+strings.Repeat("x", 300)+"<|tool_call_end|>", n, "<|tool_call_argument_begin|>")
	}},
	{"kimi-k2-unclosed-calls", "kimi-k2", 1 << 20, func(n int) []byte { // each call ended by the next one's marker
		return repeatTo("<think>x<|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{\"a\": \"b\"}", n, "")
	}},
	{"kimi-k2-bare-counters", "kimi-k2", 1 << 20, func(n int) []byte { // each call named by its arguments
		return repeatTo("<|tool_call_begin|>0<|tool_call_argument_begin|>{\"path\": \"a\", \"content\": \"b\"}<|tool_call_end|>", n, "")
	}},
	{"deepseek-long-names", "deepseek", 1 << 20, func(n int) []byte {
		return repeatTo(dsCallBegin+"function"+dsSep+strings.Repeat("x", 300)+dsCallEnd, n, "\n")
	}},
	{"hermes-space-wait", "hermes", 1, func(n int) []byte { return spaceAfter("<tool_call>", n) }},
	{"llama-space-wait", "llama", 1, func(n int) []byte { return spaceAfter("[read_file(path='a'),", n) }},
	{"deepseek-space-wait", "deepseek", 1, func(n int) []byte { return spaceAfter(dsCallBegin+"function"+dsSep+"f\n", n) }},
	{"mistral-space-wait", "mistral", 1, func(n int) []byte { return spaceAfter("[TOOL_CALLS]", n) }},
	{"hermes-many-params", "hermes", 1 << 20, func(n int) []byte {
		return []byte(`<tool_call>{"name": "f", "arguments": {` + manyMembers(n, `"p%d": "v", `) + `"z": "v"}}</tool_call>`)
	}},
	{"anthropic-xml-many-params", "anthropic-xml", 1 << 20, func(n int) []byte {
		return []byte(`<function_calls><invoke name="nope">` + manyMembers(n, `<parameter name="p%d">v</parameter>`) + `</invoke></function_calls>`)
	}},
	{"openai-chat-many-keys", "openai-chat", 1 << 20, func(n int) []byte {
		return []byte(`data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c","function":{"name":"f","arguments":"{` +
			manyMembers(n, `\"p%d\": \"v\", `) + `\"z\": 1}"}}]}}]}` + "\n\n")
	}},
	{"openai-chat-open-calls", "openai-chat", 1 << 20, func(n int) []byte {
		var b strings.Builder
		for i := 0; b.Len() < n/2; i++ { // calls of choice 0 left open, then finish_reasons of choice 1
			fmt.Fprintf(&b, "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":%d,\"id\":\"c%d\",\"function\":{\"name\":\"f\",\"arguments\":\"{\"}}]}}]}\n\n", i, i)
		}
		for b.Len() < n {
			b.WriteString("data: {\"choices\":[{\"index\":1,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n")
		}
		return []byte(b.String())
	}},
	{"anthropic-open-blocks", "anthropic", 1 << 20, func(n int) []byte {
		var b strings.Builder
		k := 0
		for ; b.Len() < n/2; k++ {
			fmt.Fprintf(&b, "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":%d,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t%d\",\"name\":\"f\",\"input\":{}}}\n\n", k, k)
		}
		for i := k - 1; i >= 0; i-- { // stopped last first
			fmt.Fprintf(&b, "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":%d}\n\n", i)
		}
		return []byte(b.String())
	}},
	{"openai-responses-open-items", "openai-responses", 1 << 20, func(n int) []byte {
		var b strings.Builder
		k := 0
		for ; b.Len() < n/2; k++ {
			fmt.Fprintf(&b, "event: response.output_item.added\ndata: {\"type\":\"response.output_item.added\",\"output_index\":%d,\"item\":{\"type\":\"function_call\",\"call_id\":\"c%d\",\"name\":\"f\",\"arguments\":\"\"}}\n\n", k, k)
		}
		for i := 0; b.Len() < n; i = (i + 7) % k { // deltas found by output index
			fmt.Fprintf(&b, "event: response.function_call_arguments.delta\ndata: {\"type\":\"response.function_call_arguments.delta\",\"output_index\":%d,\"delta\":\" \"}\n\n", i)
		}
		return []byte(b.String())
	}},
}

// manyMembers writes format with 0, 1, 2… up to about n bytes.
func manyMembers(n int, format string) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, format, i)
	}
	return b.String()
}

// repeatTo repeats unit up to about n bytes and ends with tail.
func repeatTo(unit string, n int, tail string) []byte {
	return []byte(strings.Repeat(unit, max(1, n/len(unit))) + tail)
}

// spaceAfter is pre and white space up to about n bytes.
func spaceAfter(pre string, n int) []byte {
	return []byte(pre + strings.Repeat(" \n", max(0, n-len(pre))/2))
}

// BenchmarkHostile parses each hostile input at n, 2n and 4n bytes (64,
// 128 and 256 KiB; 1-byte chunks where the input waits on white space,
// one chunk where it is a look-ahead): the time per byte stays flat.
func BenchmarkHostile(b *testing.B) {
	for _, h := range hostileInputs {
		for _, size := range []int{64 << 10, 128 << 10, 256 << 10} {
			in := h.gen(size)
			b.Run(fmt.Sprintf("%s/%dKiB", h.name, size>>10), func(b *testing.B) {
				b.SetBytes(int64(len(in)))
				b.ReportAllocs()
				for b.Loop() {
					feedChunks(b, Options{Syntax: h.syntax}, in, h.chunk)
				}
			})
		}
	}
}

// TestHostileChunking: the hostile inputs, cut short, keep the chunking
// property (and so every byte accounted for).
func TestHostileChunking(t *testing.T) {
	for _, h := range hostileInputs {
		in := h.gen(2 << 10)
		checkChunks(t, Options{Syntax: h.syntax}, in, 1)
	}
}

// TestManyArgumentsMemory bounds what a JSON call with many arguments
// allocates, in one chunk: each of its arguments is held until the call
// ends (the ToolCall lists them), and nothing more per argument. Every
// 12–16 bytes of this input is an argument; the call allocated about 270
// times its input when the reader's events of a chunk were all held
// before being handled (jcall.collect), 32 times once each is handled as
// it comes, kept in 104 bytes and its slice doubled (measured at 64 and
// 256 KiB). The bound leaves room for the runtime; 4n may allocate at most
// 4.5 times n.
func TestManyArgumentsMemory(t *testing.T) {
	alloc := func(n int) uint64 {
		in := []byte(`<tool_call>{"name": "f", "arguments": {` + manyMembers(n, `"p%d": "v", `) + `"z": "v"}}</tool_call>`)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		p, err := New(Options{Syntax: "hermes"}, func(*Event) error { return nil })
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Write(in); err != nil {
			t.Fatal(err)
		}
		if err := p.Close(); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		got := after.TotalAlloc - before.TotalAlloc
		if limit := uint64(48 * len(in)); got > limit {
			t.Errorf("%d bytes of input: %d bytes allocated (%.1f×), want at most 48×", len(in), got, float64(got)/float64(len(in)))
		}
		return got
	}
	n, n4 := alloc(64<<10), alloc(256<<10)
	if float64(n4) > 4.5*float64(n) {
		t.Errorf("64 KiB: %d bytes allocated, 256 KiB: %d (%.2f×, want at most 4.5×)", n, n4, float64(n4)/float64(n))
	}
}
