//go:build unix

package rootfs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
)

// TestDirRules: with both implementations, nothing is reached through a
// symbolic link (a directory on the way, a file opened), Open writes the
// file itself, Remove and Rmdir take only their own kind of entry, and a
// rename that must not replace does not.
func TestDirRules(t *testing.T) {
	for _, portable := range []bool{false, true} {
		t.Run(fmt.Sprintf("portable=%v", portable), func(t *testing.T) {
			root, outside := t.TempDir(), t.TempDir()
			os.Mkdir(filepath.Join(root, "sub"), 0o755)
			os.Mkdir(filepath.Join(root, "sub", "dir"), 0o755)
			os.WriteFile(filepath.Join(root, "sub", "f.txt"), []byte("old"), 0o644)
			os.WriteFile(filepath.Join(outside, "secret"), []byte("secret"), 0o644)
			os.Symlink(outside, filepath.Join(root, "out"))
			os.Symlink(filepath.Join(outside, "secret"), filepath.Join(root, "sub", "link"))
			r, err := Open(root, portable)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if _, err := r.Dir("out"); !errors.Is(err, ErrSymlink) {
				t.Errorf("Dir through a link: %v", err)
			}
			if _, err := r.Dir("sub/../.."); err == nil {
				t.Error("Dir above the root: no error")
			}
			err = WithDir(r, "sub", func(d Dir) error {
				if f, _, err := d.Open("link", os.O_RDWR); !errors.Is(err, ErrSymlink) {
					if f != nil {
						f.Close()
					}
					t.Errorf("Open of a link: %v", err)
				}
				f, info, err := d.Open("f.txt", os.O_RDWR)
				if err != nil || f == nil || info.Size != 3 {
					t.Fatalf("Open: %v %v", err, info)
				}
				f.WriteAt([]byte("new"), 0)
				f.Close()
				if err := d.Remove("dir"); err == nil {
					t.Error("Remove of a directory: no error")
				}
				if err := d.Rmdir("f.txt"); err == nil {
					t.Error("Rmdir of a file: no error")
				}
				if err := d.Rename("link", "f.txt", true); !errors.Is(err, fs.ErrExist) {
					t.Errorf("Rename over an entry with noReplace: %v", err)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if b, _ := os.ReadFile(filepath.Join(root, "sub", "f.txt")); string(b) != "new" {
				t.Errorf("f.txt = %q", b)
			}
			if b, _ := os.ReadFile(filepath.Join(outside, "secret")); string(b) != "secret" {
				t.Errorf("written through the link: %q", b)
			}
		})
	}
}

// TestOpenRead: with both implementations, OpenRead reads a regular file
// by its path from the root, refuses a symbolic link on the way or at the
// end and a path out of the root, and opens a named pipe without blocking
// and without a reader.
func TestOpenRead(t *testing.T) {
	for _, portable := range []bool{false, true} {
		root, outside := t.TempDir(), t.TempDir()
		os.MkdirAll(filepath.Join(root, "a", "b"), 0o755)
		os.WriteFile(filepath.Join(root, "a", "b", "f.txt"), []byte("inside"), 0o644)
		os.WriteFile(filepath.Join(outside, "secret"), []byte("secret"), 0o644)
		os.Symlink(outside, filepath.Join(root, "out"))
		os.Symlink("b/f.txt", filepath.Join(root, "a", "link"))
		syscall.Mkfifo(filepath.Join(root, "a", "pipe"), 0o644)
		r, err := Open(root, portable)
		if err != nil {
			t.Fatal(err)
		}
		f, info, err := r.OpenRead("a/b/f.txt")
		if err != nil || f == nil || info.Size != 6 {
			t.Fatalf("portable=%v: OpenRead: %v %v", portable, err, info)
		}
		if b, err := io.ReadAll(f); string(b) != "inside" || err != nil {
			t.Errorf("portable=%v: read %q %v", portable, b, err)
		}
		f.Close()
		for _, rel := range []string{"out/secret", "a/link", "a/../../" + filepath.Base(outside) + "/secret"} {
			if f, _, err := r.OpenRead(rel); err == nil {
				f.Close()
				t.Errorf("portable=%v: OpenRead(%q): no error", portable, rel)
			}
		}
		if f, info, err := r.OpenRead("a/pipe"); f != nil || err != nil || info.Mode&fs.ModeNamedPipe == 0 {
			t.Errorf("portable=%v: OpenRead of a named pipe: %v %v %v", portable, f, info.Mode, err)
		}
		r.Close()
	}
}

// TestNames: with both implementations, Names lists a directory's entries
// without "." and "..", at most n of them.
func TestNames(t *testing.T) {
	for _, portable := range []bool{false, true} {
		root := t.TempDir()
		for _, n := range []string{"a", "b", "c"} {
			os.WriteFile(filepath.Join(root, n), nil, 0o644)
		}
		r, err := Open(root, portable)
		if err != nil {
			t.Fatal(err)
		}
		err = WithDir(r, "", func(d Dir) error {
			all, err := d.Names(10)
			slices.Sort(all)
			if err != nil || !slices.Equal(all, []string{"a", "b", "c"}) {
				t.Errorf("portable=%v: Names(10) = %q, %v", portable, all, err)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		WithDir(r, "", func(d Dir) error {
			if two, err := d.Names(2); len(two) != 2 || err != nil {
				t.Errorf("portable=%v: Names(2) = %q, %v", portable, two, err)
			}
			return nil
		})
		r.Close()
	}
}
