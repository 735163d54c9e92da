package apply

import (
	"context"
	"errors"
	"fmt"
	"github.com/plangram/plangram/internal/rootfs"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/workspace"
)

// bothImpls runs f with the native root handle (openat2 on Linux) and
// with the portable one (os.Root), which other platforms use.
func bothImpls(t *testing.T, f func(t *testing.T, portable bool)) {
	for _, portable := range []bool{false, true} {
		t.Run(fmt.Sprintf("portable=%v", portable), func(t *testing.T) { f(t, portable) })
	}
}

// noLeftovers fails when a temporary file, a backup or the metadata
// directory is left under dir.
func noLeftovers(t *testing.T, dir string) {
	t.Helper()
	if s := snapshot(t, dir); strings.Contains(s, ".plangram") {
		t.Errorf("leftovers:\n%s", s)
	}
}

// swapForLink moves the entry p away to p.real and puts a symbolic link
// to target in its place; unswap puts it back.
func swapForLink(t *testing.T, p, target string) {
	t.Helper()
	if err := os.Rename(p, p+".real"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, p); err != nil {
		t.Fatal(err)
	}
}

func unswap(t *testing.T, p string) {
	t.Helper()
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(p+".real", p); err != nil {
		t.Fatal(err)
	}
}

// raceRoot makes top/root and top/outside with the files given.
func raceRoot(t *testing.T, in, out map[string]string) (top, root, outside string) {
	top = t.TempDir()
	root, outside = filepath.Join(top, "root"), filepath.Join(top, "outside")
	for _, d := range []string{root, outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files(t, root, in)
	files(t, outside, out)
	return top, root, outside
}

const racePlan = "~~~act\nwrite_file a.txt\n~~~\n~~~\nnew a\n~~~\n" +
	"~~~act\npatch_file d/x.txt\n~~~\n~~~\nold\n~~~\n~~~\nnew\n~~~\n" +
	"~~~act\nwrite_file d/new.txt\n~~~\n~~~\nnew\n~~~\n" +
	"~~~act\ndelete_file d/gone.txt\n~~~\n" +
	"~~~act\npatch_file zzz.txt\n~~~\n~~~\nold\n~~~\n~~~\nnew\n~~~\n"

// TestSwapAtStaging: a file, or a directory, swapped for a symbolic link
// to the outside when the write begins (issue 27, items 1 and 2) makes
// the apply fail; nothing is written outside the root and everything
// written is undone.
func TestSwapAtStaging(t *testing.T) {
	in := map[string]string{"zzz.txt": "old\n", "d/x.txt": "old\n", "d/gone.txt": "bye\n", "inside/x.txt": "old\n", "inside/gone.txt": "bye\n"}
	out := map[string]string{"victim.txt": "old\n", "x.txt": "old\n", "gone.txt": "bye\n"}
	for _, c := range []struct{ name, at, swap, target string }{
		// A link that stays inside the root is not followed either (it
		// could lead into .git): the root's snapshot after the swap is
		// undone shows inside/ untouched.
		{"directory to inside the root", "d/x.txt", "d", "inside"},
		{"file", "zzz.txt", "zzz.txt", "../outside/victim.txt"},
		{"file at the first step", "a.txt", "zzz.txt", "../outside/victim.txt"},
		{"deleted file", "d/gone.txt", "d/gone.txt", "../../outside/gone.txt"},
		{"directory", "d/x.txt", "d", "../outside"},
		{"directory at the first step", "a.txt", "d", "../outside"},
	} {
		t.Run(c.name, func(t *testing.T) {
			bothImpls(t, func(t *testing.T, portable bool) {
				_, root, outside := raceRoot(t, in, out)
				outBefore, rootBefore := snapshot(t, outside), snapshot(t, root)
				hook := func(step, p string) error {
					if step == "stage" && p == c.at {
						swapForLink(t, filepath.Join(root, c.swap), c.target)
					}
					return nil
				}
				res, err := Apply(context.Background(), []*ast.Document{parse(t, racePlan)}, root, Options{hook: hook, portable: portable})
				if err == nil || res.Applied {
					t.Fatalf("applied through a link swapped in: err %v", err)
				}
				if got := snapshot(t, outside); got != outBefore {
					t.Errorf("written outside the root:\nbefore:\n%s\nafter:\n%s", outBefore, got)
				}
				if _, err := os.Lstat(filepath.Join(root, "a.txt")); !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("a.txt not undone: %v", err)
				}
				// A step behind the link could not be undone: the
				// journal stays until the link is gone.
				if _, jerr := os.Lstat(filepath.Join(root, metaDir, journalName)); jerr == nil {
					if !errors.Is(err, rootfs.ErrSymlink) {
						t.Errorf("journal kept, but the error does not say why: %v", err)
					}
					unswap(t, filepath.Join(root, c.swap))
					if _, err := recoverRoot(context.Background(), root, portable); err != nil {
						t.Fatal(err)
					}
				} else {
					unswap(t, filepath.Join(root, c.swap))
				}
				if got := snapshot(t, root); got != rootBefore {
					t.Errorf("not undone:\nbefore:\n%s\nafter:\n%s", rootBefore, got)
				}
				noLeftovers(t, root)
			})
		})
	}
}

