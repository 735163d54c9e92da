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
// ("… [code]") or of a stream error event ("kind":"code"), else "".
func lineCode(line string) string {
	if i := strings.Index(line, `"kind":"`); i >= 0 && strings.Contains(line, `"type":"error"`) {
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
