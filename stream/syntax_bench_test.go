package stream

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/plangram/plangram/schema"
)

// benchCall is a call rendered by each syntax's writer.
type benchCall struct {
	name   string
	params [][2]string
}

// benchWriters render calls the way each XML-family syntax's models write
// them; other syntaxes add theirs here.
var benchWriters = map[string]func(b *strings.Builder, c benchCall){
	"tools": func(b *strings.Builder, c benchCall) {
		fmt.Fprintf(b, "<%s>\n", c.name)
		for _, p := range c.params {
			fmt.Fprintf(b, "<%s>%s</%s>\n", p[0], p[1], p[0])
		}
		fmt.Fprintf(b, "</%s>\n", c.name)
	},
	"anthropic-xml": func(b *strings.Builder, c benchCall) { invokeWriter(b, c, "function_calls") },
	"minimax":       func(b *strings.Builder, c benchCall) { invokeWriter(b, c, "minimax:tool_call") },
	"deepseek-dsml": func(b *strings.Builder, c benchCall) {
		fmt.Fprintf(b, "%s\n%s%q>\n", dsmlOpen, dsmlInvoke, c.name)
		for _, p := range c.params {
			fmt.Fprintf(b, "%s%q string=\"true\">%s%s\n", dsmlParam, p[0], p[1], dsmlParamClose)
		}
		fmt.Fprintf(b, "%s\n%s\n", dsmlInvokeEnd, dsmlClose)
	},
	"qwen3-coder": func(b *strings.Builder, c benchCall) {
		fmt.Fprintf(b, "<tool_call>\n<function=%s>\n", c.name)
		for _, p := range c.params {
			fmt.Fprintf(b, "<parameter=%s>\n%s\n</parameter>\n", p[0], p[1])
		}
		b.WriteString("</function>\n</tool_call>\n")
	},
	"seed-oss": func(b *strings.Builder, c benchCall) {
		fmt.Fprintf(b, "%s\n<function=%s>\n", seedOpen, c.name)
		for _, p := range c.params {
			fmt.Fprintf(b, "<parameter=%s>%s</parameter>\n", p[0], p[1])
		}
		fmt.Fprintf(b, "</function>\n%s\n", seedClose)
	},
	"hermes": func(b *strings.Builder, c benchCall) {
		fmt.Fprintf(b, "<tool_call>\n{\"name\": %q, \"arguments\": %s}\n</tool_call>\n", c.name, jsonArgs(c))
	},
	"kimi-k2": func(b *strings.Builder, c benchCall) {
		fmt.Fprintf(b, "<|tool_calls_section_begin|><|tool_call_begin|>functions.%s:0<|tool_call_argument_begin|>%s<|tool_call_end|><|tool_calls_section_end|>\n", c.name, jsonArgs(c))
	},
	"deepseek": func(b *strings.Builder, c benchCall) {
		fmt.Fprintf(b, "%s%sfunction%s%s\n```json\n%s\n```%s%s\n", dsCallsBegin, dsCallBegin, dsSep, c.name, jsonArgs(c), dsCallEnd, dsCallsEnd)
	},
	"llama": func(b *strings.Builder, c benchCall) {
		fmt.Fprintf(b, "<|python_tag|>{\"name\": %q, \"parameters\": %s}\n", c.name, jsonArgs(c))
	},
	"llama-builtin": func(b *strings.Builder, c benchCall) {
		fmt.Fprintf(b, "<|python_tag|>brave_search.call(query=%q)\n<|python_tag|>{\"name\": %q, \"parameters\": %s}\n", c.name, c.name, jsonArgs(c))
	},
	"mistral": func(b *strings.Builder, c benchCall) {
		fmt.Fprintf(b, "[TOOL_CALLS]%s[ARGS]%s\n", c.name, jsonArgs(c))
	},
	"magistral": func(b *strings.Builder, c benchCall) {
		fmt.Fprintf(b, "[THINK]Which file?[/THINK][TOOL_CALLS]%s[ARGS]%s\n", c.name, jsonArgs(c))
	},
	"apertus": func(b *strings.Builder, c benchCall) {
		fmt.Fprintf(b, "<|tools_prefix|>[{%q: %s}]<|tools_suffix|>\n", c.name, jsonArgs(c))
	},
	"generic": func(b *strings.Builder, c benchCall) {
		fmt.Fprintf(b, "{\"tool_calls\": [{\"name\": %q, \"arguments\": %s}]}\n{\"response\": \"Done.\\n\"}\n", c.name, jsonArgs(c))
	},
	"granite": func(b *strings.Builder, c benchCall) {
		fmt.Fprintf(b, "<|tool_call|>[{\"name\": %q, \"arguments\": %s}]\n", c.name, jsonArgs(c))
	},
	"nemotron-v2": func(b *strings.Builder, c benchCall) {
		fmt.Fprintf(b, "<TOOLCALL>[{\"name\": %q, \"arguments\": %s}]</TOOLCALL>\n", c.name, jsonArgs(c))
	},
	"lfm2": func(b *strings.Builder, c benchCall) {
		fmt.Fprintf(b, "<|tool_call_start|>[{\"name\": %q, \"arguments\": %s}]<|tool_call_end|>\n", c.name, jsonArgs(c))
	},
	"apriel": func(b *strings.Builder, c benchCall) {
		fmt.Fprintf(b, "<tool_calls>[{\"name\": %q, \"arguments\": %s}]</tool_calls>\n", c.name, jsonArgs(c))
	},
	"firefunction-v2": func(b *strings.Builder, c benchCall) {
		fmt.Fprintf(b, " functools[{\"name\": %q, \"arguments\": %s}]\n", c.name, jsonArgs(c))
	},
	"functionary-v3.1": func(b *strings.Builder, c benchCall) {
		fmt.Fprintf(b, "<function=%s>%s</function>\n", c.name, jsonArgs(c))
	},
	"functionary-v3.2": func(b *strings.Builder, c benchCall) {
		fmt.Fprintf(b, ">>>%s\n%s\n>>>all\nDone.\n", c.name, jsonArgs(c))
	},
	"xiaomi-mimo": func(b *strings.Builder, c benchCall) {
		fmt.Fprintf(b, "<tool_call>\n{\"name\": %q, \"arguments\": %s}\n</tool_call>\n", c.name, jsonArgs(c))
	},
	"command-r7b": func(b *strings.Builder, c benchCall) {
		fmt.Fprintf(b, "<|START_ACTION|>[{\"tool_call_id\": \"0\", \"tool_name\": %q, \"parameters\": %s}]<|END_ACTION|>\n", c.name, jsonArgs(c))
	},
	"harmony": func(b *strings.Builder, c benchCall) {
		fmt.Fprintf(b, "<|start|>assistant<|channel|>commentary to=functions.%s <|constrain|>json<|message|>%s<|call|>\n", c.name, jsonArgs(c))
	},
	"glm": func(b *strings.Builder, c benchCall) {
		fmt.Fprintf(b, "<tool_call>%s\n", c.name)
		for _, p := range c.params {
			fmt.Fprintf(b, "<arg_key>%s</arg_key>\n<arg_value>%s</arg_value>\n", p[0], p[1])
		}
		b.WriteString("</tool_call>\n")
	},
}

