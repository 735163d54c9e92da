package codegen_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/codegen"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/internal/testkit/schematest"
	"github.com/plangram/plangram/schema"
)

// TestCustomDialects runs each custom dialect of the golden corpus, defined
// only by its schema file golden/custom/NAME.json, through everything a
// schema drives, pinning each result in golden/custom/:
//
//   - NAME_*.md inputs parse (NAME_*.json.golden, NAME_*.diag.golden) and
//     their JSON validates against the dialect's JSON Schema;
//   - the JSON Schema itself (NAME.jsonschema.golden);
//   - the generated Go types (NAME.go.golden), which must type-check;
//   - the canonical example (NAME.example.golden), which must parse with
//     no diagnostics.
func TestCustomDialects(t *testing.T) {
	files, _ := filepath.Glob("../golden/custom/*.json")
	if len(files) == 0 {
		t.Fatal("no custom schema files in golden/custom")
	}
	g := goldie.New(t, goldie.WithFixtureDir("../golden/custom"), goldie.WithNameSuffix(".golden"))
	gen := map[string][]byte{}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			s, err := schema.Parse(filepath.ToSlash(strings.TrimPrefix(f, "../")), data)
			if err != nil {
				t.Fatal(err)
			}

			js, err := schema.JSONSchema(s)
			if err != nil {
				t.Fatal(err)
			}
			g.Assert(t, name+".jsonschema", js)
			sch, err := schematest.Compile(name+".json", js)
			if err != nil {
				t.Fatalf("JSON Schema does not compile: %v", err)
			}

			inputs, _ := filepath.Glob("../golden/custom/" + name + "_*.md")
			if len(inputs) == 0 {
				t.Fatalf("no inputs golden/custom/%s_*.md", name)
			}
			for _, in := range inputs {
				src, err := os.ReadFile(in)
				if err != nil {
					t.Fatal(err)
				}
				base := strings.TrimSuffix(filepath.Base(in), ".md")
				doc := parse(t, filepath.Base(in), src, s)
				js, diags := docGolden(t, filepath.Base(in), doc)
				g.Assert(t, base+".json", js)
				g.Assert(t, base+".diag", diags)
				if err := schematest.Validate(sch, js); err != nil {
					t.Errorf("%s: JSON does not validate: %v", in, err)
				}
			}

			src, err := codegen.Go(s, codegen.GoOptions{Package: name, Source: "golden/custom/" + name + ".json"})
			if err != nil {
				t.Fatal(err)
			}
			g.Assert(t, name+".go", src)
			gen[name+".go"] = src

			ex, err := codegen.Example(s)
			if err != nil {
				t.Fatal(err)
			}
			g.Assert(t, name+".example", ex)
			doc := parse(t, name+".example", ex, s)
			for _, d := range doc.Diagnostics {
				t.Errorf("example: %s", d.Format(name+".example"))
			}
			if len(doc.Actions) != len(s.Actions) {
				t.Errorf("example has %d actions, the schema %d", len(doc.Actions), len(s.Actions))
			}
			exJSON, _ := docGolden(t, name+".example", doc)
			if err := schematest.Validate(sch, exJSON); err != nil {
				t.Errorf("example JSON does not validate: %v", err)
			}
		})
	}
	typeCheck(t, gen)
}

// parse reads a document of a custom dialect with the grammar its schema
// names.
func parse(t *testing.T, name string, src []byte, s *schema.Schema) *ast.Document {
	t.Helper()
	doc, err := grammar.Parse(context.Background(), name, src, grammar.Options{Dialect: s.SyntaxName(), Schema: s})
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// docGolden renders a document as the golden corpus pins it: its JSON and
// its diagnostics as the CLI prints them.
func docGolden(t *testing.T, name string, doc *ast.Document) (js, diags []byte) {
	t.Helper()
	js, err := ast.JSON(doc)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, d := range doc.Diagnostics {
		b.WriteString(d.Format(name) + "\n")
	}
	return js, []byte(b.String())
}
