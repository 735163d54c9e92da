package apply

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
)

// fuzzRoot makes FuzzApply's workspace under base: a root with three
// files and a link to a sibling directory outside it.
func fuzzRoot(t testing.TB, base string) (root, outside string) {
	t.Helper()
	root = filepath.Join(base, "root")
	outside = filepath.Join(base, "outside")
	files(t, root, map[string]string{"a.txt": "a\n", "sub/b.txt": "b\n", "c.txt": "c\r\nd\r\ne\r\nc\r\nd\r\n"})
	files(t, outside, map[string]string{"keep.txt": "keep\n"})
	if err := os.Symlink(outside, filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	return root, outside
}

// applyReport is what an apply said and did, for comparing the two ways
// of applying: the error, the diagnostics, the changes and commands (their
// actions by name and name span) and the files of the root afterwards.
func applyReport(t testing.TB, res *Result, err error, root string) string {
	t.Helper()
	var b strings.Builder
	switch {
	case errors.Is(err, ErrRefused):
		b.WriteString("refused\n")
	case err != nil:
		fmt.Fprintf(&b, "error %v\n", strings.ReplaceAll(err.Error(), root, "ROOT"))
	}
	if res != nil {
		fmt.Fprintf(&b, "applied %v\n", res.Applied)
		for i, ds := range res.Diagnostics {
			for _, d := range ds {
				fmt.Fprintf(&b, "doc %d: %s\n", i, d.Format("p.md"))
			}
		}
		for _, ch := range res.Changes {
			a := ch.Action
			fmt.Fprintf(&b, "change %q existed=%v old=%q/%v exists=%v new=%q/%v problem=%q moved=%q doc=%d by=%s@%v\n",
				ch.Path, ch.Existed, ch.Old, ch.OldKnown, ch.Exists, ch.New, ch.NewKnown, ch.Problem, ch.MovedFrom, ch.Doc, a.Name, a.NameSpan)
		}
		for i, cs := range res.Commands {
			for _, a := range cs {
				fmt.Fprintf(&b, "command %d %s@%v\n", i, a.Name, a.NameSpan)
			}
		}
	}
	b.WriteString(snapshot(t, root))
	return b.String()
}

// sameApply applies srcs (one plan each) to two copies of FuzzApply's
// workspace, parsed with Apply and unparsed with ApplyInputs, and fails
// when the two report or do anything differently.
func sameApply(t testing.TB, srcs []string, opts Options) {
	t.Helper()
	sameApplyIn(t, "", srcs, opts)
}

// sameApplyIn is sameApply in copies of the directory template ("":
// FuzzApply's workspace).
func sameApplyIn(t testing.TB, template string, srcs []string, opts Options) {
	t.Helper()
	var docs []*ast.Document
	var ins []Input
	for i, s := range srcs {
		name := fmt.Sprintf("p%d.md", i)
		doc, err := grammar.Parse(context.Background(), name, []byte(s), grammar.Options{})
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, doc)
		ins = append(ins, Input{Name: name, Src: []byte(s)})
	}
	// On a memory file system where there is one: each apply syncs its
	// journal, and hundreds of them would wait on a disk.
	newRoot := func() string {
		if template == "" {
			r, _ := fuzzRoot(t, fastDir(t))
			return r
		}
		r := filepath.Join(fastDir(t), "root")
		copyTree(t, template, r)
		return r
	}
	r1 := newRoot()
	res1, err1 := Apply(context.Background(), docs, r1, opts)
	r2 := newRoot()
	res2, err2 := ApplyInputs(context.Background(), ins, grammar.Options{}, r2, opts)
	want, got := applyReport(t, res1, err1, r1), applyReport(t, res2, err2, r2)
	if want != got {
		t.Fatalf("ApplyInputs differs from Apply for %q:\nApply:\n%s\nApplyInputs:\n%s", srcs, want, got)
	}
}

