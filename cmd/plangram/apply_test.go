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
	root := t.TempDir()
	writeTemp(t, root, "plan.md", plan, 0o644)
	if err := os.MkdirAll(filepath.Join(root, filepath.Dir(fileName)), 0o755); err != nil {
		t.Fatal(err)
	}
	writeTemp(t, root, fileName, fileBody, 0o644)
	t.Chdir(root)

	code, out, stderr := runCLI(t, "", "apply", "--root", ".", "--dry-run", "-d", "plan.md")
	if code != exitOK || out != diff || stderr != texts[0] {
		t.Fatalf("apply --dry-run -d: exit %d\nstdout:\n%s\nwant:\n%s\nstderr:\n%s\nwant:\n%s", code, out, diff, stderr, texts[0])
	}
	if data, _ := os.ReadFile(filepath.Join(root, fileName)); string(data) != fileBody {
		t.Fatal("--dry-run wrote")
	}
	code, out, _ = runCLI(t, "", "apply", "--root", ".", "plan.md")
	if code != exitOK || out != texts[1] {
		t.Fatalf("apply: exit %d\n%s\nwant:\n%s", code, out, texts[1])
	}
	// Applied: applying again finds both changes already made (the
	// REPLACE text is where the FIND text was, the test file holds its
	// content) and changes nothing.
	code, out, stderr = runCLI(t, "", "apply", "--root", ".", "plan.md")
	if code != exitOK || out != "" || strings.Count(stderr, "[already-applied]") != 2 || !strings.Contains(stderr, "plangram: already applied:") {
		t.Fatalf("second apply: exit %d\n%s%s", code, out, stderr)
	}
	if data, _ := os.ReadFile(filepath.Join(root, "tests/test_app.py")); string(data) != "from src.app import greet\n" {
		t.Fatalf("tests/test_app.py = %q", data)
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
		{"apply", "--root", "", bad},
		{"apply", "--root", filepath.Join(dir, "missing"), bad},
		{"apply", "--root", root, filepath.Join(dir, "missing.md")},
		{"apply", "--root", root, "--dialect", "klingon", bad},
	} {
		if code, _, _ := runCLI(t, "", args...); code != exitUsage {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	// No PATH is standard input, as in every command; "-" twice is read
	// once. An empty input has nothing to apply: refused.
	for _, args := range [][]string{{"apply", "--root", root}, {"apply", "--root", root, "-", "-"}} {
		if code, stdout, stderr := runCLI(t, "", args...); code != exitError || stdout != "" || strings.Count(stderr, "[nothing-to-apply]") != 1 {
			t.Errorf("%v: exit %d, want 1 with one nothing-to-apply\nstdout %q\nstderr %q", args, code, stdout, stderr)
		}
	}
	if code, stdout, _ := runCLI(t, "~~~act\nwrite_file d.txt\n~~~\n~~~\nd\n~~~\n", "apply", "--root", root, "-", "-"); code != exitOK || stdout != "A d.txt\n" {
		t.Errorf("standard input twice: exit %d, stdout %q", code, stdout)
	}
}

// TestApplyDefaultRoot: without --root, apply changes the current
// directory (as git apply and patch do), and the summary line names it.
func TestApplyDefaultRoot(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	code, stdout, stderr := runCLI(t, "~~~act\nwrite_file a.txt\n~~~\n~~~\na\n~~~\n", "apply")
	if code != exitOK || stdout != "A a.txt\n" || stderr != "plangram: applied 1 file change to "+dir+"\n" {
		t.Fatalf("exit %d\nstdout %q\nstderr %q", code, stdout, stderr)
	}
	if data, err := os.ReadFile(filepath.Join(dir, "a.txt")); err != nil || string(data) != "a\n" {
		t.Fatalf("a.txt: %q %v", data, err)
	}
	// --root as given is named as given.
	code, _, stderr = runCLI(t, "~~~act\nwrite_file b.txt\n~~~\n~~~\nb\n~~~\n", "apply", "--root", ".", "--dry-run")
	if code != exitOK || stderr != "plangram: dry run: would apply 1 file change to .; nothing was written\n" {
		t.Fatalf("--root .: exit %d, stderr %q", code, stderr)
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
