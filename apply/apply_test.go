package apply

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"github.com/plangram/plangram/internal/rootfs"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/workspace"
)

func parse(t testing.TB, src string) *ast.Document {
	t.Helper()
	doc, err := grammar.Parse(context.Background(), "plan.md", []byte(src), grammar.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// files writes name → content under root (directories created).
func files(t testing.TB, root string, m map[string]string) {
	t.Helper()
	for name, content := range m {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// snapshot lists every entry under dir with its mode, owner and content.
func snapshot(t testing.TB, dir string) string {
	t.Helper()
	var lines []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		line := fmt.Sprintf("%s %v", strings.TrimPrefix(p, dir), fi.Mode())
		if st, ok := fi.Sys().(*syscall.Stat_t); ok {
			line += fmt.Sprintf(" %d:%d", st.Uid, st.Gid)
		}
		if fi.Mode().IsRegular() {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			line += fmt.Sprintf(" %x", sha256.Sum256(data))
		}
		lines = append(lines, line)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

func read(t testing.TB, p string) string {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

const actsPlan = "~~~act\nwrite_file new/dir/hello.txt\n~~~\n~~~\nhello\n~~~\n" +
	"~~~act\npatch_file src/app.py\n~~~\n~~~\nprint(1)\n~~~\n~~~\nprint(2)\n~~~\n" +
	"~~~act\nappend_file log.txt\n~~~\n~~~\nmore\n~~~\n" +
	"~~~act\ndelete_file old.txt\n~~~\n" +
	"~~~act\nmove_file run.sh bin/run.sh\n~~~\n" +
	"~~~act\nrun_command \"touch ran.txt\"\n~~~\n"

func TestApplyActs(t *testing.T) {
	root := t.TempDir()
	files(t, root, map[string]string{"src/app.py": "def f():\n    print(1)\n", "log.txt": "one\n", "old.txt": "bye\n", "run.sh": "#!/bin/sh\n"})
	app := filepath.Join(root, "src/app.py")
	os.Chmod(app, 0o640)
	os.Chmod(filepath.Join(root, "run.sh"), 0o755)
	if os.Geteuid() == 0 {
		if err := os.Chown(filepath.Join(root, "run.sh"), 1234, 5678); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(app, 4321, 8765); err != nil {
			t.Fatal(err)
		}
	}
	res, err := Apply(context.Background(), []*ast.Document{parse(t, actsPlan)}, root, Options{})
	if err != nil {
		t.Fatalf("Apply: %v\n%v", err, res)
	}
	if !res.Applied {
		t.Fatal("not applied")
	}
	for name, want := range map[string]string{
		"new/dir/hello.txt": "hello\n", // a block's content, and the line ending every line of a block ends with
		"src/app.py":        "def f():\n    print(2)\n",
		"log.txt":           "one\nmore\n",
		"bin/run.sh":        "#!/bin/sh\n",
	} {
		if got := read(t, filepath.Join(root, name)); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	for _, gone := range []string{"old.txt", "run.sh", "ran.txt"} {
		if _, err := os.Lstat(filepath.Join(root, gone)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s still exists (or was created): %v", gone, err)
		}
	}
	fi, _ := os.Stat(app)
	if fi.Mode().Perm() != 0o640 {
		t.Errorf("app.py mode %v, want 0640", fi.Mode())
	}
	if st := fi.Sys().(*syscall.Stat_t); os.Geteuid() == 0 && (st.Uid != 4321 || st.Gid != 8765) {
		t.Errorf("app.py owner %d:%d, want 4321:8765", st.Uid, st.Gid)
	}
	if fi, _ := os.Stat(filepath.Join(root, "bin/run.sh")); fi.Mode().Perm() != 0o755 {
		t.Errorf("moved run.sh mode %v, want 0755 (kept from the source)", fi.Mode())
	} else if st := fi.Sys().(*syscall.Stat_t); os.Geteuid() == 0 && (st.Uid != 1234 || st.Gid != 5678) {
		t.Errorf("moved run.sh owner %d:%d, want 1234:5678 (kept from the source)", st.Uid, st.Gid)
	}
	// No backup or temporary file is left behind.
	if s := snapshot(t, root); strings.Contains(s, ".plangram-") {
		t.Errorf("leftovers:\n%s", s)
	}
	// The command is listed, with a note, never run.
	if len(res.Commands[0]) != 1 || res.Commands[0][0].Name != "run_command" {
		t.Errorf("commands %v", res.Commands)
	}
	found := false
	for _, d := range res.Diagnostics[0] {
		found = found || d.Code == CodeCommandNotRun
	}
	if !found {
		t.Error("no command-not-run note")
	}
}

func TestApplyPlanDialect(t *testing.T) {
	root := t.TempDir()
	files(t, root, map[string]string{"src/config.py": "DEBUG = False\n"})
	plan := "# Plan\n\n- **Goal:** flip the flag\n\n## Rationale\n\n```text\nWhy.\n```\n\n## Action Plan\n\n" +
		"### `CREATE`\n\n- **File Path:** src/new.py\n\n```python\nprint(\"new\")\n```\n\n" +
		"### `EDIT`\n\n- **File Path:** src/config.py\n\n#### `FIND:`\n\n```python\nDEBUG = False\n```\n\n#### `REPLACE:`\n\n```python\nDEBUG = True\n```\n\n" +
		"### `EXECUTE`\n\n- **Description:** test\n\n```bash\ntouch ran.txt\n```\n"
	doc := parse(t, plan)
	res, err := Apply(context.Background(), []*ast.Document{doc}, root, Options{})
	if err != nil {
		for _, d := range res.Diagnostics[0] {
			t.Log(d.Format("plan.md"))
		}
		t.Fatal(err)
	}
	if got := read(t, filepath.Join(root, "src/config.py")); got != "DEBUG = True\n" {
		t.Errorf("config.py = %q", got)
	}
	if _, err := os.Lstat(filepath.Join(root, "ran.txt")); err == nil {
		t.Error("EXECUTE was run")
	}
	if got := read(t, filepath.Join(root, "src/new.py")); got != "print(\"new\")\n" {
		t.Errorf("new.py = %q", got)
	}
}

// TestApplyRefused: one failing check and nothing is written, not even the
// actions before it.
func TestApplyRefused(t *testing.T) {
	for name, plan := range map[string]string{
		"find-not-found": "~~~act\nwrite_file a.txt\n~~~\n~~~\nx\n~~~\n~~~act\npatch_file src/app.py\n~~~\n~~~\nnot there\n~~~\n~~~\ny\n~~~\n",
		"escape":         "~~~act\nwrite_file a.txt\n~~~\n~~~\nx\n~~~\n~~~act\nwrite_file \"ab://../../pwn.txt\"\n~~~\n~~~\nx\n~~~\n",
		"after-command":  "~~~act\nrun_command make\n~~~\n~~~act\npatch_file build/out.txt\n~~~\n~~~\na\n~~~\n~~~\nb\n~~~\n",
		"no-content":     "~~~act\nwrite_file a.txt\n~~~\n",
		"parse-error":    "~~~act\nwrite_file a.txt\n~~~\n~~~\nx\n~~~\n~~~act\nread_file\n~~~\n",
	} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			files(t, root, map[string]string{"src/app.py": "print(1)\n"})
			before := snapshot(t, root)
			res, err := Apply(context.Background(), []*ast.Document{parse(t, plan)}, root, Options{})
			if !errors.Is(err, ErrRefused) {
				t.Fatalf("err = %v, want ErrRefused", err)
			}
			if res.Applied || snapshot(t, root) != before {
				t.Fatal("the workspace changed although the apply was refused")
			}
			errs := 0
			for _, d := range res.Diagnostics[0] {
				if d.Severity == ast.Error {
					errs++
				}
			}
			if errs == 0 {
				t.Error("refused without an error diagnostic")
			}
		})
	}
}

// TestApplyRollback: a failure part-way (injected before the n-th file, or
// a read-only file that safewrite refuses) restores every file already
// written: contents, modes, owners, deleted files, created directories.
func TestApplyRollback(t *testing.T) {
	setup := func(t *testing.T) string {
		root := t.TempDir()
		files(t, root, map[string]string{"src/app.py": "def f():\n    print(1)\n", "log.txt": "one\n", "old.txt": "bye\n", "run.sh": "#!/bin/sh\n"})
		os.Chmod(filepath.Join(root, "run.sh"), 0o755)
		os.Chmod(filepath.Join(root, "src/app.py"), 0o600)
		return root
	}
	doc := parse(t, actsPlan)
	// Changes in path order: bin/run.sh, log.txt, new/dir/hello.txt,
	// old.txt, run.sh, src/app.py: fail before each in turn.
	for n := 0; n < 6; n++ {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			root := setup(t)
			before := snapshot(t, root)
			calls := 0
			injected := errors.New("injected failure")
			res, err := Apply(context.Background(), []*ast.Document{doc}, root, Options{hook: func(step, _ string) error {
				if step != "write" {
					return nil
				}
				calls++
				if calls > n {
					return injected
				}
				return nil
			}})
			if !errors.Is(err, injected) {
				t.Fatalf("err = %v", err)
			}
			if res.Applied {
				t.Error("Applied after a failure")
			}
			if after := snapshot(t, root); after != before {
				t.Errorf("not restored:\nbefore:\n%s\nafter:\n%s", before, after)
			}
		})
	}
	// A read-only file the plan changes: the workspace rules refuse it
	// (read-only-file) before anything is written, as the write would.
	t.Run("read-only", func(t *testing.T) {
		root := setup(t)
		os.Chmod(filepath.Join(root, "src/app.py"), 0o444) // the last change
		before := snapshot(t, root)
		res, err := Apply(context.Background(), []*ast.Document{doc}, root, Options{})
		if !errors.Is(err, ErrRefused) {
			t.Fatalf("err = %v, want %v", err, ErrRefused)
		}
		found := false
		for _, d := range res.Diagnostics[0] {
			found = found || d.Code == workspace.CodeReadOnly
		}
		if !found {
			t.Errorf("no %s diagnostic: %v", workspace.CodeReadOnly, res.Diagnostics[0])
		}
		if after := snapshot(t, root); after != before {
			t.Errorf("not restored:\nbefore:\n%s\nafter:\n%s", before, after)
		}
	})
}

// TestApplyHardLinks: a file with several hard links is replaced by a new
// file, as git apply does: no inode reachable from another name (inside
// the root or outside it) is written, and two links inside the root
// edited by one plan each end as the dry run's changes say.
func TestApplyHardLinks(t *testing.T) {
	for _, portable := range []bool{false, true} {
		t.Run(fmt.Sprintf("portable=%v", portable), func(t *testing.T) {
			top := t.TempDir()
			root, outside := filepath.Join(top, "root"), filepath.Join(top, "outside")
			files(t, root, map[string]string{"a.txt": "old\nkeep\n", "out.txt": "mine\n"})
			if err := os.MkdirAll(outside, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Link(filepath.Join(root, "a.txt"), filepath.Join(root, "b.txt")); err != nil {
				t.Fatal(err)
			}
			if err := os.Link(filepath.Join(root, "out.txt"), filepath.Join(outside, "victim.txt")); err != nil {
				t.Fatal(err)
			}
			doc := parse(t, "~~~act\npatch_file a.txt\n~~~\n~~~\nold\n~~~\n~~~\nnew A\n~~~\n"+
				"~~~act\npatch_file b.txt\n~~~\n~~~\nkeep\n~~~\n~~~\nnew B\n~~~\n"+
				"~~~act\nappend_file out.txt\n~~~\n~~~\nmore\n~~~\n")
			before := snapshot(t, top)
			res, err := Apply(context.Background(), []*ast.Document{doc}, root, Options{DryRun: true, portable: portable})
			if err != nil || res.Applied || snapshot(t, top) != before {
				t.Fatalf("dry run: %v applied=%v", err, res.Applied)
			}
			want := map[string]string{}
			for _, ch := range res.Changes {
				want[ch.Path] = ch.New
			}
			if len(want) != 3 {
				t.Fatalf("changes %+v", res.Changes)
			}
			if _, err := Apply(context.Background(), []*ast.Document{doc}, root, Options{portable: portable}); err != nil {
				t.Fatal(err)
			}
			for name, content := range want {
				if got := read(t, filepath.Join(root, name)); got != content {
					t.Errorf("%s = %q, the dry run said %q", name, got, content)
				}
			}
			if got := read(t, filepath.Join(outside, "victim.txt")); got != "mine\n" {
				t.Errorf("the hard link outside the root was written: %q", got)
			}
			if s := snapshot(t, top); strings.Contains(s, ".plangram") {
				t.Errorf("leftovers:\n%s", s)
			}
		})
	}
}

// TestApplySeveralDocuments: the second document sees what the first did;
// a failing check in the second refuses both.
func TestApplySeveralDocuments(t *testing.T) {
	root := t.TempDir()
	first := parse(t, "~~~act\nwrite_file a.txt\n~~~\n~~~\none\n~~~\n")
	second := parse(t, "~~~act\npatch_file a.txt\n~~~\n~~~\none\n~~~\n~~~\ntwo\n~~~\n")
	bad := parse(t, "~~~act\npatch_file a.txt\n~~~\n~~~\nthree\n~~~\n~~~\nfour\n~~~\n")
	if _, err := Apply(context.Background(), []*ast.Document{first, bad}, root, Options{}); !errors.Is(err, ErrRefused) {
		t.Fatalf("err = %v", err)
	}
	if _, err := os.Lstat(filepath.Join(root, "a.txt")); err == nil {
		t.Fatal("the first document was applied although the second was refused")
	}
	if _, err := Apply(context.Background(), []*ast.Document{first, second}, root, Options{}); err != nil {
		t.Fatal(err)
	}
	if got := read(t, filepath.Join(root, "a.txt")); got != "two\n" {
		t.Errorf("a.txt = %q", got)
	}
}

// TestApplyChangedAfterCheck: verify refuses to overwrite a file that is not
// what the simulation read.
func TestApplyChangedAfterCheck(t *testing.T) {
	root := t.TempDir()
	files(t, root, map[string]string{"a.txt": "old\n"})
	r, err := rootfs.Open(root, false)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	tx := &txn{fs: r}
	doc := parse(t, "~~~act\npatch_file a.txt\n~~~\n~~~\nold\n~~~\n~~~\nnew\n~~~\n")
	res, err := Apply(context.Background(), []*ast.Document{doc}, root, Options{DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("someone else's\n"), 0o644)
	if err := tx.verify(context.Background(), res.Changes); err == nil || !strings.Contains(err.Error(), "changed after the check") {
		t.Errorf("verify: %v", err)
	}
}

// TestApplyExactBytes: FIND/REPLACE texts and diff hunks that are not UTF-8
// (a Latin-1 file) are matched and written byte for byte, not as U+FFFD.
func TestApplyExactBytes(t *testing.T) {
	root := t.TempDir()
	files(t, root, map[string]string{"a.txt": "caf\xe9 = 1\n", "b.txt": "na\xefve\nx\n"})
	plan := parse(t, "# Plan\n\n- **Goal:** Latin-1\n\n## Rationale\n\n```text\nWhy.\n```\n\n## Action Plan\n\n"+
		"### `EDIT`\n\n- **File Path:** a.txt\n\n#### `FIND:`\n\n```text\ncaf\xe9 = 1\n```\n\n#### `REPLACE:`\n\n```text\ncaf\xe9 = 2\n```\n")
	diff, err := grammar.Parse(context.Background(), "b.diff", []byte("--- a/b.txt\n+++ b/b.txt\n@@ -1,2 +1,2 @@\n-na\xefve\n+na\xefve \xff\n x\n"), grammar.Options{Dialect: "udiff"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Apply(context.Background(), []*ast.Document{plan, diff}, root, Options{})
	if err != nil {
		for _, ds := range res.Diagnostics {
			for _, d := range ds {
				t.Log(d.Format("plan.md"))
			}
		}
		t.Fatal(err)
	}
	for name, want := range map[string]string{"a.txt": "caf\xe9 = 2\n", "b.txt": "na\xefve \xff\nx\n"} {
		if got := read(t, filepath.Join(root, name)); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
}

// TestDeletePrunesEmptyDirs pins that a directory a deletion or a move
// leaves empty is removed, and each one above it that it leaves empty, as
// git apply removes them; a directory with anything else in it stays, and
// so does the root.
func TestDeletePrunesEmptyDirs(t *testing.T) {
	root := t.TempDir()
	files(t, root, map[string]string{"a/b/x.txt": "x\n", "c/y.txt": "y\n", "c/z.txt": "z\n", "d/e/m.txt": "m\n", "top.txt": "t\n"})
	plan := "~~~act\ndelete_file a/b/x.txt\n~~~\n~~~act\ndelete_file c/y.txt\n~~~\n" +
		"~~~act\nmove_file d/e/m.txt m.txt\n~~~\n~~~act\ndelete_file top.txt\n~~~\n"
	res, err := Apply(context.Background(), []*ast.Document{parse(t, plan)}, root, Options{})
	if err != nil {
		t.Fatalf("Apply: %v\n%v", err, res)
	}
	var got []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && p != root {
			rel, _ := filepath.Rel(root, p)
			got = append(got, filepath.ToSlash(rel))
		}
		return err
	})
	if want := []string{"c", "c/z.txt", "m.txt"}; !slices.Equal(got, want) {
		t.Errorf("the root holds %q, want %q", got, want)
	}
}
