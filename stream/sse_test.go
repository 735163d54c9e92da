package stream

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"

	"github.com/plangram/plangram/schema"
)

// apiSyntaxes are the provider API syntaxes.
var apiSyntaxes = []string{"anthropic", "openai-chat", "openai-responses"}

// registry returns the schema converted from golden/tools/openai_chat.json.
func registrySchema(t testing.TB) *schema.Schema {
	t.Helper()
	data, err := os.ReadFile("../golden/tools/openai_chat.json")
	if err != nil {
		t.Fatal(err)
	}
	tools, err := schema.FromTools("openai_chat.json", data)
	if err != nil {
		t.Fatal(err)
	}
	return tools.Schema
}

// TestAPITyped pins the calls of the API syntaxes typed by a schema
// (golden/stream-api/SYNTAX_NAME.txt): the built-in tools schema, or with
// "registry" in the name the tools of golden/tools/openai_chat.json.
func TestAPITyped(t *testing.T) {
	eachGolden(t, "../golden/stream-api", func(t *testing.T, g *goldie.Goldie, name string, in []byte) {
		opts := Options{Syntax: goldenSyntax(name)}
		if strings.Contains(name, "registry") {
			opts.Schema = registrySchema(t)
		} else {
			var err error
			if opts.Schema, err = schema.Builtin("tools"); err != nil {
				t.Fatal(err)
			}
		}
		g.Assert(t, name, jsonl(t, collect(t, opts, in, nil)))
		checkChunks(t, opts, in, 1)
	})
}

// apiAnswer renders text, thinking and calls (JSON arguments) as the SSE
// stream of an API syntax, text in pieces of about 8 bytes and arguments
// in fragments of about 12 (golden cases interleave calls).
type apiPart struct {
	kind string // text, thinking, call
	text string
	name string
	args string
}

func apiAnswer(syntax string, parts []apiPart) []byte {
	var b strings.Builder
	ev := func(name string, v any) {
		data, _ := json.Marshal(v)
		if name != "" {
			fmt.Fprintf(&b, "event: %s\n", name)
		}
		fmt.Fprintf(&b, "data: %s\n\n", data)
	}
	pieces := func(s string, n int) []string {
		var out []string
		for len(s) > n {
			k := n
			for k < len(s) && s[k]&0xC0 == 0x80 {
				k++
			}
			out = append(out, s[:k])
			s = s[k:]
		}
		return append(out, s)
	}
	type obj = map[string]any
	calls := 0
	for i, p := range parts {
		switch syntax {
		case "openai-chat":
			switch p.kind {
			case "text", "thinking":
				key := "content"
				if p.kind == "thinking" {
					key = "reasoning_content"
				}
				for _, s := range pieces(p.text, 8) {
					ev("", obj{"choices": []obj{{"index": 0, "delta": obj{key: s}}}})
				}
			case "call":
				ev("", obj{"choices": []obj{{"index": 0, "delta": obj{"tool_calls": []obj{{"index": calls, "id": fmt.Sprint("call_", i), "type": "function", "function": obj{"name": p.name, "arguments": ""}}}}}}})
				for _, s := range pieces(p.args, 12) {
					ev("", obj{"choices": []obj{{"index": 0, "delta": obj{"tool_calls": []obj{{"index": calls, "function": obj{"arguments": s}}}}}}})
				}
				calls++
			}
		case "anthropic":
			switch p.kind {
			case "text", "thinking":
				ev("content_block_start", obj{"type": "content_block_start", "index": i, "content_block": obj{"type": p.kind, p.kind: ""}})
				for _, s := range pieces(p.text, 8) {
					d := obj{"type": "text_delta", "text": s}
					if p.kind == "thinking" {
						d = obj{"type": "thinking_delta", "thinking": s}
					}
					ev("content_block_delta", obj{"type": "content_block_delta", "index": i, "delta": d})
				}
			case "call":
				ev("content_block_start", obj{"type": "content_block_start", "index": i, "content_block": obj{"type": "tool_use", "id": fmt.Sprint("toolu_", i), "name": p.name, "input": obj{}}})
				for _, s := range pieces(p.args, 12) {
					ev("content_block_delta", obj{"type": "content_block_delta", "index": i, "delta": obj{"type": "input_json_delta", "partial_json": s}})
				}
			}
			ev("content_block_stop", obj{"type": "content_block_stop", "index": i})
		case "openai-responses":
			switch p.kind {
			case "text", "thinking":
				typ := "response.output_text.delta"
				if p.kind == "thinking" {
					typ = "response.reasoning_summary_text.delta"
				}
				for _, s := range pieces(p.text, 8) {
					ev(typ, obj{"type": typ, "output_index": i, "item_id": fmt.Sprint("it_", i), "delta": s})
				}
			case "call":
				id := fmt.Sprint("fc_", i)
				ev("response.output_item.added", obj{"type": "response.output_item.added", "output_index": i, "item": obj{"type": "function_call", "id": id, "call_id": fmt.Sprint("call_", i), "name": p.name, "arguments": ""}})
				for _, s := range pieces(p.args, 12) {
					ev("response.function_call_arguments.delta", obj{"type": "response.function_call_arguments.delta", "output_index": i, "item_id": id, "delta": s})
				}
				ev("response.function_call_arguments.done", obj{"type": "response.function_call_arguments.done", "output_index": i, "item_id": id, "arguments": p.args})
			}
		}
	}
	switch syntax {
	case "openai-chat":
		ev("", obj{"choices": []obj{{"index": 0, "delta": obj{}, "finish_reason": "tool_calls"}}})
		b.WriteString("data: [DONE]\n\n")
	case "anthropic":
		ev("message_stop", obj{"type": "message_stop"})
	case "openai-responses":
		ev("response.completed", obj{"type": "response.completed", "response": obj{"status": "completed"}})
	}
	return []byte(b.String())
}

