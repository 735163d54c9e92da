package stream

import (
	"fmt"
	"strings"
	"testing"

	"github.com/plangram/plangram/schema"
)

// bindSchema declares a tool with an aliased path and a json parameter.
func bindSchema(t *testing.T) *schema.Schema {
	t.Helper()
	s, err := schema.Parse("bind.json", []byte(`{"version": 1, "dialect": "tools", "actions": [
		{"name": "edit", "params": [
			{"name": "path", "aliases": ["file"], "type": "path", "required": true},
			{"name": "data", "type": "json"}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// bindSummary renders a stream's tool calls and errors, one a line.
func bindSummary(t *testing.T, opts Options, in string) string {
	t.Helper()
	var b strings.Builder
	for _, e := range collect(t, opts, []byte(in), nil) {
		switch e.Type {
		case ToolCall:
			fmt.Fprintf(&b, "call %s", e.Name)
			for _, p := range e.Params {
				fmt.Fprintf(&b, " %s=%#v", p.Name, p.Value)
			}
			b.WriteByte('\n')
		case Error:
			fmt.Fprintf(&b, "error %s %s\n", e.Kind, e.Param)
		}
	}
	return b.String()
}

// TestBind: every syntax types its arguments with one binder, so that
// aliases, null, duplicates and an unknown tool's repeated keys read the
// same whichever syntax carried the call.
func TestBind(t *testing.T) {
	s := bindSchema(t)
	for _, c := range []struct{ syntax, in, want string }{
		// A provider API call names a parameter by its alias.
		{"openai-chat", apiCall1(`{"file": "a.go"}`), "call edit path=\"a.go\"\n"},
		// A null is no value: the value after it is not a duplicate.
		{"openai-chat", apiCall1(`{"path": null, "path": "a.go"}`), "call edit path=\"a.go\"\n"},
		// A json parameter takes null as its value.
		{"hermes", `<tool_call>{"name": "edit", "arguments": {"path": "a.go", "data": null}}</tool_call>`, "call edit path=\"a.go\" data=<nil>\n"},
		{"openai-chat", apiCall1(`{"path": "a.go", "data": null}`), "call edit path=\"a.go\" data=<nil>\n"},
		// An unknown tool's repeated key is reported, the first kept.
		{"hermes", `<tool_call>{"name": "other", "arguments": {"x": "1", "x": "2"}}</tool_call>`,
			"error unknown-tool \nerror duplicate-param x\ncall other x=\"1\"\n"},
		// A parameter given by name and by alias is a duplicate, the first kept.
		{"qwen3-coder", "<tool_call>\n<function=edit>\n<parameter=path>\na.go\n</parameter>\n<parameter=file>\nb.go\n</parameter>\n</function>\n</tool_call>",
			"error duplicate-param path\ncall edit path=\"a.go\"\n"},
	} {
		if got := bindSummary(t, Options{Syntax: c.syntax, Schema: s}, c.in); got != c.want {
			t.Errorf("%s %q:\n got %s\nwant %s", c.syntax, c.in, got, c.want)
		}
	}
}

// apiCall1 is an openai-chat stream of one call of edit with the given
// arguments.
func apiCall1(args string) string {
	return string(apiAnswer("openai-chat", []apiPart{{kind: "call", name: "edit", args: args}}))
}

// TestBindExact: a delta is marked exact only when bind keeps its
// argument: not for a duplicate given by alias, nor for a string after a
// json parameter's null.
func TestBindExact(t *testing.T) {
	s := bindSchema(t)
	for _, c := range []struct{ syntax, in string }{
		{"openai-chat", apiCall1(`{"path": "a.go", "file": "b.go"}`)},
		{"hermes", `<tool_call>{"name": "edit", "arguments": {"path": "a.go", "data": null, "data": "b.go"}}</tool_call>`},
	} {
		for _, e := range collect(t, Options{Syntax: c.syntax, Schema: s}, []byte(c.in), nil) {
			if e.Type == ParamDelta && e.Exact && strings.Contains("b.go", e.Text) {
				t.Errorf("%s: delta %q of %s is marked exact, but bind keeps the first value", c.syntax, e.Text, e.Param)
			}
		}
	}
}
