package stream

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/internal/jsonw"
)

// checkOpenAIArgs writes the events evs (one parse, unmerged) with an
// OpenAIWriter and checks the chunks: every data line is a chunk (the
// last is [DONE]); the argument fragments of each complete call
// concatenate to valid JSON equal to the JSON of the call's params; its
// id is the input's call id (given at the start, or later but before any
// argument fragment), else call_ID; each choice ends once, with
// finish_reason length when a call it started never completed.
func checkOpenAIArgs(t testing.TB, evs []Event, fail func(f string, a ...any)) {
	t.Helper()
	var out bytes.Buffer
	w := NewOpenAIWriter(&out, "c", "m", 0)
	type key struct{ choice, index int }
	calls := map[int]key{}
	next := map[int]int{}
	want := map[key]string{}
	wantID := map[key]string{}
	open := map[int]int{}                   // calls started and not completed, per choice
	streamed := map[int]map[string]string{} // the Exact deltas of each call, per parameter
	order := map[int][]string{}
	cut := map[int]bool{} // calls whose arguments a syntax error cut
	for _, e := range evs {
		switch {
		case e.Type == ParamDelta && e.Exact:
			if streamed[e.ID] == nil {
				streamed[e.ID] = map[string]string{}
			}
			if _, ok := streamed[e.ID][e.Param]; !ok {
				order[e.ID] = append(order[e.ID], e.Param)
			}
			streamed[e.ID][e.Param] += e.Text
		case e.Type == Error && (e.Kind == KindBadJSON || e.Kind == KindBadPython):
			cut[e.ID] = true
		}
		if _, ok := calls[e.ID]; !ok && (e.Type == ToolCallStart || e.Type == ToolCall) {
			k := key{e.Choice, next[e.Choice]}
			next[e.Choice]++
			calls[e.ID] = k
			open[e.Choice]++
			wantID[k] = e.CallID
			if e.CallID == "" {
				wantID[k] = "call_" + itoa(e.ID)
			}
		}
		if e.Type == ToolCall && e.CallID != "" && streamed[e.ID] == nil {
			// an id the input gives after the name and before any
			// fragment is the one written
			wantID[calls[e.ID]] = e.CallID
		}
		if e.Type == ToolCall {
			ps := e.Params
			if cut[e.ID] {
				// A string cut by a syntax error is not in the params, but
				// its text was streamed: the arguments hold it as read.
				for _, k := range order[e.ID] {
					if _, ok := ps.Get(k); !ok {
						ps = append(ps[:len(ps):len(ps)], ast.Param{Name: k, Value: streamed[e.ID][k]})
					}
				}
			}
			// The chunks name members as written, one at a time: names
			// that are not UTF-8 get U+FFFD and no "#k" (jsonw.NameSuffixes
			// needs every name of the object first).
			jw := &jsonw.W{}
			jw.BeginObject()
			for _, p := range ps {
				jw.Key(p.Name)
				jw.Value(p.Value)
			}
			jw.EndObject()
			js := jw.B
			if err := jw.Err(); err != nil {
				fail("params do not marshal: %v", err)
			}
			want[calls[e.ID]] = string(js)
			open[e.Choice]--
		}
		if err := w.Write(&e); err != nil {
			fail("OpenAIWriter: %v", err)
		}
	}
	// Nothing is replaced silently: a byte written as U+FFFD (the escape
	// \ufffd, which the writer makes only of such bytes) is counted.
	if n, _ := w.NotUTF8(); n == 0 && strings.Contains(strings.ReplaceAll(out.String(), `\\`, ""), `\ufffd`) {
		fail("U+FFFD written with no not-utf8-openai warning: %q", out.String())
	}
	got := map[key]*strings.Builder{}
	gotID := map[key]string{}
	finish := map[int]string{}
	lines := strings.Split(out.String(), "\n\n")
	if len(lines) < 3 || lines[len(lines)-1] != "" || lines[len(lines)-2] != "data: [DONE]" {
		fail("the chunks do not end with data: [DONE]: %q", out.String())
	}
	for _, l := range lines[:len(lines)-2] {
		var c struct {
			Choices []struct {
				Index int `json:"index"`
				Delta struct {
					ToolCalls []struct {
						Index    int    `json:"index"`
						ID       string `json:"id"`
						Function struct {
							Arguments *string `json:"arguments"`
						} `json:"function"`
					} `json:"tool_calls"`
				} `json:"delta"`
				FinishReason *string `json:"finish_reason"`
			} `json:"choices"`
		}
		data, ok := strings.CutPrefix(l, "data: ")
		if !ok || json.Unmarshal([]byte(data), &c) != nil || len(c.Choices) != 1 {
			fail("not a chunk: %q", l)
		}
		ch := c.Choices[0]
		if _, done := finish[ch.Index]; done {
			fail("a chunk of choice %d after its finish_reason: %q", ch.Index, l)
		}
		if ch.FinishReason != nil {
			finish[ch.Index] = *ch.FinishReason
		}
		for _, tc := range ch.Delta.ToolCalls {
			k := key{ch.Index, tc.Index}
			if got[k] == nil {
				got[k] = &strings.Builder{}
				gotID[k] = tc.ID
			} else if tc.ID != "" {
				fail("call %v: a second id %q", k, tc.ID)
			}
			if tc.Function.Arguments == nil {
				fail("call %v: a fragment without arguments: %q", k, l)
			}
			got[k].WriteString(*tc.Function.Arguments)
		}
	}
	for k, js := range want {
		if got[k] == nil {
			fail("call %v is not written", k)
		}
		if gotID[k] != lossyUTF8(wantID[k]) {
			fail("call %v: id %q, want %q", k, gotID[k], wantID[k])
		}
		var a, b any
		if err := decodeNumbers(got[k].String(), &a); err != nil {
			fail("call %v: the arguments %q are not valid JSON: %v", k, got[k].String(), err)
		}
		if err := decodeNumbers(js, &b); err != nil || !reflect.DeepEqual(a, b) {
			fail("call %v: the arguments %s differ from the params %s (%v)", k, got[k].String(), js, err)
		}
	}
	for ch, n := range open {
		reason, ok := finish[ch]
		if !ok {
			fail("choice %d has no finish_reason", ch)
		}
		if (n > 0) != (reason == "length") {
			fail("choice %d: finish_reason %q with %d calls not completed", ch, reason, n)
		}
	}
}

