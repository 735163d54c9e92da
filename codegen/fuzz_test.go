package codegen_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/plangram/plangram/codegen"
	"github.com/plangram/plangram/schema"
)

// FuzzGen checks that every schema schema.Parse accepts generates Go code
// that parses and type-checks (names of any spelling, colliding after
// their conversion to Go identifiers, Go keywords, the generated file's
// own names), or an error, never a file that does not compile.
func FuzzGen(f *testing.F) {
	files, _ := filepath.Glob("../golden/custom/*.json")
	for _, p := range files {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(string(data))
		}
	}
	f.Add(`{"version": 1, "dialect": "x", "syntax": "acts", "actions": [
		{"name": "read_file", "params": [{"name": "path", "from": "block"}]},
		{"name": "ReadFile", "params": [{"name": "path", "from": "block"}, {"name": "Path", "from": "block"}]},
		{"name": "type", "params": [{"name": "func", "from": "block"}, {"name": "src", "from": "block"}]},
		{"name": "x-y", "params": [{"name": "a_b", "from": "block"}, {"name": "a-b", "from": "block"}, {"name": "a.b", "from": "block"}]},
		{"name": "Decode", "params": [{"name": "ActionName", "from": "block"}, {"name": "Source", "from": "block"}]},
		{"name": "_", "params": [{"name": "_", "from": "block"}]}]}`)
	var mu sync.Mutex
	exports := map[string]string{}
	f.Fuzz(func(t *testing.T, data string) {
		s, err := schema.Parse("fuzz.json", []byte(data))
		if err != nil {
			return
		}
		src, err := codegen.Go(s, codegen.GoOptions{Package: "fuzzgen"})
		if err != nil {
			return
		}
		// The export data of the file's imports, built once each.
		file, err := parser.ParseFile(token.NewFileSet(), "gen.go", src, parser.ImportsOnly)
		if err != nil {
			t.Fatalf("generated code does not parse: %v\n%s", err, src)
		}
		mu.Lock()
		missing := map[string]bool{}
		for _, imp := range file.Imports {
			if p := strings.Trim(imp.Path.Value, `"`); exports[p] == "" {
				missing[p] = true
			}
		}
		if len(missing) > 0 {
			for p, e := range exportData(t, missing) {
				exports[p] = e
			}
		}
		mu.Unlock()
		typeCheckWith(t, map[string][]byte{"gen.go": src}, exports)
		if t.Failed() {
			t.Logf("schema:\n%s\ncode:\n%s", data, strings.Join(strings.SplitN(string(src), "\n", 80)[:min(79, strings.Count(string(src), "\n"))], "\n"))
		}
	})
}
