package main

import (
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"
)

// TestCaseCollision pins the case-collision warning (docs/check.md): two
// paths of one plan, or two directories on them, that differ only in
// letter case or Unicode normalization, in the acts and the plan dialect,
// with and without --root (the rule does not read the disk), and
// --strict makes it fail.
func TestCaseCollision(t *testing.T) {
	t.Chdir("../..")
	var out strings.Builder
	for _, args := range [][]string{
		{"check", "golden/cli/case_collision.md"},
		{"check", "--root", "golden/cli/case_collision_root", "golden/cli/case_collision.md"},
		{"check", "golden/cli/case_collision_plan.md"},
		{"check", "--strict", "golden/cli/case_collision_plan.md"},
	} {
		code, stdout, stderr := runCLI(t, "", args...)
		out.WriteString("$ plangram " + strings.Join(args, " ") + "\n" + stdout + stderr)
		out.WriteString("exit " + string(rune('0'+code)) + "\n\n")
	}
	goldie.New(t, goldie.WithFixtureDir("golden/cli"), goldie.WithNameSuffix(".golden")).
		Assert(t, "check_case_collision", []byte(out.String()))
}
