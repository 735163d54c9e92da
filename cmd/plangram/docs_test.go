package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// docExample is one `$ command` of a ```console block and what it prints.
type docExample struct {
	line    int // of the command in the doc
	command string
	output  string
	exit    int
}

var exitLineRE = regexp.MustCompile(`^\[exit (\d+)\]$`)

// consoleExamples extracts the commands of the ```console blocks of a
// Markdown document.
func consoleExamples(t *testing.T, doc string) []docExample {
	t.Helper()
	var out []docExample
	in := false
	var cur *docExample
	flush := func() {
		if cur != nil {
			out = append(out, *cur)
			cur = nil
		}
	}
	for i, line := range strings.Split(doc, "\n") {
		switch {
		case !in && line == "```console":
			in = true
		case in && line == "```":
			flush()
			in = false
		case in && strings.HasPrefix(line, "$ "):
			flush()
			cur = &docExample{line: i + 1, command: line[2:]}
		case in && cur != nil:
			if m := exitLineRE.FindStringSubmatch(line); m != nil {
				cur.exit, _ = strconv.Atoi(m[1])
				continue
			}
			cur.output += line + "\n"
		case in:
			t.Fatalf("line %d: output before any command: %q", i+1, line)
		}
	}
	return out
}

// TestDocsCLIExamples runs the examples of docs/cli.md with the built
// binary first on $PATH, from the repository root, and compares their
// output (standard output and standard error, interleaved) and exit code.
func TestDocsCLIExamples(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh to run the examples")
	}
	bin := buildBinary(t)
	root, _ := filepath.Abs("../..")
	for _, name := range []string{"docs/cli.md"} {
		data, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		exs := consoleExamples(t, string(data))
		if len(exs) < 5 {
			t.Fatalf("%s: only %d console examples", name, len(exs))
		}
		for _, ex := range exs {
			cmd := exec.Command("sh", "-c", ex.command)
			cmd.Dir = root
			cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"), "NO_COLOR=1")
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			err := cmd.Run()
			code := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatalf("%s:%d: %v", name, ex.line, err)
			}
			if out.String() != ex.output || code != ex.exit {
				t.Errorf("%s:%d: $ %s\ngot (exit %d):\n%s\nthe doc says (exit %d):\n%s", name, ex.line, ex.command, code, out.String(), ex.exit, ex.output)
			}
		}
	}
}
