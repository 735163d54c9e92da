package stream

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/plangram/plangram/ast"
)

// collect parses input cut at the given offsets (ascending) and returns the
// events.
func collect(t testing.TB, opts Options, input []byte, cuts []int) []Event {
	t.Helper()
	var evs []Event
	p, err := New(opts, func(e *Event) error { evs = append(evs, *e); return nil })
	if err != nil {
		t.Fatal(err)
	}
	p.tight = true // a byte read before keep() fails at once
	prev := 0
	for _, c := range append(cuts, len(input)) {
		if c < prev || c > len(input) {
			continue
		}
		if _, err := p.Write(input[prev:c]); err != nil {
			t.Fatal(err)
		}
		prev = c
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	return evs
}

// merge joins adjacent Text events, adjacent Thinking events and adjacent
// ParamDelta events of one parameter, the only differences chunking makes.
func merge(evs []Event) []Event {
	var out []Event
	for _, e := range evs {
		if n := len(out); n > 0 {
			l := &out[n-1]
			if l.Type == e.Type && l.Choice == e.Choice && (e.Type == Text || e.Type == Thinking || e.Type == ParamDelta && l.ID == e.ID && l.Param == e.Param) {
				l.Text += e.Text
				l.Raw += e.Raw
				l.Span.End = e.Span.End
				continue
			}
		}
		out = append(out, e)
	}
	return out
}

// checkOmit checks Options.OmitFraming against the exact events of in
// (opts without it): the same events less those of framing only, with the
// same text; a Thinking event's raw is its text. It returns the events
// (merged) under OmitFraming.
func checkOmit(t testing.TB, opts Options, in []byte, cuts []int) []Event {
	t.Helper()
	opts.OmitFraming = false
	exact := collect(t, opts, in, cuts)
	opts.OmitFraming = true
	omit := checkOne(t, opts, in, cuts)
	for _, e := range omit {
		if e.Type == Thinking && e.Raw != e.Text && !isFramed(syntaxOf(opts)) && !isFramed(exact[len(exact)-1].Syntax) {
			t.Fatalf("syntax %s, input %q: a thinking event with framing under OmitFraming: %s", syntaxOf(opts), in, jsonl(t, []Event{e}))
		}
	}
	// Text and Thinking compare by their text alone: under OmitFraming
	// their raw and span leave the framing out.
	project := func(evs []Event) []Event {
		var out []Event
		for _, e := range evs {
			if e.Type == Text || e.Type == Thinking {
				if e.Text == "" {
					continue
				}
				e.Raw, e.Span = "", ast.Span{}
			}
			out = append(out, e)
		}
		return merge(out)
	}
	if got, want := project(omit), project(exact); !reflect.DeepEqual(got, want) {
		t.Fatalf("syntax %s, input %q, cuts %v: OmitFraming\n got %s\nwant %s", syntaxOf(opts), in, cuts, jsonl(t, got), jsonl(t, want))
	}
	return omit
}

// jsonl renders events as the CLI does, one JSON object per line.
func jsonl(t testing.TB, evs []Event) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for _, e := range evs {
		if err := enc.Encode(e); err != nil {
			t.Fatal(err)
		}
	}
	return b.Bytes()
}

// syntaxOf returns the syntax opts select, as New resolves it.
func syntaxOf(opts Options) string {
	switch {
	case opts.Syntax != "":
		return opts.Syntax
	case opts.Dialect != "":
		return opts.Dialect
	case opts.Schema != nil:
		return opts.Schema.SyntaxName()
	}
	return "tools"
}

// checkChunks is the chunk-invariance property every syntax's tests and
// fuzz targets call: chunkings of 1, 7 and 4096 bytes and random chunkings
// drawn from seed give the same merged events as the whole input in one
// chunk, and each passes checkOne. It returns the merged events.
func checkChunks(t testing.TB, opts Options, in []byte, seed uint64) []Event {
	t.Helper()
	want := checkOne(t, opts, in, nil)
	sizes := func(n int) []int {
		var cuts []int
		for c := n; c < len(in); c += n {
			cuts = append(cuts, c)
		}
		return cuts
	}
	cutsets := [][]int{sizes(1), sizes(7), sizes(4096)}
	r := rand.New(rand.NewPCG(seed, uint64(len(in))))
	for k := range 3 {
		var cuts []int
		for c := r.IntN(8); c < len(in); c += 1 + r.IntN(4+k*30) {
			cuts = append(cuts, c)
		}
		cutsets = append(cutsets, cuts)
	}
	for _, cuts := range cutsets {
		if got := checkOne(t, opts, in, cuts); !reflect.DeepEqual(got, want) {
			t.Fatalf("syntax %s, input %q, cuts %v:\n got %s\nwant %s", syntaxOf(opts), in, cuts, jsonl(t, got), jsonl(t, want))
		}
	}
	return want
}

