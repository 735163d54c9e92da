package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tree writes files (path → content) below a new temporary directory.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const (
	okActs    = "~~~act\necho hi\n~~~\n"
	messyActs = "~~~act\necho hi\n~~~\n\n\n\n"
	badActs   = "~~~act\nwrite_file\n~~~\n"
)

func TestExpandInputs(t *testing.T) {
	dir := tree(t, map[string]string{"a.md": okActs, "sub/b.md": okActs, ".hidden/c.md": okActs, "sub/notes.txt": "x"})
	ins, err := expandInputs([]string{dir, filepath.Join(dir, "a.md"), "-", "-"})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, in := range ins {
		names = append(names, strings.TrimPrefix(in.name, dir))
	}
	if got := strings.Join(names, " "); got != "/a.md /sub/b.md <stdin>" {
		t.Fatalf("inputs %q", got)
	}
	if p := ins[1].outputPath("out"); p != filepath.Join("out", "sub", "b.html") {
		t.Errorf("outputPath %q", p)
	}
	if ins, _ := expandInputs(nil); len(ins) != 1 || !ins[0].stdin() {
		t.Errorf("no argument: %v", ins)
	}
	if _, err := expandInputs([]string{filepath.Join(dir, "missing.md")}); err == nil {
		t.Error("missing file: no error")
	}
}

