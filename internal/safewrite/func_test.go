//go:build unix

package safewrite

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// pieces returns a write function that writes n pieces of text and then
// fails with fail, when it is not nil.
func pieces(n int, fail error) func(io.Writer) error {
	return func(w io.Writer) error {
		for i := range n {
			if _, err := io.WriteString(w, strings.Repeat(string(rune('a'+i%26)), 1000)+"\n"); err != nil {
				return err
			}
		}
		return fail
	}
}

// TestWriteFileFunc: the content is streamed into the file (new, replaced,
// in place for several links, a device), and a write function that fails
// leaves the file as it was and no temporary file behind.
func TestWriteFileFunc(t *testing.T) {
	want := func(n int) string {
		var b strings.Builder
		_ = pieces(n, nil)(&b)
		return b.String()
	}
	boom := errors.New("boom")
	dir := t.TempDir()
	p := filepath.Join(dir, "page.html")
	if err := WriteFileFunc(p, pieces(300, nil)); err != nil {
		t.Fatal(err)
	}
	if got := content(t, p); got != want(300) {
		t.Fatalf("new file: %d bytes, want %d", len(got), len(want(300)))
	}
	if err := WriteFileFunc(p, pieces(100, boom)); !errors.Is(err, boom) {
		t.Fatalf("error %v, want one wrapping boom", err)
	}
	if got := content(t, p); got != want(300) {
		t.Fatal("a failing write changed the file")
	}
	noTemp(t, dir)
	if err := WriteFileFunc(p, pieces(2, nil)); err != nil || content(t, p) != want(2) {
		t.Fatalf("replace: %v", err)
	}

	// Several links: written in place, all names see it; a failure
	// changes nothing.
	q := filepath.Join(dir, "other-name.html")
	if err := os.Link(p, q); err != nil {
		t.Skip(err)
	}
	if err := WriteFileFunc(p, pieces(100, boom)); !errors.Is(err, boom) || content(t, q) != want(2) {
		t.Fatalf("in place, failing: %v, %d bytes", err, len(content(t, q)))
	}
	if err := WriteFileFunc(p, pieces(5, nil)); err != nil || content(t, q) != want(5) {
		t.Fatalf("in place: %v", err)
	}
	noTemp(t, dir)

	if err := WriteFileFunc(os.DevNull, pieces(3, nil)); err != nil {
		t.Fatalf("%s: %v", os.DevNull, err)
	}
}

// TestWriteFileFuncStreamsToPipe pins that a pipe (or a device) is
// written as the content is made, not collected first: the reader must
// get the first 128 KiB while the write function is still writing
// (`render -o /dev/null` of a 223 MB page held it all: 788 MB).
func TestWriteFileFuncStreamsToPipe(t *testing.T) {
	p := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skip(err)
	}
	first := make(chan struct{})
	total := make(chan int, 1)
	go func() {
		f, err := os.Open(p)
		if err != nil {
			total <- -1
			return
		}
		defer f.Close()
		buf := make([]byte, 4096)
		n, signalled := 0, false
		for {
			k, err := f.Read(buf)
			n += k
			if n > 0 && !signalled {
				close(first)
				signalled = true
			}
			if err != nil {
				break
			}
		}
		total <- n
	}()
	chunk := strings.Repeat("x", 128<<10)
	err := WriteFileFunc(p, func(w io.Writer) error {
		if _, err := io.WriteString(w, chunk); err != nil {
			return err
		}
		select {
		case <-first:
		case <-time.After(10 * time.Second):
			return errors.New("the reader got nothing while the content was being written: it is collected first")
		}
		_, err := io.WriteString(w, chunk)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if n := <-total; n != 2*len(chunk) {
		t.Fatalf("the reader got %d bytes, want %d", n, 2*len(chunk))
	}
}
