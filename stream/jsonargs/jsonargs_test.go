package jsonargs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/plangram/plangram/ast"
)

// run feeds in cut at the given offsets (ascending) with Feed and
// closes; it returns the events.
func run(opts Options, in []byte, cuts []int) []Event {
	var evs []Event
	p := New(opts, func(e Event) { evs = append(evs, e) })
	prev := 0
	for _, c := range append(cuts, len(in)) {
		if c < prev || c > len(in) {
			continue
		}
		p.Feed(in[prev:c])
		prev = c
	}
	p.Close()
	return evs
}

// merged joins adjacent Delta events of one key, the only difference
// chunking makes.
func merged(evs []Event) []Event {
	var out []Event
	for _, e := range evs {
		if n := len(out); n > 0 && e.Kind == Delta && out[n-1].Kind == Delta && out[n-1].Key == e.Key {
			out[n-1].Text += e.Text
			out[n-1].Span.End = e.Span.End
			continue
		}
		out = append(out, e)
	}
	return out
}

func dump(evs []Event) string {
	var b strings.Builder
	for _, e := range evs {
		fmt.Fprintf(&b, "%s key=%q text=%q value=%#v raw=%q partial=%v %s %q %s\n", e.Kind, e.Key, e.Text, e.Value, e.Raw, e.Partial, e.Code, e.Message, e.Span)
	}
	return b.String()
}

// chunkings returns the cut sets the invariance is checked with: every
// byte, 7 and 4096 bytes, each split in two (short inputs) and random.
func chunkings(n int, seed uint64) [][]int {
	every := func(k int) []int {
		var c []int
		for i := k; i < n; i += k {
			c = append(c, i)
		}
		return c
	}
	sets := [][]int{every(1), every(7), every(4096)}
	if n < 200 {
		for i := 1; i < n; i++ {
			sets = append(sets, []int{i})
		}
	}
	r := rand.New(rand.NewPCG(seed, uint64(n)))
	for range 8 {
		var c []int
		for i := r.IntN(5); i < n; i += 1 + r.IntN(30) {
			c = append(c, i)
		}
		sets = append(sets, c)
	}
	return sets
}

// checkInvariance checks that every chunking gives the events of one
// Feed, merged, and returns those.
func checkInvariance(t *testing.T, opts Options, in []byte, seed uint64) []Event {
	t.Helper()
	want := merged(run(opts, in, nil))
	for _, cuts := range chunkings(len(in), seed) {
		if got := merged(run(opts, in, cuts)); !reflect.DeepEqual(got, want) {
			t.Fatalf("input %q cuts %v:\n got %s\nwant %s", in, cuts, dump(got), dump(want))
		}
	}
	return want
}

// checkSpans checks every event's span against the input.
func checkSpans(t *testing.T, in []byte, evs []Event, nested bool) {
	t.Helper()
	lines := ast.NewLines(in)
	for _, e := range evs {
		if want := lines.Span(e.Span.Start.Offset, e.Span.End.Offset); e.Span != want {
			t.Fatalf("input %q: span %v, want %v in %s", in, e.Span, want, dump([]Event{e}))
		}
		if nested || !utf8.Valid(in) || hasControl(in) {
			continue
		}
		src := in[e.Span.Start.Offset:e.Span.End.Offset]
		switch {
		case e.Kind == Delta:
			var s string
			if err := json.Unmarshal(escapeControl([]byte(`"`+string(src)+`"`)), &s); err != nil || s != e.Text {
				t.Fatalf("input %q: delta %q from %q (%v)", in, e.Text, src, err)
			}
		case (e.Kind == Value || e.Kind == Field) && !e.Partial:
			if s, ok := e.Value.(string); ok {
				var v string
				if err := json.Unmarshal(escapeControl(src), &v); err != nil || v != s {
					t.Fatalf("input %q: string value %q from %q (%v)", in, s, src, err)
				}
			} else if e.Raw != string(src) {
				t.Fatalf("input %q: raw %q, source %q", in, e.Raw, src)
			}
		}
	}
}

