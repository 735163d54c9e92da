package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
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
