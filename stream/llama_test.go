package stream

import "testing"

// TestLlamaCallStart pins where a llama call may start: at
// <|python_tag|>, or at a '{' that begins the stream or a line and is
// followed by "name"; any other '{' is text (also under --syntax auto).
func TestLlamaCallStart(t *testing.T) {
	for _, tc := range []struct {
		in    string
		calls int
	}{
		{`{"name": "read_file", "parameters": {"path": "a"}}`, 1},
		{"  \n {\"name\": \"read_file\", \"parameters\": {\"path\": \"a\"}}", 1},
		{"text\n\t{ \"name\": \"read_file\", \"arguments\": {\"path\": \"a\"}}", 1},
		{`text <|python_tag|> {"name": "read_file", "parameters": {"path": "a"}}`, 1},
		{`a set {"name": "read_file", "parameters": {"path": "a"}} mid-line`, 0},
		{"{\"path\": \"a\"}\n{\"value\": 1}", 0},
		{`{"name": "read_file", "parameters": {"path": "a"}};{"name": "read_file", "parameters": {"path": "b"}} ; {"name": "read_file", "parameters": {"path": "c"}}`, 3},
		{`{"name": "read_file", "parameters": {"path": "a"}}; {"other": 1}`, 1},
	} {
		for _, syn := range []string{"llama", Auto} {
			evs := checkChunks(t, Options{Syntax: syn}, []byte(tc.in), 5)
			calls := 0
			for _, e := range evs {
				if e.Type == ToolCall {
					calls++
				}
			}
			if calls != tc.calls {
				t.Errorf("%s %q: %d calls, want %d: %s", syn, tc.in, calls, tc.calls, jsonl(t, evs))
			}
		}
	}
}
