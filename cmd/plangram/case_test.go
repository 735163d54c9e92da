package main

import (
	"os"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"
)

// TestCaseCollision pins the case-collision warning (docs/check.md): two
// paths of one plan, or two directories on them, that differ only in
// letter case or Unicode normalization, in the acts and the plan dialect,
// with and without --root, and --strict makes it fail; with --root, a
// path (or a directory on it) spelt like a name already on disk but for
// case, naming that name, but not a path that names it exactly.
func TestCaseCollision(t *testing.T) {
	t.Chdir("../..")
	var out strings.Builder
	for _, args := range [][]string{
		{"check", "golden/cli/case_collision.md"},
		{"check", "--root", "golden/cli/case_collision_root", "golden/cli/case_collision.md"},
		{"check", "golden/cli/case_collision_plan.md"},
		{"check", "--strict", "golden/cli/case_collision_plan.md"},
		// Against the names on disk (case_disk_root has README.md,
		// Makefile and src/foo/x.txt), and without a root (only the
		// plan's own paths).
		{"check", "--root", "golden/cli/case_disk_root", "golden/cli/case_disk.md"},
		{"check", "golden/cli/case_disk.md"},
	} {
		out.WriteString(transcript(t, args...))
	}
	goldie.New(t, goldie.WithFixtureDir("golden/cli"), goldie.WithNameSuffix(".golden")).
		Assert(t, "check_case_collision", []byte(out.String()))
	// The diagnostics docs/check.md shows are this output.
	doc, err := os.ReadFile("docs/check.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(doc), "\n") {
		if (strings.HasPrefix(line, "case_collision.md:") || strings.HasPrefix(line, "case_disk.md:")) &&
			!strings.Contains(out.String(), "golden/cli/"+line+"\n") {
			t.Errorf("docs/check.md shows a diagnostic the golden cases do not give:\n%s", line)
		}
	}
}

// transcript runs the command line args and returns it as a golden
// transcript shows it: the command, its output, its exit code.
func transcript(t *testing.T, args ...string) string {
	t.Helper()
	code, stdout, stderr := runCLI(t, "", args...)
	return "$ plangram " + strings.Join(args, " ") + "\n" + stdout + stderr + "exit " + string(rune('0'+code)) + "\n\n"
}
