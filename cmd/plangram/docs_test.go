package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
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

var outputMarkerRE = regexp.MustCompile("(?m)^<!-- (?:output|file): (\\S+) -->\n```[a-z]*\n")

// TestDocsOutputBlocks checks each block of docs/*.md that follows an
// `<!-- output: PATH -->` or `<!-- file: PATH -->` marker is the file PATH (a golden file the tool's
// tests pin), byte for byte; `go test ./cmd/plangram/ -update` rewrites
// the blocks from the files.
func TestDocsOutputBlocks(t *testing.T) {
	docs, _ := filepath.Glob("../../docs/*.md")
	n := 0
	update := false
	if f := flag.Lookup("update"); f != nil {
		update = f.Value.String() == "true"
	}
	for _, path := range docs {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		doc := string(data)
		var b strings.Builder
		last := 0
		for _, m := range outputMarkerRE.FindAllStringSubmatchIndex(doc, -1) {
			n++
			file := doc[m[2]:m[3]]
			body := m[1]
			end := strings.Index(doc[body:], "\n```\n")
			if end < 0 {
				t.Fatalf("%s: the block after the marker for %s is not closed", path, file)
			}
			want, err := os.ReadFile(filepath.Join("../..", file))
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			got := doc[body : body+end+1]
			b.WriteString(doc[last:body])
			b.Write(want)
			last = body + end + 1
			if got != string(want) && !update {
				t.Errorf("%s shows %s differently from the file (run go test ./cmd/plangram/ -update to copy it):\n%s", path, file, got)
			}
		}
		b.WriteString(doc[last:])
		if update && b.String() != doc {
			if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if n == 0 {
		t.Fatal("no output markers in docs/*.md")
	}
}

// TestDocsDeployBad: the deploy plan's diagnostics docs/schema.md shows
// are what `plangram check --schema deploy.json deploy_bad.md` prints.
func TestDocsDeployBad(t *testing.T) {
	want, err := os.ReadFile("../../golden/custom/deploy_bad.diag.golden")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir("../../golden/custom")
	code, out, stderr := runCLI(t, "", "check", "--schema", "deploy.json", "deploy_bad.md")
	if code != exitError || out != string(want) {
		t.Fatalf("exit %d, stderr %q, stdout:\n%s\nwant:\n%s", code, stderr, out, want)
	}
}

// TestDocsSchemaInline runs the inline examples of docs/schema.md: the
// params the kv and deploy dialects give and the kv error message.
func TestDocsSchemaInline(t *testing.T) {
	data, err := os.ReadFile("../../docs/schema.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := strings.Join(strings.Fields(string(data)), " ") // inline text wraps
	params := func(schemaFile, src string, name ...string) (string, string) {
		t.Helper()
		_, out, stderr := runCLI(t, src, "parse", "--compact", "--schema", schemaFile, "-")
		var d struct {
			Actions []struct {
				Name   string          `json:"name"`
				Params json.RawMessage `json:"params"`
			} `json:"actions"`
		}
		if err := json.Unmarshal([]byte(out), &d); err != nil || len(d.Actions) == 0 {
			t.Fatalf("%v: %s %s", err, out, stderr)
		}
		a := d.Actions[0]
		for _, x := range d.Actions {
			if len(name) > 0 && x.Name == name[0] {
				a = x
			}
		}
		// The doc writes JSON with a space after ':' and ','.
		p := strings.NewReplacer(`":`, `": `, `,"`, `, "`).Replace(string(a.Params))
		return p, stderr
	}
	kv := "../../golden/custom/kv.json"
	if p, _ := params(kv, "~~~act\nSET greeting \"hello world\" 3600\n~~~\n"); !strings.Contains(doc, "parses to `"+p+"`") {
		t.Errorf("docs/schema.md does not show SET's params %s", p)
	}
	_, stderr := params(kv, "~~~act\nINCR visits 1.5\n~~~\n")
	msg := regexp.MustCompile(`error: (.*) \[bad-value\]`).FindStringSubmatch(stderr)
	if msg == nil || !strings.Contains(doc, "to a `bad-value` error: `"+msg[1]+"`") {
		t.Errorf("docs/schema.md does not show INCR's error %q", stderr)
	}
	snippet := regexp.MustCompile("(?s)A plan in the dialect.*?````markdown\n(.*?)````\n").FindStringSubmatch(string(data))
	if snippet == nil {
		t.Fatal("docs/schema.md: no deploy plan snippet")
	}
	if p, _ := params("../../golden/custom/deploy.json", snippet[1], "DEPLOY"); !strings.Contains(doc, "to typed params — `"+p+"`") {
		t.Errorf("docs/schema.md does not show DEPLOY's params %s", p)
	}
}