// TestSwapDuringUndo: a directory swapped for a symbolic link to the
// outside while a failed apply is being undone: the undo does not follow
// it (it used to remove outside/new.txt) and says what it could not undo.
func TestSwapDuringUndo(t *testing.T) {
	in := map[string]string{"zzz.txt": "old\n", "d/x.txt": "old\n", "d/gone.txt": "bye\n"}
	out := map[string]string{"victim.txt": "old\n", "x.txt": "new\n", "new.txt": "new", "gone.txt": "bye\n"}
	bothImpls(t, func(t *testing.T, portable bool) {
		_, root, outside := raceRoot(t, in, out)
		outBefore, rootBefore := snapshot(t, outside), snapshot(t, root)
		injected := errors.New("injected")
		hook := func(step, p string) error {
			switch {
			case step == "write" && p == "zzz.txt":
				return injected
			case step == "undo" && p == "d/x.txt":
				swapForLink(t, filepath.Join(root, "d"), "../outside")
			}
			return nil
		}
		_, err := Apply(context.Background(), []*ast.Document{parse(t, racePlan)}, root, Options{hook: hook, portable: portable})
		if !errors.Is(err, injected) || !errors.Is(err, rootfs.ErrSymlink) {
			t.Fatalf("err = %v, want the injected failure and the undo's refusal of the link", err)
		}
		if got := snapshot(t, outside); got != outBefore {
			t.Errorf("the undo wrote outside the root:\nbefore:\n%s\nafter:\n%s", outBefore, got)
		}
		// What the undo could reach is undone; the journal stays for a
		// later recovery, which finishes once the link is gone.
		if _, err := os.Lstat(filepath.Join(root, "a.txt")); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("a.txt not undone: %v", err)
		}
		if _, err := os.Lstat(filepath.Join(root, metaDir, journalName)); err != nil {
			t.Errorf("journal not kept: %v", err)
		}
		if _, err := recoverRoot(context.Background(), root, portable); !errors.Is(err, rootfs.ErrSymlink) {
			t.Errorf("recover with the link in place: %v", err)
		}
		unswap(t, filepath.Join(root, "d"))
		if rec, err := recoverRoot(context.Background(), root, portable); err != nil || rec == nil || rec.RolledForward {
			t.Errorf("recover once the link is gone: %+v %v", rec, err)
		}
		if got := snapshot(t, outside); got != outBefore {
			t.Errorf("the recovery wrote outside the root:\nbefore:\n%s\nafter:\n%s", outBefore, got)
		}
		if got := snapshot(t, root); got != rootBefore {
			t.Errorf("not recovered:\nbefore:\n%s\nafter:\n%s", rootBefore, got)
		}
	})
}

// TestLongNames: delete_file and move_file of names of 240 bytes (the
// backup name used to be the name plus 30 bytes, and the loop looking
// for a free one never ended).
func TestLongNames(t *testing.T) {
	bothImpls(t, func(t *testing.T, portable bool) {
		root := t.TempDir()
		long := func(c string) string { return strings.Repeat(c, 236) + ".txt" }
		files(t, root, map[string]string{long("a"): "a\n", long("b"): "b\n", long("c"): "c\n"})
		plan := "~~~act\ndelete_file " + long("a") + "\n~~~\n~~~act\nmove_file " + long("b") + " " + long("d") + "\n~~~\n" +
			"~~~act\npatch_file " + long("c") + "\n~~~\n~~~\nc\n~~~\n~~~\nC\n~~~\n"
		res, err := Apply(context.Background(), []*ast.Document{parse(t, plan)}, root, Options{portable: portable})
		if err != nil {
			t.Fatalf("%v %v", err, res.Diagnostics)
		}
		if _, err := os.Lstat(filepath.Join(root, long("a"))); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("not deleted: %v", err)
		}
		if read(t, filepath.Join(root, long("d"))) != "b\n" || read(t, filepath.Join(root, long("c"))) != "C\n" {
			t.Error("not moved or not edited")
		}
		noLeftovers(t, root)
	})
}

