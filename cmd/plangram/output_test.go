package main

import (
	"bytes"
	"context"
	"os"
	"regexp"
	"strings"
	"testing"
)

// runTTY runs the CLI as if standard output and standard error were
// terminals (outTTY, errTTY) with or without NO_COLOR.
func runTTY(t *testing.T, stdin string, tty, noColor bool, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	e := &env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb, outTTY: tty, errTTY: tty, noColor: noColor}
	code := run(context.Background(), e, args)
	return code, out.String(), errb.String()
}

func TestColourSummaryOnTerminal(t *testing.T) {
	// On a terminal: coloured severity, bold position, and the summary.
	_, out, _ := runTTY(t, badActs, true, false, "check")
	if !strings.Contains(out, sgrBold+"<stdin>:2:1: "+sgrReset+sgrRed+"error"+sgrReset+": write_file expects") ||
		!strings.HasSuffix(out, "1 error, 0 warnings in 1 file\n") {
		t.Fatalf("terminal output %q", out)
	}
	// NO_COLOR: the summary stays, the colour goes.
	if _, out, _ := runTTY(t, badActs, true, true, "check"); strings.Contains(out, "\x1b[") || !strings.Contains(out, " in 1 file\n") {
		t.Fatalf("NO_COLOR output %q", out)
	}
	// A pipe: neither, unless --summary.
	if _, out, _ := runTTY(t, badActs, false, false, "check"); strings.Contains(out, "\x1b[") || strings.Contains(out, " in 1 file") {
		t.Fatalf("pipe output %q", out)
	}
	if _, out, _ := runTTY(t, badActs, false, false, "check", "--summary"); !strings.HasSuffix(out, "1 error, 0 warnings in 1 file\n") {
		t.Fatalf("--summary output %q", out)
	}
	// JSON is never coloured; diagnostics on a terminal's stderr are.
	if _, out, _ := runTTY(t, badActs, true, false, "check", "--format", "json"); strings.Contains(out, "\x1b[") {
		t.Fatalf("json coloured: %q", out)
	}
	if _, _, stderr := runTTY(t, badActs, true, false, "parse"); !strings.Contains(stderr, sgrRed+"error"+sgrReset) {
		t.Fatalf("parse stderr on a terminal: %q", stderr)
	}
}

func TestProgressOnTerminal(t *testing.T) {
	files := map[string]string{}
	for i := range progressMin {
		files[strings.Repeat("a", i+1)+".md"] = okActs
	}
	dir := tree(t, files)
	_, _, stderr := runTTY(t, "", true, false, "check", dir)
	if !strings.Contains(stderr, "\rplangram: 20/20 files") || !strings.HasSuffix(stderr, "\r\x1b[K") {
		t.Fatalf("progress %q", stderr)
	}
	if _, _, stderr := runTTY(t, "", false, false, "check", dir); stderr != "" {
		t.Fatalf("progress without a terminal: %q", stderr)
	}
	_, _, stderr = runTTY(t, "", true, false, "fmt", "-w", dir)
	if !strings.Contains(stderr, "plangram: 20/20 files") {
		t.Fatalf("fmt -w progress %q", stderr)
	}
}

