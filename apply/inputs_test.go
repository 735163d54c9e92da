package apply

import (
	"context"
	"os"
	"path/filepath"
	"testing"

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
