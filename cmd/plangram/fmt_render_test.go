package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"
)

func writeTemp(t *testing.T, dir, name, body string, mode os.FileMode) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), mode); err != nil {
		t.Fatal(err)
	}
	return p
}

const messy = "Intro.\n\n\n  ~~~~~act  \nwrite_file\n  src/a.py\n~~~~~\n\n~~~~~python\nprint(1)\n~~~~~\n"
const tidy = "Intro.\n\n~~~act\nwrite_file src/a.py\n~~~\n~~~python\nprint(1)\n~~~\n"

func TestFmtCommand(t *testing.T) {
	dir := t.TempDir()
	f := writeTemp(t, dir, "plan.md", messy, 0o600)
	bad := writeTemp(t, dir, "bad.md", "~~~act\necho\n~~~\n~~~~\nnever closed\n", 0o644)

	code, out, stderr := runCLI(t, "", "fmt", f)
	if code != exitOK || out != tidy || stderr != "" {
		t.Fatalf("fmt: exit %d\n%q\n%s", code, out, stderr)
	}
	code, out, _ = runCLI(t, messy, "fmt")
	if code != exitOK || out != tidy {
		t.Fatalf("fmt stdin: exit %d %q", code, out)
	}

	code, out, _ = runCLI(t, "", "fmt", "-d", f)
	if code != exitOK {
		t.Fatalf("fmt -d: exit %d", code)
	}
	g := goldie.New(t, goldie.WithFixtureDir("../../golden/cli"), goldie.WithNameSuffix(".golden"))
	g.Assert(t, "fmt_diff", []byte(strings.ReplaceAll(out, dir, "DIR")))

	// -w rewrites in place, keeps the mode, and follows a symbolic link.
	link := filepath.Join(dir, "link.md")
	if err := os.Symlink("plan.md", link); err != nil {
		t.Fatal(err)
	}
	code, out, _ = runCLI(t, "", "fmt", "-w", link)
	if code != exitOK || out != "" {
		t.Fatalf("fmt -w: exit %d, stdout %q", code, out)
	}
	data, _ := os.ReadFile(f)
	fi, _ := os.Stat(f)
	li, _ := os.Lstat(link)
	if string(data) != tidy || fi.Mode().Perm() != 0o600 || li.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("after -w: %q mode %v link %v", data, fi.Mode(), li.Mode())
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".plangram-") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
	// A formatted file is left alone, and -d prints nothing for it.
	code, out, _ = runCLI(t, "", "fmt", "-d", f)
	if code != exitOK || out != "" {
		t.Fatalf("fmt -d on formatted file: exit %d %q", code, out)
	}

	// Error diagnostics: reported, exit 1, and the file still formatted
	// (nothing is lost: the unclosed block stays unclosed).
	code, out, stderr = runCLI(t, "", "fmt", bad)
	if code != exitError || !strings.Contains(stderr, "unclosed-fence") || out != "~~~act\necho\n~~~\n~~~\nnever closed\n" {
		t.Fatalf("fmt bad: exit %d %q %q", code, out, stderr)
	}

	for _, args := range [][]string{
		{"fmt", "-w"},
		{"fmt", "-w", "-"},
		{"fmt", filepath.Join(dir, "missing.md")},
		{"fmt", "--fence", "dots", f},
		{"fmt", "--dialect", "klingon", f},
		{"fmt", "--nope"},
	} {
		if code, _, _ := runCLI(t, "", args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
	}
}

func TestFmtWriteReadOnlyDir(t *testing.T) {
	if runtime.GOOS == "windows" || os.Geteuid() == 0 {
		t.Skip("root ignores directory permissions")
	}
	dir := t.TempDir()
	f := writeTemp(t, dir, "plan.md", messy, 0o644)
	os.Chmod(dir, 0o555)
	defer os.Chmod(dir, 0o755)
	if code, _, _ := runCLI(t, "", "fmt", "-w", f); code != exitUsage {
		t.Fatalf("exit %d", code)
	}
	if data, _ := os.ReadFile(f); string(data) != messy {
		t.Fatal("file changed although it could not be rewritten")
	}
}

func TestRenderCommand(t *testing.T) {
	dir := t.TempDir()
	ok := writeTemp(t, dir, "ok.md", "~~~act\necho <b>hi</b>\n~~~\n", 0o644)
	bad := writeTemp(t, dir, "bad.md", "~~~act\nwrite_file\n~~~\n", 0o644)
	doc := writeTemp(t, dir, "doc.md", "# Notes\n\n`````\n```act\nend\n```\n`````\n", 0o644)
	// Markdown readers see this act block as an example inside a code
	// block, but the acts dialect (one fence character per document) reads
	// it as an action, and so would check and apply.
	other := writeTemp(t, dir, "other.md", "# Notes\n\n````\n~~~act\nend\n~~~\n````\n", 0o644)
	hidden := writeTemp(t, dir, "hidden.md", "# Notes\n\n<!--\n~~~act\nend\n~~~\n-->\n", 0o644)

	code, out, stderr := runCLI(t, "", "render", ok)
	if code != exitOK || !strings.Contains(out, `<article class="action"`) || !strings.Contains(out, "&lt;b&gt;hi&lt;/b&gt;") || stderr != "" {
		t.Fatalf("render: exit %d %s", code, stderr)
	}
	page := filepath.Join(dir, "out.html")
	code, out, stderr = runCLI(t, "", "render", bad, "-o", page)
	data, _ := os.ReadFile(page)
	if code != exitError || out != "" || !strings.Contains(stderr, "wrong-arg-count") || !strings.Contains(string(data), "wrong-arg-count") {
		t.Fatalf("render bad: exit %d %q %q", code, out, stderr)
	}
	// A page about acts renders as a plain document in auto mode, as acts
	// when asked.
	code, out, _ = runCLI(t, "", "render", doc)
	if code != exitOK || !strings.Contains(out, `<span class="kind">document</span>`) || strings.Contains(out, `<article class="action`) {
		t.Fatalf("render doc: exit %d", code)
	}
	code, out, _ = runCLI(t, "", "render", "--dialect", "markdown", doc)
	if code != exitOK || !strings.Contains(out, `<span class="kind">document</span>`) {
		t.Fatalf("render --dialect markdown: exit %d", code)
	}
	// A page never hides what apply would do: when the acts parser reads
	// an action (or has a warning), auto mode renders the plan page.
	for _, f := range []string{other, hidden} {
		code, out, stderr = runCLI(t, "", "render", f)
		if !strings.Contains(out, `<article class="action"`) {
			t.Errorf("render %s: exit %d, no action on the page\n%s", filepath.Base(f), code, stderr)
		}
	}
	code, out, _ = runCLI(t, "", "render", "--dialect", "markdown", other)
	if code != exitOK || strings.Contains(out, `<article class="action"`) {
		t.Fatalf("render --dialect markdown: exit %d", code)
	}
	code, out, _ = runCLI(t, "~~~act\nend\n~~~\n", "render", "-")
	if code != exitOK || !strings.Contains(out, "<title>plangram</title>") {
		t.Fatalf("render stdin: exit %d", code)
	}
	for _, args := range [][]string{
		{"render", ok, bad},
		{"render", dir},
		{"render", filepath.Join(dir, "missing.md")},
		{"render", "--dialect", "klingon", ok},
		{"render", "-o", filepath.Join(dir, "no/such/dir/x.html"), ok},
	} {
		if code, _, _ := runCLI(t, "", args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
	}
}
