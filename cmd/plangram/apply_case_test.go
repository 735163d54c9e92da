package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"
)

// TestApplyCaseCollision: apply gives the case-collision warnings check
// --root gives (docs/apply.md): a path spelt like a name already in the
// root but for case, and two paths of the plan that differ only in case.
// They are warnings: the apply is not refused, and the files are written
// as the plan spells them.
func TestApplyCaseCollision(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	os.MkdirAll(filepath.Join(root, "src", "foo"), 0o755)
	writeTemp(t, root, "README.md", "# hi\n", 0o644)
	writeTemp(t, filepath.Join(root, "src", "foo"), "x.txt", "x\n", 0o644)
	plan := writeTemp(t, dir, "plan.md", "~~~act\nwrite_file readme.md\n~~~\n~~~\n# hello\n~~~\n"+
		"~~~act\nwrite_file src/Foo/y.txt\n~~~\n~~~\ny\n~~~\n"+
		"~~~act\nwrite_file notes.txt\n~~~\n~~~\nn\n~~~\n"+
		"~~~act\nappend_file NOTES.txt\n~~~\n~~~\nm\n~~~\n", 0o644)
	var out strings.Builder
	for _, args := range [][]string{
		{"check", "--root", root, plan},
		{"apply", "--root", root, plan},
	} {
		code, stdout, stderr := runCLI(t, "", args...)
		out.WriteString("$ plangram " + strings.Join(args, " ") + "\n" + stdout + stderr)
		out.WriteString("exit " + string(rune('0'+code)) + "\n\n")
	}
	goldie.New(t, goldie.WithFixtureDir("../../golden/cli"), goldie.WithNameSuffix(".golden")).
		Assert(t, "apply_case_collision", []byte(strings.ReplaceAll(out.String(), dir, "DIR")))
	if b, err := os.ReadFile(filepath.Join(root, "readme.md")); err != nil || strings.TrimSpace(string(b)) != "# hello" {
		t.Errorf("readme.md: %q %v", b, err)
	}
}