func decodeNumbers(s string, v *any) error {
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	if err := d.Decode(v); err != nil {
		return err
	}
	if d.More() {
		return json.Unmarshal([]byte(s), v) // reports the trailing text
	}
	return nil
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}

// TestOpenAIChatChoices: the choices of an n > 1 stream stay apart — each
// event names its choice — and OpenAIWriter writes them back apart, so
// reading its output gives the same text per choice and the same calls.
func TestOpenAIChatChoices(t *testing.T) {
	in, err := os.ReadFile("../golden/stream/openai-chat_choices.txt")
	if err != nil {
		t.Fatal(err)
	}
	first := checkChunks(t, Options{Syntax: "openai-chat"}, in, 1)
	var out bytes.Buffer
	w := NewOpenAIWriter(&out, "c", "m", 0)
	for _, e := range first {
		if err := w.Write(&e); err != nil {
			t.Fatal(err)
		}
	}
	second := checkChunks(t, Options{Syntax: "openai-chat"}, out.Bytes(), 2)
	summary := func(evs []Event) map[string]string {
		m := map[string]string{}
		for _, e := range evs {
			k := fmt.Sprintf("%d %s", e.Choice, e.Type)
			switch e.Type {
			case Text:
				m[k] += e.Text
			case ToolCall:
				ps, _ := json.Marshal(e.Params)
				m[k] += fmt.Sprintf("%s %s %s;", e.CallID, e.Name, ps)
			}
		}
		return m
	}
	a, b := summary(first), summary(second)
	want := map[string]string{"0 text": "Paris is sunny.", "1 text": "Let me check.",
		"1 tool_call": `call_x1 get_weather {"location":"Paris"};`}
	if !reflect.DeepEqual(a, want) || !reflect.DeepEqual(b, want) {
		t.Fatalf("choices:\n read: %v\n back: %v\n want: %v", a, b, want)
	}
}

