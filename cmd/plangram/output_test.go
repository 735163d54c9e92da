package main

import (
	"bytes"
	"context"
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
