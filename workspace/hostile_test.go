//go:build unix

package workspace

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
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

// TestWalkLinear: resolving a path costs its length, not its length
// squared (each missing component used to be joined to the path so far:
// a 160 KB path took minutes). Bytes allocated for 4n components stay
// well under 8 times those for n.
func TestWalkLinear(t *testing.T) {
	c, err := newChecker(t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	alloc := func(n int) uint64 {
		v := strings.Repeat("a/", n) + "x.txt"
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		if w := c.walk(v, false); w.res != walkOK {
			t.Fatal("walk refused a path inside the root")
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	small, big := alloc(5000), alloc(20000)
	if big > 8*small {
		t.Errorf("walk allocated %d bytes for 5000 components and %d for 20000: not linear", small, big)
	}
}

// TestEscapeAfterMissing: `missing/../link/x` comes back to an existing
// directory after a missing one, so the link is resolved on disk: it
// leaves the root (the walk used to take everything after a missing
// component lexically and let it pass).
func TestEscapeAfterMissing(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	if err := os.Symlink(outside, filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	doc, err := grammar.Parse(context.Background(), "plan.md", []byte("~~~act\nwrite_file missing/../link/x.txt\n~~~\n~~~\nx\n~~~\n"), grammar.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := string(render("plan.md", Check(context.Background(), doc, root, Options{})))
	if !strings.Contains(got, `leaves the project root through the symbolic link "missing/../link" [path-escapes-root]`) {
		t.Errorf("got:\n%s", got)
	}
}
