//go:build unix

package safewrite

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