// TestOpenAIWriterCallIDs: the ids the input gives — Mistral's [CALL_ID]
// and the "id" of a [TOOL_CALLS] array's element, before the name or after
// the arguments — are the ids of the written calls, else call_N.
func TestOpenAIWriterCallIDs(t *testing.T) {
	in, err := os.ReadFile("../golden/stream/mistral_call_ids.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, chunk := range []int{0, 1, 7} {
		var cuts []int
		for i := chunk; chunk > 0 && i < len(in); i += chunk {
			cuts = append(cuts, i)
		}
		var out bytes.Buffer
		w := NewOpenAIWriter(&out, "c", "m", 0)
		for _, e := range collect(t, Options{Syntax: "mistral"}, in, cuts) {
			if err := w.Write(&e); err != nil {
				t.Fatal(err)
			}
		}
		var ids []string
		for _, e := range collect(t, Options{Syntax: "openai-chat"}, out.Bytes(), nil) {
			if e.Type == ToolCall {
				ids = append(ids, e.CallID+" "+e.Name)
			}
		}
		want := []string{"123456789 read_file", "abcDEF123 write_to_file", "k9Lm2Np4Q list_files", "call_4 read_file"}
		if !reflect.DeepEqual(ids, want) {
			t.Errorf("chunk %d: ids %q, want %q\n%s", chunk, ids, want, out.String())
		}
	}
}

// TestOpenAINotUTF8: the chunk format cannot carry bytes that are not
// UTF-8; OpenAIWriter counts the events it writes with U+FFFD in their
// place (the CLI's not-utf8-openai warning), and no others.
func TestOpenAINotUTF8(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{"plain text <tool_call>\n{\"name\": \"write_to_file\", \"arguments\": {\"path\": \"a\", \"content\": \"b\"}}\n</tool_call>", 0},
		{"caf\xe9 text", 1},
		{"<tool_call>\n{\"name\": \"frob\", \"arguments\": {\"k\xe9\": 1}}\n</tool_call>", 1},
		{"<tool_call>\n{\"name\": \"write_to_file\", \"arguments\": {\"path\": \"a\", \"content\": \"na\xefve\"}}\n</tool_call>", 2}, // the delta and the call
	} {
		evs := collect(t, Options{Syntax: "hermes"}, []byte(tc.in), nil)
		var out bytes.Buffer
		w := NewOpenAIWriter(&out, "c", "m", 0)
		for _, e := range evs {
			if err := w.Write(&e); err != nil {
				t.Fatal(err)
			}
		}
		if n, first := w.NotUTF8(); n != tc.want || n > 0 && first.End.Offset == 0 {
			t.Errorf("%q: NotUTF8 = %d at %v, want %d", tc.in, n, first, tc.want)
		}
	}
}

// TestOpenAIHeldByteAtEnd: a string argument that ends with an incomplete
// UTF-8 character (held back while it streams) still writes it, as U+FFFD,
// when the call ends (FuzzStream "<content>00000\xee</content>": the byte
// was dropped).
func TestOpenAIHeldByteAtEnd(t *testing.T) {
	in := "<write_to_file><path>a</path><content>00000\xee</content></write_to_file>"
	evs := collect(t, Options{}, []byte(in), nil)
	var out bytes.Buffer
	w := NewOpenAIWriter(&out, "c", "m", 0)
	for _, e := range evs {
		if err := w.Write(&e); err != nil {
			t.Fatal(err)
		}
	}
	var args strings.Builder
	for line := range strings.Lines(out.String()) {
		data, ok := strings.CutPrefix(strings.TrimSpace(line), "data: ")
		if !ok || data == "[DONE]" {
			continue
		}
		var c struct {
			Choices []struct {
				Delta struct {
					ToolCalls []struct {
						Function struct{ Arguments string } `json:"function"`
					} `json:"tool_calls"`
				} `json:"delta"`
			} `json:"choices"`
		}
		if err := json.Unmarshal([]byte(data), &c); err != nil {
			t.Fatal(err)
		}
		for _, ch := range c.Choices {
			for _, tc := range ch.Delta.ToolCalls {
				args.WriteString(tc.Function.Arguments)
			}
		}
	}
	var got map[string]string
	if err := json.Unmarshal([]byte(args.String()), &got); err != nil {
		t.Fatalf("arguments %q: %v", args.String(), err)
	}
	if got["content"] != "00000\ufffd" || got["path"] != "a" {
		t.Errorf("arguments = %q, want content 00000\\ufffd and path a", args.String())
	}
}

// lossyUTF8 returns s as a JSON string carries it: each byte that is not
// UTF-8 becomes U+FFFD, as the OpenAI chunks write a call id (their shape
// has no member for exact bytes; the CLI warns, not-utf8-openai).
func lossyUTF8(s string) string {
	b, _ := json.Marshal(s)
	var out string
	_ = json.Unmarshal(b, &out)
	return out
}
