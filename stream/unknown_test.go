package stream

import (
	"strings"
	"testing"

	"github.com/plangram/plangram/schema"
)

// TestUnknownToolHint: an unknown tool's error names the nearest known
// tool (did you mean, as plangram check suggests an action) in every
// family of syntaxes, and points to --tools FILE only while the built-in
// registry is in use (Options.Schema nil), never when the caller gave the
// tools.
func TestUnknownToolHint(t *testing.T) {
	builtin, err := schema.Builtin("tools")
	if err != nil {
		t.Fatal(err)
	}
	registry := registrySchema(t)
	const pointer = "--tools FILE"
	for _, tc := range []struct {
		syntax, in string
		schema     *schema.Schema // nil: the built-in registry
		near       string         // the did-you-mean, "" for none
		pointer    bool
	}{
		{"tools", `<function_calls><invoke name="read_fil"><parameter name="path">a</parameter></invoke></function_calls>`, nil, "read_file", true},
		{"tools", `<function_calls><invoke name="read_fil"><parameter name="path">a</parameter></invoke></function_calls>`, builtin, "read_file", false},
		{"qwen3-coder", "<tool_call>\n<function=Read_Files>\n<parameter=path>\na\n</parameter>\n</function>\n</tool_call>", nil, "read_file", true},
		{"glm", "<tool_call>zzzzzz\n<arg_key>path</arg_key>\n<arg_value>a</arg_value>\n</tool_call>", nil, "", true},
		{"hermes", `<tool_call>{"name": "readfile", "arguments": {"path": "a"}}</tool_call>`, nil, "read_file", true},
		{"hermes", `<tool_call>{"name": "readfile", "arguments": {"path": "a"}}</tool_call>`, builtin, "read_file", false},
		{"mistral", `[TOOL_CALLS]write_to_fil[ARGS]{"path": "a"}`, nil, "write_to_file", true},
		{"llama", `[list_file(path="a")]`, nil, "list_files", true},
		{"openai-chat", `data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c","function":{"name":"get_wether","arguments":"{}"}}]}}]}` + "\n\n", registry, "get_weather", false},
	} {
		evs := collect(t, Options{Syntax: tc.syntax, Schema: tc.schema}, []byte(tc.in), nil)
		var msg string
		for _, e := range evs {
			if e.Type == Error && e.Kind == KindUnknownTool {
				msg = e.Message
			}
		}
		switch {
		case msg == "":
			t.Errorf("%s %q: no unknown-tool error in %s", tc.syntax, tc.in, jsonl(t, evs))
		case tc.near != "" && !strings.Contains(msg, `; did you mean "`+tc.near+`"?`):
			t.Errorf("%s %q: %q does not suggest %s", tc.syntax, tc.in, msg, tc.near)
		case tc.near == "" && strings.Contains(msg, "did you mean"):
			t.Errorf("%s %q: %q suggests a tool", tc.syntax, tc.in, msg)
		case strings.Contains(msg, pointer) != tc.pointer:
			t.Errorf("%s %q (schema given: %v): %q, pointer to %s: %v", tc.syntax, tc.in, tc.schema != nil, msg, pointer, !tc.pointer)
		}
		checkChunks(t, Options{Syntax: tc.syntax, Schema: tc.schema}, []byte(tc.in), 5)
	}
}
