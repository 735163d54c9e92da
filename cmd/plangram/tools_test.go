package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestToolsFlag checks `plangram schema --tools FILE` (the converted action
// schema pinned by golden/tools/, its warnings on stderr) and `plangram
// stream --tools FILE` (calls typed and checked by the converted schema).
func TestToolsFlag(t *testing.T) {
	t.Chdir("../..")
	golden, err := os.ReadFile("golden/tools/openai_chat.golden")
	if err != nil {
		t.Fatal(err)
	}
	want := string(golden[strings.Index(string(golden), "\n{")+1:])
	code, stdout, stderr := runCLI(t, "", "schema", "--tools", "golden/tools/openai_chat.json")
	if code != exitOK || stdout != want {
		t.Errorf("schema --tools: exit %d, stdout %q", code, stdout)
	}
	if !strings.Contains(stderr, "golden/tools/openai_chat.json:12:83: warning: keyword minimum of parameter days is not checked") {
		t.Errorf("schema --tools: stderr %q lacks the positioned warning", stderr)
	}
	code, stdout, _ = runCLI(t, "", "schema", "--tools", "golden/tools/mcp.json", "--json-schema")
	if code != exitOK || !strings.Contains(stdout, `"params.read_text_file"`) || !json.Valid([]byte(stdout)) {
		t.Errorf("schema --tools --json-schema: exit %d, %q", code, stdout)
	}
	for _, args := range [][]string{
		{"schema", "--tools", "golden/tools/bad_types.json"},
		{"schema", "--tools", "golden/tools/openai_chat.json", "--dialect", "acts"},
		{"schema", "--dialect", "acts", "--json-schema"},
		{"stream", "--tools", "golden/tools/mcp.json", "--schema", "golden/custom/kv.json"},
	} {
		if code, _, _ := runCLI(t, "", args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
	}
	code, stdout, stderr = runCLI(t, "<get_weather><location>Paris</location><days>2</days><unit>kelvin</unit></get_weather>",
		"stream", "--tools", "golden/tools/openai_chat.json")
	if code != exitError || !strings.Contains(stdout, `"params":{"location":"Paris","unit":"kelvin","days":2}`) ||
		!strings.Contains(stderr, `want one of celsius, fahrenheit, got "kelvin" [bad-value]`) {
		t.Errorf("stream --tools: exit %d\n%s\n%s", code, stdout, stderr)
	}
}

// TestStreamFormatOpenAI checks `plangram stream --format openai` (chunks
// that `--syntax openai-chat` reads back into the same call) and the
// usage error of a bad format.
func TestStreamFormatOpenAI(t *testing.T) {
	t.Chdir("../..")
	code, stdout, _ := runCLI(t, "Hi<list_files><path>src</path><recursive>true</recursive></list_files>", "stream", "--format", "openai", "--chunk", "5")
	if code != exitOK || !strings.HasSuffix(stdout, "data: [DONE]\n\n") ||
		!strings.Contains(stdout, `"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"list_files","arguments":""}}]`) ||
		!strings.Contains(stdout, `"tool_calls":[{"index":0,"function":{"arguments":"{\"path\":\"src\",\"recursive\":true}"}}]`) {
		t.Fatalf("exit %d:\n%s", code, stdout)
	}
	code, back, _ := runCLI(t, stdout, "stream", "--syntax", "openai-chat", "--schema", "schema/builtin/tools.json")
	if code != exitOK || !strings.Contains(back, `"type":"tool_call","id":1,"call_id":"call_1","name":"list_files","params":{"path":"src","recursive":true}`) {
		t.Errorf("read back: exit %d\n%s", code, back)
	}
	if code, _, _ := runCLI(t, "", "stream", "--format", "xml"); code != exitUsage {
		t.Errorf("--format xml: exit %d", code)
	}
}

// TestDocsFormatOpenAI checks the --format openai output docs/stream.md
// shows is what the CLI writes.
func TestDocsFormatOpenAI(t *testing.T) {
	t.Chdir("../..")
	docs, err := os.ReadFile("docs/stream.md")
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, _ := runCLI(t, "I'll write it.<write_to_file><path>a.go</path><content>package a</content></write_to_file>", "stream", "--format", "openai")
	if code != exitOK || !strings.Contains(string(docs), "```\n"+strings.TrimSuffix(stdout, "\n")+"```\n") {
		t.Errorf("docs/stream.md does not show the output:\n%s", stdout)
	}
}
