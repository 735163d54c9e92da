package workspace

import (
	"bufio"
	"context"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/schema"
	"github.com/plangram/plangram/stream"
)

// copyFixture copies a golden case's _root/ (a name the go tool ignores)
// into a fresh directory and
// creates the symbolic links its symlinks.txt lists ("name -> target"), so
// the repository holds no links and no test can touch it.
func copyFixture(t *testing.T, caseDir string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "root")
	src := filepath.Join(caseDir, "_root")
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		if !os.IsNotExist(err) {
			t.Fatal(err)
		}
		if err := os.MkdirAll(dst, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	setModes(t, caseDir, dst)
	f, err := os.Open(filepath.Join(caseDir, "symlinks.txt"))
	if err != nil {
		return dst
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, target, ok := strings.Cut(line, " -> ")
		if !ok {
			t.Fatalf("symlinks.txt: bad line %q", line)
		}
		if err := os.Symlink(target, filepath.Join(dst, name)); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// setModes sets the modes that the case's modes.txt lists ("path 0444"
// per line) on the copy of its root: git keeps no write bits.
func setModes(t *testing.T, caseDir, dst string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(caseDir, "modes.txt"))
	if err != nil {
		return
	}
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, mode, ok := strings.Cut(line, " ")
		m, err := strconv.ParseUint(mode, 8, 32)
		if !ok || err != nil {
			t.Fatalf("modes.txt: bad line %q", line)
		}
		if err := os.Chmod(filepath.Join(dst, name), fs.FileMode(m)); err != nil {
			t.Fatal(err)
		}
	}
}

// snapshot records every entry under dir: path, mode, size, content hash,
// link target, modification time.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	var lines []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		line := fmt.Sprintf("%s %v %d %d", p, info.Mode(), info.Size(), info.ModTime().UnixNano())
		switch {
		case info.Mode()&os.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			line += " -> " + target
		case info.Mode().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			line += fmt.Sprintf(" %x", sha256.Sum256(data))
		}
		lines = append(lines, line)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// render prints diagnostics the way `plangram check` does.
func render(name string, ds []*ast.Diagnostic) []byte {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d.Format(name))
		b.WriteByte('\n')
	}
	if b.Len() == 0 {
		b.WriteString("(no diagnostics)\n")
	}
	return []byte(b.String())
}

// caseOptions reads a case's options.txt ("max-file-size N" lines).
func caseOptions(t *testing.T, caseDir string) Options {
	t.Helper()
	var o Options
	data, err := os.ReadFile(filepath.Join(caseDir, "options.txt"))
	if err != nil {
		return o
	}
	for _, line := range strings.Split(string(data), "\n") {
		if n, ok := strings.CutPrefix(strings.TrimSpace(line), "max-file-size "); ok {
			if _, err := fmt.Sscan(n, &o.MaxFileSize); err != nil {
				t.Fatal(err)
			}
		}
	}
	return o
}

func TestBadRoot(t *testing.T) {
	doc, err := grammar.Parse(context.Background(), "p.md", []byte("~~~act\nread_file a\n~~~\n"), grammar.Options{})
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, root := range []string{"", filepath.Join(t.TempDir(), "missing"), file} {
		ds := Check(context.Background(), doc, root, Options{})
		if len(ds) != 1 || ds[0].Code != CodeBadRoot {
			t.Errorf("root %q: %s", root, render("p.md", ds))
		}
		if ValidateRoot(root) == nil {
			t.Errorf("ValidateRoot(%q) = nil", root)
		}
	}
	if err := ValidateRoot("."); err != nil {
		t.Errorf("ValidateRoot(.) = %v", err)
	}
	if Check(context.Background(), nil, ".", Options{}) != nil {
		t.Error("a nil document has diagnostics")
	}
}

// TestRulesDocumented checks that every rule has a section in
// docs/check.md and a golden case that reports it, and that the page's
// example diagnostics are the golden cases' output.
func TestRulesDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/check.md")
	if err != nil {
		t.Fatal(err)
	}
	goldens, _ := filepath.Glob("../golden/workspace/*.golden")
	var all strings.Builder
	for _, g := range goldens {
		data, _ := os.ReadFile(g)
		all.Write(data)
	}
	// Every diagnostic line the page shows is real output.
	for _, line := range strings.Split(string(doc), "\n") {
		if strings.HasPrefix(line, "plan.md:") && !strings.Contains(all.String(), line+"\n") {
			t.Errorf("docs/check.md shows a diagnostic no golden case has:\n%s", line)
		}
	}
	for _, r := range ast.Codes() {
		if r.Area != ast.AreaWorkspace {
			continue
		}
		if !strings.Contains(string(doc), "### `"+r.Code+"`") {
			t.Errorf("docs/check.md has no section ### `%s`", r.Code)
		}
		if r.Code != CodeBadRoot && r.Code != CodeWorkBudget && !strings.Contains(all.String(), "["+r.Code+"]") {
			t.Errorf("no golden case reports %s", r.Code)
		}
	}
}