func invokeWriter(b *strings.Builder, c benchCall, wrapper string) {
	fmt.Fprintf(b, "<%s>\n<invoke name=%q>\n", wrapper, c.name)
	for _, p := range c.params {
		fmt.Fprintf(b, "<parameter name=%q>%s</parameter>\n", p[0], p[1])
	}
	fmt.Fprintf(b, "</invoke>\n</%s>\n", wrapper)
}

// syntaxAnswer generates an answer of about size bytes in a syntax: prose
// with stray '<', thinking, and calls, some writing large files whose
// content holds tags and the parameter's own closing tag.
func syntaxAnswer(syntax string, size int) []byte { return answerWith(benchWriters[syntax], size) }

// answerWith is syntaxAnswer with the calls written by w.
func answerWith(w func(b *strings.Builder, c benchCall), size int) []byte {
	r := rand.New(rand.NewPCG(4, 2))
	words := strings.Fields("the a file we then Vec<u8> <b>bold</b> if x < y and a->b fn main() 漢字 résumé path write read 1 2 3")
	var b strings.Builder
	for b.Len() < size {
		for range 20 + r.IntN(80) {
			b.WriteString(words[r.IntN(len(words))])
			b.WriteByte(' ')
		}
		b.WriteString("\n\n")
		switch r.IntN(4) {
		case 0:
			b.WriteString("<think>Which file? Maybe <read_file> or <tool_call> first.</think>\n")
		case 1:
			w(&b, benchCall{"read_file", [][2]string{{"path", fmt.Sprintf("src/f%d.go", r.IntN(100))}}})
		case 2:
			w(&b, benchCall{"list_files", [][2]string{{"path", "src"}, {"recursive", "true"}}})
		case 3:
			var c strings.Builder
			for c.Len() < 2000+r.IntN(20000) {
				fmt.Fprintf(&c, "func f%d(v []int) bool { return len(v) < %d } // <path>x</path> </parameter> </arg_value>\n", r.IntN(1000), r.IntN(99))
			}
			w(&b, benchCall{"write_to_file", [][2]string{{"path", "src/g.go"}, {"content", c.String()}}})
		}
	}
	return []byte(b.String())
}

