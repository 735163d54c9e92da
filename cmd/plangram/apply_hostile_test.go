package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"
)

// treeOf lists every file under root with its content, and every directory.
func treeOf(t *testing.T, root string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			b.WriteString(rel + "/\n")
			return nil
		}
		data, err := os.ReadFile(p)
		b.WriteString(rel + " " + strings.ReplaceAll(string(data), "\n", "\\n") + "\n")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestApplyDiffRoundTrip: the diff `apply --dry-run -d` prints, applied as
// a udiff to the same workspace, gives what applying the plan gives. An
// empty file created or deleted used to print nothing at all; it prints
// git's header (golden/cli/apply_diff_empty.golden).
func TestApplyDiffRoundTrip(t *testing.T) {
	plan := "~~~act\nwrite_file new.txt\n~~~\n~~~\nnew\n~~~\n\n" +
		"~~~act\nwrite_file sub/empty.txt\n~~~\n~~~\n~~~\n\n" +
		"~~~act\npatch_file edit.txt\n~~~\n~~~\nb\n~~~\n~~~\nB\n~~~\n\n" +
		"~~~act\ndelete_file gone.txt\n~~~\n\n" +
		"~~~act\ndelete_file empty-gone.txt\n~~~\n\n" +
		"~~~act\nmove_file from.txt to.txt\n~~~\n\n" +
		"~~~act\nmove_file empty-from.txt empty-to.txt\n~~~\n"
	dir := t.TempDir()
	writeTemp(t, dir, "plan.md", plan, 0o644)
	mk := func(name string) string {
		root := filepath.Join(dir, name)
		if err := os.MkdirAll(root, 0o755); err != nil {
			t.Fatal(err)
		}
		for f, body := range map[string]string{"edit.txt": "a\nb\nc\n", "gone.txt": "g\n", "empty-gone.txt": "",
			"from.txt": "m\n", "empty-from.txt": ""} {
			writeTemp(t, root, f, body, 0o644)
		}
		return root
	}
	viaPlan, viaDiff := mk("plan"), mk("diff")
	code, diff, stderr := runCLI(t, "", "apply", "--root", viaDiff, "--dry-run", "-d", filepath.Join(dir, "plan.md"))
	if code != exitOK {
		t.Fatalf("apply --dry-run -d: exit %d\n%s", code, stderr)
	}
	goldie.New(t, goldie.WithFixtureDir("../../golden/cli"), goldie.WithNameSuffix(".golden")).
		Assert(t, "apply_diff_empty", []byte(diff))
	if code, _, stderr := runCLI(t, "", "apply", "--root", viaPlan, filepath.Join(dir, "plan.md")); code != exitOK {
		t.Fatalf("apply plan: exit %d\n%s", code, stderr)
	}
	if code, _, stderr := runCLI(t, diff, "apply", "--root", viaDiff, "--dialect", "udiff", "-"); code != exitOK {
		t.Fatalf("apply diff: exit %d\n%s\n%s", code, stderr, diff)
	}
	if a, b := treeOf(t, viaPlan), treeOf(t, viaDiff); a != b {
		t.Errorf("the plan gives\n%s\nits diff gives\n%s", a, b)
	}
}

// TestRenderIntoDir: `render -o DIR FILE` with DIR an existing directory
// writes DIR/FILE.html (it failed with "is a directory", exit 2).
func TestRenderIntoDir(t *testing.T) {
	dir := t.TempDir()
	plan := writeTemp(t, dir, "plan.md", "~~~act\necho hi\n~~~\n", 0o644)
	out := filepath.Join(dir, "out")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI(t, "", "render", "-o", out, plan); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if data, err := os.ReadFile(filepath.Join(out, "plan.html")); err != nil || !strings.Contains(string(data), "<!DOCTYPE html>") {
		t.Errorf("out/plan.html: %v", err)
	}
}
