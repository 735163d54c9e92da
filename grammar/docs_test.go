package grammar

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/plangram/plangram/ast"
)

// docExample matches `<!-- example -->`, a fenced input block and the JSON
// block with the expected actions and diagnostic codes.
var docExample = regexp.MustCompile("(?s)<!-- example -->\n(`{4,}|~{4,})[a-z]*\n(.*?)\n`{4,}\n\n```json\n(.*?)\n```")

// TestDocsExamples checks every example of the dialect docs, so docs/ cannot
// drift from the parser.
func TestDocsExamples(t *testing.T) {
	for _, file := range []string{"../docs/acts.md", "../docs/search-replace.md", "../docs/udiff.md", "../docs/apply-patch.md"} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		examples := docExample.FindAllStringSubmatch(string(data), -1)
		if len(examples) == 0 {
			t.Fatalf("%s: no examples found", file)
		}
		for i, m := range examples {
			doc, err := Parse(context.Background(), "example.md", []byte(m[2]+"\n"), Options{})
			if err != nil {
				t.Fatal(err)
			}
			var want struct {
				Actions []struct {
					Name   string         `json:"name"`
					Params map[string]any `json:"params"`
				} `json:"actions"`
				Diagnostics []string `json:"diagnostics"`
			}
			if err := json.Unmarshal([]byte(m[3]), &want); err != nil {
				t.Fatalf("%s example %d: bad expectation: %v", file, i+1, err)
			}
			got := summary(t, doc)
			wantJSON, _ := json.Marshal(want)
			var wantNorm any
			_ = json.Unmarshal(wantJSON, &wantNorm)
			if !reflect.DeepEqual(got, wantNorm) {
				gotJSON, _ := json.Marshal(got)
				t.Errorf("%s example %d:\n got %s\nwant %s", file, i+1, gotJSON, wantJSON)
			}
		}
	}
}

// summary reduces a document to the actions' names and params and the
// diagnostic codes, as generic JSON values.
func summary(t *testing.T, doc *ast.Document) any {
	type action struct {
		Name   string     `json:"name"`
		Params ast.Params `json:"params"`
	}
	s := struct {
		Actions     []action `json:"actions"`
		Diagnostics []string `json:"diagnostics"`
	}{Diagnostics: []string{}}
	for _, a := range doc.Actions {
		s.Actions = append(s.Actions, action{a.Name, a.Params})
	}
	for _, d := range doc.Diagnostics {
		s.Diagnostics = append(s.Diagnostics, d.Code)
	}
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	_ = json.Unmarshal(data, &out)
	return out
}

// TestDocsNoConflictMarkers fails when a merge left git's conflict markers
// in a page of docs/ or the README (docs/udiff.md once shipped with both
// sides of a conflict). The edit formats' own markers (`<<<<<<< SEARCH`,
// `>>>>>>> REPLACE`) are not conflict markers.
func TestDocsNoConflictMarkers(t *testing.T) {
	files, err := filepath.Glob("../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, "../README.md")
	marker := regexp.MustCompile(`^(<{7} |>{7} |\|{7} )(\S*)`)
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			m := marker.FindStringSubmatch(line)
			if m == nil || m[2] == "SEARCH" || m[2] == "REPLACE" {
				continue
			}
			t.Errorf("%s:%d: git conflict marker %q", file, i+1, line)
		}
	}
}
