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
	code, out, stderr := runCLI(t, "", "check", "-v", "--schema", "deploy.json", "deploy_bad.md")
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

// cliDoc returns the text of docs/cli.md.
func cliDoc(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("../../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// usageLine is the first line `plangram help NAME` prints, without
// "usage: ".
func usageLine(t *testing.T, name string) string {
	t.Helper()
	code, out, _ := runCLI(t, "", "help", name)
	first, _, _ := strings.Cut(out, "\n")
	if code != exitOK || !strings.HasPrefix(first, "usage: ") {
		t.Fatalf("help %s: exit %d %q", name, code, out)
	}
	return strings.TrimPrefix(first, "usage: ")
}

var synopsisRE = regexp.MustCompile("(?m)^```\n((?:plangram [^\n]*\n(?: +[^\n]*\n)*)+)```$")

// TestDocsSynopsis checks that docs/cli.md shows every command's synopsis
// exactly as `plangram help COMMAND` prints it (wrapped lines joined), so
// the flags the doc lists are the flags the binary takes.
func TestDocsSynopsis(t *testing.T) {
	doc := cliDoc(t)
	inDoc := map[string]string{}
	for _, m := range synopsisRE.FindAllStringSubmatch(doc, -1) {
		for _, c := range regexp.MustCompile(`\n(?:plangram )`).Split("\n"+m[1], -1) {
			if c = strings.Join(strings.Fields(c), " "); c != "" {
				name, _, _ := strings.Cut(c, " ")
				inDoc[name] = "plangram " + c
			}
		}
	}
	for name := range commands() {
		want := "plangram " + name + strings.TrimPrefix(usageLine(t, name), "plangram "+name)
		if got, ok := inDoc[name]; !ok {
			t.Errorf("docs/cli.md has no synopsis block for %s; want:\n%s", name, want)
		} else if got != want {
			t.Errorf("docs/cli.md synopsis of %s:\n%s\nplangram help %s:\n%s", name, got, name, want)
		}
	}
}

// TestDocsCommandTable checks the table "Commands at a glance" of
// docs/cli.md against the commands as built: one row per command, and each
// row's claims — standard input, files, directories, rewrite flags —
// hold when the command is run with that input.
func TestDocsCommandTable(t *testing.T) {
	doc := cliDoc(t)
	start := strings.Index(doc, "| command | stdin | files | dirs | -l -d -w |")
	if start < 0 {
		t.Fatal("docs/cli.md: no command table")
	}
	dir := tree(t, map[string]string{"ok.md": okActs, "plans/a.md": okActs, "plans/x/b.md": okActs, "ws/.keep": ""})
	// Flags a command needs to run at all; render needs -o DIR for a
	// directory, as documented.
	need := map[string][]string{
		"apply":      {"--root", filepath.Join(dir, "ws"), "--dry-run"},
		"recover":    {"--root", filepath.Join(dir, "ws")},
		"schema":     {"--dialect", "acts"},
		"example":    {"--dialect", "acts"},
		"gen":        {"go", "--dialect", "acts", "--package", "x"},
		"completion": {"bash"},
	}
	rows := map[string]bool{}
	for _, line := range strings.Split(doc[start:], "\n")[2:] {
		if !strings.HasPrefix(line, "| `") {
			break
		}
		cells := strings.Split(strings.Trim(line, "|"), " | ")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		name := strings.Trim(cells[0], "`")
		rows[name] = true
		if _, ok := commands()[name]; !ok && name != "help" {
			t.Errorf("table row %q: no such command", name)
			continue
		}
		stdin, files, dirs, rewrite := cells[1], cells[2], cells[3], cells[4]
		var stderr string
		try := func(stdinText string, args ...string) int {
			t.Helper()
			var code int
			code, _, stderr = runCLI(t, stdinText, append(append([]string{name}, need[name]...), args...)...)
			return code
		}
		usable := func(code int) bool { return code != exitUsage }
		switch stdin {
		case "yes", "only":
			if name != "lsp" { // lsp would serve the protocol
				if c := try(okActs); !usable(c) {
					t.Errorf("%s: stdin %s, but no PATH exits %d: %s", name, stdin, c, stderr)
				}
				if c := try(okActs, "-"); !usable(c) {
					t.Errorf("%s: stdin %s, but - exits %d: %s", name, stdin, c, stderr)
				}
			}
		case "no":
			if c := try(okActs, "-"); usable(c) {
				t.Errorf("%s: stdin no, but - exits %d", name, c)
			}
		default:
			t.Errorf("%s: stdin cell %q is not yes, only or no", name, stdin)
		}
		for _, tc := range []struct {
			cell    string
			several bool
			args    []string
		}{
			{files, false, []string{filepath.Join(dir, "ok.md")}},
			{files, true, []string{filepath.Join(dir, "ok.md"), filepath.Join(dir, "plans/a.md")}},
			{dirs, true, []string{filepath.Join(dir, "plans")}},
		} {
			if name == "render" && tc.several {
				tc.args = append([]string{"-o", t.TempDir()}, tc.args...) // several pages need -o DIR
			}
			c := try("", tc.args...)
			switch tc.cell {
			case "two": // exactly two files (diff)
				if usable(c) != tc.several {
					t.Errorf("%s %s: the table says two files, exit %d: %s", name, tc.args, c, stderr)
				}
			case "yes":
				if !usable(c) {
					t.Errorf("%s %s: the table says yes, exit %d: %s", name, tc.args, c, stderr)
				}
			case "no":
				if usable(c) {
					t.Errorf("%s %s: the table says no, exit %d", name, tc.args, c)
				}
			default:
				t.Errorf("%s: cell %q is not yes or no", name, tc.cell)
			}
		}
		// The exit-1 column: errors (error events for stream, a refusal for
		// apply), -l and a change, --strict and a warning.
		exit1 := cells[6]
		if stdin != "no" && name != "lsp" {
			args := []string{}
			if name == "stream" {
				args = []string{"--syntax", "acts"}
			}
			errs := strings.Contains(exit1, "has errors") || strings.Contains(exit1, "error events") || strings.Contains(exit1, "refused")
			if c := try(badActs, args...); (c == exitError) != errs {
				t.Errorf("%s: input with an error exits %d; the table says %q", name, c, exit1)
			}
		}
		if strings.Contains(exit1, "with `-l` an input would change") {
			if c := try(messyActs, "-l"); c != exitError {
				t.Errorf("%s -l: a changed input exits %d", name, c)
			}
		}
		if strings.Contains(exit1, "with `--strict` also warnings") {
			const warn = "~~~\nstray\n~~~\n" + okActs // block-before-act: a warning
			if c := try(warn); c != exitOK {
				t.Errorf("%s: a warning exits %d", name, c)
			}
			if c := try(warn, "--strict"); c != exitError {
				t.Errorf("%s --strict: a warning exits %d", name, c)
			}
		}
		if name == "help" {
			continue
		}
		_, help, _ := runCLI(t, "", "help", name)
		for _, f := range []string{"l", "d", "w"} {
			has := regexp.MustCompile(`(?m)^  -` + f + `\b`).MatchString(help)
			if claims := strings.Contains(" "+rewrite+" ", " -"+f+" "); has != claims {
				t.Errorf("%s: -%s in the table: %v, in plangram help %s: %v", name, f, claims, name, has)
			}
		}
	}
	for name := range commands() {
		if !rows[name] {
			t.Errorf("docs/cli.md command table has no row for %s", name)
		}
	}
	if !rows["help"] {
		t.Error("docs/cli.md command table has no row for help")
	}
}