// checkOne parses in with the given cuts, checks the events against the
// input and returns them merged. It checks that each span matches the
// input; that the raw text of text, thinking and tool_call events rebuilds
// the input (in the acts syntax: covers every byte; with HideThinking it
// is not checked); that no text, thinking or param_delta event starts or
// ends inside a UTF-8 character; and that End comes last, once.
func checkOne(t testing.TB, opts Options, in []byte, cuts []int) []Event {
	t.Helper()
	evs := collect(t, opts, in, cuts)
	lines := ast.NewLines(in)
	src := string(in)
	covered := make([]int, len(in))  // per byte: how many events account for it
	inner := make([]bool, len(in)+1) // offsets inside a multi-byte character
	for i := 0; i < len(in); {
		_, n := utf8.DecodeRune(in[i:])
		for j := i + 1; j < i+n; j++ {
			inner[j] = true
		}
		i += n
	}
	var raw strings.Builder
	// A provider API syntax reads a transport (SSE): its text and thinking
	// events cover the bytes, while a call's raw is its decoded argument
	// text and a param_delta's text is decoded from a JSON string.
	framed := isFramed(syntaxOf(opts)) || len(evs) > 0 && isFramed(evs[len(evs)-1].Syntax) // also as detected by auto
	fail := func(e Event, f string, a ...any) {
		t.Helper()
		t.Fatalf("syntax %s, input %q cuts %v: %s in %s", syntaxOf(opts), in, cuts, fmt.Sprintf(f, a...), jsonl(t, []Event{e}))
	}
	for i, e := range evs {
		if want := lines.Span(e.Span.Start.Offset, e.Span.End.Offset); e.Span != want {
			fail(e, "span %v, want %v", e.Span, want)
		}
		at := src[e.Span.Start.Offset:e.Span.End.Offset]
		switch e.Type {
		case ToolCall:
			if framed {
				break
			}
			fallthrough
		case Text, Thinking:
			if e.Raw != at {
				fail(e, "raw is not the source of its span %q", at)
			}
			raw.WriteString(e.Raw)
			for j := e.Span.Start.Offset; j < e.Span.End.Offset; j++ {
				covered[j]++
			}
		case ParamDelta:
			if !framed && e.Text != at && !jsonDecodes(at, e.Text) && !pyDecodes(at, e.Text) {
				fail(e, "text is not the source of its span %q", at)
			}
		case Error:
			if e.Raw != "" && !framed && !strings.Contains(at, e.Raw) {
				fail(e, "raw is not within the source of its span %q", at)
			}
			if !utf8.ValidString(e.Message) {
				fail(e, "message is not valid UTF-8")
			}
		}
		if msg := checkEventExact(e); msg != "" {
			fail(e, "JSON form: %s", msg)
		}
		if e.Type == Text || e.Type == Thinking || e.Type == ParamDelta {
			if inner[e.Span.Start.Offset] || inner[e.Span.End.Offset] {
				fail(e, "the event starts or ends inside a UTF-8 character")
			}
		}
		if (e.Type == End) != (i == len(evs)-1) {
			fail(e, "End must be the last event, and only it")
		}
		if opts.OmitFraming && (e.Type == Text || e.Type == Thinking) && e.Text == "" {
			fail(e, "an event of framing only under OmitFraming")
		}
	}
	checkOpenAIArgs(t, evs, func(f string, a ...any) {
		t.Helper()
		t.Fatalf("syntax %s, input %q cuts %v: --format openai: %s", syntaxOf(opts), in, cuts, fmt.Sprintf(f, a...))
	})
	switch {
	case opts.HideThinking, opts.OmitFraming:
	case syntaxOf(opts) == "acts":
		for i, n := range covered {
			if n == 0 {
				t.Fatalf("cuts %v: byte %d (%q) is in no event", cuts, i, src[i])
			}
		}
	case raw.String() != src:
		t.Fatalf("syntax %s, cuts %v: raw text %q, want the input %q", syntaxOf(opts), cuts, raw.String(), src)
	}
	return merge(evs)
}

