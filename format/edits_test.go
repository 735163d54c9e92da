package format

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
)

var editDialects = []string{grammar.DialectSearchReplace, grammar.DialectUdiff, grammar.DialectApplyPatch}

// fixedCodes are the diagnostics fmt repairs: they may disappear.
var fixedCodes = map[string]bool{grammar.CodeHunkCount: true, grammar.CodeDividerEndsReplace: true}

// editMeaning is what fmt keeps of an edit-format document: the actions
// with their parameters (a udiff hunk's counts aside, which fmt
// recomputes) and block bytes, and the diagnostics it does not repair.
func editMeaning(t testing.TB, doc *ast.Document) string {
	t.Helper()
	type action struct {
		Name   string     `json:"name"`
		Params ast.Params `json:"params"`
		Blocks []string   `json:"blocks"`
	}
	var m struct {
		Actions []action `json:"actions"`
		Codes   []string `json:"codes"`
	}
	for _, a := range doc.Actions {
		x := action{Name: a.Name}
		for _, p := range a.Params {
			if hs, ok := p.Value.([]any); ok && p.Name == "hunks" {
				var clean []any
				for _, h := range hs {
					if h, ok := h.(grammar.Hunk); ok {
						h.OldLines, h.NewLines = nil, nil
						clean = append(clean, h)
					}
				}
				p.Value = clean
			}
			x.Params = append(x.Params, ast.Param{Name: p.Name, Value: p.Value})
		}
		for _, b := range a.Blocks {
			x.Blocks = append(x.Blocks, b.Content)
		}
		m.Actions = append(m.Actions, x)
	}
	for _, d := range doc.Diagnostics {
		if !fixedCodes[d.Code] {
			m.Codes = append(m.Codes, d.Code)
		}
	}
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// checkEditRoundTrip checks fmt on an edit-format document: the output
// means the same and formatting it again changes nothing.
func checkEditRoundTrip(t testing.TB, src []byte, dialect string) []byte {
	t.Helper()
	return checkMeaningRoundTrip(t, src, grammar.Options{Dialect: dialect}, func(t testing.TB, _ string, d *ast.Document) string { return editMeaning(t, d) })
}

// TestEditFormatsRoundTrip formats every golden input of the edit formats
// and pins the output of those under golden/fmt/edits/ (named
// DIALECT__NAME.md).
func TestEditFormatsRoundTrip(t *testing.T) {
	for _, d := range editDialects {
		files, _ := filepath.Glob("../golden/" + d + "/*.md")
		if len(files) == 0 {
			t.Fatalf("%s: no golden inputs", d)
		}
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			checkEditRoundTrip(t, src, d)
		}
	}
	files, _ := filepath.Glob("../golden/fmt/edits/*.md")
	if len(files) == 0 {
		t.Fatal("no golden/fmt/edits inputs")
	}
	g := goldie.New(t, goldie.WithFixtureDir("../golden/fmt/edits"), goldie.WithNameSuffix(".golden"))
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".md")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			d, _, _ := strings.Cut(name, "__")
			g.Assert(t, name, checkEditRoundTrip(t, src, d))
		})
	}
}

func FuzzFmtEdits(f *testing.F) {
	for i, d := range editDialects {
		files, _ := filepath.Glob("../golden/" + d + "/*.md")
		for _, file := range files {
			if data, err := os.ReadFile(file); err == nil {
				f.Add(data, uint8(i))
			}
		}
	}
	f.Fuzz(func(t *testing.T, src []byte, mode uint8) {
		d := editDialects[int(mode)%len(editDialects)]
		checkEditRoundTrip(t, src, d)
	})
}

// TestUdiffHunkHeaderEdges checks that fmt rewrites a hunk header from the
// numbers the parser read, so the output means the same: a start too large
// for an int, a section holding a lone CR, a CRLF header.
func TestUdiffHunkHeaderEdges(t *testing.T) {
	for _, src := range []string{
		"--- a/x\n+++ b/x\n@@ -99999999999999999999,2 +1 @@\n a\n-b\n+c\n",
		"--- a/x\n+++ b/x\n@@ -1,2 +1,9 @@ func\rmain\n a\n-b\n+c\n",
		"--- a/x\r\n+++ b/x\r\n@@ -1 +1 @@ s\r\n a\r\n-b\r\n+c\r\n",
	} {
		checkEditRoundTrip(t, []byte(src), grammar.DialectUdiff)
	}
}
