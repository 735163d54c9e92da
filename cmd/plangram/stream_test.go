package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/plangram/plangram/stream"
)

// TestStreamGolden checks that `plangram stream` prints exactly the events
// pinned for the stream package's golden inputs.
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
		args := []string{"stream", "--chunk", "1000000"}
		if syn, _, ok := strings.Cut(name, "_"); ok && slices.Contains(stream.SyntaxNames(), syn) {
			args = append(args, "--syntax", syn)
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
		{"a</think>b", []string{"--in-thinking"}, exitOK, `{"type":"thinking","text":"a","raw":"a</think>"`, ""},
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