// feedSyntax parses in, in chunks of the given size, and returns the
// number of tool calls.
func feedSyntax(b *testing.B, opts Options, in []byte, chunk int) int {
	_, calls := feedChunks(b, opts, in, chunk)
	return calls
}

// feedChunks parses in, in chunks of the given size, and returns the
// number of events and the number of tool calls among them.
func feedChunks(b *testing.B, opts Options, in []byte, chunk int) (events, calls int) {
	p, err := New(opts, func(e *Event) error {
		events++
		if e.Type == ToolCall {
			calls++
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < len(in); i += chunk {
		if _, err := p.Write(in[i:min(i+chunk, len(in))]); err != nil {
			b.Fatal(err)
		}
	}
	if err := p.Close(); err != nil {
		b.Fatal(err)
	}
	return events, calls
}

// BenchmarkSyntaxes parses each XML-family syntax at 50 KiB and 2.5, 5 and
// 10 MB (n, 2n, 4n) in 20-byte chunks, beside re-parsing the accumulated text on every chunk
// (what most servers do; the schema is loaded once) at 12 KiB and 50 KiB.
// ns/chunk is the cost of
// one 20-byte chunk: flat in the input size for the incremental parser,
// growing with it for the re-parse.
func BenchmarkSyntaxes(b *testing.B) {
	const chunk = 20
	tools, err := schema.Builtin("tools")
	if err != nil {
		b.Fatal(err)
	}
	for _, syntax := range []string{"tools", "anthropic-xml", "minimax", "deepseek-dsml", "qwen3-coder", "seed-oss", "glm"} {
		opts := Options{Syntax: syntax, Schema: tools}
		for _, size := range []int{50 << 10, 10 << 20 / 4, 10 << 20 / 2, 10 << 20} { // 2.5, 5, 10 MB: n, 2n, 4n
			in := syntaxAnswer(syntax, size)
			b.Run(fmt.Sprintf("%s/%s/20-byte-chunks", syntax, sizeName(size)), func(b *testing.B) { benchChunks(b, opts, in, chunk) })
		}
		for _, size := range []int{12 << 10, 50 << 10} {
			in := syntaxAnswer(syntax, size)
			b.Run(fmt.Sprintf("%s/%s/reparse-per-chunk", syntax, sizeName(size)), func(b *testing.B) { benchReparse(b, opts, in, chunk) })
		}
	}
}

// benchChunks is one incremental benchmark: in fed to a parser in chunks
// of the given size, with its throughput, allocations, ns per chunk and
// the number of calls.
func benchChunks(b *testing.B, opts Options, in []byte, chunk int) {
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	calls := 0
	for b.Loop() {
		calls = feedSyntax(b, opts, in, chunk)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64((len(in)+chunk-1)/chunk), "ns/chunk")
	b.ReportMetric(float64(calls), "calls")
}

// benchReparse is the baseline of benchChunks: on every chunk of the given
// size, the text so far is parsed again from its start, as most servers do;
// ns/chunk is the cost of one chunk.
func benchReparse(b *testing.B, opts Options, in []byte, chunk int) {
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		for i := chunk; i < len(in)+chunk; i += chunk {
			feedSyntax(b, opts, in[:min(i, len(in))], len(in))
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64((len(in)+chunk-1)/chunk), "ns/chunk")
}

func sizeName(n int) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%gMB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%dKiB", n>>10)
}

// TestSyntaxesLinear bounds the allocations of each XML-family syntax: 4×
// the input costs at most 5× the allocations (they grow with the calls,
// never with the chunks or a rescan).
func TestSyntaxesLinear(t *testing.T) {
	for syntax := range benchWriters {
		checkAllocsLinear(t, syntax, syntaxAnswer(syntax, 64<<10), syntaxAnswer(syntax, 256<<10))
	}
}

// checkAllocsLinear fails unless big, 4× the size of small, costs at most
// 5× the allocations of small when fed in 20-byte chunks to a parser of
// syntax: the allocations grow with the calls, never with the chunks or a
// rescan.
func checkAllocsLinear(t *testing.T, syntax string, small, big []byte) {
	t.Helper()
	allocs := func(in []byte) float64 {
		return testing.AllocsPerRun(2, func() {
			p, _ := New(Options{Syntax: syntax}, func(*Event) error { return nil })
			for i := 0; i < len(in); i += 20 {
				_, _ = p.Write(in[i:min(i+20, len(in))])
			}
			_ = p.Close()
		})
	}
	if a, b := allocs(small), allocs(big); b > 5*a {
		t.Errorf("%s: %.0f allocations for %d KiB, %.0f for %d KiB", syntax, a, len(small)>>10, b, len(big)>>10)
	}
}
