package readall

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// TestFileSameAsReadFile reads files around the sizes where the buffer
// changes (the 512-byte minimum, the huge-page threshold) and checks the
// bytes against os.ReadFile.
func TestFileSameAsReadFile(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 511, 512, 513, 4096, hugeMin - 1, hugeMin, hugeMin + 1, 3*hugeMin + 12345} {
		data := make([]byte, n)
		for i := range data {
			data[i] = byte(rng.UintN(256))
		}
		name := filepath.Join(dir, "f")
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := File(name)
		if err != nil {
			t.Fatalf("%d bytes: %v", n, err)
		}
		if !bytes.Equal(got, data) {
			t.Errorf("%d bytes: read %d bytes that differ", n, len(got))
		}
	}
}

// TestFileErrors checks that a missing file and a directory fail as with
// os.ReadFile.
func TestFileErrors(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{filepath.Join(dir, "missing"), dir} {
		_, want := os.ReadFile(name)
		_, got := File(name)
		if want == nil || got == nil || got.Error() != want.Error() {
			t.Errorf("%s: error %v, os.ReadFile %v", name, got, want)
		}
	}
}

// TestFileGrows reads a file whose size is not known in advance (a pipe
// standing for /proc files and FIFOs) past the first buffer.
func TestFileGrows(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	data := bytes.Repeat([]byte("0123456789abcdef"), 10000)
	go func() {
		_, _ = w.Write(data)
		_ = w.Close()
	}()
	got, err := Read(r)
	_ = r.Close()
	if err != nil || !bytes.Equal(got, data) {
		t.Errorf("read %d bytes, err %v; want %d", len(got), err, len(data))
	}
}

// BenchmarkFile reads a 10 MB file, as `plangram check` does, with this
// package and with os.ReadFile. In one process the buffers are soon reused
// memory, so the page faults this package saves show only partly; the
// whole-process figure is BenchmarkProcess (cmd/plangram).
func BenchmarkFile(b *testing.B) {
	name := filepath.Join(b.TempDir(), "f")
	if err := os.WriteFile(name, bytes.Repeat([]byte("x"), 10<<20), 0o644); err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		read func(string) ([]byte, error)
	}{{"readall", File}, {"os.ReadFile", os.ReadFile}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(10 << 20)
			for b.Loop() {
				if _, err := bc.read(name); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