// sampleParts is a small answer with unicode, escapes and two calls.
var sampleParts = []apiPart{
	{kind: "thinking", text: "Read it first — naïve?"},
	{kind: "text", text: "I'll write 日本.go:\n"},
	{kind: "call", name: "write_to_file", args: `{"path": "日本.go", "content": "package a\n\n// \"quoted\" \\ back\u00e9 \ud83d\ude00\n"}`},
	{kind: "call", name: "list_files", args: `{"path":"src","recursive":true}`},
	{kind: "text", text: "Done."},
}

// TestAPISample: the same answer in each API syntax gives the same
// calls, text and thinking, whatever the chunking; with a registry the
// calls are typed.
func TestAPISample(t *testing.T) {
	var want string
	for _, syntax := range apiSyntaxes {
		in := apiAnswer(syntax, sampleParts)
		evs := checkChunks(t, Options{Syntax: syntax}, in, 2)
		got := summary(evs)
		if want == "" {
			want = got
		} else if got != want {
			t.Errorf("%s: %s\nwant %s", syntax, got, want)
		}
	}
	if !strings.Contains(want, `tool_call write_to_file {"path":"日本.go","content":"package a\n\n// \"quoted\" \\ backé 😀\n"}`) {
		t.Errorf("calls: %s", want)
	}
}

// summary renders the text, thinking and calls of merged events.
func summary(evs []Event) string {
	var b strings.Builder
	for _, e := range merge(evs) {
		switch e.Type {
		case Text, Thinking:
			if e.Text != "" {
				fmt.Fprintf(&b, "%s %q\n", e.Type, e.Text)
			}
		case ToolCall:
			ps, _ := json.Marshal(e.Params)
			fmt.Fprintf(&b, "%s %s %s\n", e.Type, e.Name, ps)
		case Error:
			fmt.Fprintf(&b, "%s %s %s\n", e.Type, e.Kind, e.Message)
		}
	}
	return b.String()
}

// TestAPICutEverywhere feeds every prefix of a sample stream (a call cut
// at every byte position), in the syntax and under --syntax auto: never a
// panic, the events stay consistent with the input, and a call cut inside
// its arguments is unterminated, never a tool_call.
func TestAPICutEverywhere(t *testing.T) {
	for _, syntax := range append(apiSyntaxes[:len(apiSyntaxes):len(apiSyntaxes)], Auto) {
		in := apiAnswer(syntax, sampleParts[2:3])
		if syntax == Auto {
			in = apiAnswer("openai-chat", sampleParts[2:3])
		}
		for n := range len(in) + 1 {
			evs := checkOne(t, Options{Syntax: syntax}, in[:n], nil)
			calls, unterminated := 0, 0
			for _, e := range evs {
				switch {
				case e.Type == ToolCall:
					calls++
				case e.Type == Error && e.Kind == KindUnterminated:
					unterminated++
				}
			}
			if calls+unterminated > 1 {
				t.Fatalf("%s cut at %d: %d calls, %d unterminated", syntax, n, calls, unterminated)
			}
		}
	}
}

