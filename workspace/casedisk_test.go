package workspace

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/plangram/plangram/grammar"
)

// diskCases runs the case rule with root over a plan of one action per
// line of plan ("verb path"), and returns its diagnostics as
// "action:severity:message-tail" lines, and the rule.
func diskCases(t *testing.T, root string, maxNames int, plan ...string) ([]string, *CaseCollisions) {
	t.Helper()
	var b strings.Builder
	for _, p := range plan {
		verb, path, _ := strings.Cut(p, " ")
		fmt.Fprintf(&b, "~~~act\n%s %q\n~~~\n", verb, path)
		if verb == "write_file" {
			b.WriteString("~~~\nx\n~~~\n")
		}
	}
	doc, err := grammar.Parse(context.Background(), "p.md", []byte(b.String()), grammar.Options{})
	if err != nil || len(doc.Diagnostics) > 0 {
		t.Fatalf("parse: %v %v", err, doc.Diagnostics)
	}
	c := NewCaseCollisions("acts", nil)
	c.SetRoot(root)
	if maxNames > 0 {
		c.disk.maxNames = maxNames
	}
	for _, a := range doc.Actions {
		c.Action(a)
	}
	var out []string
	for _, d := range c.Diagnostics() {
		n := 0
		for i, a := range doc.Actions {
			if a.Span.Start.Offset <= d.Span.Start.Offset {
				n = i + 1
			}
		}
		msg := d.Message
		if i := strings.Index(msg, " differ only"); i >= 0 {
			msg = msg[:i]
		}
		out = append(out, fmt.Sprintf("%d:%s:%s", n, d.Severity, msg))
	}
	return out, c
}

