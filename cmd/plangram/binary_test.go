package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/textproto"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// buildBinary builds the plangram command into a temporary directory and
// returns its path. The tests below drive the built binary, as a user and
// CI do, through its real streams and exit codes.
func buildBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary; skipped in -short mode")
	}
	bin := filepath.Join(t.TempDir(), "plangram")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("go build: %v", err)
	}
	return bin
}

// result is one run of the binary.
type result struct {
	code           int
	stdout, stderr string
}

func runBinary(t *testing.T, bin, dir, stdin string, args ...string) result {
	t.Helper()
	return runCmd(t, exec.Command(bin, args...), dir, stdin, args)
}

// runCmd runs cmd in dir with stdin and NO_COLOR unset, and returns what it
// did; a process killed by a signal exits 128.
func runCmd(t *testing.T, cmd *exec.Cmd, dir, stdin string, args []string) result {
	t.Helper()
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stdin)
	cmd.Env = append(os.Environ(), "NO_COLOR=")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
		if code < 0 { // killed by a signal (SIGABRT of runtime/cgo)
			code = 128
		}
	} else if err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	return result{code, out.String(), errb.String()}
}

// TestBinaryInputs runs every command that reads plans with standard input
// (no argument and "-"), one file, several files and a directory, and
// checks exit codes, standard output and standard error.
func TestBinaryInputs(t *testing.T) {
	bin := buildBinary(t)
	dir := tree(t, map[string]string{
		"ok.md":           okActs,
		"bad.md":          badActs,
		"messy.md":        messyActs,
		"plans/a.md":      okActs,
		"plans/x/b.md":    messyActs,
		"plans/.git/c.md": badActs,
		"ws/.keep":        "",
	})
	errLine := "bad.md:2:1: error: "
	type want struct {
		code   int
		stdout []string // substrings, in order; "" alone: stdout must be empty
		stderr []string // substrings; "" alone: stderr must be empty
	}
	empty := []string{""}
	for _, tc := range []struct {
		stdin string
		args  []string
		want  want
	}{
		// parse: one document, indented; several or a directory: NDJSON.
		{okActs, []string{"parse"}, want{0, []string{"{\n  \"dialect\": \"acts\""}, empty}},
		{badActs, []string{"parse", "-"}, want{1, []string{`"code": "wrong-arg-count"`}, []string{"<stdin>:2:1: error: "}}},
		{"", []string{"parse", "ok.md"}, want{0, []string{`"name": "echo"`}, empty}},
		{"", []string{"parse", "ok.md", "bad.md"}, want{1, []string{`{"file":"ok.md","document":{`, "\n" + `{"file":"bad.md","document":{`}, []string{errLine}}},
		{"", []string{"parse", "plans"}, want{0, []string{`{"file":"plans/a.md",`, `{"file":"plans/x/b.md",`}, empty}},
		// check: the report on stdout.
		{badActs, []string{"check"}, want{1, []string{"<stdin>:2:1: error: "}, empty}},
		{okActs, []string{"check", "-"}, want{0, empty, empty}},
		{"", []string{"check", "bad.md"}, want{1, []string{errLine}, empty}},
		{"", []string{"check", "ok.md", "bad.md", "--summary"}, want{1, []string{errLine, "1 error, 0 warnings in 2 files\n"}, empty}},
		{"", []string{"check", "plans", "--format", "json", "--compact"}, want{0, []string{`{"files":[{"path":"plans/a.md",`}, empty}},
		// fmt: results in turn; -l lists (exit 1 if any), -d diffs.
		{messyActs, []string{"fmt"}, want{0, []string{okActs}, empty}},
		{messyActs, []string{"fmt", "-l", "-"}, want{1, []string{"<stdin>\n"}, empty}},
		{"", []string{"fmt", "messy.md"}, want{0, []string{okActs}, empty}},
		{"", []string{"fmt", "ok.md", "messy.md"}, want{0, []string{okActs + okActs}, empty}},
		{"", []string{"fmt", "-l", "plans"}, want{1, []string{"plans/x/b.md\n"}, empty}},
		{"", []string{"fmt", "-d", "plans"}, want{0, []string{"--- plans/x/b.md.orig\n+++ plans/x/b.md\n"}, empty}},
		{"", []string{"fmt", "bad.md"}, want{1, []string{badActs}, []string{errLine}}},
		// An input rejected as unreadable (CR-only line endings) is printed as it is.
		{"~~~act\recho hi\r~~~\r", []string{"fmt"}, want{1, []string{"~~~act\recho hi\r~~~\r"}, []string{"[cr-line-endings]"}}},
		// fix: the same shape; repairs are warnings on stderr.
		{"#Title\n", []string{"fix", "--dialect", "plan"}, want{0, []string{"# Title\n"}, []string{"<stdin>:1:1: warning: "}}},
		{"", []string{"fix", "-l", "ok.md", "messy.md"}, want{1, []string{"messy.md\n"}, nil}},
		{"", []string{"fix", "-l", "plans"}, want{1, []string{"plans/x/b.md\n"}, nil}},
		{"", []string{"fix", "-d", "messy.md"}, want{0, []string{"+++ messy.md\n"}, nil}},
		// render: a page on stdout; several need -o DIR.
		{okActs, []string{"render"}, want{0, []string{"<!DOCTYPE html>"}, empty}},
		{badActs, []string{"render", "-"}, want{1, []string{"<!DOCTYPE html>"}, []string{"<stdin>:2:1: error: "}}},
		{"", []string{"render", "ok.md"}, want{0, []string{"<title>ok.md"}, empty}},
		{"", []string{"render", "ok.md", "bad.md"}, want{2, empty, []string{"needs -o DIR"}}},
		{"", []string{"render", "-o", "pages", "plans", "ok.md"}, want{0, empty, empty}},
		// apply: the same input layer; all inputs are one transaction.
		// A plan with no file change has nothing to apply; the root is
		// the current directory unless --root names one.
		{okActs, []string{"apply", "--root", "ws"}, want{1, empty, []string{"<stdin>:1:1: error: nothing to apply: ", "apply refused: nothing to apply; nothing was written to ws\n"}}},
		{"~~~act\nwrite_file new.txt\n~~~\n~~~\nhi\n~~~\n", []string{"apply", "--root", "ws", "--dry-run", "-"}, want{0, []string{"A new.txt\n"}, []string{"plangram: dry run: would apply 1 file change to ws; nothing was written\n"}}},
		{"", []string{"apply", "--root", "ws", "--dry-run", "ok.md", "plans"}, want{1, empty, []string{"ok.md:1:1: error: nothing to apply", "plans/a.md:1:1: error: nothing to apply", "plans/x/b.md:1:1: error: nothing to apply"}}},
		{"", []string{"apply", "--root", "ws", "bad.md"}, want{1, empty, []string{errLine, "apply refused"}}},
		{"~~~act\nwrite_file new.txt\n~~~\n~~~\nhi\n~~~\n", []string{"apply", "--dry-run"}, want{0, []string{"A new.txt\n"}, []string{"plangram: dry run: would apply 1 file change to /"}}},
		// stream reads standard input only.
		{"hello", []string{"stream"}, want{0, []string{`"type":"text"`}, empty}},
		{"hello", []string{"stream", "-"}, want{0, []string{`"type":"text"`}, empty}},
		{"", []string{"stream", "ok.md"}, want{2, empty, []string{"takes no FILE"}}},
		// Missing paths and bad flags are usage errors.
		{"", []string{"parse", "missing.md"}, want{2, empty, []string{"missing.md"}}},
		{"", []string{"check", "missing.md"}, want{2, nil, []string{"missing.md"}}},
		{"", []string{"fmt", "-w"}, want{2, empty, []string{"cannot rewrite standard input"}}},
		{"", []string{"fix", "--nope", "ok.md"}, want{2, empty, []string{"flag provided but not defined"}}},
	} {
		got := runBinary(t, bin, dir, tc.stdin, tc.args...)
		name := strings.Join(tc.args, " ")
		if got.code != tc.want.code {
			t.Errorf("%s: exit %d, want %d\nstdout %q\nstderr %q", name, got.code, tc.want.code, got.stdout, got.stderr)
		}
		check := func(stream, text string, subs []string) {
			if len(subs) == 1 && subs[0] == "" {
				if text != "" {
					t.Errorf("%s: %s not empty: %q", name, stream, text)
				}
				return
			}
			rest := text
			for _, s := range subs {
				i := strings.Index(rest, s)
				if i < 0 {
					t.Errorf("%s: %s lacks %q (in order):\n%s", name, stream, s, text)
					return
				}
				rest = rest[i+len(s):]
			}
		}
		check("stdout", got.stdout, tc.want.stdout)
		check("stderr", got.stderr, tc.want.stderr)
	}
	for _, p := range []string{"pages/a.html", "pages/x/b.html", "pages/ok.html"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
			t.Errorf("render -o pages: %v", err)
		}
	}
	// The hidden directory was skipped: parse of plans printed two lines.
	if got := runBinary(t, bin, dir, "", "parse", "plans"); strings.Count(got.stdout, "\n") != 2 {
		t.Errorf("parse plans: %d lines, want 2", strings.Count(got.stdout, "\n"))
	}
	// -w rewrites files and directories; a second -l is clean.
	if got := runBinary(t, bin, dir, "", "fmt", "-w", "messy.md", "plans"); got.code != 0 || got.stdout != "" {
		t.Errorf("fmt -w: %+v", got)
	}
	if got := runBinary(t, bin, dir, "", "fmt", "-l", "messy.md", "plans"); got.code != 0 || got.stdout != "" {
		t.Errorf("fmt -l after -w: %+v", got)
	}
	os.WriteFile(filepath.Join(dir, "plans/x/b.md"), []byte("#Title\n"), 0o644)
	if got := runBinary(t, bin, dir, "", "fix", "-w", "--dialect", "plan", "plans"); got.code != 0 {
		t.Errorf("fix -w: %+v", got)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "plans/x/b.md")); string(data) != "# Title\n" {
		t.Errorf("fix -w wrote %q", data)
	}
}

