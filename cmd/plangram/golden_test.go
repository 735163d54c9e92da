package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"
)

// Replies of a temporary project: one per dialect, and a stream
// transcript.
var replies = map[string]string{
	"acts.md": "I will write the file.\n\n~~~act\nwrite_file src/a.go\n~~~\n~~~\npackage a\n~~~\n",
	"plan.md": "# Rename greet\n\n- **Status:** draft\n- **Agent:** coder\n- **Goal:** say hello\n\n## Action Plan\n\n### `EDIT`\n\n" +
		"- **File Path:** src/greet.py\n- **Description:** say hello\n\n#### `FIND:`\n\n````text\nprint(\"hi\")\n````\n\n#### `REPLACE:`\n\n````text\nprint(\"hello\")\n````\n",
	"search-replace.md": "src/example.py\n```python\n<<<<<<< SEARCH\ndef greet():\n    print(\"hi\")\n=======\ndef greet():\n    print(\"hello\")\n>>>>>>> REPLACE\n```\n",
	"udiff.diff":        "--- a/src/example.py\n+++ b/src/example.py\n@@ -1,2 +1,2 @@\n def greet():\n-    print(\"hi\")\n+    print(\"hello\")\n",
	"apply-patch.md":    "*** Begin Patch\n*** Add File: src/new.txt\n+first line\n*** Delete File: src/old.txt\n*** End Patch\n",
	"chat/stream.txt":   "Let me read it.\n<thinking>the file first</thinking>\n<read_file>\n<path>src/a.go</path>\n</read_file>\n",
}

// createPlan is plan.md after a model change: the FIND/REPLACE edit has
// become a CREATE of the whole file.
const createPlan = "# Rename greet\n\n- **Status:** draft\n- **Agent:** coder\n- **Goal:** say hello\n\n## Action Plan\n\n### `CREATE`\n\n" +
	"- **File Path:** src/greet.py\n- **Description:** say hello\n- **Overwrite:** true\n\n````python\ndef greet():\n    print(\"hello\")\n````\n"

