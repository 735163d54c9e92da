package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"
)

// TestToolsDialectCLI pins, as one transcript (golden/cli/tools_dialect.golden),
// what the document commands make of a Cline-style reply under --dialect
// tools: check reports the stream parser's error events as diagnostics
// (an unknown tool, a bad value) in every format, parse gives the calls as
// actions, fmt and fix print the reply as it is, apply writes the files of
// write_to_file and replace_in_file (all or nothing: a stale block refuses
// the reply), and auto never reads a reply as tools.
func TestToolsDialectCLI(t *testing.T) {
	t.Chdir("../..")
	const d = "golden/cli/tools/"
	root := t.TempDir()
	var out strings.Builder
	for _, args := range [][]string{
		{"check", "--dialect", "tools", d + "reply.md"},
		{"check", "--dialect", "tools", "--format", "json", "--compact", d + "reply.md"},
		{"check", "--dialect", "tools", "--format", "llm", d + "reply.md"},
		{"check", "--dialect", "tools", d + "clean.md"},
		{"check", d + "reply.md"},
		{"parse", "--dialect", "tools", d + "reply.md"},
		{"parse", "--dialect", "tools", "--compact", d + "clean.md"},
		{"fmt", "-d", "--dialect", "tools", d + "clean.md"},
		{"fix", "-l", "--dialect", "tools", d + "clean.md"},
	} {
		out.WriteString(transcript(t, args...))
	}
	apply := func(args ...string) {
		code, stdout, stderr := runCLI(t, "", append([]string{"apply", "--root", root, "--dialect", "tools"}, args...)...)
		out.WriteString("$ plangram apply --root ROOT --dialect tools " + strings.Join(args, " ") + "\n" + stdout + strings.ReplaceAll(stderr, root, "ROOT") + "exit " + string(rune('0'+code)) + "\n\n")
	}
	apply(d + "clean.md")
	// A reply whose second block is stale changes nothing, not even its
	// write_to_file; the reply as the model meant it applies.
	greet := "def hello():\n    return \"hello\"\n\n\nprint(hello())\n"
	if err := os.WriteFile(filepath.Join(root, "greet.py"), []byte(greet), 0o644); err != nil {
		t.Fatal(err)
	}
	apply(d + "edit_stale.md")
	apply("-d", d+"edit.md")
	if data, _ := os.ReadFile(filepath.Join(root, "greet.py")); !strings.Contains(string(data), "print(greet(\"world\"))") {
		t.Errorf("greet.py after apply: %q", data)
	}
	goldie.New(t, goldie.WithFixtureDir("golden/cli"), goldie.WithNameSuffix(".golden")).
		Assert(t, "tools_dialect", []byte(out.String()))
}

// TestToolsDialectParse: parse --dialect tools gives one action a call, with
// the call's name, the name's span inside its opening tag, the params as
// the stream's ToolCall event has them (a bad value kept as written) and
// the call's span; the error events are its diagnostics, coded by kind.
func TestToolsDialectParse(t *testing.T) {
	src := "Sure.\n\n<list_files>\n<path>src</path>\n<recursive>often</recursive>\n</list_files>\n"
	code, stdout, stderr := runCLI(t, src, "parse", "--dialect", "tools", "--compact")
	if code != exitError {
		t.Fatalf("exit %d, want 1: %s", code, stderr)
	}
	var doc struct {
		Dialect string `json:"dialect"`
		Actions []struct {
			Name     string         `json:"name"`
			Params   map[string]any `json:"params"`
			NameSpan struct {
				Start struct{ Offset, Line, Col int } `json:"start"`
				End   struct{ Offset int }            `json:"end"`
			} `json:"name_span"`
			Span struct {
				Start struct{ Offset int } `json:"start"`
				End   struct{ Offset int } `json:"end"`
			} `json:"span"`
		} `json:"actions"`
		Diagnostics []struct {
			Code     string `json:"code"`
			Severity string `json:"severity"`
			Span     struct {
				Start struct{ Line, Col int } `json:"start"`
			} `json:"span"`
		} `json:"diagnostics"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	if doc.Dialect != "tools" || len(doc.Actions) != 1 {
		t.Fatalf("dialect %q, %d actions: %s", doc.Dialect, len(doc.Actions), stdout)
	}
	a := doc.Actions[0]
	if a.Name != "list_files" || src[a.NameSpan.Start.Offset:a.NameSpan.End.Offset] != "list_files" || a.NameSpan.Start.Line != 3 || a.NameSpan.Start.Col != 2 {
		t.Errorf("action %q, name span %+v", a.Name, a.NameSpan)
	}
	if got := src[a.Span.Start.Offset:a.Span.End.Offset]; got != strings.TrimSuffix(src[strings.Index(src, "<list_files>"):], "\n") {
		t.Errorf("span covers %q", got)
	}
	if a.Params["path"] != "src" || a.Params["recursive"] != "often" {
		t.Errorf("params %v: want the path and the bad value as written", a.Params)
	}
	if len(doc.Diagnostics) != 1 || doc.Diagnostics[0].Code != "bad-value" || doc.Diagnostics[0].Severity != "error" || doc.Diagnostics[0].Span.Start.Line != 5 || doc.Diagnostics[0].Span.Start.Col != 12 {
		t.Errorf("diagnostics %+v: want bad-value at 5:12", doc.Diagnostics)
	}
}
