//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// fmt -w, fix -w and render -o write through internal/safewrite: owner,
// group, mode and hard links are kept, read-only files are refused and
// devices are written (issue 10, "Writing files").
func TestWriteKeepsOwnerModeLinks(t *testing.T) {
	dir := t.TempDir()
	f := writeTemp(t, dir, "plan.md", messy, 0o640)
	if os.Geteuid() == 0 {
		if err := os.Chown(f, 4321, 8765); err != nil {
			t.Fatal(err)
		}
	}
	if code, _, stderr := runCLI(t, "", "fmt", "-w", f); code != exitOK {
		t.Fatalf("fmt -w: exit %d %s", code, stderr)
	}
	fi, _ := os.Stat(f)
	st := fi.Sys().(*syscall.Stat_t)
	if os.Geteuid() == 0 && (st.Uid != 4321 || st.Gid != 8765) {
		t.Errorf("fmt -w: owner %d:%d, want 4321:8765", st.Uid, st.Gid)
	}
	if fi.Mode().Perm() != 0o640 {
		t.Errorf("fmt -w: mode %v, want 0640", fi.Mode())
	}

	// Hard links: fix -w writes in place, both names see the repair.
	g := writeTemp(t, dir, "g.md", brokenPlan, 0o644)
	other := filepath.Join(dir, "other-name.md")
	if err := os.Link(g, other); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI(t, "", "fix", "-w", "--dialect", "plan", g); code != exitOK {
		t.Fatalf("fix -w: exit %d %s", code, stderr)
	}
	a, _ := os.ReadFile(g)
	b, _ := os.ReadFile(other)
	if string(a) != string(b) || string(a) == brokenPlan {
		t.Errorf("fix -w split the hard link or did nothing: %q vs %q", a, b)
	}
}

// brokenPlan is a plan that fix repairs and fmt reformats.
const brokenPlan = "#Title\n\n```markdown\n# Tool\n```bash\npip install tool\n```\nThen run it.\n```\n\n\n"

func TestWriteRefusesReadOnly(t *testing.T) {
	dir := t.TempDir()
	f := writeTemp(t, dir, "ro.md", brokenPlan, 0o444)
	for _, cmd := range []string{"fmt", "fix"} {
		code, _, stderr := runCLI(t, "", cmd, "-w", "--dialect", "plan", f)
		if code != exitUsage || !strings.Contains(stderr, "read-only") {
			t.Errorf("%s -w on a 0444 file: exit %d %q, want 2 and 'read-only'", cmd, code, stderr)
		}
		if data, _ := os.ReadFile(f); string(data) != brokenPlan {
			t.Fatalf("%s -w rewrote a read-only file", cmd)
		}
	}
	page := writeTemp(t, dir, "ro.html", "old", 0o444)
	ok := writeTemp(t, dir, "ok.md", "~~~act\nend\n~~~\n", 0o644)
	if code, _, stderr := runCLI(t, "", "render", ok, "-o", page); code != exitUsage || !strings.Contains(stderr, "read-only") {
		t.Errorf("render -o read-only: exit %d %q", code, stderr)
	}
}

func TestRenderToDevNull(t *testing.T) {
	dir := t.TempDir()
	ok := writeTemp(t, dir, "ok.md", "~~~act\nend\n~~~\n", 0o644)
	if code, out, stderr := runCLI(t, "", "render", ok, "-o", os.DevNull); code != exitOK || out != "" || stderr != "" {
		t.Fatalf("render -o /dev/null: exit %d %q %q", code, out, stderr)
	}
}
