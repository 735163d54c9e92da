package stream

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

// TestCutEverywhere cuts a sample of each XML syntax at every byte: every
// prefix keeps the chunking property, and one that holds a call's opening
// marker but not its closing tag is never silent (an unterminated or
// cut-tag error), while one that holds the whole call has it.
func TestCutEverywhere(t *testing.T) {
	for _, tc := range []struct{ syntax, file, open, close string }{
		{"tools", "split_tag", "<write_to_file>", "</write_to_file>"},
		{"anthropic-xml", "anthropic-xml_basic", "<function_calls>", "</invoke>"},
		{"minimax", "minimax_basic", "<minimax:tool_call>", "</invoke>"},
		{"qwen3-coder", "qwen3-coder_basic", "<tool_call>", "</function>"},
		{"glm", "glm_basic", "<tool_call>r", "</tool_call>"},
	} {
		checkCutEverywhere(t, tc.syntax, tc.file, tc.open, tc.close, false)
	}
}

// checkCutEverywhere cuts the golden sample file (golden/stream/FILE.txt)
// of syntax at every byte: every prefix keeps the chunking property; one
// that holds the call's opening marker open (and a byte more) but not the
// end of its closing marker close is never silent (an unterminated or
// cut-tag error); one that holds the whole call has it, or, with
// cutCloseErr, at least such an error (a cut closing marker may leave the
// call unterminated). The same holds under --syntax auto (the command's
// default), which, once it has detected the syntax, gives the events the
// syntax gives.
func checkCutEverywhere(t *testing.T, syntax, file, open, close string, cutCloseErr bool) {
	t.Helper()
	in, err := os.ReadFile("../golden/stream/" + file + ".txt")
	if err != nil {
		t.Fatal(err)
	}
	from := strings.Index(string(in), open)
	to := strings.Index(string(in), close) + len(close)
	syn, err := LookupSyntax(syntax)
	if err != nil {
		t.Fatal(err)
	}
	for n := range len(in) + 1 {
		evs := checkChunks(t, Options{Syntax: syntax}, in[:n], uint64(n))
		if syn.Markers == nil { // auto never picks it
			checkCut(t, syntax, in, n, from, to, cutCloseErr, evs)
			continue
		}
		auto := checkChunks(t, Options{Syntax: Auto}, in[:n], uint64(n))
		if n == len(in) && auto[len(auto)-1].Syntax != syntax {
			t.Fatalf("%s: auto detects %q", file, auto[len(auto)-1].Syntax)
		}
		if auto[len(auto)-1].Syntax == syntax && !reflect.DeepEqual(auto, evs) {
			t.Fatalf("%s cut at %d (%q): auto\n%s\nwant\n%s", syntax, n, in[:n], jsonl(t, auto), jsonl(t, evs))
		}
		checkCut(t, syntax, in, n, from, to, cutCloseErr, evs)
		checkCut(t, Auto, in, n, from, to, cutCloseErr, auto)
	}
}

// checkCut checks the events of the prefix of in cut at n (see
// checkCutEverywhere) against the call at [from, to).
func checkCut(t *testing.T, syntax string, in []byte, n, from, to int, cutCloseErr bool, evs []Event) {
	t.Helper()
	var calls, errs int
	for _, e := range evs {
		switch {
		case e.Type == ToolCall:
			calls++
		case e.Type == Error && (e.Kind == KindUnterminated || e.Kind == KindCutTag):
			errs++
		}
	}
	switch {
	case n >= to && calls == 0 && (!cutCloseErr || errs == 0):
		t.Errorf("%s cut at %d: no tool_call in %s", syntax, n, jsonl(t, evs))
	case n > from+1 && n < to && errs == 0:
		t.Errorf("%s cut at %d (%q): silent: %s", syntax, n, in[:n], jsonl(t, evs))
	}
}

// FuzzXMLCut cuts fuzzed XML-syntax input at a fuzzed byte and checks the
// chunking property of the prefix in every XML syntax.
func FuzzXMLCut(f *testing.F) {
	for _, name := range []string{"anthropic-xml_basic", "minimax_basic", "qwen3-coder_basic", "qwen3-coder_several", "glm_several", "glm_unicode_errors"} {
		in, err := os.ReadFile("../golden/stream/" + name + ".txt")
		if err != nil {
			f.Fatal(err)
		}
		f.Add(in, uint16(len(in)/2), uint64(1))
	}
	f.Fuzz(func(t *testing.T, in []byte, cut uint16, seed uint64) {
		in = in[:int(cut)%(len(in)+1)]
		for _, s := range []string{"tools", "anthropic-xml", "minimax", "qwen3-coder", "glm"} {
			checkChunks(t, Options{Syntax: s, MaxCallSize: 300}, in, seed)
		}
	})
}
