package apply

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/workspace"
)

// TestApplyEditFormats: the search-replace, udiff and apply-patch dialects'
// actions are applied through the same overlay as acts and plan: creates,
// edits, moves and deletes, all or nothing.
func TestApplyEditFormats(t *testing.T) {
	if _, ok := workspace.DefaultEffects()["update_file"]; !ok {
		// The edit formats' effects land in workspace (edits.go) with the
		// edit-formats work; this test runs as soon as they are there.
		t.Skip("workspace does not know the edit formats' actions yet")
	}
	const app = "import os\n\ndef main():\n    print(\"hi\")\n\nmain()\n"
	for _, c := range []struct {
		dialect, src string
		want         map[string]string // path → content; "" = must not exist
	}{
		{grammar.DialectSearchReplace,
			"src/app.py\n```python\n<<<<<<< SEARCH\n    print(\"hi\")\n=======\n    print(\"hello\")\n>>>>>>> REPLACE\n```\n\n" +
				"src/new.py\n```python\n<<<<<<< SEARCH\n=======\nNEW = 1\n>>>>>>> REPLACE\n```\n",
			map[string]string{"src/app.py": "import os\n\ndef main():\n    print(\"hello\")\n\nmain()\n", "src/new.py": "NEW = 1\n"}},
		{grammar.DialectUdiff,
			"```diff\n--- a/src/app.py\n+++ b/src/app.py\n@@ -3,2 +3,2 @@\n def main():\n-    print(\"hi\")\n+    print(\"hello\")\n--- /dev/null\n+++ b/src/new.py\n@@ -0,0 +1 @@\n+NEW = 1\n--- a/old.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-bye\n```\n",
			map[string]string{"src/app.py": "import os\n\ndef main():\n    print(\"hello\")\n\nmain()\n", "src/new.py": "NEW = 1\n", "old.txt": ""}},
		{grammar.DialectApplyPatch,
			"*** Begin Patch\n*** Update File: src/app.py\n*** Move to: src/main.py\n@@ def main():\n-    print(\"hi\")\n+    print(\"hello\")\n*** Add File: src/new.py\n+NEW = 1\n*** Delete File: old.txt\n*** End Patch\n",
			map[string]string{"src/main.py": "import os\n\ndef main():\n    print(\"hello\")\n\nmain()\n", "src/app.py": "", "src/new.py": "NEW = 1\n", "old.txt": ""}},
	} {
		t.Run(c.dialect, func(t *testing.T) {
			root := t.TempDir()
			files(t, root, map[string]string{"src/app.py": app, "old.txt": "bye\n"})
			doc, err := grammar.Parse(context.Background(), "edit.md", []byte(c.src), grammar.Options{Dialect: c.dialect})
			if err != nil {
				t.Fatal(err)
			}
			res, err := Apply(context.Background(), []*ast.Document{doc}, root, Options{})
			if err != nil {
				for _, d := range res.Diagnostics[0] {
					t.Log(d.Format("edit.md"))
				}
				t.Fatal(err)
			}
			for p, want := range c.want {
				data, err := os.ReadFile(filepath.Join(root, p))
				switch {
				case want == "" && err == nil:
					t.Errorf("%s still exists", p)
				case want != "" && string(data) != want:
					t.Errorf("%s = %q, want %q (%v)", p, data, want, err)
				}
			}
			// Applying again is refused (a deletion of a file that is
			// gone) or, when every edit is found already applied, a
			// success that changes nothing.
			before := snapshot(t, root)
			if res, err := Apply(context.Background(), []*ast.Document{doc}, root, Options{}); err == nil && !res.AlreadyApplied {
				t.Error("a second apply of the same edits was neither refused nor found already applied")
			}
			if snapshot(t, root) != before {
				t.Error("the refused second apply changed the workspace")
			}
		})
	}
}

// TestApplyEditFormatsCRLF: an LF edit of a file whose lines all end in
// CRLF keeps the file's CRLF line endings in every edit format (crlf-kept);
// a file with mixed line endings is matched byte for byte.
func TestApplyEditFormatsCRLF(t *testing.T) {
	for _, c := range []struct {
		dialect, src string
	}{
		{grammar.DialectSearchReplace, "f.txt\n<<<<<<< SEARCH\nb\nc\n=======\nB\nnew\nc\n>>>>>>> REPLACE\n"},
		{grammar.DialectUdiff, "--- a/f.txt\n+++ b/f.txt\n@@ -2,2 +2,3 @@\n-b\n+B\n+new\n c\n"},
		{grammar.DialectApplyPatch, "*** Begin Patch\n*** Update File: f.txt\n@@ a\n-b\n+B\n+new\n c\n*** End Patch\n"},
	} {
		t.Run(c.dialect, func(t *testing.T) {
			doc, err := grammar.Parse(context.Background(), "edit.md", []byte(c.src), grammar.Options{Dialect: c.dialect})
			if err != nil {
				t.Fatal(err)
			}
			root := t.TempDir()
			files(t, root, map[string]string{"f.txt": "a\r\nb\r\nc\r\nd"})
			res, err := Apply(context.Background(), []*ast.Document{doc}, root, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got, want := read(t, filepath.Join(root, "f.txt")), "a\r\nB\r\nnew\r\nc\r\nd"; got != want {
				t.Errorf("f.txt = %q, want %q", got, want)
			}
			noted := false
			for _, d := range res.Diagnostics[0] {
				noted = noted || d.Code == workspace.CodeCRLFKept
			}
			if !noted {
				t.Error("no crlf-kept note")
			}
			root = t.TempDir()
			files(t, root, map[string]string{"f.txt": "a\r\nb\nc\r\nd"})
			if _, err := Apply(context.Background(), []*ast.Document{doc}, root, Options{}); err == nil {
				t.Error("an LF edit of a file with mixed line endings was applied")
			}
		})
	}
}
