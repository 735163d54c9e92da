//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"
)

// TestBeyondSymlinkCLI pins issue 27's attacks on check --root and apply
// (items 3, 5, 7): with `g -> .git` and `cfg -> .git/config` in the root,
// write_file g/hooks/pre-commit and append_file cfg passed check and apply
// wrote into .git; a Windows spelling of .git (GIT~1, an NTFS stream)
// passed the path rule; a 256-byte name passed check and apply failed half
// way. Now check --root reports them (exit 1) and apply refuses the plan
// and writes nothing.
func TestBeyondSymlinkCLI(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(root, ".git", "hooks"), 0o755))
	writeTemp(t, root, ".git/config", "[core]\n", 0o644)
	must(os.Symlink(".git", filepath.Join(root, "g")))
	must(os.Symlink(".git/config", filepath.Join(root, "cfg")))
	act := func(body, content string) string { return "~~~act\n" + body + "\n~~~\n~~~\n" + content + "~~~\n\n" }
	writeTemp(t, dir, "plan.md", act("write_file g/hooks/pre-commit", "#!/bin/sh\n")+
		act("append_file cfg", "[alias]\n")+
		act("write_file GIT~1/hooks/post-checkout", "#!/bin/sh\n")+
		act("write_file .git::$INDEX_ALLOCATION/hooks/x", "#!/bin/sh\n")+
		act("write_file "+strings.Repeat("n", 253)+".md", "x\n")+
		act("write_file ok.txt", "fine\n"), 0o644)
	fixtures, err := filepath.Abs("../../golden/cli")
	must(err)
	t.Chdir(dir)
	before := linkTreeOf(t, root)
	var out strings.Builder
	out.WriteString(transcript(t, "check", "--root", "root", "plan.md"))
	out.WriteString(transcript(t, "apply", "--root", "root", "plan.md"))
	if after := linkTreeOf(t, root); after != before {
		t.Errorf("the root changed:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	goldie.New(t, goldie.WithFixtureDir(fixtures), goldie.WithNameSuffix(".golden")).
		Assert(t, "check_beyond_symlink", []byte(out.String()))
}

// linkTreeOf lists every entry below dir with its content or link target.
func linkTreeOf(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		b.WriteString(p)
		switch {
		case d.Type()&os.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			b.WriteString(" -> " + target)
		case d.Type().IsRegular():
			data, _ := os.ReadFile(p)
			b.WriteString(" " + string(data))
		}
		b.WriteByte('\n')
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}
