package main

import (
	"bytes"
	"io"
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

// TestInputArenaReadsStreams pins inputArena.readStream to io.ReadAll: the
// same bytes for streams below, at and above minArenaFile and across
// several streamChunk pieces, read in odd-sized pieces as a pipe gives
// them, and for a regular file given as standard input from an offset.
func TestInputArenaReadsStreams(t *testing.T) {
	a := &inputArena{}
	defer a.release()
	for _, n := range []int{0, 1, minArenaFile, minArenaFile + 1, minArenaFile + streamChunk, minArenaFile + 2*streamChunk + 12345} {
		data := make([]byte, n)
		for i := range data {
			data[i] = byte(i*13 + i>>9)
		}
		got, err := a.readStream(&oddReader{data: data})
		if err != nil {
			t.Fatalf("%d bytes: %v", n, err)
		}
		if !bytes.Equal(got, data) {
			t.Fatalf("%d bytes: read %d, or different bytes", n, len(got))
		}
	}
	data := bytes.Repeat([]byte("0123456789abcdef"), (minArenaFile+streamChunk)/16)
	name := filepath.Join(t.TempDir(), "in")
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Seek(5, 0); err != nil {
		t.Fatal(err)
	}
	got, err := a.readStream(f)
	if err != nil || !bytes.Equal(got, data[5:]) {
		t.Fatalf("a file from offset 5: %d bytes, %v", len(got), err)
	}
}

// oddReader gives its data in pieces of 1 to 70,000 bytes.
type oddReader struct {
	data []byte
	k    int
}

func (r *oddReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	r.k++
	n := min(len(p), len(r.data), 1+r.k*7919%70000)
	copy(p, r.data[:n])
	r.data = r.data[n:]
	return n, nil
}