// TestBinaryCommands runs the commands that read no plan files, help,
// version and completion.
func TestBinaryCommands(t *testing.T) {
	bin := buildBinary(t)
	dir := t.TempDir()
	for _, tc := range []struct {
		args   []string
		code   int
		stdout string // substring
		stderr string // substring; "" means empty
	}{
		{[]string{}, 2, "", "usage: plangram COMMAND"},
		{[]string{"help"}, 0, "usage: plangram COMMAND", ""},
		{[]string{"--help"}, 0, "usage: plangram COMMAND", ""},
		{[]string{"help", "fmt"}, 0, "usage: plangram fmt [-l] [-d] [-w]", ""},
		{[]string{"help", "nope"}, 2, "", `unknown command "nope"`},
		{[]string{"nope"}, 2, "", `unknown command "nope"`},
		{[]string{"fmt", "-h"}, 0, "usage: plangram fmt", ""},
		{[]string{"version"}, 0, "plangram ", ""},
		{[]string{"--version"}, 0, "plangram ", ""},
		{[]string{"schema", "--dialect", "acts"}, 0, `"$schema"`, ""},
		{[]string{"example", "--dialect", "acts"}, 0, "~~~act", ""},
		{[]string{"gen", "go", "--dialect", "acts", "--package", "x"}, 0, "package x", ""},
		{[]string{"gen", "go", "--dialect", "acts"}, 2, "", "--package"},
		{[]string{"completion", "bash"}, 0, "complete -o filenames -F _plangram plangram", ""},
		{[]string{"completion", "zsh"}, 0, "#compdef plangram", ""},
		{[]string{"completion", "fish"}, 0, "complete -c plangram", ""},
		{[]string{"completion", "tcsh"}, 2, "", "unknown shell"},
	} {
		got := runBinary(t, bin, dir, "", tc.args...)
		name := strings.Join(tc.args, " ")
		if got.code != tc.code || !strings.Contains(got.stdout, tc.stdout) ||
			(tc.stderr == "" && got.stderr != "") || !strings.Contains(got.stderr, tc.stderr) {
			t.Errorf("%s: exit %d (want %d)\nstdout %q (want %q)\nstderr %q (want %q)", name, got.code, tc.code, got.stdout, tc.stdout, got.stderr, tc.stderr)
		}
	}
	// Every command's flags are completed.
	bash := runBinary(t, bin, dir, "", "completion", "bash").stdout
	for _, w := range []string{"check) words=", "--strict", "--disable", `fmt) words="--color -d --dialect --fence --include -l -q --quiet --schema -v --verbose -w"`} {
		if !strings.Contains(bash, w) {
			t.Errorf("bash completion lacks %q", w)
		}
	}
	if _, err := exec.LookPath("bash"); err == nil {
		script := filepath.Join(dir, "c.bash")
		os.WriteFile(script, []byte(bash+"\nCOMP_WORDS=(plangram ch); COMP_CWORD=1; _plangram; echo \"${COMPREPLY[@]}\"\nCOMP_WORDS=(plangram check --st); COMP_CWORD=2; _plangram; echo \"${COMPREPLY[@]}\"\n"), 0o644)
		out, err := exec.Command("bash", script).CombinedOutput()
		if err != nil || string(out) != "check\n--strict\n" {
			t.Errorf("bash completion: %v %q", err, out)
		}
	}

	// The version reaches SARIF and the language server.
	ver := strings.Fields(runBinary(t, bin, dir, "", "version").stdout)[1]
	sarif := runBinary(t, bin, dir, okActs, "check", "--format", "sarif")
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Version string `json:"version"`
				} `json:"driver"`
			} `json:"tool"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(sarif.stdout), &log); err != nil || len(log.Runs) != 1 || !strings.HasPrefix(log.Runs[0].Tool.Driver.Version, ver) {
		t.Errorf("SARIF driver version %+v, want %s… (%v)", log, ver, err)
	}
	// The language server, over pipes, as an editor talks to it: each
	// request waits for its response.
	cmd := exec.Command(bin, "lsp", "--no-workspace")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	rd := bufio.NewReader(stdout)
	call := func(msg string) string {
		t.Helper()
		fmt.Fprintf(stdin, "Content-Length: %d\r\n\r\n%s", len(msg), msg)
		if !strings.Contains(msg, `"id"`) {
			return ""
		}
		h, err := textproto.NewReader(rd).ReadMIMEHeader()
		if err != nil {
			t.Fatalf("lsp: %v", err)
		}
		n, _ := strconv.Atoi(h.Get("Content-Length"))
		body := make([]byte, n)
		if _, err := io.ReadFull(rd, body); err != nil {
			t.Fatalf("lsp: %v", err)
		}
		return string(body)
	}
	init := call(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`)
	if !regexp.MustCompile(`"serverInfo":\{"name":"plangram","version":"` + regexp.QuoteMeta(ver)).MatchString(init) {
		t.Errorf("lsp initialize: %s", init)
	}
	call(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)
	call(`{"jsonrpc":"2.0","id":2,"method":"shutdown"}`)
	call(`{"jsonrpc":"2.0","method":"exit"}`)
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Errorf("lsp exit: %v", err)
	}
}
