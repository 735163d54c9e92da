package stream

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/plangram/plangram/schema"
)

// jsonSyntaxes are the JSON-argument syntaxes, each with its golden
// sample and the markers that open and close its first call.
var jsonSyntaxes = []struct{ syntax, file, open, close string }{
	{"hermes", "hermes_basic", "<tool_call>", "</tool_call>"},
	{"kimi-k2", "kimi-k2_basic", "<|tool_call_begin|>", "<|tool_call_end|>"},
	{"deepseek", "deepseek_basic", dsCallBegin, dsCallEnd},
	{"mistral", "mistral_basic", "[TOOL_CALLS]", "}},"},
	{"magistral", "magistral_basic", "[TOOL_CALLS]", "9\"}"},
	{"granite", "granite_basic", "<|tool_call|>", "}},"},
	{"nemotron-v2", "nemotron-v2_basic", "<TOOLCALL>", "}},"},
	{"lfm2", "lfm2_basic", "<|tool_call_start|>", "}},"},
	{"apriel", "apriel_basic", "<tool_calls>", "}},"},
	{"generic", "generic_basic", "{\"tool_calls\"", "\"}},"},
	{"apertus", "apertus_basic", "<|tools_prefix|>", "\"}},"},
	{"command-r7b", "command-r7b_basic", "<|START_ACTION|>", "}},"},
	{"functionary-v3.1", "functionary-v3.1_basic", "<function=", "</function>"},
	// a header or marker cut short is text in these two: the call is
	// certain at its JSON
	{"functionary-v3.2", "functionary-v3.2_basic", "{\"path\"", "\"}"},
	{"firefunction-v2", "firefunction-v2_basic", "[{", "\"}},"},
	{"llama-builtin", "llama-builtin_basic", "=\"", "\")"}, // certain at its first value
	{"llama", "llama_basic", "{\"name\": \"read_file\"", "\"}}"},
	// A harmony header is a call once it names a recipient; <|call|> may
	// be left out (servers strip it as a stop token).
	{"harmony", "harmony_basic", "=functions.read_file", `"}`},
}

// TestJSONCutEverywhere cuts each JSON syntax's sample at every byte:
// every prefix keeps the chunking property and never panics; one that
// holds a call's opening marker but not its closing one reports an
// unterminated (or cut-tag) error, one that holds the whole call has it.
func TestJSONCutEverywhere(t *testing.T) {
	for _, tc := range jsonSyntaxes {
		checkCutEverywhere(t, tc.syntax, tc.file, tc.open, tc.close, true)
	}
}

// jsonSamples are extra inputs of the JSON syntaxes for the chunking
// property: variants models emit and broken markup.
var jsonSamples = []string{
	"<tool_call>{\"name\": \"read_file\", \"arguments\": {\"path\": \"a\"}}</tool_call><tool_call>{\"name\": \"read_file\", \"arguments\": {}}</tool_call>",
	"<tool_call>\n<function=read_file>\n</tool_call> text",
	"<tool_call>  \n",
	"<tool_call>{\"name\": \"x\"} trailing </tool_call>",
	"<tool_call>{\"arguments\": {\"content\": \"early\\n\"}, \"name\": \"write_to_file\"}</tool_call>",
	"<tool_call>\"{\\\"name\\\": \\\"read_file\\\", \\\"arguments\\\": {\\\"path\\\": \\\"q\\\"}}\"</tool_call>",
	"<|tool_call_begin|>functions.read_file:0<|tool_call_argument_begin|>{}<|tool_call_end|>",
	"<|tool_calls_section_begin|> prose <|tool_call_begin|>x",
	"<|tool_calls_section_begin|><|tool_call_begin|>" + strings.Repeat("n", 300) + "<|tool_call_end|>",
	"<|tool_calls_section_begin|><|tool_call_begin|>functions.read_file:0<|tool_call_argument_begin|>[1]<|tool_call_end|><|tool_calls_section_end|>",
	dsCallsBegin + dsCallBegin + "function" + dsSep + "read_file\n```json\n{\"path\": \"x\"}\n```" + dsCallEnd + dsCallsEnd,
	dsCallsBegin + dsCallBegin + "function" + dsSep + "read_file\n{\"path\": \"x\"}" + dsCallEnd,
	dsCallBegin + "function" + dsSep + "read_file\nnot json" + dsCallEnd + " after",
	dsCallBegin + "read_file" + dsSep + "{\"path\": \"é\"}",
	"[TOOL_CALLS] [{\"name\": \"read_file\", \"arguments\": {\"path\": \"a\"}}]\nextra trailing data",
	"[TOOL_CALLS]read_file",
	"[TOOL_CALLS] [\n{\"name\": \"read_file\", \"arguments\": {}},\n",
	"[TOOL_CALLS] not json at all",
	"[TOOL_CALLS]read_file{\"path\": \"a\"}[TOOL_CALLS]read_file{\"path\": \"b\"}",
	"<|channel|>final<|message|>hi",
	"<|start|>assistant<|channel|>commentary to=functions.read_file json<|message|>{\"path\": \"x\"}",
	"<|start|>assistant to=functions.read_f",
	"<|channel|>analysis<|message|>thinking cut",
	"{\"name\": \"read_file\", \"parameters\": {\"path\": \"a\"}}; {\"name\": \"read_file\", \"arguments\": {}}\n\n",
	"x {\"name\": \"read_file\"} and a set {1, 2}\n  \n{ \"name\"",
	"<|python_tag|>  \n",
	"<|python_tag|>{\"name\": \"read_file\", \"parameters\": {\"path\": \"q\"}} ; \n {\"other\": 1}",
	"{\"name\": \"read_file\", \"parameters\": {\"path\": \"a\"}};",
	"\n\n{\"na",
}

