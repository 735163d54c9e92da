//go:build unix

package workspace

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
)

// symlinkRoot makes a root with real.txt, sub/file.txt and the links
// dead -> real.txt, lnk2 -> sub/file.txt and out -> a directory outside.
func symlinkRoot(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Mkdir(filepath.Join(root, "sub"), 0o755))
	must(os.WriteFile(filepath.Join(root, "real.txt"), []byte("hello\n"), 0o644))
	must(os.WriteFile(filepath.Join(root, "sub", "file.txt"), []byte("in sub\n"), 0o644))
	must(os.Symlink("real.txt", filepath.Join(root, "dead")))
	must(os.Symlink("sub/file.txt", filepath.Join(root, "lnk2")))
	must(os.Symlink(t.TempDir(), filepath.Join(root, "out")))
	return root
}

// TestSymlinkEntries: a delete or a move of a symbolic link, in every
// dialect that has them, acts on the link itself: the changes are the
// link's (Change.Link), its target is left alone, and no error is given
// (they used to delete and move the target, "D real.txt").
func TestSymlinkEntries(t *testing.T) {
	for _, tc := range []struct {
		dialect, plan string
	}{
		{grammar.DialectActs, "~~~act\ndelete_file dead\n~~~\n\n~~~act\nmove_file lnk2 moved.txt\n~~~\n\n~~~act\ndelete_file out\n~~~\n"},
		{grammar.DialectApplyPatch, "*** Begin Patch\n*** Delete File: dead\n*** Update File: lnk2\n*** Move to: moved.txt\n*** Delete File: out\n*** End Patch\n"},
		{grammar.DialectUdiff, "diff --git a/dead b/dead\ndeleted file mode 120000\n--- a/dead\n+++ /dev/null\n@@ -1 +0,0 @@\n-real.txt\n\\ No newline at end of file\n" +
			"diff --git a/lnk2 b/moved.txt\nsimilarity index 100%\nrename from lnk2\nrename to moved.txt\n" +
			"diff --git a/out b/out\ndeleted file mode 120000\n--- a/out\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n\\ No newline at end of file\n"},
	} {
		t.Run(tc.dialect, func(t *testing.T) {
			root := symlinkRoot(t)
			outTarget, _ := os.Readlink(filepath.Join(root, "out"))
			doc, err := grammar.Parse(context.Background(), "plan.md", []byte(tc.plan), grammar.Options{Dialect: tc.dialect})
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range doc.Diagnostics {
				if d.Severity == ast.Error {
					t.Fatalf("parse: %s", d.Format("plan.md"))
				}
			}
			sim := Simulate(context.Background(), []*ast.Document{doc}, root, Options{Strict: true})
			for _, d := range sim.Diagnostics[0] {
				if d.Severity == ast.Error {
					t.Errorf("error: %s", d.Format("plan.md"))
				}
			}
			want := map[string]Change{
				"dead":      {Path: "dead", Existed: true, OldKnown: true, Link: "real.txt"},
				"lnk2":      {Path: "lnk2", Existed: true, OldKnown: true, Link: "sub/file.txt"},
				"moved.txt": {Path: "moved.txt", Exists: true, NewKnown: true, Link: "sub/file.txt", MovedFrom: "lnk2"},
				"out":       {Path: "out", Existed: true, OldKnown: true, Link: outTarget},
			}
			if len(sim.Changes) != len(want) {
				t.Errorf("%d changes, want %d: %+v", len(sim.Changes), len(want), sim.Changes)
			}
			for _, ch := range sim.Changes {
				w, ok := want[ch.Path]
				ch.Action, ch.Doc = nil, 0
				if !ok || ch != w {
					t.Errorf("change %+v, want %+v", ch, w)
				}
			}
		})
	}
}

// TestBeyondSymlinkChecker: the simulation refuses an edit of a link and
// lets a rename of one (no hunks) move the link.
func TestBeyondSymlinkChecker(t *testing.T) {
	root := symlinkRoot(t)
	plan := "*** Begin Patch\n*** Update File: dead\n@@\n-hello\n+bye\n*** Update File: lnk2\n*** Move to: moved.txt\n*** End Patch\n"
	src := []byte(plan)
	doc, err := grammar.Parse(context.Background(), "plan.md", src, grammar.Options{Dialect: grammar.DialectApplyPatch})
	if err != nil {
		t.Fatal(err)
	}
	sim := Simulate(context.Background(), []*ast.Document{doc}, root, Options{Source: src})
	var got []string
	for _, d := range sim.Diagnostics[0] {
		got = append(got, d.Code)
	}
	if strings.Join(got, ",") != CodeBeyondSymlink {
		t.Errorf("codes %v, want one %s", got, CodeBeyondSymlink)
	}
	var paths []string
	for _, ch := range sim.Changes {
		paths = append(paths, ch.Path+"="+ch.Link)
	}
	if strings.Join(paths, " ") != "lnk2=sub/file.txt moved.txt=sub/file.txt" {
		t.Errorf("changes %v", paths)
	}
}

// TestReadsStayInRoot: a directory swapped for a symbolic link to a
// directory outside the root after the walk resolved the path (the race of
// a concurrent process) does not make the checker read the file outside:
// every read goes through the handle on the root (os.Root).
func TestReadsStayInRoot(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Mkdir(filepath.Join(root, "d"), 0o755))
	must(os.WriteFile(filepath.Join(root, "d", "x.txt"), []byte("inside\n"), 0o644))
	must(os.WriteFile(filepath.Join(outside, "x.txt"), []byte("secret\n"), 0o644))
	c, err := newChecker(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.fsys.Close()
	if w := c.walk("d/x.txt", false); w.res != walkOK || w.rel != "d/x.txt" {
		t.Fatalf("walk: %+v", w)
	}
	must(os.RemoveAll(filepath.Join(root, "d")))
	must(os.Symlink(outside, filepath.Join(root, "d")))
	if f := c.file("d/x.txt"); f.known && strings.Contains(f.content, "secret") {
		t.Errorf("the checker read the file outside the root through the swapped directory: %q", f.content)
	}
}

// TestNameMaxOfRoot: the name limit is the root's file system's (statfs
// on Linux, 255 where it cannot be asked), and a name up to it passes: a
// checker whose file system allowed 10 bytes refuses an 11-byte name and
// takes a 10-byte one.
func TestNameMaxOfRoot(t *testing.T) {
	root := t.TempDir()
	if n := nameMax(root); n < 14 || n > 1<<16 {
		t.Errorf("nameMax(%s) = %d", root, n)
	}
	if n := nameMax(filepath.Join(root, "missing")); n != defaultNameMax && n != nameMax(root) {
		t.Errorf("nameMax of a missing directory = %d", n)
	}
	c, err := newChecker(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.fsys.Close()
	c.nameMax = 10
	tooLong := func(v string) *ast.Diagnostic {
		c.diags = nil
		p := pathArg{param: "path", value: v, span: &ast.Span{}}
		c.resolvePath(&p, &ast.Action{Name: "READ"}, true)
		for _, d := range c.diags {
			if d.Code == CodeNameTooLong {
				return d
			}
		}
		return nil
	}
	if d := tooLong("dir/" + strings.Repeat("x", 11)); d == nil || !strings.Contains(d.Message, "is 11 bytes long") {
		t.Errorf("an 11-byte name passed a 10-byte limit: %v", d)
	}
	if d := tooLong(strings.Repeat("x", 10) + "/" + strings.Repeat("y", 10)); d != nil {
		t.Errorf("names of 10 bytes refused under a 10-byte limit: %s", d.Message)
	}
}
