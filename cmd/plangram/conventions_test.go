package main

import (
	"bufio"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/plangram/plangram/schema"
	"github.com/sebdah/goldie/v2"
)

// TestCLIConventions pins, as one transcript (golden/cli/conventions.golden),
// the output of issue 28's conventions: diffs read as diffs (by their
// structure and by a .diff name), a Markdown file with no plan silent under
// auto, the looks-like-edit warning, the AST diff cut to what differs (-v:
// whole), -q, --disable and --dialect checked against the one lists, help
// on standard output, fmt -l and fix -d printing names and diffs only,
// directories reading .diff/.patch (and --include).
func TestCLIConventions(t *testing.T) {
	t.Chdir("../..")
	const d = "golden/cli/cli28/"
	var out strings.Builder
	for _, args := range [][]string{
		{"check", d + "change.diff"},
		{"check", d + "reply.md"},
		{"check", "--dialect", "acts", d + "change.diff"},
		{"check", d + "readme.md"},
		{"check", "--dialect", "acts", d + "readme.md"},
		{"check", d + "headerless.md", d + "envelope.md"},
		{"check", d + "miss.md"},
		{"check", "-v", d + "miss.md"},
		{"check", d + "mixed.md"},
		{"check", "-q", "--summary", d + "mixed.md"},
		{"check", "--strict", "--quiet", d + "mixed.md"},
		{"fix", "-q", d + "fixme.md"},
		{"fix", d + "fixme.md"},
		{"check", "--disable", "block-befor-act", d + "mixed.md"},
		{"check", "--disable", "block-before-act", d + "mixed.md"},
		{"check", "--dialect", "tool", d + "mixed.md"},
		{"check", "--dialect", "udif", d + "mixed.md"},
		{"fmt", "-l", d + "miss.md", d + "fixme.md"},
		{"fix", "-d", d + "fixme.md"},
		{"check", "--summary", d + "dir"},
		{"check", "--summary", "--include", "*.txt", d + "dir"},
		{"fmt", "--help"},
	} {
		out.WriteString(transcript(t, args...))
	}
	goldie.New(t, goldie.WithFixtureDir("golden/cli"), goldie.WithNameSuffix(".golden")).
		Assert(t, "conventions", []byte(out.String()))
}

// TestNoPlanQuietUnderAuto: under --dialect auto a Markdown file with no
// plan (a README) prints nothing in check and parse; an explicit dialect
// reports it as before.
func TestNoPlanQuietUnderAuto(t *testing.T) {
	readme := "# Project\n\nRun it:\n\n```sh\nmake\n```\n"
	for _, args := range [][]string{{"check"}, {"check", "--strict"}, {"parse"}, {"fmt", "-l"}, {"fix", "-l"}} {
		code, stdout, stderr := runCLI(t, readme, args...)
		if args[0] == "parse" {
			stdout = ""
		}
		if code != exitOK || stdout != "" || stderr != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want nothing", args, code, stdout, stderr)
		}
	}
	if code, stdout, _ := runCLI(t, readme, "check", "--dialect", "acts"); code != exitOK || !strings.Contains(stdout, "[no-plan]") {
		t.Errorf("check --dialect acts: exit %d, %q; want the no-plan note", code, stdout)
	}
	if code, stdout, _ := runCLI(t, readme, "check", "--dialect", "plan"); code != exitError || !strings.Contains(stdout, "[missing-metadata]") {
		t.Errorf("check --dialect plan: exit %d, %q; want errors", code, stdout)
	}
	// parse keeps the note in the document it prints.
	if _, stdout, _ := runCLI(t, readme, "parse", "--compact"); !strings.Contains(stdout, `"code":"no-plan"`) {
		t.Errorf("parse JSON lost the no-plan note: %s", stdout)
	}
}

// TestHelpOnStdout: `plangram CMD --help` and `-h` print the command's help
// on standard output and exit 0, as `plangram help CMD` does, and the flag
// list spells long flags as the synopsis does (`--name`).
func TestHelpOnStdout(t *testing.T) {
	long := regexp.MustCompile(`(?m)^  -[a-z][a-z-]+`)
	for name := range commands() {
		want := ""
		for _, h := range []string{"--help", "-h", "-help"} {
			code, stdout, stderr := runCLI(t, "", name, h)
			if code != exitOK || stderr != "" || !strings.HasPrefix(stdout, "usage: plangram "+name) {
				t.Errorf("%s %s: exit %d, stderr %q, stdout %.60q", name, h, code, stderr, stdout)
			}
			if m := long.FindString(stdout); m != "" {
				t.Errorf("%s %s: a long flag spelt with one dash: %q", name, h, m)
			}
			if want == "" {
				_, want, _ = runCLI(t, "", "help", name)
			}
			if stdout != want {
				t.Errorf("%s %s differs from plangram help %s", name, h, name)
			}
		}
	}
	// After "--", -h is an argument.
	if code, _, stderr := runCLI(t, "", "check", "--", "-h"); code != exitUsage || !strings.Contains(stderr, "-h") {
		t.Errorf("check -- -h: exit %d, %q; want the missing file -h", code, stderr)
	}
}

