package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"
)

// runCLI runs the CLI in-process and returns its exit code and output.
func runCLI(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), &env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb}, args)
	return code, out.String(), errb.String()
}

func TestParseExitCodes(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string { return writeTemp(t, dir, name, body, 0o644) }
	ok := write("ok.md", "~~~act\necho\n~~~\n~~~\nhi\n~~~\n")
	warn := write("warn.md", "~~~\nstray\n~~~\n~~~act\necho\n~~~\n~~~\nhi\n~~~\n")
	bad := write("bad.md", "~~~act\nwrite_file\n~~~\n")
	for _, tc := range []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"parse", ok}, exitOK, ""},
		{[]string{"parse", warn}, exitOK, warn + ":1:1: warning: block before the first act belongs to no action (info \"\") [block-before-act]\n"},
		{[]string{"parse", bad}, exitError, bad + ":2:1: error: write_file expects 2 arguments (path, content), got 0 arguments [wrong-arg-count]\n"},
		{[]string{"parse", bad, "--format", "repr"}, exitError, ""},
		{[]string{"parse", filepath.Join(dir, "missing.md")}, exitUsage, ""},
		{[]string{"parse", "--format", "yaml", ok}, exitUsage, ""},
		{[]string{"parse", "--fence", "dots", ok}, exitUsage, ""},
		{[]string{"parse", "--dialect", "klingon", ok}, exitUsage, ""},
		{[]string{"frobnicate"}, exitUsage, ""},
		{[]string{}, exitUsage, ""},
		{[]string{"help"}, exitOK, ""},
	} {
		code, _, stderr := runCLI(t, "", tc.args...)
		if code != tc.code {
			t.Errorf("%v: exit %d, want %d (stderr %q)", tc.args, code, tc.code, stderr)
		}
		if tc.stderr != "" && stderr != tc.stderr {
			t.Errorf("%v: stderr\n%q\nwant\n%q", tc.args, stderr, tc.stderr)
		}
	}
}

func TestParseStdinAndFence(t *testing.T) {
	src := "```act\necho\n```\n~~~act\nend\n~~~\n```\nhi\n```\n"
	for _, tc := range []struct {
		fence string
		names []string
	}{
		{"auto", []string{"echo"}},
		{"tilde", []string{"end"}},
	} {
		code, out, stderr := runCLI(t, src, "parse", "--fence", tc.fence, "-")
		var doc struct {
			Actions []struct{ Name string } `json:"actions"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("%s: %v\n%s", tc.fence, err, out)
		}
		var names []string
		for _, a := range doc.Actions {
			names = append(names, a.Name)
		}
		if strings.Join(names, ",") != strings.Join(tc.names, ",") {
			t.Errorf("--fence %s: actions %v, want %v (exit %d, %s)", tc.fence, names, tc.names, code, stderr)
		}
	}
}

func TestParseSchemaFlag(t *testing.T) {
	dir := t.TempDir()
	custom := filepath.Join(dir, "deploy.json")
	os.WriteFile(custom, []byte(`{"version": 1, "dialect": "acts", "actions": [
  {"name": "deploy", "params": [{"name": "service", "required": true}, {"name": "version", "required": true}]}]}`), 0o644)
	code, out, stderr := runCLI(t, "~~~act\ndeploy api 1.2.3\n~~~\n", "parse", "--schema", custom, "-")
	if code != exitOK || !strings.Contains(out, `"service": "api"`) || !strings.Contains(out, `"version": "1.2.3"`) {
		t.Fatalf("exit %d\n%s\n%s", code, out, stderr)
	}
	broken := filepath.Join(dir, "broken.json")
	os.WriteFile(broken, []byte("{\"version\": 1, \"dialect\": \"acts\",\n \"actions\": [{\"name\": \"x\", \"params\": [{\"name\": \"p\", \"type\": \"colour\"}]}]}"), 0o644)
	code, _, stderr = runCLI(t, "", "parse", "--schema", broken, "-")
	if code != exitUsage || !strings.HasPrefix(stderr, broken+":2:") || !strings.Contains(stderr, `unknown type "colour"`) {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
}

func TestParseReprGolden(t *testing.T) {
	code, out, _ := runCLI(t, "", "parse", "--format", "repr", "../../golden/acts/inline_args.md")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	g := goldie.New(t, goldie.WithFixtureDir("../../golden/cli"), goldie.WithNameSuffix(".golden"))
	g.Assert(t, "parse_repr_inline_args", []byte(out))
}
