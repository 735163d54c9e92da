//go:build unix

package safewrite

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRewrite: an unchanged file is replaced (mode kept, no temporary file
// left); a file changed, replaced, removed or swapped for a symbolic link
// between the read and the rename (the hook) is refused with ErrChanged and
// keeps what the other process made of it.
func TestRewrite(t *testing.T) {
	const old, data = "old\n", "new\n"
	for _, tc := range []struct {
		name  string
		race  func(t *testing.T, p string)
		after string // the file's content afterwards ("" for none)
	}{
		{"unchanged", nil, data},
		{"edited", func(t *testing.T, p string) {
			os.WriteFile(p, []byte("old\nedit\n"), 0o600)
		}, "old\nedit\n"},
		{"same size, another content", func(t *testing.T, p string) {
			f, _ := os.OpenFile(p, os.O_WRONLY, 0)
			f.WriteString("OLD\n")
			f.Close()
		}, "OLD\n"},
		{"replaced by an equal file", func(t *testing.T, p string) {
			q := p + ".other"
			os.WriteFile(q, []byte(old), 0o600)
			os.Rename(q, p)
		}, old},
		{"removed", func(t *testing.T, p string) { os.Remove(p) }, ""},
		{"swapped for a link", func(t *testing.T, p string) {
			os.Remove(p)
			os.Symlink("victim.txt", p)
		}, "victim\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "plan.md")
			if err := os.WriteFile(p, []byte(old), 0o600); err != nil {
				t.Fatal(err)
			}
			os.WriteFile(filepath.Join(dir, "victim.txt"), []byte("victim\n"), 0o644)
			var hook func()
			if tc.race != nil {
				hook = func() { tc.race(t, p) }
			}
			err := Rewrite(p, []byte(old), []byte(data), hook)
			if tc.race == nil && err != nil || tc.race != nil && !errors.Is(err, ErrChanged) {
				t.Fatalf("Rewrite: %v", err)
			}
			if err != nil && !strings.Contains(err.Error(), p) {
				t.Errorf("the error does not name the file: %v", err)
			}
			got, _ := os.ReadFile(p)
			if string(got) != tc.after {
				t.Errorf("afterwards %q, want %q", got, tc.after)
			}
			if v, _ := os.ReadFile(filepath.Join(dir, "victim.txt")); string(v) != "victim\n" {
				t.Errorf("the link's target was written: %q", v)
			}
			if fi, err := os.Stat(p); tc.race == nil && (err != nil || fi.Mode().Perm() != 0o600) {
				t.Errorf("mode not kept: %v %v", fi, err)
			}
			noTemp(t, dir)
		})
	}
}

// TestRewriteHardLinked: a file with two hard links is written in place
// (both names see the new content) and refused the same way when changed.
func TestRewriteHardLinked(t *testing.T) {
	dir := t.TempDir()
	p, q := filepath.Join(dir, "a.md"), filepath.Join(dir, "b.md")
	os.WriteFile(p, []byte("old\n"), 0o644)
	if err := os.Link(p, q); err != nil {
		t.Skip(err)
	}
	if err := Rewrite(p, []byte("old\n"), []byte("new\n"), nil); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(q); string(got) != "new\n" {
		t.Errorf("the other link sees %q", got)
	}
	err := Rewrite(p, []byte("new\n"), []byte("newer\n"), func() { os.WriteFile(q, []byte("edit\n"), 0o644) })
	if !errors.Is(err, ErrChanged) {
		t.Fatalf("Rewrite of a changed hard-linked file: %v", err)
	}
	if got, _ := os.ReadFile(p); string(got) != "edit\n" {
		t.Errorf("the edit was lost: %q", got)
	}
}

// TestRewriteDirSwapped: the file's directory swapped for a symbolic link
// to another directory between the read and the rename does not redirect
// the write: the directory was opened once, and nothing is written in the
// directory the link points at.
func TestRewriteDirSwapped(t *testing.T) {
	base, outside := t.TempDir(), t.TempDir()
	dir := filepath.Join(base, "plans")
	os.Mkdir(dir, 0o755)
	p := filepath.Join(dir, "plan.md")
	os.WriteFile(p, []byte("old\n"), 0o644)
	os.WriteFile(filepath.Join(outside, "plan.md"), []byte("old\n"), 0o644)
	err := Rewrite(p, []byte("old\n"), []byte("new\n"), func() {
		os.Rename(dir, filepath.Join(base, "moved"))
		os.Symlink(outside, dir)
	})
	if err != nil {
		t.Fatal(err) // the file itself is unchanged, in the directory that was opened
	}
	if got, _ := os.ReadFile(filepath.Join(outside, "plan.md")); string(got) != "old\n" {
		t.Errorf("the write went through the swapped directory: %q", got)
	}
	if got, _ := os.ReadFile(filepath.Join(base, "moved", "plan.md")); string(got) != "new\n" {
		t.Errorf("the file in the directory opened holds %q", got)
	}
	noTemp(t, outside)
}

// TestRewriteLongName: a name of 255 bytes, the most the file system
// allows, is rewritten (the temporary name has a fixed length; a
// temporary name built from the file's was too long).
func TestRewriteLongName(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, strings.Repeat("n", 252)+".md")
	if err := os.WriteFile(p, []byte("old\n"), 0o644); err != nil {
		t.Skip(err)
	}
	if err := Rewrite(p, []byte("old\n"), []byte("new\n"), nil); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(p); string(got) != "new\n" {
		t.Errorf("%q", got)
	}
}