// copyTree copies the directory src to dst: directories, regular files
// (with their modes) and symbolic links.
func copyTree(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		switch {
		case fi.Mode()&os.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(target, to)
		case fi.IsDir():
			return os.MkdirAll(to, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, data, fi.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestApplyInputsAsApply: applying plans as they are read (ApplyInputs)
// reports and writes what applying their parsed documents (Apply) does,
// over the golden plans of every dialect, FuzzApply's seeds, several
// documents in a row and a dry run.
func TestApplyInputsAsApply(t *testing.T) {
	var srcs []string
	for _, pat := range []string{"../golden/acts/*.md", "../golden/plan/*.md", "../golden/udiff/*.md", "../golden/apply-patch/*.md", "../golden/search-replace/*.md"} {
		names, _ := filepath.Glob(pat)
		for _, n := range names {
			data, err := os.ReadFile(n)
			if err != nil {
				t.Fatal(err)
			}
			srcs = append(srcs, string(data))
		}
	}
	if len(srcs) < 40 {
		t.Fatalf("only %d plans", len(srcs))
	}
	srcs = append(srcs, fuzzSeeds...)
	for _, s := range srcs {
		sameApply(t, []string{s}, Options{})
	}
	// The workspace goldens, each in its own root, applied and dry run.
	cases, _ := filepath.Glob("../golden/workspace/*/plan.md")
	if len(cases) < 20 {
		t.Fatalf("only %d workspace cases", len(cases))
	}
	for _, c := range cases {
		data, err := os.ReadFile(c)
		if err != nil {
			t.Fatal(err)
		}
		root := filepath.Join(filepath.Dir(c), "_root")
		if _, err := os.Stat(root); err != nil {
			root = t.TempDir()
		}
		sameApplyIn(t, root, []string{string(data)}, Options{})
		sameApplyIn(t, root, []string{string(data)}, Options{DryRun: true})
	}
	first := "~~~act\nwrite_file a.txt\n~~~\n~~~\none\n~~~\n~~~act\nrun_command ls\n~~~\n"
	second := "~~~act\npatch_file a.txt\n~~~\n~~~\none\n~~~\n~~~\ntwo\n~~~\n"
	bad := "~~~act\npatch_file a.txt\n~~~\n~~~\nthree\n~~~\n~~~\nfour\n~~~\n"
	sameApply(t, []string{first, second}, Options{})
	sameApply(t, []string{first, bad}, Options{})
	sameApply(t, []string{first, "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+uno\n", "# P\n\n## Rationale\n\n```\nx\n```\n\n## Action Plan\n\n### `CREATE`\n\n- **File Path:** A.TXT\n\n```\nx\n```\n"}, Options{})
}

// TestApplyInputsDiffByName pins that under auto a .patch or .diff file is
// a unified diff by its name, as the other commands read it: this one's
// mail header shows an act fence, which read by content makes it acts.
func TestApplyInputsDiffByName(t *testing.T) {
	src := "Subject: [PATCH] show the act fence in the docs\n\n```act\nwrite_file x.txt\n```\n\n" +
		"diff --git a/f.txt b/f.txt\n--- a/f.txt\n+++ b/f.txt\n@@ -1 +1 @@\n-a\n+b\n"
	for _, name := range []string{"change.patch", "change.diff", "change.md"} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			files(t, root, map[string]string{"f.txt": "a\n"})
			res, err := ApplyInputs(context.Background(), []Input{{Name: name, Src: []byte(src)}}, grammar.Options{}, root, Options{})
			got, _ := os.ReadFile(filepath.Join(root, "f.txt"))
			if name == "change.md" {
				if err == nil && string(got) == "b\n" {
					t.Fatalf("a .md file was read as a diff")
				}
				return
			}
			if err != nil {
				t.Fatalf("ApplyInputs: %v\n%v", err, res.Diagnostics)
			}
			if string(got) != "b\n" {
				t.Fatalf("f.txt = %q, want the diff applied", got)
			}
			if _, err := os.Stat(filepath.Join(root, "x.txt")); err == nil {
				t.Fatalf("the act block in the mail header was applied")
			}
		})
	}
}
