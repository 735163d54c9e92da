package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestActsBoundedOutput pins the acts dialect's cap (docs/acts.md,
// "Bounded output"): a document that repeats near-act blocks, unknown
// actions, quoted and hidden act blocks 150 times each gets 100
// diagnostics of each code one by one and one that sums up the other 50,
// from check and from stream alike. The golden file holds the summing-up
// lines whole and each command's count of lines per code on stdout and
// stderr.
func TestActsBoundedOutput(t *testing.T) {
	g := cliGoldie(t) // before Chdir
	var b strings.Builder
	b.WriteString("```act\nrun_command ls\n```\n")
	for i := range 150 {
		fmt.Fprintf(&b, "```act x%d\n```\n", i)
	}
	for i := range 150 {
		fmt.Fprintf(&b, "```act\nrun_comand %d\n```\n> ```act\n", i)
	}
	b.WriteString("<!--\n")
	for i := range 150 {
		fmt.Fprintf(&b, "```act\nrun_command echo %d\n```\n", i)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "many.md"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	var out strings.Builder
	for _, c := range []struct {
		stdin string
		args  []string
	}{
		{"", []string{"check", "many.md"}},
		{b.String(), []string{"stream", "--syntax", "acts", "--chunk", "7"}},
	} {
		code, stdout, stderr := runCLI(t, c.stdin, c.args...)
		fmt.Fprintf(&out, "$ plangram %s", strings.Join(c.args, " "))
		if c.stdin != "" {
			out.WriteString(" < many.md")
		}
		out.WriteString("\n")
		for _, o := range []struct{ name, text string }{{"stdout", stdout}, {"stderr", stderr}} {
			counts := map[string]int{}
			var codes []string
			for _, line := range strings.Split(o.text, "\n") {
				c := lineCode(line)
				if c == "" {
					continue
				}
				if counts[c] == 0 {
					codes = append(codes, c)
				}
				counts[c]++
				if strings.Contains(line, "not listed one by one") {
					out.WriteString(line + "\n")
				}
			}
			for _, c := range codes {
				fmt.Fprintf(&out, "%s %s: %d\n", o.name, c, counts[c])
			}
		}
		fmt.Fprintf(&out, "exit %d\n\n", code)
	}
	g.Assert(t, "acts_bounded_output", []byte(out.String()))
}

// lineCode returns the diagnostic code of a line of check's output
// ("… [code]") or of a stream error or diagnostic event ("kind":"code"),
// else "".
func lineCode(line string) string {
	if i := strings.Index(line, `"kind":"`); i >= 0 && (strings.Contains(line, `"type":"error"`) || strings.Contains(line, `"type":"diagnostic"`)) {
		rest := line[i+len(`"kind":"`):]
		return rest[:strings.IndexByte(rest, '"')]
	}
	if strings.HasSuffix(line, "]") {
		if i := strings.LastIndex(line, " ["); i >= 0 {
			return line[i+2 : len(line)-1]
		}
	}
	return ""
}

// TestWorkspaceBoundedOutput pins the cap of the rules after the parser
// (docs/check.md, "Bounded output"): the workspace rules of check --root
// and the case-collision and non-portable-path rules cap each code at 100
// listed and one that sums up the rest, as the parsers do. Before, 180k
// patch_file actions on missing files printed 21.7 MB and held 86 MB
// (8× the input), and with --root the path rule's breaches past the
// parser's 100 were printed again one by one next to the parser's
// summing-up line. Each code is repeated 150 times; check runs with and
// without a root, over the acts and the plan dialect.
func TestWorkspaceBoundedOutput(t *testing.T) {
	g := cliGoldie(t) // before Chdir
	var acts, plan strings.Builder
	plan.WriteString("# Many\n\n- **Status:** draft\n\n## Rationale\n\n```text\nTests the cap.\n```\n\n## Action Plan\n\n")
	for i := range 150 {
		fmt.Fprintf(&acts, "~~~act\npatch_file missing%d.txt\n~~~\n~~~\nold\n~~~\n~~~\nnew\n~~~\n\n", i)
		fmt.Fprintf(&acts, "~~~act\nwrite_file /abs/f%d.txt\n~~~\n~~~\nx\n~~~\n\n", i)
		fmt.Fprintf(&acts, "~~~act\nwrite_file Case%d.txt\n~~~\n~~~\nx\n~~~\n\n~~~act\nwrite_file case%d.txt\n~~~\n~~~\nx\n~~~\n\n", i, i)
		fmt.Fprintf(&acts, "~~~act\nwrite_file con%d/aux.txt\n~~~\n~~~\nx\n~~~\n\n", i)
		fmt.Fprintf(&plan, "### `EDIT`\n\n- **File Path:** missing%d.txt\n- **Description:** d\n\n#### `FIND:`\n\n```text\nold\n```\n\n#### `REPLACE:`\n\n```text\nnew\n```\n\n", i)
		fmt.Fprintf(&plan, "### `CREATE`\n\n- **File Path:** /abs/f%d.txt\n- **Description:** d\n\n```text\nx\n```\n\n", i)
	}
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	for name, text := range map[string]string{"acts.md": acts.String(), "plan.md": plan.String()} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(root, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	var out strings.Builder
	for _, args := range [][]string{
		{"check", "acts.md"},
		{"check", "--root", "root", "acts.md"},
		{"check", "--root", "root", "--format", "json", "acts.md"},
		{"check", "plan.md"},
		{"check", "--root", "root", "plan.md"},
	} {
		code, stdout, stderr := runCLI(t, "", args...)
		fmt.Fprintf(&out, "$ plangram %s\n", strings.Join(args, " "))
		text := stdout + stderr
		counts := map[string]int{}
		var codes []string
		for _, line := range strings.Split(text, "\n") {
			c := lineCode(line)
			if rest, ok := strings.CutPrefix(strings.TrimSpace(line), `"code": "`); ok {
				c, _, _ = strings.Cut(rest, `"`) // --format json
			}
			if c == "" {
				continue
			}
			if counts[c] == 0 {
				codes = append(codes, c)
			}
			counts[c]++
			if strings.Contains(line, "not listed one by one") && lineCode(line) != "" {
				out.WriteString(line + "\n")
			}
		}
		for _, c := range codes {
			fmt.Fprintf(&out, "%s: %d\n", c, counts[c])
		}
		fmt.Fprintf(&out, "exit %d\n\n", code)
	}
	g.Assert(t, "workspace_bounded_output", []byte(out.String()))
}