// jsonDecodes reports whether src, the source of a JSON-argument syntax's
// param_delta, decodes to text as the inside of a JSON string (once, or
// twice for arguments given as a JSON string); raw line endings and tabs
// are taken as written, and source that is not UTF-8 is not checked.
func jsonDecodes(src, text string) bool {
	if !utf8.ValidString(src) {
		return true
	}
	// Raw control characters in a string are taken as written (docs/stream.md).
	esc := func(s string) string {
		var b strings.Builder
		for _, r := range s {
			if r < 0x20 {
				fmt.Fprintf(&b, `\u%04x`, r)
				continue
			}
			b.WriteRune(r)
		}
		return b.String()
	}
	for range 2 {
		var s string
		if json.Unmarshal([]byte(`"`+esc(src)+`"`), &s) != nil {
			return false
		}
		if s == text {
			return true
		}
		src = s
	}
	return false
}

// pyDecodes reports whether src, the source of a pythonic call's
// param_delta (llama syntax), decodes to text with Python's string
// escapes.
func pyDecodes(src, text string) bool {
	var dec []byte
	for i := 0; i < len(src); {
		if src[i] != '\\' {
			dec = append(dec, src[i])
			i++
			continue
		}
		d, n, _ := pyEscape([]byte(src[i:]), true)
		dec = append(dec, d...)
		i += n
	}
	return string(dec) == text
}

// checkEventExact checks that the event's JSON form is valid UTF-8 JSON
// that gives back its strings and params byte for byte, through the
// *_base64 members (docs/acts.md, "Exact bytes in JSON").
func checkEventExact(e Event) string {
	if utf8.ValidString(e.Text+e.Name+e.Param+e.CallID) && !ast.HasInvalidUTF8(e.Params) && !ast.HasInvalidName(e.Params) {
		return "" // nothing to give back beside the strings
	}
	data, err := e.AppendJSON(nil)
	if err != nil || !utf8.Valid(data) || !json.Valid(data) {
		return fmt.Sprintf("%v: %q", err, data)
	}
	var x map[string]any
	if err := ast.UnmarshalExact(data, &x); err != nil {
		return err.Error()
	}
	for k, want := range map[string]string{"text": e.Text, "name": e.Name, "param": e.Param, "call_id": e.CallID} {
		if got, _ := x[k].(string); want != "" && got != want {
			return fmt.Sprintf("%s %q, want %q", k, got, want)
		}
	}
	if e.Params == nil {
		return ""
	}
	var got struct {
		Params ast.Params     `json:"params"`
		B64    map[string]any `json:"params_base64"`
		Keys   map[string]any `json:"params_keys_base64"`
	}
	if err := json.Unmarshal(data, &got); err != nil {
		return err.Error()
	}
	ps, err := ast.ApplyBase64(got.Params, got.B64)
	if err != nil {
		return err.Error()
	}
	if ps, err = ast.ApplyKeysBase64(ps, got.Keys); err != nil {
		return err.Error()
	}
	canon := func(v any) any {
		raw, err := ast.RawExact(v)
		if err != nil {
			return err.Error()
		}
		var out any
		if err := ast.UnmarshalExact(raw, &out); err != nil {
			return err.Error()
		}
		return out
	}
	if a, b := canon(ps), canon(e.Params); !reflect.DeepEqual(a, b) {
		return fmt.Sprintf("params read back %#v, want %#v", a, b)
	}
	return ""
}

// isFramed reports whether syntax name reads a provider API's transport
// (SSE) rather than model text: its Text and Thinking events cover the
// bytes, a ToolCall's Raw is the call's decoded argument text, and a
// ParamDelta's Text is decoded from a JSON string.
func isFramed(name string) bool {
	switch name {
	case "openai-chat", "openai-responses", "anthropic":
		return true
	}
	return false
}