func mkfiles(t *testing.T, root string, names ...string) {
	t.Helper()
	for _, n := range names {
		p := filepath.Join(root, filepath.FromSlash(n))
		if strings.HasSuffix(n, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCaseCollisionsDisk pins the comparison with the names on disk: a
// path, or a directory on it, spelt like an existing name but for case or
// normalization is reported, naming the name on disk; a path that names
// an existing file exactly is not (an edit); each spelling once; symbolic
// links are not followed; a named pipe is never opened.
func TestCaseCollisionsDisk(t *testing.T) {
	root := t.TempDir()
	mkfiles(t, root, "README.md", "src/foo/x.go", "cafe\u0301.txt", "both/A.txt", "both/a.txt", "out/", "Makefile")
	if err := os.Symlink("src/foo", filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(root, "pipe"), 0o644); err != nil {
		t.Skip("no named pipes:", err)
	}
	got, c := diskCases(t, root, 0,
		"write_file readme.md",    // 1: the file README.md
		"read_file README.md",     // 2: exact: no disk report (the plan's own readme.md is)
		"write_file src/Foo/y.go", // 3: the directory src/foo
		"write_file src/foo/X.go", // 4: the file src/foo/x.go
		"write_file src/foo/new.go",
		"write_file readme.md",     // 6: reported once (and the same spelling as 1)
		"write_file caf\u00e9.txt", // 7: NFC against NFD on disk
		"write_file both/a.txt",    // 8: exact (Linux holds both)
		"write_file both/A.TXT",    // 9: names the first on disk
		"write_file OUT/z",         // 10: the directory out
		"write_file LINK",          // 11: the link's own name
		"write_file link/X.go",     // 12: not followed
		"write_file PIPE",          // 13: the pipe's name, not opened
		"write_file pipe/x",        // 14: not a directory: stops
		"write_file new/Readme.md", // 15: not on disk
	)
	want := []string{
		`1:warning:write_file's path "readme.md" and the file "README.md" already in the workspace`,
		`2:warning:read_file's path "README.md" and the path at line 2`,
		`3:warning:write_file's path "src/Foo/y.go" (its directory "src/Foo") and the directory "src/foo" already in the workspace`,
		`4:warning:write_file's path "src/foo/X.go" and the file "src/foo/x.go" already in the workspace`,
		`7:warning:write_file's path "caf\u00e9.txt" and the file "cafe\u0301.txt" already in the workspace`, // escaped: they look alike
		`9:warning:write_file's path "both/A.TXT" and the file "both/`,
		`10:warning:write_file's path "OUT/z" (its directory "OUT") and the directory "out" already in the workspace`,
		`11:warning:write_file's path "LINK" and the file "link" already in the workspace`,
		`12:warning:write_file's path "link/X.go" (its directory "link") and the path at line 59`, // LINK, in the plan
		`13:warning:write_file's path "PIPE" and the file "pipe" already in the workspace`,
		`14:warning:write_file's path "pipe/x" (its directory "pipe") and the path at line 71`, // PIPE, in the plan
	}
	if len(got) != len(want) {
		t.Fatalf("got %d diagnostics, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("got  %s\nwant %s", got[i], want[i])
		}
	}
	// ".", src, src/foo, both: each read once; out, link, pipe, new never.
	if c.disk.reads != 4 {
		t.Errorf("%d directories read, want 4", c.disk.reads)
	}
}

// TestCaseCollisionsDiskCap: a directory of more entries than the limit
// is read up to it, and an info says so, once.
func TestCaseCollisionsDiskCap(t *testing.T) {
	root := t.TempDir()
	for i := range 20 {
		mkfiles(t, root, fmt.Sprintf("big/f%02d", i))
	}
	got, _ := diskCases(t, root, 8, "write_file big/new1", "write_file big/new2")
	if len(got) != 1 || !strings.HasPrefix(got[0], `1:info:the directory "big" in the workspace has more than 8 entries`) {
		t.Errorf("got %q", got)
	}
}

// TestCaseCollisionsDiskReadOnce: a plan of many paths in a few
// directories reads each directory once, whatever the number of paths.
func TestCaseCollisionsDiskReadOnce(t *testing.T) {
	root := t.TempDir()
	mkfiles(t, root, "a/b/old.txt", "c/")
	plan := []string{"write_file a/b/old.txt", "read_file a/b/old.txt"} // exact: edits
	for i := range 500 {
		plan = append(plan, fmt.Sprintf("write_file a/b/f%d.txt", i), fmt.Sprintf("write_file c/d/f%d.txt", i))
	}
	got, c := diskCases(t, root, 0, plan...)
	if len(got) != 0 {
		t.Errorf("got %q", got)
	}
	if c.disk.reads != 4 { // ".", a, a/b, c; c/d is not on disk
		t.Errorf("%d directories read, want 4", c.disk.reads)
	}
}

// With a root, paths are compared with the names already on disk too.
func ExampleCaseCollisions_SetRoot() {
	root, _ := os.MkdirTemp("", "cases")
	defer os.RemoveAll(root)
	_ = os.WriteFile(filepath.Join(root, "README.md"), []byte("# hi\n"), 0o644)
	plan := "~~~act\nwrite_file readme.md\n~~~\n~~~\nhello\n~~~\n"
	doc, _ := grammar.Parse(context.Background(), "plan.md", []byte(plan), grammar.Options{})
	cases := NewCaseCollisions("acts", nil)
	cases.SetRoot(root)
	for _, a := range doc.Actions {
		cases.Action(a)
	}
	for _, d := range cases.Diagnostics() {
		fmt.Println(d.Format("plan.md"))
	}
	// Output:
	// plan.md:2:12: warning: write_file's path "readme.md" and the file "README.md" already in the workspace differ only in letter case (or Unicode normalization): on a case-insensitive file system (macOS, Windows) both name the same file; write the path as the workspace spells it [case-collision]
}

// TestCaseCollisionsDiskDotNames: directories whose names start or end
// with a dot are read by their own names (not the root's).
func TestCaseCollisionsDiskDotNames(t *testing.T) {
	root := t.TempDir()
	mkfiles(t, root, ".github/ci.yml", "v1./notes.txt")
	got, c := diskCases(t, root, 0, "write_file .github/CI.yml", "write_file v1./Notes.txt")
	want := []string{
		`1:warning:write_file's path ".github/CI.yml" and the file ".github/ci.yml" already in the workspace`,
		`2:warning:write_file's path "v1./Notes.txt" and the file "v1./notes.txt" already in the workspace`,
	}
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("missing %s\nin %q", w, got)
		}
	}
	if c.disk.reads != 3 {
		t.Errorf("%d directories read, want 3", c.disk.reads)
	}
}
