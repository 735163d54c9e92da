package stream

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/plangram/plangram/schema"
)

// pyWriter writes calls in the pythonic form of Llama 3.2/4, in a list
// after <|python_start|> (string values as Python literals).
func pyWriter(b *strings.Builder, c benchCall) {
	b.WriteString("<|python_start|>[" + c.name + "(")
	for i, p := range c.params {
		if i > 0 {
			b.WriteString(", ")
		}
		v := strconv.Quote(p[1])
		if p[1] == "true" {
			v = "True"
		}
		b.WriteString(p[0] + "=" + v)
	}
	b.WriteString(")]<|python_end|>\n")
}

// TestPythonicCutEverywhere cuts pythonic samples at every byte: every
// prefix keeps the chunking property (and the --format openai one), never
// panics, and one that cuts a call inside its arguments reports it
// unterminated.
func TestPythonicCutEverywhere(t *testing.T) {
	files, _ := filepath.Glob("../golden/stream/llama_pythonic*.txt")
	if len(files) < 3 {
		t.Fatalf("pythonic samples: %v", files)
	}
	for _, f := range files {
		in, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i := range len(in) + 1 {
			evs := checkChunks(t, Options{Syntax: "llama"}, in[:i], uint64(i))
			starts, ends := 0, 0
			for _, e := range evs {
				switch {
				case e.Type == ToolCallStart:
					starts++
				case e.Type == ToolCall || e.Type == Error && e.Kind == KindUnterminated && e.Name != "":
					ends++
				}
			}
			if starts != ends {
				t.Fatalf("%s cut at %d: %d calls started, %d ended", f, i, starts, ends)
			}
		}
	}
}

// FuzzPythonic: pythonic calls (llama syntax) on arbitrary input, with
// and without a schema: the chunking property, spans, raw text and the
// --format openai arguments (checkChunks), and a cut at a fuzzed byte.
func FuzzPythonic(f *testing.F) {
	files, _ := filepath.Glob("../golden/stream/llama_*.txt")
	for i, file := range files {
		data, _ := os.ReadFile(file)
		f.Add(data, uint64(i), uint16(i*7))
	}
	for i, tc := range slices.Concat(peerLlama, peerSGLangPythonic, peerSGLangLlama32) {
		f.Add([]byte(tc.in), uint64(i), uint16(i))
	}
	f.Add(answerWith(pyWriter, 2000), uint64(1), uint16(900))
	tools, err := schema.Builtin("tools")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, in []byte, seed uint64, cut uint16) {
		opts := Options{Syntax: "llama"}
		if seed&1 == 1 {
			opts.Schema = tools
		}
		checkChunks(t, opts, in, seed)
		checkChunks(t, opts, in[:int(cut)%(len(in)+1)], seed)
	})
}

// TestPythonicLinear bounds the allocations: 4× the input costs at most
// 5× the allocations (they grow with the calls, not the chunks).
func TestPythonicLinear(t *testing.T) {
	checkAllocsLinear(t, "llama", answerWith(pyWriter, 64<<10), answerWith(pyWriter, 256<<10))
}

// BenchmarkPythonic parses a pythonic answer (llama syntax) at 50 KiB and
// 2.5, 5 and 10 MB (n, 2n, 4n) in 20-byte chunks: ns/chunk stays flat.
func BenchmarkPythonic(b *testing.B) {
	const chunk = 20
	tools, err := schema.Builtin("tools")
	if err != nil {
		b.Fatal(err)
	}
	opts := Options{Syntax: "llama", Schema: tools}
	for _, size := range []int{50 << 10, 10 << 20 / 4, 10 << 20 / 2, 10 << 20} {
		in := answerWith(pyWriter, size)
		b.Run(fmt.Sprintf("%s/20-byte-chunks", sizeName(size)), func(b *testing.B) { benchChunks(b, opts, in, chunk) })
	}
}

// TestPyLiteralEscapes: a Python literal's string escapes decode as
// Python's ast.literal_eval decodes them (octal, \a, \U, a backslash-newline
// join), and an \x, \u or \U that literal_eval refuses makes it no literal.
func TestPyLiteralEscapes(t *testing.T) {
	for in, want := range map[string]string{
		`{'a': '\x41\101\n\a'}`: `{"a":"AA\n\u0007"}`,
		`['\U0001F600', "q\""]`: `["😀","q\""]`,
		"('a\\\nb',)":           `["ab"]`,
		`{'a': 'b\q'}`:          `{"a":"b\\q"}`,
		`['\x4']`:               "",
		`['\u12']`:              "",
		`['\`:                   "",
	} {
		got, ok := pyLiteral(in)
		if got != want || ok != (want != "") {
			t.Errorf("pyLiteral(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}
