package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/plangram/plangram/stream"
)

// TestStreamGolden checks that `plangram stream --exact` prints exactly the
// events pinned for the stream package's golden inputs (read, as there, in
// the syntax their name starts with, else tools).
func TestStreamGolden(t *testing.T) {
	for _, name := range []string{"bad_value", "function_calls", "thinking_nested", "acts_basic"} {
		in, err := os.ReadFile(filepath.Join("../../golden/stream", name+".txt"))
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join("../../golden/stream", name+".golden"))
		if err != nil {
			t.Fatal(err)
		}
		args := []string{"stream", "--chunk", "1000000", "--exact", "--syntax", "tools"}
		if syn, _, ok := strings.Cut(name, "_"); ok && slices.Contains(stream.SyntaxNames(), syn) {
			args[len(args)-1] = syn
		}
		_, out, _ := runCLI(t, string(in), args...)
		if out != string(want) {
			t.Errorf("%s: stdout\n%s\nwant\n%s", name, out, want)
		}
	}
}

func TestStreamCLI(t *testing.T) {
	schemaFile := filepath.Join(t.TempDir(), "s.json")
	custom := `{"version": 1, "dialect": "tools", "actions": [{"name": "ping", "params": [{"name": "n", "type": "int", "required": true}]}]}`
	if err := os.WriteFile(schemaFile, []byte(custom), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		stdin  string
		args   []string
		code   int
		stdout string // a substring
		stderr string // a substring
	}{
		{"just text", nil, exitOK, `{"type":"text","text":"just text"`, ""},
		{"a <thinking>x</thinking>", []string{"--no-thinking"}, exitOK, `{"type":"text","text":"a "`, ""},
		{"<list_files><path>.</path><recursive>yes</recursive></list_files>", []string{"--chunk", "3"}, exitError,
			`"kind":"bad-value"`, "<stdin>:1:38: error: parameter recursive: want true or false, got \"yes\" [bad-value]\n"},
		{"~~~act\nfrobnicate\n~~~\n", []string{"--dialect", "acts"}, exitError, `"severity":"error"`, "error: unknown action"},
		{"<ping><n>12</n></ping>", []string{"--schema", schemaFile}, exitOK, `"params":{"n":12}`, ""},
		{"<ping><n>x</n></ping>", []string{"--schema", schemaFile}, exitError, `"kind":"bad-value"`, ""},
		{"", []string{"--schema", filepath.Join(t.TempDir(), "missing.json")}, exitUsage, "", "missing.json"},
		{"", []string{"--dialect", "plan"}, exitUsage, "", `unknown --syntax "plan"`},
		{"", []string{"--syntax", "tools", "--dialect", "acts"}, exitUsage, "", "disagree"},
		{"<think>a</think>b", []string{"--syntax", "auto"}, exitOK, `"syntax":"auto"`, ""},
		{"x <read_file><path>a</path></read_file>", []string{"--syntax", "auto"}, exitOK, `"syntax":"tools"`, ""},
		{"a</think>b", []string{"--in-thinking", "--exact"}, exitOK, `{"type":"thinking","text":"a","raw":"a</think>"`, ""},
		{"a</think>b", []string{"--in-thinking"}, exitOK, `{"type":"thinking","text":"a","raw":"a","span"`, ""},
		{"", []string{"--chunk", "0"}, exitUsage, "", "--chunk must be at least 1"},
		{"", []string{"file.txt"}, exitUsage, "", "takes no FILE"},
		{"", []string{"--frobnicate"}, exitUsage, "", "flag provided but not defined"},
	} {
		code, stdout, stderr := runCLI(t, tc.stdin, append([]string{"stream"}, tc.args...)...)
		if code != tc.code || !strings.Contains(stdout, tc.stdout) || !strings.Contains(stderr, tc.stderr) {
			t.Errorf("%q %v: exit %d, stdout %q, stderr %q; want exit %d, stdout with %q, stderr with %q",
				tc.stdin, tc.args, code, stdout, stderr, tc.code, tc.stdout, tc.stderr)
		}
	}
	// One JSON object per line, the last one "end".
	_, out, _ := runCLI(t, "a <read_file><path>x</path></read_file> b", "stream", "--chunk", "2")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if !strings.HasPrefix(lines[len(lines)-1], `{"type":"end"`) {
		t.Errorf("last line %q, want the end event", lines[len(lines)-1])
	}
}

// A custom schema's syntax picks the stream dialect when --dialect is not given.
func TestStreamSchemaSyntax(t *testing.T) {
	custom := filepath.Join(t.TempDir(), "ops.json")
	if err := os.WriteFile(custom, []byte(`{"version": 1, "dialect": "ops", "syntax": "acts",
  "actions": [{"name": "deploy", "params": [{"name": "service", "required": true}]}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := runCLI(t, "~~~act\ndeploy api\n~~~\n", "stream", "--schema", custom)
	if code != exitOK || !strings.Contains(out, `"type":"tool_call"`) || !strings.Contains(out, `"service":"api"`) {
		t.Fatalf("exit %d\n%s\n%s", code, out, stderr)
	}
}

// TestStreamDefaults pins what `plangram stream` does without flags: the
// syntax is detected (a hermes answer is read as hermes, plain text stays
// text), events of framing only are left out (--exact keeps them), and an
// unknown tool's error suggests a known one and points to --tools FILE.
func TestStreamDefaults(t *testing.T) {
	hermes := "Reading it.\n<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.go\"}}\n</tool_call>"
	code, out, _ := runCLI(t, hermes, "stream", "--chunk", "3")
	if code != exitOK || !strings.Contains(out, `"type":"tool_call","id":1,"name":"read_file","params":{"path":"a.go"}`) || !strings.Contains(out, `"syntax":"hermes"`) {
		t.Errorf("hermes answer: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "Sure, done.", "stream")
	if code != exitOK || !strings.HasPrefix(out, `{"type":"text","text":"Sure, done."`) || !strings.Contains(out, `"syntax":"auto"`) {
		t.Errorf("plain text: exit %d\n%s", code, out)
	}
	sse := "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}\n\n" +
		"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi.\"}}]}\n\n" +
		"data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"
	for _, exact := range []bool{false, true} {
		args := []string{"stream", "--syntax", "openai-chat"}
		if exact {
			args = append(args, "--exact")
		}
		code, out, _ = runCLI(t, sse, args...)
		if n := strings.Count(out, `{"type":"text","text":"",`); code != exitOK || exact != (n == 3) || !exact && n != 0 ||
			!strings.Contains(out, `{"type":"text","text":"Hi."`) {
			t.Errorf("openai-chat, --exact %v: exit %d, %d events of framing only\n%s", exact, code, n, out)
		}
	}
	code, _, stderr := runCLI(t, `<function_calls><invoke name="read_fil"><parameter name="path">a</parameter></invoke></function_calls>`, "stream")
	if want := `unknown tool "read_fil"; did you mean "read_file"? (the built-in tools registry is in use: give the model's tools with --tools FILE) [unknown-tool]`; code != exitError || !strings.Contains(stderr, want) {
		t.Errorf("unknown tool: exit %d, stderr %q, want %q", code, stderr, want)
	}
	code, _, stderr = runCLI(t, `<function_calls><invoke name="get_wether"><parameter name="location">Oslo</parameter></invoke></function_calls>`,
		"stream", "--tools", "../../golden/tools/openai_chat.json")
	if want := `unknown tool "get_wether"; did you mean "get_weather"? [unknown-tool]`; code != exitError || !strings.Contains(stderr, want) {
		t.Errorf("unknown tool with --tools: exit %d, stderr %q, want %q", code, stderr, want)
	}
}
