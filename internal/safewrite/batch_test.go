package safewrite

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestBatch: staged writes change nothing until their Commit; Sync, Commit
// and SyncDirs put them in place keeping modes and hard links; Abort
// removes what was not committed; Create refuses an existing path.
func TestBatch(t *testing.T) {
	dir := t.TempDir()
	a, linked, other := filepath.Join(dir, "a.txt"), filepath.Join(dir, "l.txt"), filepath.Join(dir, "l2.txt")
	os.WriteFile(a, []byte("old a\n"), 0o640)
	os.WriteFile(linked, []byte("old l\n"), 0o644)
	if err := os.Link(linked, other); err != nil {
		t.Fatal(err)
	}
	var b Batch
	sa, err := b.Write(a, []byte("new a\n"))
	if err != nil {
		t.Fatal(err)
	}
	sl, err := b.Write(linked, []byte("new l\n"))
	if err != nil {
		t.Fatal(err)
	}
	sn, err := b.Create(filepath.Join(dir, "n.txt"), []byte("new n\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Create(a, nil, nil); !errors.Is(err, fs.ErrExist) {
		t.Errorf("Create over an existing file: %v", err)
	}
	if got := content(t, a); got != "old a\n" {
		t.Errorf("staged write visible before Commit: %q", got)
	}
	if err := b.Sync(); err != nil {
		t.Fatal(err)
	}
	for _, s := range []*Staged{sa, sl, sn} {
		if err := s.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	if err := sa.Commit(); err == nil {
		t.Error("a second Commit succeeded")
	}
	if err := b.SyncDirs(); err != nil {
		t.Fatal(err)
	}
	b.Abort()
	for p, want := range map[string]string{a: "new a\n", linked: "new l\n", other: "new l\n", filepath.Join(dir, "n.txt"): "new n\n"} {
		if got := content(t, p); got != want {
			t.Errorf("%s = %q, want %q", p, got, want)
		}
	}
	if fi, _ := os.Stat(a); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v not kept", fi.Mode())
	}
	noTemp(t, dir)

	var ab Batch
	if _, err := ab.Write(a, []byte("never\n")); err != nil {
		t.Fatal(err)
	}
	ab.Abort()
	if got := content(t, a); got != "new a\n" {
		t.Errorf("aborted write visible: %q", got)
	}
	noTemp(t, dir)
}
