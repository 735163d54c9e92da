//go:build unix

package workspace

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/sebdah/goldie/v2"

	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/internal/rootfs"
)

// TestSpecialFiles: a named pipe and a device in the workspace are never
// read (no hang on the FIFO, no endless read of /dev/zero), and a file over
// the limit is reported; each rule that needs the content says why it was
// skipped (issue 10).
func TestSpecialFiles(t *testing.T) {
	root := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(root, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(root, "zero")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "big.txt"), []byte(strings.Repeat("x", 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	// A link to /dev/zero leaves the root: check a device inside it too
	// when one can be made (root only).
	dev := ""
	if err := syscall.Mknod(filepath.Join(root, "null"), syscall.S_IFCHR|0o666, 1<<8|3); err == nil {
		dev = "~~~act\npatch_file null\n~~~\n~~~\nx\n~~~\n~~~\ny\n~~~\n"
	}
	plan := "~~~act\npatch_file pipe\n~~~\n~~~\nx\n~~~\n~~~\ny\n~~~\n" +
		"~~~act\nread_file pipe\n~~~\n" +
		"~~~act\npatch_file zero\n~~~\n~~~\nx\n~~~\n~~~\ny\n~~~\n" +
		"~~~act\npatch_file big.txt\n~~~\n~~~\nx\n~~~\n~~~\ny\n~~~\n" +
		"~~~act\nread_file big.txt\n~~~\n"
	doc, err := grammar.Parse(context.Background(), "plan.md", []byte(plan), grammar.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := render("plan.md", Check(context.Background(), doc, root, Options{MaxFileSize: 64}))
	g := goldie.New(t, goldie.WithFixtureDir("../golden/workspace"), goldie.WithNameSuffix(".golden"))
	g.Assert(t, "special_files", got)

	if dev != "" {
		doc, _ := grammar.Parse(context.Background(), "plan.md", []byte(dev), grammar.Options{})
		out := string(render("plan.md", Check(context.Background(), doc, root, Options{})))
		if !strings.Contains(out, "null cannot be checked: it is a character device, not a regular file [file-unreadable]") {
			t.Errorf("device inside the root:\n%s", out)
		}
	}
}

// TestReadRegularRace: readRegularIn itself refuses a FIFO and a device
// without blocking (the open is non-blocking and the type comes from fstat),
// whatever a previous stat said, with both root implementations.
func TestReadRegularRace(t *testing.T) {
	for _, portable := range []bool{false, true} {
		readRegular := func(path string, limit int64) (string, error) {
			root, err := rootfs.Open(filepath.Dir(path), portable)
			if err != nil {
				return "", err
			}
			defer root.Close()
			return readRegularIn(root, filepath.Base(path), limit)
		}
		p := filepath.Join(t.TempDir(), "pipe")
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := readRegular(p, 1<<20); err == nil || !strings.Contains(err.Error(), "named pipe") {
			t.Errorf("portable=%v: FIFO: %v", portable, err)
		}
		if _, err := readRegular("/dev/zero", 1<<20); err == nil || !strings.Contains(err.Error(), "character device") {
			t.Errorf("portable=%v: /dev/zero: %v", portable, err)
		}
		big := filepath.Join(t.TempDir(), "big")
		os.WriteFile(big, make([]byte, 10), 0o644)
		if _, err := readRegular(big, 9); err == nil || !strings.Contains(err.Error(), "10 bytes, more than the limit of 9") {
			t.Errorf("portable=%v: over the limit: %v", portable, err)
		}
		if data, err := readRegular(big, 10); err != nil || data != string(make([]byte, 10)) {
			t.Errorf("portable=%v: at the limit: %q %v", portable, data, err)
		}
	}
}
