//go:build unix

package workspace

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
)

// TestPathsThroughFiles: a path whose parent is a file (on disk, created
// by an earlier action, or deleted by one), a loop of symbolic links and a
// component longer than the file system allows are errors, never "replaces
// the existing file (0 bytes)" with exit 0; a directory looked at while
// missing and created by a later action is a directory.
func TestPathsThroughFiles(t *testing.T) {
	root := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(root, "file.txt"), []byte("x\n"), 0o644))
	must(os.WriteFile(filepath.Join(root, "old.txt"), []byte("x\n"), 0o644))
	must(os.Symlink("loop2", filepath.Join(root, "loop1")))
	must(os.Symlink("loop1", filepath.Join(root, "loop2")))
	long := strings.Repeat("a", 300)
	act := func(body string) string { return "~~~act\n" + body + "\n~~~\n" }
	write := func(path string) string { return act("write_file "+path) + "~~~\nx\n~~~\n" }
	plan := write("n") + // 1: a new file
		write("n/b") + // under the new file
		write("file.txt/b") + // under a file on disk
		act("delete_file old.txt") +
		write("old.txt/b") + // under a deleted file
		write("loop1/x.txt") + // through a loop
		write("loop1") + // the loop itself
		write(long+"/x.txt") + // a component too long
		act("read_file d") + // missing: file-not-found, cached
		write("d/e") + // creates directory d
		write("d") // d is a directory now
	doc, err := grammar.Parse(context.Background(), "plan.md", []byte(plan), grammar.Options{})
	must(err)
	sim := Simulate(context.Background(), []*ast.Document{doc}, root, Options{})
	got := render("plan.md", sim.Diagnostics[0])
	g := goldie.New(t, goldie.WithFixtureDir("../golden/workspace"), goldie.WithNameSuffix(".golden"))
	g.Assert(t, "paths_through_files", got)
	for _, ch := range sim.Changes {
		if strings.Contains(ch.Path, "/") && ch.Path != "d/e" {
			t.Errorf("a change under a file or an unusable path: %+v", ch)
		}
	}
}
