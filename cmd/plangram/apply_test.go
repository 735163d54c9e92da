package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"
)

// TestApplyDocExample runs the example of docs/apply.md: the workspace
// file, the plan, the dry-run diff, the note on standard error and the
// change list of the real apply.
func TestApplyDocExample(t *testing.T) {
	doc, err := os.ReadFile("../../docs/apply.md")
	if err != nil {
		t.Fatal(err)
	}
	fence := regexp.MustCompile("(?ms)^(`{3,})([^\n]*)\n(.*?)\n^`{3,}$")
	var fileName, fileBody, plan, diff string
	var texts []string
	for _, m := range fence.FindAllStringSubmatch(string(doc), -1) {
		info, body := m[2], m[3]
		switch {
		case strings.HasPrefix(info, "file "):
			fileName, fileBody = strings.TrimPrefix(info, "file "), body+"\n"
		case info == "markdown plan.md":
			plan = body + "\n"
		case info == "diff":
			diff = body + "\n"
		case info == "text":
			texts = append(texts, body+"\n")
		}
	}
	if fileName == "" || plan == "" || diff == "" || len(texts) != 2 {
		t.Fatalf("docs/apply.md: example blocks not found (file %q, plan %d bytes, diff %d bytes, %d text blocks)", fileName, len(plan), len(diff), len(texts))
	}
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	writeTemp(t, dir, "plan.md", plan, 0o644)
	if err := os.MkdirAll(filepath.Join(root, filepath.Dir(fileName)), 0o755); err != nil {
		t.Fatal(err)
	}
	writeTemp(t, root, fileName, fileBody, 0o644)
	t.Chdir(dir)

	code, out, stderr := runCLI(t, "", "apply", "--root", "root", "--dry-run", "-d", "plan.md")
	if code != exitOK || out != diff || stderr != texts[0] {
		t.Fatalf("apply --dry-run -d: exit %d\nstdout:\n%s\nwant:\n%s\nstderr:\n%s\nwant:\n%s", code, out, diff, stderr, texts[0])
	}
	if data, _ := os.ReadFile(filepath.Join(root, fileName)); string(data) != fileBody {
		t.Fatal("--dry-run wrote")
	}
	code, out, _ = runCLI(t, "", "apply", "--root", "root", "plan.md")
	if code != exitOK || out != texts[1] {
		t.Fatalf("apply: exit %d\n%s\nwant:\n%s", code, out, texts[1])
	}
	// Applied: applying again is refused (the FIND text is gone, the
	// test file exists) and changes nothing.
	code, _, stderr = runCLI(t, "", "apply", "--root", "root", "plan.md")
	if code != exitError || !strings.Contains(stderr, "[find-not-found]") || !strings.Contains(stderr, "apply refused: nothing was written") {
		t.Fatalf("second apply: exit %d\n%s", code, stderr)
	}
}

// TestApplyCommand pins apply's exit codes and its refusal output.
func TestApplyCommand(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	os.MkdirAll(root, 0o755)
	writeTemp(t, root, "a.txt", "one\n", 0o644)
	bad := writeTemp(t, dir, "bad.md", "~~~act\nwrite_file b.txt\n~~~\n~~~\nb\n~~~\n~~~act\npatch_file a.txt\n~~~\n~~~\ntwo\n~~~\n~~~\nthree\n~~~\n~~~act\nwrite_file \"ab://../../pwn.txt\"\n~~~\n~~~\nx\n~~~\n", 0o644)
	code, out, stderr := runCLI(t, "", "apply", "--root", root, bad)
	if code != exitError || out != "" {
		t.Fatalf("refused apply: exit %d %q", code, out)
	}
	if _, err := os.Lstat(filepath.Join(root, "b.txt")); err == nil {
		t.Fatal("a refused apply wrote b.txt")
	}
	g := goldie.New(t, goldie.WithFixtureDir("../../golden/cli"), goldie.WithNameSuffix(".golden"))
	g.Assert(t, "apply_refused", []byte(strings.ReplaceAll(stderr, dir, "DIR")))

	// Standard input, a read-only target: refused by the workspace rules
	// (read-only-file, exit 1) before anything is written.
	writeTemp(t, root, "ro.txt", "ro\n", 0o444)
	code, _, stderr = runCLI(t, "~~~act\nwrite_file c.txt\n~~~\n~~~\nc\n~~~\n~~~act\npatch_file ro.txt\n~~~\n~~~\nro\n~~~\n~~~\nrw\n~~~\n", "apply", "--root", root, "-")
	if code != exitError || !strings.Contains(stderr, "[read-only-file]") {
		t.Fatalf("read-only: exit %d %s", code, stderr)
	}
	if _, err := os.Lstat(filepath.Join(root, "c.txt")); err == nil {
		t.Fatal("a refused apply wrote c.txt")
	}
	for _, args := range [][]string{
		{"apply", bad},
		{"apply", "--root", filepath.Join(dir, "missing"), bad},
		{"apply", "--root", root, filepath.Join(dir, "missing.md")},
		{"apply", "--root", root, "--dialect", "klingon", bad},
	} {
		if code, _, _ := runCLI(t, "", args...); code != exitUsage {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	// No PATH is standard input, as in every command; "-" twice is read once.
	for _, args := range [][]string{{"apply", "--root", root}, {"apply", "--root", root, "-", "-"}} {
		if code, stdout, stderr := runCLI(t, "", args...); code != exitOK || stdout != "" {
			t.Errorf("%v: exit %d, want 0\nstdout %q\nstderr %q", args, code, stdout, stderr)
		}
	}
}

// TestCheckAgreesWithApplyOnReadOnlyFiles pins that `check --root` and
// `apply` agree on a read-only file (issue 10: an exit 0 is a promise):
// a plan that changes one fails check (read-only-file) as apply refuses
// it; a plan that deletes one passes both.
func TestCheckAgreesWithApplyOnReadOnlyFiles(t *testing.T) {
	for _, c := range []struct {
		name, plan string
		ok         bool
	}{
		{"patch", "~~~act\npatch_file ro.txt one two\n~~~\n", false},
		{"write", "~~~act\nwrite_file ro.txt\n~~~\n~~~\nnew\n~~~\n", false},
		{"delete", "~~~act\ndelete_file ro.txt\n~~~\n", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			file := filepath.Join(root, "ro.txt")
			if err := os.WriteFile(file, []byte("one\n"), 0o444); err != nil {
				t.Fatal(err)
			}
			plan := filepath.Join(t.TempDir(), "plan.md")
			if err := os.WriteFile(plan, []byte(c.plan), 0o644); err != nil {
				t.Fatal(err)
			}
			code, stdout, stderr := runCLI(t, "", "check", "--root", root, plan)
			if (code == exitOK) != c.ok || !c.ok && !strings.Contains(stdout+stderr, "[read-only-file]") {
				t.Fatalf("check: exit %d, want ok=%v\n%s%s", code, c.ok, stdout, stderr)
			}
			code, _, stderr = runCLI(t, "", "apply", "--root", root, plan)
			if (code == exitOK) != c.ok {
				t.Fatalf("apply: exit %d, want ok=%v\n%s", code, c.ok, stderr)
			}
		})
	}
}
