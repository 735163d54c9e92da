package rootfs

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// TestStatInfoMode: statInfo gives the fs.FileMode os.Lstat gives, type
// and special bits, for a file, a directory, a link, a named pipe and a
// device.
func TestStatInfoMode(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "f")
	os.WriteFile(f, nil, 0o640)
	os.Chmod(f, 0o640|os.ModeSetgid|os.ModeSticky)
	os.Symlink("f", filepath.Join(dir, "l"))
	syscall.Mkfifo(filepath.Join(dir, "p"), 0o600)
	for _, p := range []string{f, dir, filepath.Join(dir, "l"), filepath.Join(dir, "p"), "/dev/null"} {
		fi, err := os.Lstat(p)
		if err != nil {
			t.Fatal(err)
		}
		var st unix.Stat_t
		if err := unix.Lstat(p, &st); err != nil {
			t.Fatal(err)
		}
		if got := statInfo(&st).Mode; got != fi.Mode() {
			t.Errorf("%s: statInfo %v, os.Lstat %v", p, got, fi.Mode())
		}
	}
}
