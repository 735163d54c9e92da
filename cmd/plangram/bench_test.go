package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// BenchmarkParseFiles parses n small plans (a directory argument) in one
// process, as `plangram parse DIR` does, at n, 2n and 4n files: the time
// per file stays flat. 725 is the size of a real corpus of small plans.
func BenchmarkParseFiles(b *testing.B) {
	for _, n := range []int{181, 362, 725} {
		dir := b.TempDir()
		for i := range n {
			body := fmt.Sprintf("Step %d:\n\n~~~act\nwrite_file src/f%d.py\n~~~\n~~~python\nprint(%d)\n~~~\n\n~~~act\nrun_command 'python src/f%d.py'\n~~~\n", i, i, i, i)
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("plan%04d.md", i)), []byte(body), 0o644); err != nil {
				b.Fatal(err)
			}
		}
		for _, cmd := range []string{"parse", "check", "fmt"} {
			b.Run(fmt.Sprintf("%s/%d-files", cmd, n), func(b *testing.B) {
				b.ReportAllocs()
				e := &env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard}
				for b.Loop() {
					if code := run(context.Background(), e, []string{cmd, dir}); code != exitOK {
						b.Fatalf("exit %d", code)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/file")
			})
		}
	}
}

// BenchmarkStreamCLI runs `plangram stream` in process on a 10 MB answer
// in the tools syntax (prose, calls, thinking), in one chunk and in
// 20-byte chunks: parsing, event JSON and the buffered output together.
// writes/op counts the writes to standard output.
func BenchmarkStreamCLI(b *testing.B) {
	unit := "Let me look at the code first, then fix the <b>bug</b> in a->b.\n\n" +
		"<read_file>\n<path>src/main.go</path>\n</read_file>\n\n" +
		"<thinking>The loop is off by one: i < n - 1 should be i < n.</thinking>\n" +
		"<replace_in_file>\n<path>src/main.go</path>\n<diff>\n<<<<<<< SEARCH\nfor i := 0; i < n-1; i++ {\n=======\nfor i := 0; i < n; i++ {\n>>>>>>> REPLACE\n</diff>\n</replace_in_file>\n\n"
	in := strings.Repeat(unit, (10<<20)/len(unit)+1)
	for _, bc := range []struct {
		name  string
		chunk int
	}{{"one-chunk", len(in)}, {"20-byte-chunks", 20}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			out := &writeCounter{}
			for b.Loop() {
				*out = writeCounter{}
				e := &env{stdin: strings.NewReader(in), stdout: out, stderr: io.Discard}
				if code := run(context.Background(), e, []string{"stream", "--chunk", strconv.Itoa(bc.chunk)}); code != exitOK {
					b.Fatalf("exit %d", code)
				}
			}
			b.ReportMetric(float64(out.writes), "writes/op")
			b.ReportMetric(float64(out.bytes), "out-bytes/op")
		})
	}
}

// writeCounter counts the writes and bytes written to it.
type writeCounter struct{ writes, bytes int }

func (w *writeCounter) Write(p []byte) (int, error) {
	w.writes++
	w.bytes += len(p)
	return len(p), nil
}
