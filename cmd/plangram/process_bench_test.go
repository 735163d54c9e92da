package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/plangram/plangram/internal/testkit/corpus"
)

// BenchmarkProcess runs whole processes on a 10 MB acts document
// (corpus.Acts), side by side in one run: `plangram check` (also of 10 MB
// of small actions, corpus.SmallActs, and of a 10 MB plan, corpus.Plan), `plangram
// parse --format json` and, as the baseline, a program that reads the file
// and walks goldmark's tree to every fenced block (testdata/goldmarkwalk);
// `check` of an empty file gives the fixed cost of starting plangram.
// Besides the wall time per op it reports the CPU time of the child
// (cpu-ms/op, user plus system, steadier than wall time on a loaded
// machine) and, where /usr/bin/time is installed, its peak resident memory
// (peak-MiB, the largest of the ops) and that peak over the input size
// (peak-x). Both programs are built first (go build).
func BenchmarkProcess(b *testing.B) {
	if testing.Short() {
		b.Skip("builds binaries; skipped in -short mode")
	}
	dir := b.TempDir()
	plangram := filepath.Join(dir, "plangram")
	walk := filepath.Join(dir, "goldmarkwalk")
	for out, pkg := range map[string]string{plangram: ".", walk: "./testdata/goldmarkwalk"} {
		cmd := exec.Command("go", "build", "-o", out, pkg)
		cmd.Stderr = os.Stderr
		if err := cmd.Run(); err != nil {
			b.Fatalf("go build %s: %v", pkg, err)
		}
	}
	src := corpus.Acts(10 << 20)
	input := filepath.Join(dir, "acts10.md")
	empty := filepath.Join(dir, "empty.md")
	if err := os.WriteFile(input, src, 0o644); err != nil {
		b.Fatal(err)
	}
	small := corpus.SmallActs(10 << 20)
	smallInput := filepath.Join(dir, "small10.md")
	if err := os.WriteFile(smallInput, small, 0o644); err != nil {
		b.Fatal(err)
	}
	plan := corpus.Plan(10 << 20)
	planInput := filepath.Join(dir, "plan10.md")
	if err := os.WriteFile(planInput, plan, 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		b.Fatal(err)
	}
	rootDir := b.TempDir()
	devNull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer devNull.Close()
	// Peak memory comes from /usr/bin/time (GNU time's %M, KiB) when it is
	// installed: the rusage Go's os/exec returns is no use for it, as the
	// child is started with vfork and its peak counts this process's.
	timeCmd, rssFile := "", filepath.Join(dir, "rss")
	if _, err := os.Stat("/usr/bin/time"); err == nil {
		timeCmd = "/usr/bin/time"
	}
	for _, bc := range []struct {
		name string
		size int
		argv []string
	}{
		{"goldmark-walk", len(src), []string{walk, input}},
		{"check", len(src), []string{plangram, "check", input}},
		{"check-small-actions", len(small), []string{plangram, "check", smallInput}},
		{"check-plan", len(plan), []string{plangram, "check", planInput}},
		{"parse-json", len(src), []string{plangram, "parse", "--format", "json", input}},
		{"check-empty", 0, []string{plangram, "check", empty}},
		// With an empty workspace root: the workspace rules keep a
		// state per file the plan names (158k files for SmallActs).
		{"check-root", len(src), []string{plangram, "check", "--root", rootDir, input}},
		{"check-root-small-actions", len(small), []string{plangram, "check", "--root", rootDir, smallInput}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(bc.size))
			var cpu time.Duration
			var peak int64
			for b.Loop() {
				argv := bc.argv
				if timeCmd != "" {
					argv = append([]string{timeCmd, "-f", "%M", "-o", rssFile}, argv...)
				}
				cmd := exec.Command(argv[0], argv[1:]...)
				cmd.Stdout = devNull
				if err := cmd.Run(); err != nil {
					if _, ok := err.(*exec.ExitError); !ok || bc.name == "goldmark-walk" {
						b.Fatalf("%v: %v", bc.argv, err)
					}
				}
				// The rusage of a child includes its waited-for children.
				cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
				if timeCmd != "" {
					kib, err := readKiB(rssFile)
					if err != nil {
						b.Fatal(err)
					}
					peak = max(peak, kib)
				}
			}
			b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
			if peak > 0 {
				b.ReportMetric(float64(peak)/1024, "peak-MiB")
				if bc.size > 0 {
					b.ReportMetric(float64(peak*1024)/float64(bc.size), "peak-x")
				}
			}
		})
	}
}

// readKiB reads the last number GNU time wrote to file (a child's exit
// status line, if any, comes first).
func readKiB(file string) (int64, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return 0, err
	}
	fields := strings.Fields(string(data))
	if len(fields) == 0 {
		return 0, fmt.Errorf("%s: empty", file)
	}
	return strconv.ParseInt(fields[len(fields)-1], 10, 64)
}