// TestProgressNeverMixes runs the commands over many files with standard
// output and standard error one terminal, as a user sees them: a
// diagnostic or a report line never continues the counter's line (the
// counter is cleared first), and a command that prints its results as it
// goes shows no counter there.
func TestProgressNeverMixes(t *testing.T) {
	files := map[string]string{"m/bad.md": badActs}
	for i := range progressMin {
		files["m/"+strings.Repeat("a", i+1)+".md"] = okActs
	}
	dir := tree(t, files)
	term := func(outTTY bool, args ...string) string {
		t.Helper()
		var b, file bytes.Buffer
		e := &env{stdin: strings.NewReader(""), stdout: &file, stderr: &b, outTTY: outTTY, errTTY: true, noColor: true}
		if outTTY {
			e.stdout = &b // one terminal for both streams
		}
		run(context.Background(), e, args)
		return b.String()
	}
	counterRE := regexp.MustCompile(`plangram: \d+/\d+ files[^\r]`)
	for _, tc := range []struct {
		outTTY  bool
		args    []string
		counter bool
	}{
		{true, []string{"check", dir + "/m"}, true},
		{false, []string{"check", dir + "/m"}, true},
		{true, []string{"parse", dir + "/m"}, false}, // NDJSON on the terminal
		{false, []string{"parse", dir + "/m"}, true}, // NDJSON to a file
		{true, []string{"fmt", "-w", dir + "/m"}, true},
		{true, []string{"fmt", "-l", dir + "/m"}, false},
		{false, []string{"fmt", "-l", dir + "/m"}, true},
		{true, []string{"fix", "-w", dir + "/m"}, true},
		{true, []string{"render", "-o", dir + "/pages", dir + "/m"}, true},
	} {
		got := term(tc.outTTY, tc.args...)
		name := strings.Join(tc.args[:1], " ")
		if has := strings.Contains(got, "/21 files"); has != tc.counter {
			t.Errorf("%s (stdout a terminal: %v): counter shown %v, want %v\n%.300q", name, tc.outTTY, has, tc.counter, got)
		}
		if m := counterRE.FindString(got); m != "" {
			t.Errorf("%s: text after the counter on its line: %q\n%.300q", name, m, got)
		}
		if tc.counter && !strings.HasSuffix(got, "\r\x1b[K") && !strings.Contains(got, "\r\x1b[K"+dir) && !strings.Contains(got, "\r\x1b[K1 error") {
			t.Errorf("%s: counter not cleared: %.300q", name, got)
		}
	}
}

// TestASTDiffOncePerFile runs a plan with four structural errors through
// every command that shows diagnostics: the AST diff (the "Expected:" view)
// appears once per file — on parse's, fmt's, fmt -d's and render's
// standard error, in check's text and llm reports and on the review page —
// and one wrong-level action heading is one message with no diff at all.
func TestASTDiffOncePerFile(t *testing.T) {
	const plan = "# Fix\n\nPara.\n\n## Rationale\n```text\nx\n```\n\n## Action Plan\n\n### `EDIT`\n- **File Path:** a.py\n\nStray one.\n\n### `FROB`\n\nStray two.\n"
	const view = "Actual" // the whole view ("Actual:") or its rows around what differs
	for _, args := range [][]string{{"parse"}, {"fmt"}, {"fmt", "-d"}, {"check"}, {"check", "--format", "llm"}, {"render"}} {
		_, out, stderr := runCLI(t, plan, append(args, "--dialect", "plan")...)
		if args[0] == "parse" {
			out = "" // the JSON carries the detail of the one diagnostic that has it
		}
		if args[0] == "render" { // on the page once, and on standard error once
			if n := strings.Count(out, view); n != 1 {
				t.Errorf("render: the AST diff is on the page %d times", n)
			}
			out = ""
		}
		if n := strings.Count(out+stderr, view); n != 1 {
			t.Errorf("%v: the AST diff is printed %d times\n%s%.2000s", args, n, stderr, out)
		}
		if args[0] != "check" && !strings.Contains(stderr, "[missing-pair]") {
			t.Errorf("%v: no later diagnostic on stderr: %s", args, stderr)
		}
	}
	// Several files: once per file.
	dir := tree(t, map[string]string{"a.md": plan, "b.md": plan})
	if _, out, _ := runCLI(t, "", "check", dir); strings.Count(out, view) != 2 {
		t.Errorf("check of two files: %d AST diffs", strings.Count(out, view))
	}
	plan2, err := os.ReadFile("../../examples/plan.md")
	if err != nil {
		t.Fatal(err)
	}
	wrong := strings.Replace(string(plan2), "### `EDIT`", "## `EDIT`", 1)
	code, out, _ := runCLI(t, wrong, "check")
	if code != exitError || out != "<stdin>:14:1: error: the heading \"## `EDIT`\" names the action EDIT at level 2; an action is a level-3 heading: write \"### `EDIT`\" [wrong-heading-level]\n" {
		t.Errorf("## EDIT: exit %d\n%s", code, out)
	}
}
