package apply

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/typed/plan"
	"github.com/plangram/plangram/typed/udiff"
)

// TestApplyTypedExactBytes: a plan's FIND/REPLACE texts and a diff's hunk
// lines that are not UTF-8 go through the JSON output and back, through
// the typed decoders (whose json.RawMessage fields carry the exact bytes
// beside the strings, read with ast.UnmarshalExact) and through Apply, and
// come out byte for byte.
func TestApplyTypedExactBytes(t *testing.T) {
	root := t.TempDir()
	files(t, root, map[string]string{"a.txt": "caf\xe9 = 1\n", "b.txt": "na\xefve\nx\n"})
	planDoc := parse(t, "# Plan\n\n- **Goal:** Latin-1\n\n## Rationale\n\n```text\nWhy.\n```\n\n## Action Plan\n\n"+
		"### `EDIT`\n\n- **File Path:** a.txt\n\n#### `FIND:`\n\n```text\ncaf\xe9 = 1\n```\n\n#### `REPLACE:`\n\n```text\ncaf\xe9 = \xff2\n```\n")
	diffDoc, err := grammar.Parse(context.Background(), "b.diff", []byte("--- a/b.txt\n+++ b/b.txt\n@@ -1,2 +1,2 @@\n-na\xefve\n+na\xefve \xff\n x\n"), grammar.Options{Dialect: "udiff"})
	if err != nil {
		t.Fatal(err)
	}
	var docs []*ast.Document
	for _, doc := range []*ast.Document{planDoc, diffDoc} { // through the JSON output and back
		data, err := ast.JSON(doc)
		if err != nil {
			t.Fatal(err)
		}
		var back ast.Document
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatal(err)
		}
		docs = append(docs, &back)
	}

	acts, err := plan.Decode(docs[0])
	if err != nil || len(acts) != 1 {
		t.Fatalf("plan.Decode: %v, %v", acts, err)
	}
	edit := acts[0].(*plan.Edit)
	if len(edit.Edits) != 1 {
		t.Fatalf("edits = %s", edit.Edits)
	}
	var fr struct{ Find, Replace string }
	if err := ast.UnmarshalExact(edit.Edits[0], &fr); err != nil || fr.Find != "caf\xe9 = 1" || fr.Replace != "caf\xe9 = \xff2" {
		t.Errorf("edit %s: find %q, replace %q, %v", edit.Edits[0], fr.Find, fr.Replace, err)
	}
	var lossy struct{ Find string }
	if err := json.Unmarshal(edit.Edits[0], &lossy); err != nil || lossy.Find != "caf\ufffd = 1" {
		t.Errorf("edit %s is not plain JSON: %q, %v", edit.Edits[0], lossy.Find, err)
	}

	us, err := udiff.Decode(docs[1])
	if err != nil || len(us) != 1 {
		t.Fatalf("udiff.Decode: %v, %v", us, err)
	}
	up := us[0].(*udiff.UpdateFile)
	var h grammar.Hunk
	if len(up.Hunks) != 1 {
		t.Fatalf("hunks = %s", up.Hunks)
	}
	if err := ast.UnmarshalExact(up.Hunks[0], &h); err != nil || h.Old != "na\xefve\nx\n" || h.New != "na\xefve \xff\nx\n" {
		t.Errorf("hunk %s: %q → %q, %v", up.Hunks[0], h.Old, h.New, err)
	}

	if _, err := Apply(context.Background(), docs, root, Options{}); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"a.txt": "caf\xe9 = \xff2\n", "b.txt": "na\xefve \xff\nx\n"} {
		if got := read(t, filepath.Join(root, name)); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
}