// TestGoldenEndToEnd: test --update writes a golden per reply, test then
// passes; a reply changed by a model change fails with exit 1 and the
// semantic diff, in text and JSON; --update takes the change.
func TestGoldenEndToEnd(t *testing.T) {
	dir := tree(t, replies)
	code, out, stderr := runCLI(t, "", "test", dir)
	if code != exitError || !strings.Contains(stderr, "run plangram test --update to write it") || !strings.HasSuffix(out, "6 files, 6 changed\n") {
		t.Fatalf("no goldens: exit %d, %q, %q", code, out, stderr)
	}
	if code, out, stderr = runCLI(t, "", "test", "--update", dir); code != exitOK || stderr != "" || strings.Count(out, ": updated\n") != 6 {
		t.Fatalf("--update: exit %d, %q, %q", code, out, stderr)
	}
	for name := range replies {
		data, err := os.ReadFile(filepath.Join(dir, name+".golden"))
		if err != nil || !strings.HasPrefix(string(data), "plangram-golden 1\n") {
			t.Errorf("%s.golden: %v %q", name, err, data)
		}
	}
	if code, out, _ = runCLI(t, "", "test", dir); code != exitOK || out != "6 files, 0 changed\n" {
		t.Fatalf("after --update: exit %d, %q", code, out)
	}
	if err := os.WriteFile(filepath.Join(dir, "plan.md"), []byte(createPlan), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ = runCLI(t, "", "test", dir)
	for _, want := range []string{filepath.Join(dir, "plan.md") + ": changed\n", "- action EDIT src/greet.py\n", "  edits[0].find: print(\"hi\")\n", "+ action CREATE src/greet.py\n", "  overwrite: true\n", "6 files, 1 changed\n"} {
		if code != exitError || !strings.Contains(out, want) {
			t.Errorf("changed reply: exit %d, want %q in:\n%s", code, want, out)
		}
	}
	_, out, _ = runCLI(t, "", "test", "--format", "json", dir)
	var res struct {
		Files   []testResult
		Changed int
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || res.Changed != 1 || len(res.Files) != 6 {
		t.Fatalf("json: %v %s", err, out)
	}
	for _, f := range res.Files {
		if strings.HasSuffix(f.File, "plan.md") != (f.Status == "changed") || f.Status == "changed" && len(f.Changes) != 2 {
			t.Errorf("json: %+v", f)
		}
	}
	// The golden written by test is what diff compares a reply with.
	if code, out, _ = runCLI(t, "", "diff", filepath.Join(dir, "plan.md.golden"), filepath.Join(dir, "plan.md")); code != exitError || !strings.Contains(out, "+ action CREATE") {
		t.Errorf("diff golden reply: exit %d %q", code, out)
	}
	if code, out, _ = runCLI(t, "", "test", "--update", dir); code != exitOK || out != filepath.Join(dir, "plan.md")+": updated\n6 files, 1 changed\n" {
		t.Errorf("--update of the change: exit %d, %q", code, out)
	}
	// docs/testing.md works this example through.
	doc, err := os.ReadFile("../../docs/testing.md")
	_, create, _ := strings.Cut(createPlan, "### `CREATE`")
	if err != nil || !strings.Contains(string(doc), "\n"+replies["plan.md"]+"`````\n") || !strings.Contains(string(doc), create+"`````\n") {
		t.Errorf("docs/testing.md does not show plan.md before and after the change (%v)", err)
	}
}

// TestGoldenBadInput: a golden out of the format or of a newer version, a
// golden that is a symbolic link or a directory, and a link to a
// directory (a loop) are errors for their file alone (exit 2), and the
// other files are still checked; --update writes no golden through a link.
func TestGoldenBadInput(t *testing.T) {
	dir := tree(t, map[string]string{"a.md": okActs, "b.md": okActs, "c.md": okActs, "d.md": okActs, "e.md": okActs})
	if code, _, stderr := runCLI(t, "", "test", "--update", dir); code != exitOK {
		t.Fatal(stderr)
	}
	outside := filepath.Join(t.TempDir(), "outside.golden")
	for _, err := range []error{
		os.WriteFile(filepath.Join(dir, "a.md.golden"), []byte("{}\n"), 0o644),
		os.WriteFile(filepath.Join(dir, "b.md.golden"), []byte("plangram-golden 7\n"), 0o644),
		os.Remove(filepath.Join(dir, "c.md.golden")),
		os.Symlink(outside, filepath.Join(dir, "c.md.golden")),
		os.Remove(filepath.Join(dir, "d.md.golden")),
		os.Mkdir(filepath.Join(dir, "d.md.golden"), 0o755),
		os.Symlink("..", filepath.Join(dir, "loop")),
		os.WriteFile(filepath.Join(dir, "e.md"), []byte(badActs), 0o644),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	code, out, stderr := runCLI(t, "", "test", dir)
	for _, want := range []string{
		"a.md.golden: not a plangram golden file",
		"b.md.golden: golden format version 7 is newer than this plangram reads (1): update plangram",
		"c.md.golden: not a regular file",
		"d.md.golden: not a regular file",
		"loop: a symbolic link to a directory: not followed",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if code != exitUsage || !strings.Contains(out, "e.md: changed\n") || !strings.HasSuffix(out, "6 files, 1 changed\n") {
		t.Errorf("exit %d, stdout:\n%s", code, out)
	}
	if code, _, _ := runCLI(t, "", "test", "--update", dir); code != exitUsage {
		t.Errorf("--update: exit %d", code)
	}
	if _, err := os.Lstat(outside); err == nil {
		t.Error("--update wrote through a symbolic link to outside DIR")
	}
	for _, args := range [][]string{{"test"}, {"test", "-"}, {"diff", "a"}, {"diff", "-", "a"}, {"test", "--syntax", "nope", dir}, {"test", t.TempDir()}, {"diff", "--format", "xml", "a", "b"}} {
		if code, _, stderr := runCLI(t, "", args...); code != exitUsage || stderr == "" {
			t.Errorf("%q: exit %d, %q", args, code, stderr)
		}
	}
}

// TestDiffCases pins `plangram diff` for every kind of change
// (golden/diff/NAME.golden: its standard output; exit 1, or 0 for
// "equal").
func TestDiffCases(t *testing.T) {
	w := func(path, content string) string {
		return fmt.Sprintf("~~~act\nwrite_file %s\n~~~\n~~~\n%s\n~~~\n\n", path, content)
	}
	a, b, c := w("a.txt", "A"), w("b.txt", "B"), w("c.txt", "C")
	unknown := "~~~act\nfrobnicate x\n~~~\n"
	hunk := "@@ -1,2 +1,2 @@\n x\n-old\n+new\n"
	udiff := "--- a/src/a.py\n+++ b/src/a.py\n" + hunk
	fixtures, err := filepath.Abs("../../golden/diff")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, oldName, old, newName, new string }{
		{"equal", "o.md", a + b, "n.md", a + b},
		{"added", "o.md", a, "n.md", a + b},
		{"removed", "o.md", a + b + c, "n.md", a + c},
		{"moved", "o.md", a + b + c, "n.md", c + a + b},
		{"changed_param", "o.md", a, "n.md", w("a.txt", "A2")},
		{"changed_block", "o.md", w("a.txt", "one\ntwo\nthree\nfour"), "n.md", w("a.txt", "one\n2\nthree\nfour\nfive")},
		{"param_added", "o.diff", udiff, "n.diff", udiff + "@@ -9 +9 @@\n-x\n+y\n"},
		{"param_removed", "o.diff", udiff + "@@ -9 +9 @@\n-x\n+y\n", "n.diff", udiff},
		{"diagnostic_appeared", "o.md", a, "n.md", a + unknown},
		{"diagnostic_gone", "o.md", a + unknown, "n.md", a},
		{"diagnostic_moved", "o.md", a + unknown, "n.md", "Some words first.\n\n" + a + unknown},
		{"source", "o.md", a, "n.diff", udiff},
		{"find_replace_to_create", "o.md", replies["plan.md"], "n.md", createPlan},
		{"stream", "o.txt", replies["chat/stream.txt"], "n.txt", "Let me read both.\n<thinking>the files first</thinking>\n<read_file>\n<path>src/b.go</path>\n</read_file>\n<read_file>\n<path>src/a.go</path>\n</read_file>\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := tree(t, map[string]string{c.oldName: c.old, c.newName: c.new})
			t.Chdir(dir)
			code, out, stderr := runCLI(t, "", "diff", c.oldName, c.newName)
			if stderr != "" || (code == exitOK) != (c.name == "equal") {
				t.Errorf("exit %d, %q", code, stderr)
			}
			g := goldie.New(t, goldie.WithFixtureDir(fixtures), goldie.WithNameSuffix(".golden"))
			g.Assert(t, c.name, []byte(out))
			if c.name == "find_replace_to_create" {
				_, out, _ = runCLI(t, "", "diff", "--format", "json", c.oldName, c.newName)
				g.Assert(t, c.name+".json", []byte(out))
			}
		})
	}
}