// TestGolden checks each case directory under golden/workspace: plan.md
// parsed (dialect from the name prefix: acts_, plan_, sr_, udiff_, ap_ or tools_) and checked against
// a copy of _root/; the workspace diagnostics are pinned in <case>.golden,
// and the copy must be unchanged afterwards.
func TestGolden(t *testing.T) {
	dirs, err := filepath.Glob("../golden/workspace/*/plan.md")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no golden cases: %v", err)
	}
	g := goldie.New(t, goldie.WithFixtureDir("../golden/workspace"), goldie.WithNameSuffix(".golden"))
	for _, planPath := range dirs {
		caseDir := filepath.Dir(planPath)
		name := filepath.Base(caseDir)
		t.Run(name, func(t *testing.T) {
			dialect := caseDialect(name)
			src, err := os.ReadFile(planPath)
			if err != nil {
				t.Fatal(err)
			}
			doc, err := grammar.Parse(context.Background(), "plan.md", src, grammar.Options{Dialect: dialect, ReadTools: stream.ReadDocument})
			if err != nil {
				t.Fatal(err)
			}
			// The path rule's breaches are the parser's (static facts);
			// the output is what `check --root` prints: those and the
			// workspace's diagnostics.
			var diags []*ast.Diagnostic
			for _, d := range doc.Diagnostics {
				switch {
				case d.Code == CodeAbsolutePath || d.Code == CodePathEscapes || d.Code == CodeBadPath || d.Code == CodeURLNotAllowed || d.Code == CodeNotAFile:
					diags = append(diags, d)
				case d.Severity == ast.Error:
					t.Fatalf("fixture does not parse cleanly: %s", d.Format("plan.md"))
				}
			}
			root := copyFixture(t, caseDir)
			before := snapshot(t, root)
			diags = append(diags, Check(context.Background(), doc, root, caseOptions(t, caseDir))...)
			ast.SortDiagnostics(diags)
			if after := snapshot(t, root); after != before {
				t.Errorf("Check changed the workspace:\nbefore:\n%s\nafter:\n%s", before, after)
			}
			g.Assert(t, name, render("plan.md", diags))
		})
	}
}

// caseDialect is the dialect of the golden workspace case name: its
// prefix plan_, sr_, udiff_, ap_ or tools_ names one, else acts.
func caseDialect(name string) string {
	for prefix, d := range map[string]string{"plan_": grammar.DialectPlan, "sr_": grammar.DialectSearchReplace,
		"udiff_": grammar.DialectUdiff, "ap_": grammar.DialectApplyPatch, "tools_": grammar.DialectTools} {
		if strings.HasPrefix(name, prefix) {
			return d
		}
	}
	return grammar.DialectActs
}

// TestCheckerListOfPathsNotHeld pins that the checker reads an action's
// paths one at a time: every one is checked (a path past the first that
// leaves the root is reported), and only those its effect uses are kept
// (INVOKE's handoff resources, none), so a list of many paths is not held
// for the length of the action (10 MiB of them: 43 → 33 MB).
func TestCheckerListOfPathsNotHeld(t *testing.T) {
	s, err := schema.Builtin("plan")
	if err != nil {
		t.Fatal(err)
	}
	paths := make([]string, 1000)
	for i := range paths {
		paths[i] = fmt.Sprintf("src/f%d.py", i)
	}
	paths[500] = "../outside.py"
	sp := ast.Span{Start: ast.Pos{Offset: 10, Line: 2, Col: 1}, End: ast.Pos{Offset: 20, Line: 2, Col: 11}}
	a := &ast.Action{Name: "INVOKE", Params: ast.Params{{Name: "agent", Value: "dev"}, {Name: "handoff_resources", Value: paths, Span: &sp}}}
	doc := &ast.Document{Dialect: "plan", Actions: []*ast.Action{a}}
	opts := Options{Schema: s}
	c, err := newChecker(t.TempDir(), opts)
	if err != nil {
		t.Fatal(err)
	}
	c.begin(0, doc, opts)
	c.action(context.Background(), a)
	if cap(c.pathBuf) > 1 {
		t.Errorf("the checker kept room for %d path arguments of an action whose effect uses none past the first", cap(c.pathBuf))
	}
	var escapes int
	diags := c.diagnostics()
	for _, d := range diags {
		if d.Code == CodePathEscapes {
			escapes++
		}
	}
	if escapes != 1 {
		t.Errorf("%d path-escapes diagnostics for the list's 501st path, want 1: %v", escapes, diags)
	}
}
