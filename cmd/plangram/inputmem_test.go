package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/plangram/plangram/internal/readall"
)

// TestInputArenaReadsExactly pins inputArena.read to os.ReadFile: the same
// bytes for files below and above minArenaFile (read outside the heap),
// an empty file and a device, and the same errors.
func TestInputArenaReadsExactly(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for _, n := range []int{0, 1, 4095, minArenaFile - 1, minArenaFile, minArenaFile + 4097, readall.HugeMin + hugePage + 4097} {
		data := make([]byte, n)
		for i := range data {
			data[i] = byte(i*7 + i>>8)
		}
		f := filepath.Join(dir, "f"+string(rune('a'+len(files))))
		if err := os.WriteFile(f, data, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	files = append(files, os.DevNull)
	a := &inputArena{}
	defer a.release()
	for _, f := range files {
		want, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		got, err := a.read(f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%s: read %d bytes, want %d, or different bytes", f, len(got), len(want))
		}
	}
	for _, f := range []string{filepath.Join(dir, "missing"), dir} {
		_, want := os.ReadFile(f)
		_, got := a.read(f)
		if want == nil || got == nil || got.Error() != want.Error() {
			t.Errorf("%s: error %v, want %v", f, got, want)
		}
	}
}
