package schema_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/plangram/plangram/internal/testkit/schematest"
	"github.com/plangram/plangram/schema"
)

const metaSchemaFile = "../docs/schema.schema.json"

func metaSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	data, err := os.ReadFile(metaSchemaFile)
	if err != nil {
		t.Fatal(err)
	}
	sch, err := schematest.Compile("schema.schema.json", data)
	if err != nil {
		t.Fatalf("docs/schema.schema.json: %v", err)
	}
	return sch
}

// schemaFiles returns every schema file the project ships or tests with:
// the built-in ones and the custom dialects of the golden corpus.
func schemaFiles(t *testing.T) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	for _, d := range schema.Dialects() {
		data, err := schema.BuiltinSource(d)
		if err != nil {
			t.Fatal(err)
		}
		files["builtin/"+d+".json"] = data
	}
	custom, _ := filepath.Glob("../golden/custom/*.json")
	if len(custom) == 0 {
		t.Fatal("no custom schema files in golden/custom")
	}
	for _, f := range custom {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		files[f] = data
	}
	return files
}

// TestSchemaFilesValidate checks that docs/schema.schema.json accepts every
// schema file plangram ships or tests with, and that schema.Parse does too.
func TestSchemaFilesValidate(t *testing.T) {
	sch := metaSchema(t)
	for name, data := range schemaFiles(t) {
		if err := schematest.Validate(sch, data); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if _, err := schema.Parse(name, data); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		var head struct {
			Ref string `json:"$schema"`
		}
		if err := json.Unmarshal(data, &head); err != nil || head.Ref != "../../docs/schema.schema.json" {
			t.Errorf("%s: $schema is %q, want the relative path of docs/schema.schema.json", name, head.Ref)
		}
	}
}

// TestSchemaFilesRejected checks the meta-schema rejects bad schema files,
// as schema.Parse does.
func TestSchemaFilesRejected(t *testing.T) {
	sch := metaSchema(t)
	for _, tc := range []struct{ name, src string }{
		{"no actions", `{"version": 1, "dialect": "acts", "actions": []}`},
		{"version 2", `{"version": 2, "dialect": "acts", "actions": [{"name": "a"}]}`},
		{"unknown field", `{"version": 1, "dialect": "acts", "colour": "red", "actions": [{"name": "a"}]}`},
		{"bad type", `{"version": 1, "dialect": "acts", "actions": [{"name": "a", "params": [{"name": "p", "type": "colour"}]}]}`},
		{"enum without values", `{"version": 1, "dialect": "acts", "actions": [{"name": "a", "params": [{"name": "p", "type": "enum"}]}]}`},
		{"bad param name", `{"version": 1, "dialect": "acts", "actions": [{"name": "a", "params": [{"name": "file path"}]}]}`},
		{"two-word action", `{"version": 1, "dialect": "acts", "actions": [{"name": "write file"}]}`},
		{"bad args", `{"version": 1, "dialect": "acts", "actions": [{"name": "a", "args": "both"}]}`},
		{"bad entities", `{"version": 1, "dialect": "tools", "actions": [{"name": "a", "params": [{"name": "p", "entities": "strip"}]}]}`},
		{"items without list", `{"version": 1, "dialect": "plan", "actions": [{"name": "a", "params": [{"name": "p", "items": "path"}]}]}`},
		{"bad syntax", `{"version": 1, "dialect": "deploy", "syntax": "yaml", "actions": [{"name": "a"}]}`},
		{"negative blocks", `{"version": 1, "dialect": "plan", "actions": [{"name": "a", "blocks": {"min": -1}}]}`},
	} {
		if err := schematest.Validate(sch, []byte(tc.src)); err == nil {
			t.Errorf("%s: accepted by docs/schema.schema.json", tc.name)
		}
		_, err := schema.Parse("bad.json", []byte(tc.src))
		var se *schema.Error
		if !errors.As(err, &se) {
			t.Errorf("%s: schema.Parse returned %v, want a positioned *schema.Error", tc.name, err)
		}
	}
}

