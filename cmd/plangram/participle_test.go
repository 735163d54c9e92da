package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestParticipleRunsInProduction builds plangram with coverage of the
// participle module and parses examples/acts.md and examples/plan.md with
// it, each in a run of its own: participle's parser runs for each
// (ParseFromLexer, the rules' struct, group and reference nodes execute),
// so the grammars in grammar/acts.go and grammar/plan.go are what read the
// documents, not a hand-written pass beside them.
func TestParticipleRunsInProduction(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary with coverage; skipped in -short mode")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "plangram")
	// The main package is instrumented too: without it the binary writes
	// no coverage data.
	build := exec.Command("go", "build", "-cover", "-coverpkg=github.com/alecthomas/participle/v2,.", "-o", bin, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		t.Fatalf("go build -cover: %v", err)
	}
	for _, example := range []string{"acts.md", "plan.md"} {
		t.Run(example, func(t *testing.T) {
			cover := filepath.Join(dir, "cover-"+example)
			if err := os.Mkdir(cover, 0o755); err != nil {
				t.Fatal(err)
			}
			run := exec.Command(bin, "parse", filepath.Join("..", "..", "examples", example))
			run.Env = append(os.Environ(), "GOCOVERDIR="+cover)
			if out, err := run.CombinedOutput(); err != nil {
				t.Fatalf("plangram parse examples/%s: %v\n%s", example, err, out)
			}
			out, err := exec.Command("go", "tool", "covdata", "func", "-i", cover).CombinedOutput()
			if err != nil {
				t.Fatalf("go tool covdata func: %v\n%s", err, out)
			}
			// Lines such as "…/participle/v2/nodes.go:151:	*strct.Parse	75.0%".
			for _, fn := range []string{"ParseFromLexer", "*strct.Parse", "*group.Parse", "*reference.Parse"} {
				re := regexp.MustCompile(`(?m)participle/v2/(parser|nodes)\.go:\d+:\s+` + regexp.QuoteMeta(fn) + `\s+([0-9.]+)%$`)
				ran := false
				for _, m := range re.FindAllStringSubmatch(string(out), -1) {
					ran = ran || m[2] != "0.0"
				}
				if !ran {
					t.Errorf("participle's %s did not run:\n%s", fn, grepLines(string(out), fn))
				}
			}
		})
	}
}

// grepLines returns the lines of s that hold sub.
func grepLines(s, sub string) string {
	var b strings.Builder
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}