func TestJSONSyntaxesChunking(t *testing.T) {
	for _, tc := range jsonSyntaxes {
		for i, s := range append(jsonSamples, syntaxSamples...) {
			checkChunks(t, Options{Syntax: tc.syntax}, []byte(s), uint64(i))
			checkChunks(t, Options{Syntax: tc.syntax, HideThinking: true, InThinking: true}, []byte(s), uint64(i))
		}
	}
}

// FuzzJSONSyntax checks the chunking property of every JSON syntax on
// fuzzed input cut at a fuzzed byte (a call cut anywhere never panics).
func FuzzJSONSyntax(f *testing.F) {
	for _, tc := range jsonSyntaxes {
		for _, kind := range []string{"basic", "errors", "crlf"} {
			in, err := os.ReadFile("../golden/stream/" + tc.syntax + "_" + kind + ".txt")
			if err != nil {
				f.Fatal(err)
			}
			f.Add(in, uint16(len(in)), uint64(1))
			f.Add(in, uint16(len(in)/2), uint64(2))
		}
	}
	for i, s := range jsonSamples {
		f.Add([]byte(s), uint16(len(s)), uint64(i))
	}
	f.Fuzz(func(t *testing.T, in []byte, cut uint16, seed uint64) {
		in = in[:int(cut)%(len(in)+1)]
		for _, tc := range jsonSyntaxes {
			checkChunks(t, Options{Syntax: tc.syntax}, in, seed)
		}
	})
}

// jsonArgs renders a call's parameters as a JSON object.
func jsonArgs(c benchCall) string {
	var b strings.Builder
	b.WriteByte('{')
	for i, p := range c.params {
		if i > 0 {
			b.WriteString(", ")
		}
		k, _ := json.Marshal(p[0])
		v, _ := json.Marshal(p[1])
		if p[1] == "true" || p[1] == "false" {
			v = []byte(p[1])
		}
		fmt.Fprintf(&b, "%s: %s", k, v)
	}
	b.WriteByte('}')
	return b.String()
}

// BenchmarkJSONSyntaxes parses each JSON syntax's answer at 50 KiB and
// 2.5, 5 and 10 MB (n, 2n, 4n) in 20-byte chunks, beside re-parsing the
// accumulated text on every chunk at 12 KiB and 50 KiB. ns/chunk is flat
// in the input size for the incremental parser and grows with it for the
// re-parse.
func BenchmarkJSONSyntaxes(b *testing.B) {
	const chunk = 20
	tools, err := schema.Builtin("tools")
	if err != nil {
		b.Fatal(err)
	}
	for _, tc := range jsonSyntaxes {
		opts := Options{Syntax: tc.syntax, Schema: tools}
		for _, size := range []int{50 << 10, 10 << 20 / 4, 10 << 20 / 2, 10 << 20} {
			in := syntaxAnswer(tc.syntax, size)
			b.Run(fmt.Sprintf("%s/%s/20-byte-chunks", tc.syntax, sizeName(size)), func(b *testing.B) { benchChunks(b, opts, in, chunk) })
		}
		for _, size := range []int{12 << 10, 50 << 10} {
			in := syntaxAnswer(tc.syntax, size)
			b.Run(fmt.Sprintf("%s/%s/reparse-per-chunk", tc.syntax, sizeName(size)), func(b *testing.B) { benchReparse(b, opts, in, chunk) })
		}
	}
}

// TestTooDeepArgumentsDoNotStopTheStream: a call whose JSON arguments nest
// deeper than jsonargs.MaxDepth (encoding/json's limit) is an error of that call, and the stream
// goes on (the next call is read); every event marshals with
// encoding/json. Before, the CLI stopped at such a call ("exceeded max
// depth", exit 2) and the rest of the stream was lost.
func TestTooDeepArgumentsDoNotStopTheStream(t *testing.T) {
	const depth = 20_000 // twice encoding/json's limit
	deep := strings.Repeat("[", depth) + strings.Repeat("]", depth)
	in := []byte(`<tool_call>{"name": "run_command", "arguments": {"command": ` + deep + `}}</tool_call>` + "\nthen\n" +
		`<tool_call>{"name": "read_file", "arguments": {"path": "a.txt"}}</tool_call>` + "\n")
	evs := collect(t, Options{Syntax: "hermes"}, in, []int{100, 5000, 20000})
	var calls []string
	tooDeep := false
	for _, e := range evs {
		if _, err := json.Marshal(e); err != nil {
			t.Fatalf("event %+v does not marshal: %v", e.Type, err)
		}
		if e.Type == ToolCall {
			calls = append(calls, e.Name)
		}
		if e.Type == Error && strings.Contains(e.Message, "deeper than") {
			tooDeep = true
		}
	}
	if !tooDeep || len(calls) == 0 || calls[len(calls)-1] != "read_file" {
		t.Fatalf("calls %v, too-deep error %v; want the error and read_file read after it", calls, tooDeep)
	}
}
