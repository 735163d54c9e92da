package schema_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"

	"github.com/plangram/plangram/internal/testkit/schematest"
	"github.com/plangram/plangram/schema"
)

// TestJSONSchemaGolden pins the JSON Schema of each built-in dialect's
// output (golden/schema/DIALECT.json.golden) and checks it is a valid draft
// 2020-12 schema.
func TestJSONSchemaGolden(t *testing.T) {
	g := goldie.New(t, goldie.WithFixtureDir("../golden/schema"), goldie.WithNameSuffix(".golden"))
	for _, d := range schema.Dialects() {
		t.Run(d, func(t *testing.T) {
			js := builtinJSONSchema(t, d)
			if _, err := schematest.Compile(d+".json", js); err != nil {
				t.Fatalf("generated schema does not compile: %v", err)
			}
			g.Assert(t, d+".json", js)
		})
	}
}

func builtinJSONSchema(t *testing.T, dialect string) []byte {
	t.Helper()
	s, err := schema.Builtin(dialect)
	if err != nil {
		t.Fatal(err)
	}
	js, err := schema.JSONSchema(s)
	if err != nil {
		t.Fatal(err)
	}
	return js
}

// TestJSONSchemaValidatesCorpus validates every document JSON of the golden
// corpus (golden/DIALECT/*.json.golden) against its dialect's schema.
func TestJSONSchemaValidatesCorpus(t *testing.T) {
	total := 0
	for _, d := range schema.Dialects() {
		files, err := filepath.Glob(filepath.Join("..", "golden", d, "*.json.golden"))
		if err != nil {
			t.Fatal(err)
		}
		if len(files) == 0 {
			continue // a dialect without a document corpus (tools streams events)
		}
		sch, err := schematest.Compile(d+".json", builtinJSONSchema(t, d))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if err := schematest.Validate(sch, data); err != nil {
				t.Errorf("%s: %v", f, err)
			}
			total++
		}
	}
	if total == 0 {
		t.Fatal("no golden documents found")
	}
	t.Logf("%d golden documents validated", total)
}

// TestJSONSchemaRejects checks the schema is not vacuous: documents that
// break it in one place are rejected.
func TestJSONSchemaRejects(t *testing.T) {
	sch, err := schematest.Compile("acts.json", builtinJSONSchema(t, "acts"))
	if err != nil {
		t.Fatal(err)
	}
	base, err := os.ReadFile("../golden/acts/write_file_blocks.json.golden")
	if err != nil {
		t.Fatal(err)
	}
	if err := schematest.Validate(sch, base); err != nil {
		t.Fatalf("base document: %v", err)
	}
	errorDiag := map[string]any{"severity": "error", "code": "x", "message": "m",
		"span": map[string]any{"start": map[string]any{"offset": 0, "line": 1, "col": 1}, "end": map[string]any{"offset": 0, "line": 1, "col": 1}}}
	for _, tc := range []struct {
		name   string
		mutate func(doc map[string]any)
		ok     bool
	}{
		{"missing required param", func(d map[string]any) { delete(params(d, 0), "path") }, false},
		{"missing param allowed with an error", func(d map[string]any) {
			delete(params(d, 0), "path")
			d["diagnostics"] = []any{errorDiag}
		}, true},
		{"wrong param type", func(d map[string]any) { params(d, 0)["path"] = true }, false},
		{"undeclared param", func(d map[string]any) { params(d, 0)["colour"] = "red" }, false},
		{"unknown action without params", func(d map[string]any) {
			action(d, 0)["name"] = "frobnicate"
			action(d, 0)["params"] = map[string]any{}
		}, true},
		{"unknown action with params", func(d map[string]any) { action(d, 0)["name"] = "frobnicate" }, false},
		{"wrong dialect", func(d map[string]any) { d["dialect"] = "plan" }, false},
		{"missing span", func(d map[string]any) { delete(d, "span") }, false},
		{"bad severity", func(d map[string]any) {
			bad := map[string]any{}
			for k, v := range errorDiag {
				bad[k] = v
			}
			bad["severity"] = "fatal"
			d["diagnostics"] = []any{bad}
		}, false},
		{"unknown block field", func(d map[string]any) {
			action(d, 0)["blocks"].([]any)[0].(map[string]any)["colour"] = "red"
		}, false},
		{"line as string", func(d map[string]any) {
			d["span"].(map[string]any)["start"].(map[string]any)["line"] = "1"
		}, false},
	} {
		var doc map[string]any
		if err := json.Unmarshal(base, &doc); err != nil {
			t.Fatal(err)
		}
		tc.mutate(doc)
		data, _ := json.Marshal(doc)
		err := schematest.Validate(sch, data)
		if (err == nil) != tc.ok {
			t.Errorf("%s: valid=%v, want %v (%v)", tc.name, err == nil, tc.ok, err)
		}
	}
}

