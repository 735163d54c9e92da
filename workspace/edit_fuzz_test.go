package workspace

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
)

// FuzzEdit checks one patch_file of a file against the rule it implements,
// on arbitrary file, FIND and REPLACE texts: it never panics; a FIND text
// that occurs exactly once (strings.Count) is replaced there, as
// strings.Replace does, unless the edit is found already applied (a
// warning); any other count is an error and changes nothing.
func FuzzEdit(f *testing.F) {
	f.Add("a\nb\nc\n", "b\n", "B\n")
	f.Add("x x x", "x", "y")
	f.Add("abc", "", "z")
	f.Add("one\r\ntwo\r\n", "one\n", "ONE\n")
	f.Add("keep\n", "gone\n", "keep\n")
	root := f.TempDir()
	f.Fuzz(func(t *testing.T, file, find, replace string) {
		if err := os.WriteFile(filepath.Join(root, "f.txt"), []byte(file), 0o644); err != nil {
			t.Fatal(err)
		}
		a := &ast.Action{Name: "patch_file"}
		a.Params.Set("path", "f.txt", nil)
		a.Params.Set("old", find, nil)
		a.Params.Set("new", replace, nil)
		doc := &ast.Document{Dialect: grammar.DialectActs, Actions: []*ast.Action{a}}
		sim := Simulate(context.Background(), []*ast.Document{doc}, root, Options{})
		var errs, applied int
		for _, d := range sim.Diagnostics[0] {
			switch {
			case d.Severity == ast.Error:
				errs++
			case d.Code == CodeAlreadyApplied:
				applied++
			}
		}
		n := strings.Count(file, find)
		switch {
		case find == "" || n != 1:
			if errs == 0 && applied == 0 && !strings.Contains(file, "\r\n") {
				t.Fatalf("%d occurrences of %q in %q: no error", n, find, file)
			}
			if errs > 0 && len(sim.Changes) > 0 {
				t.Fatalf("a failed edit changed the file: %+v", sim.Changes)
			}
		case applied > 0:
			if len(sim.Changes) > 0 {
				t.Fatalf("an edit found applied changed the file: %+v", sim.Changes)
			}
		case errs > 0:
			t.Fatalf("one occurrence of %q in %q: %v", find, file, sim.Diagnostics[0])
		default:
			want := strings.Replace(file, find, replace, 1)
			switch {
			case want == file && len(sim.Changes) == 0:
			case len(sim.Changes) != 1 || sim.Changes[0].New != want:
				t.Fatalf("edit of %q: %q by %q: changes %+v, want %q", file, find, replace, sim.Changes, want)
			}
		}
	})
}
