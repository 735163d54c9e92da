package apply

import (
	"context"
	"errors"
	"testing"

	"github.com/plangram/plangram/ast"
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