// TestOpenAIWriterRoundTrip: an answer in the tools syntax, written as
// OpenAI chunks and read back by the openai-chat syntax, gives the same
// calls (ids, names, typed params), text and thinking.
func TestOpenAIWriterRoundTrip(t *testing.T) {
	tools, err := schema.Builtin("tools")
	if err != nil {
		t.Fatal(err)
	}
	in := syntaxAnswer("tools", 30<<10)
	var sse bytes.Buffer
	w := NewOpenAIWriter(&sse, "chatcmpl-1", "m", 1)
	var first []Event
	p, err := New(Options{Syntax: "tools"}, func(e *Event) error {
		first = append(first, *e)
		return w.Write(e)
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(in); i += 20 {
		if _, err := p.Write(in[i:min(i+20, len(in))]); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasSuffix(sse.Bytes(), []byte("\"finish_reason\":\"tool_calls\"}]}\n\ndata: [DONE]\n\n")) {
		t.Fatalf("the stream does not end with finish_reason tool_calls and [DONE]: %q", sse.Bytes()[max(0, sse.Len()-200):])
	}
	second := checkChunks(t, Options{Syntax: "openai-chat", Schema: tools}, sse.Bytes(), 3)
	calls := func(evs []Event) (out []string) {
		for _, e := range evs {
			if e.Type == ToolCall {
				ps, _ := json.Marshal(e.Params)
				out = append(out, fmt.Sprintf("%d %s %s", e.ID, e.Name, ps))
			}
		}
		return out
	}
	a, b := calls(first), calls(second)
	if len(a) < 3 || !reflect.DeepEqual(a, b) {
		t.Fatalf("calls differ:\n%v\n%v", a, b)
	}
	text := func(evs []Event, ty Type) string {
		var s strings.Builder
		for _, e := range evs {
			if e.Type == ty {
				s.WriteString(e.Text)
			}
		}
		return s.String()
	}
	for _, ty := range []Type{Text, Thinking} {
		if text(first, ty) != text(second, ty) {
			t.Errorf("%s differs after the round trip", ty)
		}
	}
	for _, e := range second {
		if e.Type == Error {
			t.Errorf("round trip error: %s", jsonl(t, []Event{e}))
		}
	}
}

// FuzzAPI: for each API syntax, any input (seeded with the golden SSE
// streams) gives the same events for chunkings of 1, 7, 4096 bytes and
// random ones, and events consistent with the input.
func FuzzAPI(f *testing.F) {
	for _, dir := range []string{"../golden/stream", "../golden/stream-api"} {
		for _, syntax := range apiSyntaxes {
			files, _ := filepath.Glob(filepath.Join(dir, syntax+"_*.txt"))
			for _, file := range files {
				data, _ := os.ReadFile(file)
				f.Add(data, uint8(0))
			}
		}
	}
	for _, syntax := range apiSyntaxes {
		f.Add(apiAnswer(syntax, sampleParts), uint8(1))
	}
	tools, err := schema.Builtin("tools")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, in []byte, sel uint8) {
		for i, syntax := range apiSyntaxes {
			opts := Options{Syntax: syntax}
			if sel&1 == 1 {
				opts.Schema = tools
			}
			checkChunks(t, opts, in, uint64(sel)+uint64(i))
		}
	})
}

// apiBenchParts is an answer of about size bytes: prose, thinking and
// calls, some writing files of 2–20 KB.
func apiBenchParts(size int) []apiPart {
	r := rand.New(rand.NewPCG(4, 2))
	words := strings.Fields("the a file we then Vec<u8> if x < y and a->b fn main() 漢字 résumé path write read 1 2 3")
	var parts []apiPart
	total := 0
	for total < size {
		var b strings.Builder
		for range 20 + r.IntN(80) {
			b.WriteString(words[r.IntN(len(words))])
			b.WriteByte(' ')
		}
		parts = append(parts, apiPart{kind: "text", text: b.String()})
		switch r.IntN(3) {
		case 0:
			parts = append(parts, apiPart{kind: "thinking", text: "Which file? Maybe read_file first."})
		case 1:
			parts = append(parts, apiPart{kind: "call", name: "read_file", args: fmt.Sprintf(`{"path": "src/f%d.go"}`, r.IntN(100))})
		case 2:
			var c strings.Builder
			for c.Len() < min(2000, size/8)+r.IntN(min(18000, size/4)) {
				fmt.Fprintf(&c, "func f%d(v []int) bool { return len(v) < %d } // \"quoted\"\n", r.IntN(1000), r.IntN(99))
			}
			args, _ := json.Marshal(map[string]string{"path": "src/g.go", "content": c.String()})
			parts = append(parts, apiPart{kind: "call", name: "write_to_file", args: string(args)})
		}
		total += b.Len() + len(parts[len(parts)-1].args) + len(parts[len(parts)-1].text)
	}
	return parts
}

// apiBenchInput is an SSE stream of about size bytes.
func apiBenchInput(syntax string, size int) []byte {
	// The SSE framing multiplies the answer's size by a factor of the
	// syntax and the answer: correct the answer's size twice.
	n := size / 3
	var in []byte
	for range 3 {
		in = apiAnswer(syntax, apiBenchParts(n))
		n = int(float64(n) * float64(size) / float64(len(in)))
	}
	return in
}

// BenchmarkAPISyntaxes parses each API syntax's SSE stream at 50 KiB and
// 10 MB in 20-byte chunks, beside re-parsing the accumulated stream on
// every chunk (at 12 and 50 KiB). ns/chunk is the cost of one chunk.
func BenchmarkAPISyntaxes(b *testing.B) {
	const chunk = 20
	tools, err := schema.Builtin("tools")
	if err != nil {
		b.Fatal(err)
	}
	for _, syntax := range apiSyntaxes {
		opts := Options{Syntax: syntax, Schema: tools}
		for _, size := range []int{50 << 10, 10 << 20} {
			in := apiBenchInput(syntax, size)
			b.Run(fmt.Sprintf("%s/%s/20-byte-chunks", syntax, sizeName(size)), func(b *testing.B) { benchChunks(b, opts, in, chunk) })
		}
		for _, size := range []int{12 << 10, 50 << 10} {
			in := apiBenchInput(syntax, size)
			b.Run(fmt.Sprintf("%s/%s/reparse-per-chunk", syntax, sizeName(size)), func(b *testing.B) { benchReparse(b, opts, in, chunk) })
		}
	}
}

// BenchmarkAPIScaling parses n, 2n and 4n bytes of each API syntax in
// 20-byte chunks: the time per byte stays flat.
func BenchmarkAPIScaling(b *testing.B) {
	for _, syntax := range apiSyntaxes {
		for _, size := range []int{256 << 10, 512 << 10, 1 << 20} {
			in := apiBenchInput(syntax, size)
			b.Run(fmt.Sprintf("%s/%dKiB", syntax, size>>10), func(b *testing.B) {
				b.SetBytes(int64(len(in)))
				b.ReportAllocs()
				for b.Loop() {
					feedSyntax(b, Options{Syntax: syntax}, in, 20)
				}
			})
		}
	}
}

// TestAPILinear bounds the allocations of each API syntax: 4× the input
// costs at most 5× the allocations.
func TestAPILinear(t *testing.T) {
	for _, syntax := range apiSyntaxes {
		checkAllocsLinear(t, syntax, apiBenchInput(syntax, 64<<10), apiBenchInput(syntax, 256<<10))
	}
}

// TestAPIObjectArguments: arguments sent as a JSON object (as some
// OpenAI-compatible servers do), even over several data lines, are read
// and positioned in the stream.
func TestAPIObjectArguments(t *testing.T) {
	in := []byte("data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c\",\"function\":{\"name\":\"read_file\",\n" +
		"data: \"arguments\":{\"path\":\n" +
		"data: \"x.go\"}}}]}}]}\n\ndata: [DONE]\n\n")
	evs := checkChunks(t, Options{Syntax: "openai-chat"}, in, 5)
	var got []string
	for _, e := range evs {
		if e.Type == ParamDelta || e.Type == ToolCall {
			got = append(got, fmt.Sprintf("%s %q %d:%d", e.Type, e.Text+e.Raw, e.Span.Start.Line, e.Span.Start.Col))
		}
	}
	want := []string{`param_delta "x.go" 3:8`, `tool_call "{\"path\":\n\"x.go\"}" 1:1`}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestAPIAuto: --syntax auto detects each API syntax from the start of
// its stream and gives the same events as naming it.
func TestAPIAuto(t *testing.T) {
	// (openai-chat_parallel_crlf starts with a comment: before the marker
	// it is text, as everything before a marker is.)
	for _, name := range []string{"openai-chat_basic", "anthropic_basic", "openai-responses_basic"} {
		in, err := os.ReadFile("../golden/stream/" + name + ".txt")
		if err != nil {
			t.Fatal(err)
		}
		syntax := goldenSyntax(name)
		want := merge(collect(t, Options{Syntax: syntax}, in, nil))
		got := checkChunks(t, Options{Syntax: Auto}, in, 4)
		if got[len(got)-1].Syntax != syntax {
			t.Errorf("%s: detected %q", name, got[len(got)-1].Syntax)
		}
		if summary(got) != summary(want) {
			t.Errorf("%s: auto gives\n%s\nwant\n%s", name, summary(got), summary(want))
		}
	}
}