// escapeControl escapes raw newlines and tabs, which the reader accepts
// inside strings.
func escapeControl(b []byte) []byte {
	return []byte(strings.NewReplacer("\n", `\n`, "\r", `\r`, "\t", `\t`).Replace(string(b)))
}

// hasControl reports whether in holds a control byte other than white
// space (which the reader takes as written inside strings).
func hasControl(in []byte) bool {
	return bytes.ContainsFunc(in, func(r rune) bool { return r < 0x20 && r != '\n' && r != '\r' && r != '\t' })
}

// checkAgreement compares the arguments of an error-free run with
// encoding/json's decoding of the same object.
func checkAgreement(t *testing.T, in []byte, evs []Event) {
	t.Helper()
	if n := len(evs); n > 0 && evs[n-1].Kind == Done {
		in = in[:evs[n-1].Span.End.Offset] // Feed stops where the value ends
	}
	errs := 0
	got := map[string]Event{}
	deltas := map[string]string{}
	for _, e := range evs {
		switch e.Kind {
		case Error:
			errs++
		case Value:
			got[e.Key] = e
		case Delta:
			deltas[e.Key] += e.Text
		}
	}
	trimmed := bytes.Trim(in, jsonSpace) // JSON white space only: \f is not
	// Raw control characters are taken as written (the documented
	// leniency), so they are blanked before asking encoding/json.
	lenient := json.Valid(bytes.Map(func(r rune) rune {
		if r < 0x20 {
			return ' '
		}
		return r
	}, in))
	object := len(trimmed) > 0 && trimmed[0] == '{'
	switch {
	case len(trimmed) == 0:
		if errs != 0 {
			t.Fatalf("empty input %q: errors %s", in, dump(evs))
		}
		return
	case trimmed[0] == '"':
		return // a nested string: its content decides
	case !lenient || !object:
		if errs == 0 {
			t.Fatalf("input %q is not a JSON object but no error:\n%s", in, dump(evs))
		}
		return
	case errs != 0:
		if !hasControl(in) {
			t.Fatalf("valid input %q: errors:\n%s", in, dump(evs))
		}
		return
	}
	if !json.Valid(in) || !utf8.Valid(in) {
		return
	}
	var want map[string]json.RawMessage
	if err := json.Unmarshal(in, &want); err != nil {
		t.Fatal(err)
	}
	if len(want) != len(got) {
		t.Fatalf("input %q: %d arguments, encoding/json %d:\n%s", in, len(got), len(want), dump(evs))
	}
	for k, raw := range want {
		e, ok := got[k]
		if !ok {
			t.Fatalf("input %q: argument %q missing", in, k)
		}
		switch v := e.Value.(type) {
		case string:
			var s string
			if err := json.Unmarshal(raw, &s); err != nil || s != v {
				t.Fatalf("input %q: %q = %q, encoding/json %q", in, k, v, s)
			}
		case json.Number, json.RawMessage, bool, nil:
			var a, b any
			d := json.NewDecoder(bytes.NewReader(raw))
			d.UseNumber()
			if err := d.Decode(&a); err != nil {
				t.Fatal(err)
			}
			d = json.NewDecoder(strings.NewReader(e.Raw))
			d.UseNumber()
			if err := d.Decode(&b); err != nil || !reflect.DeepEqual(a, b) || e.Raw != string(raw) {
				t.Fatalf("input %q: %q = %s, encoding/json %s", in, k, e.Raw, raw)
			}
			if s, ok := e.Value.(json.Number); ok && string(s) != e.Raw {
				t.Fatalf("number %q raw %q", s, e.Raw)
			}
		default:
			t.Fatalf("input %q: %q has value type %T", in, k, v)
		}
	}
	// The deltas of the last value of each string argument add up to it
	// when the key is given once.
	for k, e := range got {
		if s, ok := e.Value.(string); ok && bytes.Count(in, []byte(`"`+k+`"`)) == 1 && deltas[k] != s {
			t.Fatalf("input %q: deltas of %q are %q, value %q", in, k, deltas[k], s)
		}
	}
}

