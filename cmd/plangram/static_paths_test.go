package main

import (
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"
)

// TestStaticPaths pins the path rules that need no workspace besides the
// path rule (docs/check.md, "not-a-file" and "non-portable-path"): a file
// action's path spelled as a directory is not-a-file without --root too
// (a warning for a read), said once with --root; a name Windows cannot
// hold is a non-portable-path warning with and without --root; in both
// dialects.
func TestStaticPaths(t *testing.T) {
	t.Chdir("../..")
	var out strings.Builder
	for _, args := range [][]string{
		{"check", "golden/cli/static_paths.md"},
		{"check", "--root", "golden/cli/static_paths_root", "golden/cli/static_paths.md"},
		{"check", "golden/cli/static_paths_plan.md"},
	} {
		out.WriteString(transcript(t, args...))
	}
	goldie.New(t, goldie.WithFixtureDir("golden/cli"), goldie.WithNameSuffix(".golden")).
		Assert(t, "check_static_paths", []byte(out.String()))
}
