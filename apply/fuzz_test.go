package apply

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
)

// fuzzSeeds are FuzzApply's seeds.
var fuzzSeeds = []string{
	actsPlan,
	"~~~act\nwrite_file \"ab://../../outside/pwn.txt\"\n~~~\n~~~\nx\n~~~\n",
	"~~~act\nwrite_file link/pwn.txt\n~~~\n~~~\nx\n~~~\n",
	"~~~act\nmove_file a.txt ../b.txt\n~~~\n",
	"~~~act\ndelete_file link\n~~~\n",
	"~~~act\nappend_file link/keep.txt\n~~~\n~~~\nx\n~~~\n",
	"~~~act\nwrite_file sub/../../x\n~~~\n~~~\nx\n~~~\n",
	"~~~act\npatch_file a.txt\n~~~\n~~~\na\n~~~\n~~~\nb\n~~~\n~~~act\nmove_file a.txt c/d.txt\n~~~\n",
	"../x.txt\n```\n<<<<<<< SEARCH\n=======\nx\n>>>>>>> REPLACE\n```\n",
	"--- a/a.txt\n+++ b/../a.txt\n@@ -1 +1 @@\n-a\n+b\n",
	"*** Begin Patch\n*** Update File: a.txt\n*** Move to: link/a.txt\n@@\n-a\n+b\n*** End Patch\n",
	"*** Begin Patch\n*** Update File: c.txt\n@@\n+x\n@@ c\n@@ d\n-e\n+E\n *** End Patch\n",
	"c.txt\n<<<<<<< SEARCH\nd\n=======\nD\n>>>>>>> REPLACE\n",
	"--- /dev/null\n+++ b/c.txt\n@@ -4,1 +4,1 @@\n c\n-d\n+D\n",
	// Case variants of names on disk (case-collision; LINK is not followed).
	"~~~act\nwrite_file A.txt\n~~~\n~~~\nx\n~~~\n~~~act\nappend_file SUB/b.txt\n~~~\n~~~\nx\n~~~\n~~~act\nwrite_file LINK/KEEP.txt\n~~~\n~~~\nx\n~~~\n",
	"# P\n\n## Rationale\n\n```\nx\n```\n\n## Action Plan\n\n### `CREATE`\n\n- **File Path:** ../x\n\n```\nx\n```\n",
}

// FuzzApply: parse any document (auto dialect: acts, plan and the edit
// formats) and apply it in a temporary
// root: no panic, and nothing outside the root is ever created, changed or
// removed (a sibling directory, a symbolic link inside the root pointing to
// it, and the root's parent are watched).
func FuzzApply(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		base := t.TempDir()
		root, outside := fuzzRoot(t, base)
		before := snapshot(t, outside)
		doc, err := grammar.Parse(context.Background(), "fuzz.md", []byte(src), grammar.Options{})
		if err != nil {
			return
		}
		res, _ := Apply(context.Background(), []*ast.Document{doc}, root, Options{})
		if after := snapshot(t, outside); after != before {
			t.Fatalf("apply changed a directory outside the root:\nbefore:\n%s\nafter:\n%s", before, after)
		}
		ents, _ := os.ReadDir(base)
		for _, e := range ents {
			if e.Name() != "root" && e.Name() != "outside" {
				t.Fatalf("apply created %s next to the root", e.Name())
			}
		}
		if res != nil {
			for _, ch := range res.Changes {
				// "..~" is a name inside the root; ".." or "../x" is not.
				if !filepath.IsLocal(ch.Path) {
					t.Fatalf("a change outside the root: %q", ch.Path)
				}
			}
		}
	})
}