// TestColorFlag: --color=always colours a pipe, --color=never a terminal;
// auto follows the terminal and NO_COLOR.
func TestColorFlag(t *testing.T) {
	src := "~~~act\nwrite_file\n~~~\n"
	for _, c := range []struct {
		mode         string
		tty, noColor bool
		wantColoured bool
	}{
		{"always", false, false, true},
		{"always", false, true, true},
		{"never", true, false, false},
		{"auto", true, false, true},
		{"auto", true, true, false},
		{"auto", false, false, false},
	} {
		var out, errb strings.Builder
		e := &env{stdin: strings.NewReader(src), stdout: &out, stderr: &errb, outTTY: c.tty, errTTY: c.tty, noColor: c.noColor}
		code := run(t.Context(), e, []string{"check", "--color=" + c.mode})
		if code != exitError || strings.Contains(out.String(), "\x1b[") != c.wantColoured {
			t.Errorf("--color=%s tty=%v NO_COLOR=%v: exit %d, %q", c.mode, c.tty, c.noColor, code, out.String())
		}
		errb.Reset()
		e = &env{stdin: strings.NewReader(src), stdout: &out, stderr: &errb, outTTY: c.tty, errTTY: c.tty, noColor: c.noColor}
		run(t.Context(), e, []string{"parse", "--color", c.mode})
		if strings.Contains(errb.String(), "\x1b[") != c.wantColoured {
			t.Errorf("parse --color %s tty=%v NO_COLOR=%v: stderr %q", c.mode, c.tty, c.noColor, errb.String())
		}
	}
	if code, _, stderr := runCLI(t, src, "check", "--color=sometimes"); code != exitUsage || !strings.Contains(stderr, "--color must be one of auto, always, never") {
		t.Errorf("--color=sometimes: exit %d, %q", code, stderr)
	}
}

// TestParseNDJSON: parse --ndjson prints the {file, document} line shape for
// any number of inputs, one input and standard input included.
func TestParseNDJSON(t *testing.T) {
	dir := t.TempDir()
	a := writeTemp(t, dir, "a.md", "~~~act\necho a\n~~~\n", 0o644)
	b := writeTemp(t, dir, "b.md", "# T\n\n## Action Plan\n", 0o644)
	for _, c := range []struct {
		args  []string
		stdin string
		files []string
	}{
		{[]string{"parse", "--ndjson", a}, "", []string{a}},
		{[]string{"parse", "--ndjson"}, "~~~act\necho\n~~~\n", []string{"<stdin>"}},
		{[]string{"parse", "--ndjson", a, b}, "", []string{a, b}},
		{[]string{"parse", a, b}, "", []string{a, b}},
		{[]string{"parse", "--ndjson", "--fix", a}, "", []string{a}},
	} {
		_, stdout, stderr := runCLI(t, c.stdin, c.args...)
		var files []string
		sc := bufio.NewScanner(strings.NewReader(stdout))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var line struct {
				File     string          `json:"file"`
				Document json.RawMessage `json:"document"`
			}
			if err := json.Unmarshal(sc.Bytes(), &line); err != nil || len(line.Document) == 0 {
				t.Fatalf("%v: line %q is not {file, document}: %v", c.args, sc.Text(), err)
			}
			files = append(files, line.File)
		}
		if !slices.Equal(files, c.files) {
			t.Errorf("%v: files %q, want %q (stderr %s)", c.args, files, c.files, stderr)
		}
	}
	if code, _, stderr := runCLI(t, "", "parse", "--ndjson", "--format", "repr", a); code != exitUsage || !strings.Contains(stderr, "--ndjson") {
		t.Errorf("--ndjson --format repr: exit %d, %q", code, stderr)
	}
}

// TestDialectOneList: every command that reads documents accepts the same
// --dialect names (docDialects, render also markdown), its synopsis and
// flag help list them, and they include every built-in dialect the schema
// commands accept (tools among them), so no dialect name works in one
// command and is refused in another.
func TestDialectOneList(t *testing.T) {
	list := strings.Join(docDialects(), "|")
	for name, usage := range map[string]string{"parse": parseUsage, "check": checkUsage, "fmt": fmtUsage, "fix": fixUsage, "lsp": lspUsage} {
		if !strings.Contains(usage, "[--dialect "+list+"]") {
			t.Errorf("%s's synopsis lacks [--dialect %s]: %s", name, list, usage)
		}
	}
	if !strings.Contains(renderUsage, "[--dialect "+list+"|markdown]") {
		t.Errorf("render's synopsis: %s", renderUsage)
	}
	if _, help, _ := runCLI(t, "", "help", "render"); !strings.Contains(help, "apply-patch, tools, markdown (markdown: a plain page)") {
		t.Errorf("render help lacks markdown:\n%s", help)
	}
	for _, cmd := range []string{"parse", "check", "fmt", "fix", "render", "apply", "lsp"} {
		_, help, _ := runCLI(t, "", "help", cmd)
		if !strings.Contains(help, "input dialect: "+strings.Join(docDialects(), ", ")) {
			t.Errorf("%s help does not list the dialects:\n%s", cmd, help)
		}
		for _, d := range docDialects() {
			args := []string{cmd, "--dialect", d}
			if cmd == "apply" {
				args = append(args, "--root", t.TempDir())
			}
			if cmd == "lsp" {
				continue // it would serve standard input
			}
			if code, _, stderr := runCLI(t, "", args...); code == exitUsage && strings.Contains(stderr, "--dialect") {
				t.Errorf("%v rejected: %s", args, stderr)
			}
		}
	}
	for _, d := range schema.Dialects() {
		if !slices.Contains(docDialects(), d) {
			t.Errorf("built-in dialect %s is not a document dialect: %s", d, list)
		}
		for _, args := range [][]string{{"example", "--dialect", d}, {"schema", "--dialect", d}, {"check", "--dialect", d}, {"parse", "--dialect", d}} {
			if code, _, stderr := runCLI(t, "", args...); code == exitUsage {
				t.Errorf("%v: exit %d, %s", args, code, stderr)
			}
		}
	}
}
