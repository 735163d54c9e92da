//go:build unix

package safewrite

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func stat(t *testing.T, path string) *syscall.Stat_t {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Sys().(*syscall.Stat_t)
}

func content(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// noTemp fails when a temporary file was left in dir.
func noTemp(t *testing.T, dir string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if strings.Contains(e.Name(), ".plangram-") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
}

func TestNewFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "new.txt")
	if err := WriteFile(p, []byte("hello\n")); err != nil {
		t.Fatal(err)
	}
	if got := content(t, p); got != "hello\n" {
		t.Errorf("content %q", got)
	}
	old := syscall.Umask(0)
	syscall.Umask(old)
	fi, _ := os.Stat(p)
	if want := fs.FileMode(0o644) &^ fs.FileMode(old); fi.Mode().Perm() != want {
		t.Errorf("mode %v, want %v (0644 minus umask %03o)", fi.Mode().Perm(), want, old)
	}
	noTemp(t, dir)
}

func TestReplaceKeepsOwnerGroupMode(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give the file to another user")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "owned.txt")
	if err := os.WriteFile(p, []byte("old\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(p, 4321, 8765); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, 0o640|fs.ModeSetgid); err != nil {
		t.Fatal(err)
	}
	ino := stat(t, p).Ino
	if err := WriteFile(p, []byte("new\n")); err != nil {
		t.Fatal(err)
	}
	st := stat(t, p)
	if st.Uid != 4321 || st.Gid != 8765 {
		t.Errorf("owner %d:%d, want 4321:8765", st.Uid, st.Gid)
	}
	fi, _ := os.Stat(p)
	if fi.Mode()&(fs.ModePerm|fs.ModeSetgid) != 0o640|fs.ModeSetgid {
		t.Errorf("mode %v, want g+s 0640", fi.Mode())
	}
	if st.Ino == ino {
		t.Errorf("file was written in place, want an atomic rename (new inode)")
	}
	if got := content(t, p); got != "new\n" {
		t.Errorf("content %q", got)
	}
	noTemp(t, dir)
}

func TestReadOnlyRefused(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "ro.txt")
	if err := os.WriteFile(p, []byte("keep\n"), 0o444); err != nil {
		t.Fatal(err)
	}
	err := WriteFile(p, []byte("changed\n"))
	if !errors.Is(err, ErrReadOnly) {
		t.Fatalf("err = %v, want ErrReadOnly", err)
	}
	if !strings.Contains(err.Error(), "read-only") || !strings.Contains(err.Error(), "0444") {
		t.Errorf("message %q should say read-only and the mode", err)
	}
	if got := content(t, p); got != "keep\n" {
		t.Errorf("read-only file changed: %q", got)
	}
	noTemp(t, dir)
}

func TestHardLinksKept(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")
	if err := os.WriteFile(a, []byte("a long old content\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(a, b); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(a, []byte("short\n")); err != nil {
		t.Fatal(err)
	}
	if got := content(t, b); got != "short\n" {
		t.Errorf("other link sees %q, want the new content (link split?)", got)
	}
	if sa, sb := stat(t, a), stat(t, b); sa.Ino != sb.Ino || sa.Nlink != 2 {
		t.Errorf("links split: inodes %d %d, nlink %d", sa.Ino, sb.Ino, sa.Nlink)
	}
	noTemp(t, dir)
}

func TestSymlinkFollowed(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target.txt")
	link := filepath.Join(dir, "link.txt")
	if err := os.WriteFile(target, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("target.txt", link); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(link, []byte("new\n")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("link replaced by a file: %v %v", fi.Mode(), err)
	}
	if got := content(t, target); got != "new\n" {
		t.Errorf("target %q", got)
	}
	// A dangling link creates the file it names.
	dangling := filepath.Join(dir, "dangling")
	if err := os.Symlink("made.txt", dangling); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(dangling, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if got := content(t, filepath.Join(dir, "made.txt")); got != "x" {
		t.Errorf("dangling link target %q", got)
	}
	// A loop is an error, not a hang.
	loop := filepath.Join(dir, "loop")
	if err := os.Symlink("loop", loop); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(loop, []byte("x")); err == nil {
		t.Error("symlink loop: no error")
	}
	noTemp(t, dir)
}

func TestDevNull(t *testing.T) {
	if err := WriteFile(os.DevNull, []byte("discarded")); err != nil {
		t.Fatalf("/dev/null: %v", err)
	}
	if fi, err := os.Stat(os.DevNull); err != nil || fi.Mode()&fs.ModeCharDevice == 0 {
		t.Fatalf("/dev/null is no longer a device: %v %v", fi, err)
	}
}

func TestFIFO(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 1)
	go func() {
		f, err := os.Open(p)
		if err != nil {
			got <- err.Error()
			return
		}
		defer f.Close()
		b, _ := io.ReadAll(f)
		got <- string(b)
	}()
	if err := WriteFile(p, []byte("through the pipe")); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "through the pipe" {
		t.Errorf("reader got %q", s)
	}
	if fi, err := os.Lstat(p); err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
		t.Errorf("FIFO replaced: %v %v", fi, err)
	}
}

func TestDirectoryRefused(t *testing.T) {
	dir := t.TempDir()
	if err := WriteFile(dir, []byte("x")); err == nil || !strings.Contains(err.Error(), "directory") {
		t.Errorf("err = %v, want 'is a directory'", err)
	}
}

func TestMissingDirectory(t *testing.T) {
	dir := t.TempDir()
	err := WriteFile(filepath.Join(dir, "no", "such.txt"), []byte("x"))
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("err = %v, want ErrNotExist", err)
	}
}