func TestParseSeveralNDJSON(t *testing.T) {
	dir := tree(t, map[string]string{"a.md": okActs, "b.md": badActs})
	code, out, stderr := runCLI(t, okActs, "parse", dir, "-")
	if code != exitError || !strings.Contains(stderr, "b.md:2:1: error:") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var files []string
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var line struct {
			File     string `json:"file"`
			Document struct {
				Dialect string `json:"dialect"`
			} `json:"document"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil || line.Document.Dialect != "acts" {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		files = append(files, filepath.Base(line.File))
	}
	if strings.Join(files, " ") != "a.md b.md <stdin>" {
		t.Fatalf("files %v", files)
	}
	// One input: the document itself, indented, or on one line with --compact.
	_, out, _ = runCLI(t, okActs, "parse")
	if !strings.HasPrefix(out, "{\n  \"dialect\"") {
		t.Fatalf("one input: %q", out[:20])
	}
	_, out, _ = runCLI(t, okActs, "parse", "--compact", "-")
	if !strings.HasPrefix(out, `{"dialect":"acts"`) || strings.Count(out, "\n") != 1 {
		t.Fatalf("--compact: %q", out)
	}
}

func TestFmtFixListDirs(t *testing.T) {
	dir := tree(t, map[string]string{"a.md": okActs, "sub/b.md": messyActs})
	code, out, _ := runCLI(t, "", "fmt", "-l", dir)
	if code != exitError || out != filepath.Join(dir, "sub", "b.md")+"\n" {
		t.Fatalf("fmt -l: exit %d %q", code, out)
	}
	code, out, _ = runCLI(t, messyActs, "fmt", "-l")
	if code != exitError || out != "<stdin>\n" {
		t.Fatalf("fmt -l stdin: exit %d %q", code, out)
	}
	if code, out, _ := runCLI(t, "", "fix", "-l", dir); code != exitError || !strings.HasSuffix(out, "b.md\n") {
		t.Fatalf("fix -l: exit %d %q", code, out)
	}
	if code, out, _ := runCLI(t, "", "fmt", "-d", dir); code != exitOK || !strings.Contains(out, "+++ "+filepath.Join(dir, "sub", "b.md")) {
		t.Fatalf("fmt -d: exit %d %q", code, out)
	}
	if code, out, stderr := runCLI(t, "", "fmt", "-w", "-l", dir); code != exitError || !strings.HasSuffix(out, "b.md\n") {
		t.Fatalf("fmt -w -l: exit %d %q %s", code, out, stderr)
	}
	if code, out, _ := runCLI(t, "", "fmt", "-l", dir); code != exitOK || out != "" {
		t.Fatalf("fmt -l after -w: exit %d %q", code, out)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "sub", "b.md")); string(data) != okActs {
		t.Fatalf("fmt -w wrote %q", data)
	}
	if code, _, _ := runCLI(t, "", "fmt", "-w", dir, "-"); code != exitUsage {
		t.Fatalf("fmt -w -: exit %d", code)
	}
}

func TestRenderSeveralToDir(t *testing.T) {
	dir := tree(t, map[string]string{"a.md": okActs, "sub/b.md": badActs})
	out := filepath.Join(t.TempDir(), "pages")
	code, stdout, stderr := runCLI(t, okActs, "render", "-o", out, dir, "-")
	if code != exitError || stdout != "" || !strings.Contains(stderr, "wrong-arg-count") {
		t.Fatalf("exit %d %q %q", code, stdout, stderr)
	}
	for _, p := range []string{"a.html", "sub/b.html", "stdin.html"} {
		if data, err := os.ReadFile(filepath.Join(out, p)); err != nil || !strings.Contains(string(data), "<html") {
			t.Errorf("%s: %v", p, err)
		}
	}
}

func TestHelpAndVersion(t *testing.T) {
	code, out, _ := runCLI(t, "", "help", "check")
	if code != exitOK || !strings.HasPrefix(out, "usage: plangram check ") || !strings.Contains(out, "-strict") {
		t.Fatalf("help check: exit %d %q", code, out)
	}
	if code, _, stderr := runCLI(t, "", "help", "nope"); code != exitUsage || !strings.Contains(stderr, `unknown command "nope"`) {
		t.Fatalf("help nope: exit %d", code)
	}
	for _, args := range [][]string{{"version"}, {"--version"}} {
		code, out, _ := runCLI(t, "", args...)
		if code != exitOK || !strings.HasPrefix(out, "plangram ") {
			t.Fatalf("%v: exit %d %q", args, code, out)
		}
	}
}

func TestCheckStrictDisableDirective(t *testing.T) {
	warn := "~~~act\nfrobnicate\n~~~\n" // unknown-action: a warning or an error, depending on the dialect's rules
	_, out, _ := runCLI(t, warn, "check")
	if !strings.Contains(out, "[unknown-action]") {
		t.Fatalf("no unknown-action: %q", out)
	}
	if code, out, _ := runCLI(t, warn, "check", "--disable", "unknown-action,no-plan"); code != exitOK || out != "" {
		t.Fatalf("--disable: exit %d %q", code, out)
	}
	directive := "<!-- plangram-disable-next-line unknown-action -->\n" + warn
	if code, out, _ := runCLI(t, directive, "check"); code != exitOK || out != "" {
		t.Fatalf("directive: exit %d %q", code, out)
	}
	// The directive covers the next line only; inside a block it is content.
	inBlock := "~~~act\nwrite_file a.html\n~~~\n~~~\n<!-- plangram-disable unknown-action -->\n~~~\n" + warn
	if _, out, _ := runCLI(t, inBlock, "check"); !strings.Contains(out, "[unknown-action]") {
		t.Fatalf("directive in a block silenced: %q", out)
	}
	if code, out, _ := runCLI(t, "<!-- plangram-disable -->\n"+okActs, "check", "--strict"); code != exitError || !strings.Contains(out, "[bad-directive]") {
		t.Fatalf("bad directive: exit %d %q", code, out)
	}
	if code, out, _ := runCLI(t, "#T\n", "check", "--dialect", "plan", "--summary"); !strings.HasSuffix(out, " in 1 file\n") {
		t.Fatalf("summary: exit %d %q", code, out)
	}
}

// TestDirectoryMarkdownNames: a directory argument stands for its *.md and
// *.markdown files in any letter case (a plan saved as plan.markdown or
// README.MD is checked, not skipped with exit 0), and a directory with no
// Markdown file is an error for every command, not a clean run over
// nothing.
func TestDirectoryMarkdownNames(t *testing.T) {
	dir := tree(t, map[string]string{"a.markdown": badActs, "B.MD": badActs, "c.Md": okActs, "notes.txt": badActs, "x.mdx": badActs})
	code, out, stderr := runCLI(t, "", "check", dir)
	if code != 1 {
		t.Fatalf("check exit %d, want 1\n%s%s", code, out, stderr)
	}
	for _, f := range []string{"a.markdown", "B.MD"} {
		if !strings.Contains(out, f+":2:1: error:") {
			t.Errorf("check did not read %s:\n%s", f, out)
		}
	}
	if strings.Contains(out, "notes.txt") || strings.Contains(out, "x.mdx") {
		t.Errorf("check read a file that is not Markdown:\n%s", out)
	}
	ins, err := expandInputs([]string{dir})
	if err != nil || len(ins) != 3 {
		t.Fatalf("expandInputs: %v %v", ins, err)
	}
	if p := ins[1].outputPath("out"); p != filepath.Join("out", "a.html") { // B.MD, a.markdown, c.Md
		t.Errorf("outputPath %q", p)
	}
	empty := tree(t, map[string]string{"notes.txt": "x", ".hidden/plan.md": badActs})
	for _, cmd := range []string{"parse", "check", "fmt", "fix", "render"} {
		code, _, stderr := runCLI(t, "", cmd, empty)
		if code != 2 || !strings.Contains(stderr, "nothing to read") {
			t.Errorf("%s on a directory without Markdown: exit %d, want 2 and a message\n%s", cmd, code, stderr)
		}
	}
}
