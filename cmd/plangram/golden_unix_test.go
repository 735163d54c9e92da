//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestGoldenSpecialFiles: a named pipe with a reply's name is an error
// for it alone, never read (no hang), and so is an input that cannot be
// read; the other replies are still checked.
func TestGoldenSpecialFiles(t *testing.T) {
	dir := tree(t, map[string]string{"a.md": okActs, "locked/b.md": okActs})
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := runCLI(t, "", "test", "--update", dir)
	if code != exitUsage || !strings.Contains(stderr, "pipe.md: not a regular file") || !strings.Contains(out, "a.md: updated") {
		t.Errorf("fifo: exit %d, %q, %q", code, out, stderr)
	}
	if os.Geteuid() == 0 {
		t.Skip("root reads a file of mode 0")
	}
	if err := os.Chmod(filepath.Join(dir, "locked/b.md"), 0); err != nil {
		t.Fatal(err)
	}
	code, out, stderr = runCLI(t, "", "test", dir)
	if code != exitUsage || !strings.Contains(stderr, "b.md") || !strings.HasSuffix(out, "3 files, 0 changed\n") {
		t.Errorf("unreadable: exit %d, %q, %q", code, out, stderr)
	}
}