var samples = []string{
	``,
	`   `,
	`{}`,
	` { } `,
	`{"path": "src/a.go", "content": "package a\n\nfunc A() {}\n"}`,
	`{"a": "x\ny\u00e9\ud83d\ude00 z", "b": [1, {"c": "}"}], "n": -1.5e3, "t": true, "f": false, "z": null}`,
	`{"s": "\"\\\/\b\f\n\r\t\u0000\u001f\u00FF\uFFFF"}`,
	`{"lone": "\ud800", "pair": "\ud83d\ude00", "low": "\udc00\ud800", "hi2": "\ud800\ud800\udc00", "bad": "\ud800\n"}`,
	`{"k\u00e9y": 1, "dup": 1, "dup": "two"}`,
	`{"num": 0, "n2": -0.0e+5, "n3": 12345678901234567890123, "n4": 1E-7}`,
	`{"nested": {"a": [1, 2, {"b": "c\"d"}], "e": {}}, "arr": [], "s": "é"}`,
	`{"path": "a.go"`,
	`{"path": "a.g`,
	`{"path": "a\u00`,
	`{"path": "a\`,
	`{"path": "a", "x": [1, {"y": 2`,
	`{"x": tru`,
	`{"x": -`,
	`{"x": 01}`,
	`{"x": 1.}`,
	`{"x": 1e}`,
	`{"x": .5}`,
	`{"x": "a\qb"}`,
	`{"x": "\u12G4"}`,
	`{"x" 1}`,
	`{"x": 1,}`,
	`{,}`,
	`{"x": 1 "y": 2}`,
	`[1, 2]`,
	`42`,
	`nope`,
	`{"x": 1} trailing`,
	`{"x": 1}   `,
	"{\"x\": \"raw\nnewline\ttab\"}",
	"{\r\n  \"x\": 1,\r\n  \"y\": \"two\"\r\n}",
	`"{\"path\": \"a\\nb\", \"n\": 2, \"o\": {\"k\": [true]}}"`,
	`"{\"path\": \"\\u00e9\\ud83d\\ude00\"}"`,
	`"{\"path\": \"a.go\""`,
	`"{\"path\" 1}"`,
	`""`,
	`"  "`,
	`"{}  x"`,
	`"\"{\\\"deep\\\": 1}\""`,
	"\"{\\\"a\\\":\n\\\"b\\\"}\"",
	`{"path": "` + strings.Repeat("é😀\\n\\u00e9", 50) + `"}`,
	"{\"bin\": \"\xff\xfe\xe2\x82\"}",
}

var envSamples = []string{
	`{"type": "function", "function": {"name": "f", "arguments": {"path": "a.go"}}, "id": "c1"}`,
	`{"id": "c1", "function": {"parameters": "{\"x\": \"y\"}", "name": "f"}, "type": "function"}`,
	`{"function": {"name": "f", "arguments": {"a": 1}}, "function": {"name": "g"}, "arguments": {"b": 2}}`,
	`{"function": "f", "arguments": {"a": 1}}`,
	`"{\"type\": \"function\", \"function\": {\"name\": \"f\", \"arguments\": {\"a\": \"b\"}}}"`,
	`{"function": {"name": "f", "arguments": {"a": "b"`,
	`{"name": "read_file", "arguments": {"path": "a.go"}}`,
	`{"arguments": {"path": "a.go", "content": "x\ny"}, "name": "write_file", "id": 7}`,
	`{"name": "f", "arguments": "{\"path\": \"a.go\"}"}`,
	`{"name": "f", "parameters": {"x": 1}}`,
	`{"name": "f", "arguments": null}`,
	`{"name": "f", "arguments": {"a": 1}, "arguments": {"b": 2}}`,
	`{"name": "f", "arguments": {"a": "b"`,
	`{"name": "f"}`,
	`"{\"name\": \"f\", \"arguments\": {\"a\": 1}}"`,
	`{"name": {"nested": "name"}, "arguments": {}}`,
}

func TestInvariance(t *testing.T) {
	for i, s := range samples {
		evs := checkInvariance(t, Options{}, []byte(s), uint64(i))
		checkSpans(t, []byte(s), evs, strings.HasPrefix(s, `"`))
		checkAgreement(t, []byte(s), evs)
	}
	env := Options{Envelope: []string{"arguments", "parameters"}, Wrapper: "function"}
	for i, s := range envSamples {
		evs := checkInvariance(t, env, []byte(s), uint64(i))
		checkSpans(t, []byte(s), evs, true)
	}
}

func TestStart(t *testing.T) {
	start := ast.Pos{Offset: 100, Line: 5, Col: 3}
	evs := run(Options{Start: start}, []byte("{\"a\":\n\"b\"}"), nil)
	want := ast.Span{Start: ast.Pos{Offset: 106, Line: 6, Col: 1}, End: ast.Pos{Offset: 109, Line: 6, Col: 4}}
	if evs[2].Kind != Value || evs[2].Span != want {
		t.Fatalf("got %s", dump(evs))
	}
}

// TestDecoded pins decoded values, errors and positions.
func TestDecoded(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"a": "\ud800\u0041\udc00x"}`, "value a \"\ufffdA\ufffdx\"\n"},
		{`{"a": "\ud83d\ude00"}`, "value a \"😀\"\n"},
		{`{"a": 1, "b": [1, 2]}`, "value a 1\nvalue b [1, 2]\n"},
		{`{"a" 1}`, "error syntax 1:6-1:7 unexpected \"1\": want ':'\n"},
		{`{"a": "\x"}`, "error syntax 1:9-1:10 unexpected \"x\": want an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)\n"},
		{`{"a": 1.x}`, "error syntax 1:9-1:10 unexpected \"x\" in a number\n"},
		{`{"a": "b`, "value a \"b\" (partial)\nerror unterminated 1:1-1:9 JSON ends before the value is complete (want the closing '\"')\n"},
		{`{"a": [1, {`, "value a [1, { (partial)\nerror unterminated 1:1-1:12 JSON ends before the value is complete (want a key)\n"},
		{`{"a": 1} x`, "value a 1\n"}, // Feed stops where the value ends
		{`[]`, "error not-object 1:1-1:2 the arguments are not a JSON object\n"},
		{`"{\"a\": \"\\u00e9\"}"`, "value a \"é\"\n"},
		{`"{\"a\" 1}"`, "error syntax 1:9-1:10 unexpected \"1\": want ':'\n"},
		{"\"{\\\"a\\\":\n 1 x}\"", "value a 1\nerror syntax 2:4-2:5 unexpected \"x\": want ',' or '}'\n"},
		{`"{\"a\": 1"`, "value a 1\nerror unterminated 1:2-1:11 JSON ends before the value is complete (want ',' or '}')\n"},
	} {
		var b strings.Builder
		for _, e := range run(Options{}, []byte(c.in), nil) {
			switch e.Kind {
			case Value:
				v := e.Raw
				if s, ok := e.Value.(string); ok {
					v = fmt.Sprintf("%q", s)
				}
				fmt.Fprintf(&b, "value %s %s", e.Key, v)
				if e.Partial {
					b.WriteString(" (partial)")
				}
				b.WriteByte('\n')
			case Error:
				fmt.Fprintf(&b, "error %s %s %s\n", e.Code, e.Span, e.Message)
			}
		}
		if b.String() != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.in, b.String(), c.want)
		}
	}
}

// TestFeedStops checks that Feed stops at the end of the value and at a
// syntax error.
func TestFeedStops(t *testing.T) {
	p := New(Options{}, func(Event) {})
	in := []byte(` {"a": [1]}</tool_call>`)
	if n := p.Feed(in[:5]) + p.Feed(in[5:]); n != 11 || !p.Done() {
		t.Fatalf("consumed %d, done %v", n, p.Done())
	}
	p.Reset(ast.Pos{})
	if n := p.Feed([]byte(`{"a" x}`)); n != 5 || !p.Failed() {
		t.Fatalf("consumed %d, failed %v", n, p.Failed())
	}
}

// TestLinear bounds the allocations of a large string argument fed in
// small chunks: they grow with the argument, not with the chunk count.
func TestLinear(t *testing.T) {
	allocs := func(n int) float64 {
		in := []byte(`{"content": "` + strings.Repeat(`line\n\u00e9`, n) + `"}`)
		return testing.AllocsPerRun(3, func() {
			p := New(Options{}, func(Event) {})
			for i := 0; i < len(in); i += 20 {
				p.Feed(in[i:min(i+20, len(in))])
			}
			p.Close()
		})
	}
	a, b := allocs(2000), allocs(8000)
	// Each chunk emits one Delta (its string) and escapes allocate their
	// decoded rune: allocations are linear; check they do not grow faster.
	if b > 4.5*a {
		t.Fatalf("allocations %v for n, %v for 4n", a, b)
	}
}

func FuzzJSONArgs(f *testing.F) {
	for i, s := range samples {
		f.Add([]byte(s), uint64(i), false)
	}
	for i, s := range envSamples {
		f.Add([]byte(s), uint64(i), true)
	}
	f.Fuzz(func(t *testing.T, in []byte, seed uint64, env bool) {
		opts := Options{}
		if env {
			opts.Envelope, opts.Wrapper = []string{"arguments", "parameters"}, "function"
		}
		want := merged(run(opts, in, nil))
		r := rand.New(rand.NewPCG(seed, 3))
		var cuts, every []int
		for c := r.IntN(4); c < len(in); c += 1 + r.IntN(24) {
			cuts = append(cuts, c)
		}
		for c := 1; c < len(in); c++ {
			every = append(every, c)
		}
		for _, cs := range [][]int{cuts, every} {
			if got := merged(run(opts, in, cs)); !reflect.DeepEqual(got, want) {
				t.Fatalf("cuts %v:\n got %s\nwant %s", cs, dump(got), dump(want))
			}
		}
		nested := env || bytes.HasPrefix(bytes.Trim(in, jsonSpace), []byte(`"`))
		checkSpans(t, in, want, nested)
		if !nested {
			checkDecodeString(t, in, want)
		}
		if !env {
			checkAgreement(t, in, want)
		}
	})
}

// jsonSpace is JSON's white space (RFC 8259: space, tab, LF, CR), narrower
// than bytes.TrimSpace's.
const jsonSpace = " \t\r\n"

// checkDecodeString: DecodeString, given the body of each complete string
// argument, decodes it as the Parser did, in pieces that cover the body
// in order.
func checkDecodeString(t *testing.T, in []byte, evs []Event) {
	t.Helper()
	for _, e := range evs {
		v, ok := e.Value.(string)
		if e.Kind != Value || !ok || e.Partial {
			continue
		}
		src := in[e.Span.Start.Offset:e.Span.End.Offset]
		if len(src) < 2 || src[0] != '"' || src[len(src)-1] != '"' {
			t.Fatalf("string argument %s: source %q is not a string literal", e.Key, src)
		}
		var dec []byte
		at := 0
		DecodeString(src[1:len(src)-1], func(d []byte, from, to int) {
			if from != at || to <= from {
				t.Fatalf("string argument %s: piece [%d, %d) after %d", e.Key, from, to, at)
			}
			at = to
			dec = append(dec, d...)
		})
		if at != len(src)-2 || string(dec) != v {
			t.Fatalf("string argument %s: DecodeString(%q) = %q up to %d, the Parser read %q", e.Key, src, dec, at, v)
		}
	}
}

func TestDecodeString(t *testing.T) {
	for _, in := range []string{`{"a": "x\u00e9\n\ud83d\ude00 \ud800\u0041 caf\u00e9 \" \\ \/ \b\f\r\t é", "b": "\udc00\ud800", "c": ""}`} {
		checkDecodeString(t, []byte(in), run(Options{}, []byte(in), nil))
	}
}

// TestWrapper pins Options.Wrapper: the wrapper object's members are the
// envelope's, the members around it Fields; only one wrapper is read, and
// only an object.
func TestWrapper(t *testing.T) {
	opts := Options{Envelope: []string{"arguments", "parameters"}, Wrapper: "function"}
	for _, c := range []struct{ in, want string }{
		{`{"type": "function", "function": {"name": "f", "arguments": {"a": "b"}}, "id": "c1"}`,
			"field type \"function\"\nfield name \"f\"\nkey a\nvalue a \"b\"\nfield id \"c1\"\n"},
		{`{"function": {"parameters": "{\"a\": 1}", "name": "f"}}`, "key a\nvalue a 1\nfield name \"f\"\n"},
		{`{"function": {"name": "f"}, "function": {"name": "g"}}`, "field name \"f\"\nfield function {\"name\": \"g\"}\n"},
		{`{"function": "f", "arguments": {}}`, "field function \"f\"\n"},
		{`{"arguments": {"a": 1}, "function": {"name": "f", "arguments": {"b": 2}}}`,
			"key a\nvalue a 1\nfield function {\"name\": \"f\", \"arguments\": {\"b\": 2}}\n"},
	} {
		var b strings.Builder
		for _, e := range run(opts, []byte(c.in), nil) {
			switch e.Kind {
			case Key:
				fmt.Fprintf(&b, "key %s\n", e.Key)
			case Value, Field:
				v := e.Raw
				if s, ok := e.Value.(string); ok {
					v = strconv.Quote(s)
				}
				fmt.Fprintf(&b, "%s %s %s\n", e.Kind, e.Key, v)
			case Error:
				fmt.Fprintf(&b, "error %s\n", e.Message)
			}
		}
		if b.String() != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.in, b.String(), c.want)
		}
	}
}

// TestMaxDepth: an argument nested up to MaxDepth is read and reported
// as JSON that encoding/json takes back; one level deeper is a too-deep
// error at the byte that opens it, and reading stops there. A deeper
// argument made the stream command stop with "exceeded max depth".
func TestMaxDepth(t *testing.T) {
	for _, c := range []struct {
		depth int // of the argument's value; the object around it is one more
		ok    bool
	}{{MaxDepth - 1, true}, {MaxDepth, false}, {5 * MaxDepth, false}} {
		in := []byte(`{"a": ` + strings.Repeat("[", c.depth) + strings.Repeat("]", c.depth) + `}`)
		evs := run(Options{}, in, []int{7, 4096})
		var val *Event
		var errs []Event
		for i := range evs {
			switch evs[i].Kind {
			case Value:
				val = &evs[i]
			case Error:
				errs = append(errs, evs[i])
			}
		}
		if c.ok {
			if val == nil || len(errs) > 0 {
				t.Fatalf("depth %d: value %v, errors %v", c.depth, val, errs)
			}
			if _, err := json.Marshal(val.Value); err != nil {
				t.Fatalf("depth %d: the value does not marshal: %v", c.depth, err)
			}
			continue
		}
		if len(errs) != 1 || errs[0].Code != CodeTooDeep || errs[0].Span.Start.Offset != 6+MaxDepth-1 {
			t.Fatalf("depth %d: errors %+v, want one %s at offset %d", c.depth, errs, CodeTooDeep, 6+MaxDepth-1)
		}
	}
}
