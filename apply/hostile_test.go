package apply

import (
	"context"
	"errors"
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
)

// TestRefusedNotFailed: plans that the check used to pass and whose write
// then failed part-way (exit 2) are refused before anything is written:
// a file and then a file below it, a file below a file the plan deletes, a
// file below a file on disk.
func TestRefusedNotFailed(t *testing.T) {
	w := func(p string) string { return "~~~act\nwrite_file " + p + "\n~~~\n~~~\nx\n~~~\n" }
	for name, plan := range map[string]string{
		"file then below it": w("n") + w("n/b"),
		"below a deleted":    "~~~act\ndelete_file old.txt\n~~~\n" + w("old.txt/b"),
		"below a disk file":  w("old.txt/b/c"),
	} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			files(t, root, map[string]string{"old.txt": "x\n"})
			before := snapshot(t, root)
			_, err := Apply(context.Background(), []*ast.Document{parse(t, plan)}, root, Options{})
			if !errors.Is(err, ErrRefused) {
				t.Errorf("err = %v, want ErrRefused", err)
			}
			if after := snapshot(t, root); after != before {
				t.Errorf("workspace changed:\n%s\n%s", before, after)
			}
		})
	}
}

// TestGitCopyNotAMove: a git copy used to be read as a rename, so apply
// deleted its source; a mode change and a binary patch were dropped with
// exit 0. Each is refused now and the workspace is untouched.
func TestGitCopyNotAMove(t *testing.T) {
	for name, diff := range map[string]string{
		"copy":   "diff --git a/a.txt b/b.txt\nsimilarity index 100%\ncopy from a.txt\ncopy to b.txt\n",
		"mode":   "diff --git a/a.txt b/a.txt\nold mode 100644\nnew mode 100755\n",
		"binary": "diff --git a/c.bin b/c.bin\nnew file mode 100644\nindex 0000000..e69de29\nGIT binary patch\nliteral 3\nKcmZQzWMT#Y01f~E\n\nliteral 0\nHcmV?d00001\n\n",
	} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			files(t, root, map[string]string{"a.txt": "a\n"})
			before := snapshot(t, root)
			doc, err := grammar.Parse(context.Background(), "p.diff", []byte(diff), grammar.Options{Dialect: grammar.DialectUdiff})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Apply(context.Background(), []*ast.Document{doc}, root, Options{}); !errors.Is(err, ErrRefused) {
				t.Errorf("err = %v, want ErrRefused", err)
			}
			if after := snapshot(t, root); after != before {
				t.Errorf("workspace changed:\n%s\n%s", before, after)
			}
		})
	}
}

// TestMoveOntoItself: `move_file a.txt a.txt` deleted a.txt with exit 0
// (the destination written, then the source removed); it changes nothing.
func TestMoveOntoItself(t *testing.T) {
	root := t.TempDir()
	files(t, root, map[string]string{"a.txt": "hello\n"})
	before := snapshot(t, root)
	res, err := Apply(context.Background(), []*ast.Document{parse(t, "~~~act\nmove_file a.txt ./a.txt\n~~~\n")}, root, Options{})
	if err != nil || len(res.Changes) != 0 {
		t.Fatalf("err %v, changes %+v", err, res.Changes)
	}
	if after := snapshot(t, root); after != before {
		t.Errorf("workspace changed:\n%s\n%s", before, after)
	}
}
