package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSchemaGenExample checks that `plangram schema`, `gen go` and
// `example` print exactly what the library tests pin (golden files, the
// generated typed packages), and their usage errors.
func TestSchemaGenExample(t *testing.T) {
	t.Chdir("../..") // paths as a user at the repository root writes them
	read := func(name string) string {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	dir := t.TempDir()
	badSchema := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(badSchema, []byte("{\"version\": 1, \"dialect\": \"acts\", \"actions\": [\n  {\"name\": \"a\", \"params\": [{\"name\": \"p\", \"type\": \"colour\"}]}]}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	outFile := filepath.Join(dir, "out.go")
	for _, tc := range []struct {
		args   []string
		code   int
		stdout string // exact, when set
		stderr string // substring, when set
	}{
		{args: []string{"schema", "--dialect", "acts"}, stdout: read("golden/schema/acts.json.golden")},
		{args: []string{"schema", "--dialect", "plan"}, stdout: read("golden/schema/plan.json.golden")},
		{args: []string{"schema", "--dialect", "plan", "--compact"}, stdout: compact(t, read("golden/schema/plan.json.golden"))},
		{args: []string{"schema", "--schema", "golden/custom/deploy.json"}, stdout: read("golden/custom/deploy.jsonschema.golden")},
		{args: []string{"gen", "go", "--dialect", "acts", "--package", "acts"}, stdout: read("typed/acts/acts_gen.go")},
		{args: []string{"gen", "go", "--schema", "golden/custom/kv.json", "--package", "kv"}, stdout: read("golden/custom/kv.go.golden")},
		{args: []string{"gen", "--package", "tools", "--dialect", "tools", "go", "-o", outFile}, stdout: ""},
		{args: []string{"example", "--dialect", "plan"}, stdout: read("golden/example/plan.md.golden")},
		{args: []string{"example", "--schema", "golden/custom/deploy.json"}, stdout: read("golden/custom/deploy.example.golden")},
		{args: []string{"parse", "golden/custom/kv_ok.md", "--schema", "golden/custom/kv.json"}, stdout: read("golden/custom/kv_ok.json.golden")},

		{args: []string{"schema"}, code: exitUsage, stderr: "give --dialect"},
		{args: []string{"schema", "--dialect", "klingon"}, code: exitUsage, stderr: "--dialect must be one of acts, apply-patch, plan, search-replace, tools, udiff"},
		{args: []string{"schema", "--schema", badSchema}, code: exitUsage, stderr: badSchema + ":2:42: error: unknown type \"colour\""},
		{args: []string{"schema", "--schema", filepath.Join(dir, "missing.json")}, code: exitUsage, stderr: "no such file"},
		{args: []string{"schema", "--dialect", "acts", "extra"}, code: exitUsage},
		{args: []string{"gen", "go", "--dialect", "acts"}, code: exitUsage, stderr: "--package"},
		{args: []string{"gen", "rust", "--dialect", "acts", "--package", "x"}, code: exitUsage, stderr: "one language: go"},
		{args: []string{"gen", "go", "--dialect", "acts", "--package", "func"}, code: exitUsage, stderr: "not a valid Go package name"},
		{args: []string{"example"}, code: exitUsage},
		{args: []string{"example", "--bogus"}, code: exitUsage},
	} {
		code, stdout, stderr := runCLI(t, "", tc.args...)
		if code != tc.code {
			t.Errorf("%v: exit %d, want %d (stderr %q)", tc.args, code, tc.code, stderr)
		}
		if tc.code == exitOK && stdout != tc.stdout {
			t.Errorf("%v: stdout differs from the pinned output (%d bytes, want %d)", tc.args, len(stdout), len(tc.stdout))
		}
		if tc.stderr != "" && !strings.Contains(stderr, tc.stderr) {
			t.Errorf("%v: stderr %q, want it to contain %q", tc.args, stderr, tc.stderr)
		}
	}
	if got := read(outFile); got != read("typed/tools/tools_gen.go") {
		t.Errorf("gen -o wrote %d bytes, not typed/tools/tools_gen.go", len(got))
	}
}

// compact returns the one-line form of the JSON value s, as --compact
// prints it.
func compact(t *testing.T, s string) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		t.Fatal(err)
	}
	return b.String() + "\n"
}

// TestSchemaFileEmptyOrCut: a --schema or --tools file that is empty
// (/dev/null), only white space or cut off is named with what is wrong,
// never a bare "EOF", by every command that reads one.
func TestSchemaFileEmptyOrCut(t *testing.T) {
	dir := t.TempDir()
	file := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	empty := file("empty.json", "")
	blank := file("blank.json", "  \n")
	cut := file("cut.json", "{\"version\": 1, \"dialect\": \"x\", \"act")
	plan := file("p.md", "```act\necho\n```\n```\nhi\n```\n")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"schema", "--schema", os.DevNull}, os.DevNull + ":1:1: error: the schema file is empty"},
		{[]string{"schema", "--schema", empty}, empty + ":1:1: error: the schema file is empty"},
		{[]string{"schema", "--schema", blank}, blank + ":1:1: error: the schema file holds only white space"},
		{[]string{"schema", "--schema", cut}, cut + ":1:36: error: the schema file ends before its JSON is complete"},
		{[]string{"check", "--schema", empty, plan}, empty + ":1:1: error: the schema file is empty"},
		{[]string{"example", "--schema", cut}, cut + ":1:36: error: the schema file ends before its JSON is complete"},
		{[]string{"gen", "go", "--package", "x", "--schema", os.DevNull}, os.DevNull + ":1:1: error: the schema file is empty"},
		{[]string{"stream", "--schema", blank}, blank + ":1:1: error: the schema file holds only white space"},
		{[]string{"stream", "--tools", os.DevNull}, os.DevNull + ":1:1: error: the tools file is empty"},
		{[]string{"stream", "--tools", cut}, cut + ":1:36: error: JSON ends before the value is complete (is the file cut off?)"},
	} {
		code, _, stderr := runCLI(t, "", tc.args...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) || strings.Contains(stderr, "EOF") {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", tc.args, code, stderr, exitUsage, tc.want)
		}
	}
}
