package stream

import (
	"bytes"
	"encoding/json"
	"testing"
)

// collect parses input cut at the given offsets (ascending) and returns the
// events.
func collect(t testing.TB, opts Options, input []byte, cuts []int) []Event {
	t.Helper()
	var evs []Event
	p, err := New(opts, func(e Event) error { evs = append(evs, e); return nil })
	if err != nil {
		t.Fatal(err)
	}
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
			if l.Type == e.Type && (e.Type == Text || e.Type == Thinking || e.Type == ParamDelta && l.ID == e.ID && l.Param == e.Param) {
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