// TestTempNames: the temporary and backup names have one length whatever
// the file's name.
func TestTempNames(t *testing.T) {
	a, b := tempName("new"), tempName("old")
	if len(a) != len(b) || len(a) > 32 || !isTempName(a) || !isTempName(b) || a[:26] == b[:26] {
		t.Errorf("%q %q", a, b)
	}
	for _, bad := range []string{".plangram-zz", "x.txt", ".plangram-0123456789abcdef.txt", "../.plangram-0123456789abcdef.new"} {
		if isTempName(bad) {
			t.Errorf("%q taken for a temporary name", bad)
		}
	}
}

// applyChanges runs the verify and write of changes made by hand (the
// simulation's part is the workspace package's).
func applyChanges(t *testing.T, root string, portable bool, changes []workspace.Change) error {
	t.Helper()
	absRoot, err := workspace.ResolveRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	h, _, err := openHold(context.Background(), absRoot, Options{portable: portable})
	if err != nil {
		t.Fatal(err)
	}
	defer h.close()
	_, err = finish(context.Background(), &Result{Changes: changes, Diagnostics: [][]*ast.Diagnostic{nil}}, h, Options{portable: portable}, nil)
	return err
}

// TestLinkChanges: a change with Link acts on the symbolic link itself:
// a deletion removes the link (not its target), a move makes the same
// link at the destination; a link changed since the check is refused.
func TestLinkChanges(t *testing.T) {
	bothImpls(t, func(t *testing.T, portable bool) {
		root := t.TempDir()
		files(t, root, map[string]string{"real.txt": "real\n", "other.txt": "other\n"})
		for _, l := range []string{"del", "mv", "changed"} {
			if err := os.Symlink("real.txt", filepath.Join(root, l)); err != nil {
				t.Fatal(err)
			}
		}
		err := applyChanges(t, root, portable, []workspace.Change{
			{Path: "del", Link: "real.txt"}, // Existed or not: a link
			{Path: "mv", Existed: true, Link: "real.txt"},
			{Path: "sub/mv", Exists: true, Link: "real.txt", MovedFrom: "mv"},
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, gone := range []string{"del", "mv"} {
			if _, err := os.Lstat(filepath.Join(root, gone)); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("%s: %v", gone, err)
			}
		}
		if got, err := os.Readlink(filepath.Join(root, "sub/mv")); err != nil || got != "real.txt" {
			t.Errorf("moved link: %q %v", got, err)
		}
		if read(t, filepath.Join(root, "real.txt")) != "real\n" {
			t.Error("the target was touched")
		}
		noLeftovers(t, root)
		err = applyChanges(t, root, portable, []workspace.Change{{Path: "changed", Existed: true, Link: "other.txt"}})
		if err == nil || !strings.Contains(err.Error(), "link changed") {
			t.Errorf("a changed link: %v", err)
		}
		if got, _ := os.Readlink(filepath.Join(root, "changed")); got != "real.txt" {
			t.Errorf("the changed link was touched: %q", got)
		}
	})
}

// TestMetadataNotATarget: a plan writing into .plangram is refused.
func TestMetadataNotATarget(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{".plangram/journal", ".PlanGram/x"} {
		res, err := Apply(context.Background(), []*ast.Document{parse(t, "~~~act\nwrite_file "+p+"\n~~~\n~~~\nx\n~~~\n")}, root, Options{})
		if !errors.Is(err, ErrRefused) {
			t.Errorf("%s: err = %v", p, err)
			continue
		}
		found := false
		for _, d := range res.Diagnostics[0] {
			found = found || (d.Code == CodeCannotApply && strings.Contains(d.Message, "metadata"))
		}
		if !found {
			t.Errorf("%s: %v", p, res.Diagnostics[0])
		}
	}
	noLeftovers(t, root)
}

// TestOneApplyAtATime: an apply that finds the metadata directory locked
// by another (running) apply stops before reading the workspace.
func TestOneApplyAtATime(t *testing.T) {
	bothImpls(t, func(t *testing.T, portable bool) {
		root := t.TempDir()
		var inner error
		hook := func(step, p string) error {
			if step == "stage" && inner == nil {
				_, inner = Apply(context.Background(), []*ast.Document{parse(t, "~~~act\nwrite_file b.txt\n~~~\n~~~\nb\n~~~\n")}, root, Options{portable: portable})
				if inner == nil {
					inner = errors.New("ran at once")
				}
			}
			return nil
		}
		if _, err := Apply(context.Background(), []*ast.Document{parse(t, "~~~act\nwrite_file a.txt\n~~~\n~~~\na\n~~~\n")}, root, Options{hook: hook, portable: portable}); err != nil {
			t.Fatal(err)
		}
		if !errors.Is(inner, rootfs.ErrLocked) {
			t.Errorf("second apply: %v", inner)
		}
		if _, err := recoverRoot(context.Background(), root, portable); err != nil {
			t.Error(err)
		}
		noLeftovers(t, root)
	})
}

// TestReadOnlyRoot: in a root where .plangram cannot be created, a plan
// that fails its checks is still refused with its diagnostics, and one
// that passes is not written (no journal, no crash safety).
func TestReadOnlyRoot(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root may write a read-only directory")
	}
	root := t.TempDir()
	files(t, root, map[string]string{"sub/a.txt": "a\n"})
	os.Chmod(root, 0o555)
	defer os.Chmod(root, 0o755)
	if _, err := Apply(context.Background(), []*ast.Document{parse(t, "~~~act\npatch_file sub/a.txt\n~~~\n~~~\nnot there\n~~~\n~~~\nb\n~~~\n")}, root, Options{}); !errors.Is(err, ErrRefused) {
		t.Errorf("refused plan: %v", err)
	}
	_, err := Apply(context.Background(), []*ast.Document{parse(t, "~~~act\npatch_file sub/a.txt\n~~~\n~~~\na\n~~~\n~~~\nb\n~~~\n")}, root, Options{})
	if err == nil || !strings.Contains(err.Error(), "journal") || read(t, filepath.Join(root, "sub/a.txt")) != "a\n" {
		t.Errorf("err %v", err)
	}
}