// TestMetaSchemaCoversFormat checks that docs/schema.schema.json declares
// every field of the schema file format (the json tags of schema.Schema,
// Action, Param and Blocks) and no other, and every parameter type, so it
// cannot drift from what schema.Parse reads.
func TestMetaSchemaCoversFormat(t *testing.T) {
	data, err := os.ReadFile(metaSchemaFile)
	if err != nil {
		t.Fatal(err)
	}
	var meta struct {
		Properties map[string]any `json:"properties"`
		Defs       map[string]struct {
			Properties map[string]any `json:"properties"`
			Enum       []string       `json:"enum"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(data, &meta); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		typ   reflect.Type
		props map[string]any
	}{
		{reflect.TypeFor[schema.Schema](), meta.Properties},
		{reflect.TypeFor[schema.Action](), meta.Defs["action"].Properties},
		{reflect.TypeFor[schema.Param](), meta.Defs["param"].Properties},
		{reflect.TypeFor[schema.Blocks](), meta.Defs["blocks"].Properties},
	} {
		var fields []string
		for f := range tc.typ.Fields() {
			if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); f.IsExported() && name != "-" {
				fields = append(fields, name)
			}
		}
		var props []string
		for k := range tc.props {
			props = append(props, k)
		}
		slices.Sort(fields)
		slices.Sort(props)
		if !slices.Equal(fields, props) {
			t.Errorf("%s: the Go type reads %v, docs/schema.schema.json declares %v", tc.typ.Name(), fields, props)
		}
	}
	// Every type schema.Parse accepts is in the "type" enum.
	for _, ty := range []string{"string", "path", "resource", "bool", "int", "number", "enum", "list", "json"} {
		src := `{"version": 1, "dialect": "acts", "actions": [{"name": "a", "params": [{"name": "p", "type": "` + ty + `", "enum": ["x"]}]}]}`
		if _, err := schema.Parse("t.json", []byte(src)); err != nil {
			t.Errorf("type %s: %v", ty, err)
		}
		if !slices.Contains(meta.Defs["type"].Enum, ty) {
			t.Errorf("type %s is missing from docs/schema.schema.json", ty)
		}
	}
	if _, err := schema.Parse("t.json", []byte(`{"version": 1, "dialect": "acts", "actions": [{"name": "a", "params": [{"name": "p", "type": "colour"}]}]}`)); err == nil {
		t.Error("type colour accepted")
	}
}

// docSchemaExample matches a schema file shown in docs/schema.md:
// `<!-- schema: PATH -->` then a json block holding the file.
var docSchemaExample = regexp.MustCompile("(?s)<!-- schema: (\\S+) -->\n```json\n(.*?)```\n")

// TestDocsSchemaExamples checks each schema file docs/schema.md shows is
// the tested file it names, byte for byte.
func TestDocsSchemaExamples(t *testing.T) {
	data, err := os.ReadFile("../docs/schema.md")
	if err != nil {
		t.Fatal(err)
	}
	ms := docSchemaExample.FindAllStringSubmatch(string(data), -1)
	if len(ms) == 0 {
		t.Fatal("docs/schema.md shows no schema file")
	}
	for _, m := range ms {
		file, err := os.ReadFile(filepath.Join("..", m[1]))
		if err != nil {
			t.Fatal(err)
		}
		if m[2] != string(file) {
			t.Errorf("docs/schema.md shows %s differently from the file", m[1])
		}
	}
}

// TestDocsSchemaErrors checks the errors docs/schema.md shows for its bad
// ops.json are the ones schema.Parse reports.
func TestDocsSchemaErrors(t *testing.T) {
	docs, err := os.ReadFile("../docs/schema.md")
	if err != nil {
		t.Fatal(err)
	}
	src := "{\"version\": 1, \"dialect\": \"ops\",\n \"actions\": [{\"name\": \"a\"},\n {\"name\": \"b\", \"params\": [\n   {\"name\": \"p\", \"type\": \"colour\"}]}]}"
	if !strings.Contains(string(docs), "```json\n"+src+"\n```") {
		t.Fatal("docs/schema.md does not show the bad ops.json this test parses")
	}
	_, err = schema.Parse("ops.json", []byte(src))
	if err == nil {
		t.Fatal("ops.json accepted")
	}
	if !strings.Contains(string(docs), "```\n"+err.Error()+"\n```") {
		t.Errorf("docs/schema.md does not show the errors:\n%v", err)
	}
}