func action(doc map[string]any, i int) map[string]any {
	return doc["actions"].([]any)[i].(map[string]any)
}

func params(doc map[string]any, i int) map[string]any {
	return action(doc, i)["params"].(map[string]any)
}

// TestJSONSchemaTypes checks each parameter type's JSON Schema against
// values schema.Param.Value produces.
func TestJSONSchemaTypes(t *testing.T) {
	src := `{"version": 1, "dialect": "t", "syntax": "acts", "actions": [{"name": "a", "params": [
	  {"name": "s", "type": "string"}, {"name": "p", "type": "path"}, {"name": "b", "type": "bool"},
	  {"name": "i", "type": "int", "default": 3}, {"name": "n", "type": "number"},
	  {"name": "e", "type": "enum", "enum": ["x", "y"]}, {"name": "l", "type": "list"},
	  {"name": "j", "type": "json"}, {"name": "v", "type": "int", "variadic": true}]}]}`
	s, err := schema.Parse("t.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	js, err := schema.JSONSchema(s)
	if err != nil {
		t.Fatal(err)
	}
	sch, err := schematest.Compile("t.json", js)
	if err != nil {
		t.Fatal(err)
	}
	doc := func(params string) []byte {
		return []byte(fmt.Sprintf(`{"dialect": "acts", "actions": [{"name": "a", "args": [], "params": %s, "blocks": [],
		  "name_span": {"start": {"offset": 0, "line": 1, "col": 1}, "end": {"offset": 0, "line": 1, "col": 1}},
		  "span": {"start": {"offset": 0, "line": 1, "col": 1}, "end": {"offset": 0, "line": 1, "col": 1}}}],
		  "diagnostics": [], "span": {"start": {"offset": 0, "line": 1, "col": 1}, "end": {"offset": 0, "line": 1, "col": 1}}}`, params))
	}
	// Values as schema.Param.Value makes them, marshalled.
	vals := map[string]string{"s": " a ", "p": "src/a", "b": "TRUE", "i": "7", "n": "1.5", "e": "y", "l": "a\nb", "j": `{"k": [1]}`}
	var parts []string
	for _, name := range []string{"s", "p", "b", "i", "n", "e", "l", "j"} {
		v, err := s.Actions[0].Param(name).Value(vals[name])
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		js, _ := json.Marshal(v)
		parts = append(parts, fmt.Sprintf("%q: %s", name, js))
	}
	vv, err := s.Actions[0].Param("v").ListValue([]string{"1", " 2 "})
	if err != nil {
		t.Fatal(err)
	}
	vjs, _ := json.Marshal(vv)
	parts = append(parts, fmt.Sprintf(`"v": %s`, vjs))
	if err := schematest.Validate(sch, doc("{"+strings.Join(parts, ", ")+"}")); err != nil {
		t.Errorf("typed values rejected: %v", err)
	}
	for _, bad := range []string{`{"b": "true"}`, `{"i": 1.5}`, `{"e": "z"}`, `{"l": "a"}`, `{"v": ["1"]}`, `{"n": "1"}`} {
		if schematest.Validate(sch, doc(bad)) == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}