// TestFileSwapDuringUndo: files swapped for symbolic links to the outside
// while a failed apply is being undone: the edited file's old content is
// renamed back over the link (a rename never follows it), and a created
// file replaced by a link is not the apply's any more, so the link is
// left alone; nothing outside changes.
func TestFileSwapDuringUndo(t *testing.T) {
	in := map[string]string{"zzz.txt": "old\n", "d/x.txt": "old\n", "d/gone.txt": "bye\n"}
	out := map[string]string{"victim.txt": "old\n", "x.txt": "new\n", "new.txt": "new a"}
	bothImpls(t, func(t *testing.T, portable bool) {
		_, root, outside := raceRoot(t, in, out)
		outBefore := snapshot(t, outside)
		injected := errors.New("injected")
		hook := func(step, p string) error {
			switch {
			case step == "write" && p == "zzz.txt":
				return injected
			case step == "undo" && p == "d/x.txt":
				swapForLink(t, filepath.Join(root, "d/x.txt"), "../../outside/x.txt")
			case step == "undo" && p == "a.txt":
				swapForLink(t, filepath.Join(root, "a.txt"), "../outside/new.txt")
			}
			return nil
		}
		_, err := Apply(context.Background(), []*ast.Document{parse(t, racePlan)}, root, Options{hook: hook, portable: portable})
		if !errors.Is(err, injected) {
			t.Fatalf("err = %v", err)
		}
		if got := snapshot(t, outside); got != outBefore {
			t.Errorf("the undo wrote outside the root:\nbefore:\n%s\nafter:\n%s", outBefore, got)
		}
		if fi, err := os.Lstat(filepath.Join(root, "d/x.txt")); err != nil || !fi.Mode().IsRegular() || read(t, filepath.Join(root, "d/x.txt")) != "old\n" {
			t.Errorf("d/x.txt not restored: %v %v", fi, err)
		}
		if fi, err := os.Lstat(filepath.Join(root, "a.txt")); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("the link put at a.txt was not left alone: %v %v", fi, err)
		}
		if read(t, filepath.Join(root, "d/gone.txt")) != "bye\n" {
			t.Error("d/gone.txt not restored")
		}
		noLeftovers(t, root)
	})
}
