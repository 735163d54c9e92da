package schema_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"

	"github.com/plangram/plangram/internal/testkit/schematest"
	"github.com/plangram/plangram/schema"
)

// TestFromToolsGolden converts each registry of golden/tools/ (one per
// input family, and bad ones) and pins the action schema and the
// diagnostics (golden/tools/NAME.golden; go test ./schema -update). A
// converted schema must be a valid schema file that reads back the same.
func TestFromToolsGolden(t *testing.T) {
	files, err := filepath.Glob("../golden/tools/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden tools registries: %v", err)
	}
	meta := metaSchema(t)
	g := goldie.New(t, goldie.WithFixtureDir("../golden/tools"), goldie.WithNameSuffix(".golden"))
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			file := name + ".json"
			var out bytes.Buffer
			tools, err := schema.FromTools(file, data)
			if err != nil {
				var se *schema.Error
				if !errors.As(err, &se) {
					t.Fatalf("error %v is not a positioned *schema.Error", err)
				}
				fmt.Fprintf(&out, "%v\n", err)
				g.Assert(t, name, out.Bytes())
				return
			}
			fmt.Fprintf(&out, "family: %s\n", tools.Family)
			for _, d := range tools.Diagnostics {
				fmt.Fprintf(&out, "%v\n", d)
			}
			js, err := tools.Schema.MarshalFile()
			if err != nil {
				t.Fatal(err)
			}
			out.Write(js)
			g.Assert(t, name, out.Bytes())
			if err := schematest.Validate(meta, js); err != nil {
				t.Errorf("converted schema rejected by docs/schema.schema.json: %v", err)
			}
			back, err := schema.Parse(file, js)
			if err != nil {
				t.Fatalf("converted schema does not read back: %v", err)
			}
			if !reflect.DeepEqual(back.Actions, tools.Schema.Actions) {
				t.Errorf("converted schema reads back differently")
			}
			if _, err := schema.JSONSchema(back); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestFromToolsTypes checks that converted parameters check values as the
// registry's JSON Schema says.
func TestFromToolsTypes(t *testing.T) {
	data, err := os.ReadFile("../golden/tools/openai_chat.json")
	if err != nil {
		t.Fatal(err)
	}
	tools, err := schema.FromTools("t.json", data)
	if err != nil {
		t.Fatal(err)
	}
	a := tools.Schema.Lookup("write_file")
	for _, tc := range []struct {
		param, text string
		want        any
		bad         bool
	}{
		{"path", "a.go", "a.go", false},
		{"tags", `["x", "y"]`, []string{"x", "y"}, false},
		{"tags", `[1]`, nil, true},
		{"line_numbers", `[1, 2]`, []int64{1, 2}, false},
		{"line_numbers", `[1.5]`, nil, true},
		{"options", `{"overwrite": true}`, map[string]any{"overwrite": true}, false},
		{"edits", `[{"find": "a"}]`, []any{map[string]any{"find": "a"}}, false},
	} {
		got, err := a.Param(tc.param).Value(tc.text)
		if tc.bad != (err != nil) || !tc.bad && !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s %s: got %#v, %v", tc.param, tc.text, got, err)
		}
	}
	w := tools.Schema.Lookup("get_weather")
	if _, err := w.Param("unit").Value("kelvin"); err == nil {
		t.Error("unit kelvin accepted")
	}
	if v, err := w.Param("days").Value("3"); err != nil || v != int64(3) {
		t.Errorf("days 3: %v %v", v, err)
	}
	if !w.Param("location").Required || w.Param("unit").Required {
		t.Error("required not kept")
	}
}

// FuzzFromTools: any input converts or fails with positioned errors, and a
// converted schema always reads back.
func FuzzFromTools(f *testing.F) {
	files, _ := filepath.Glob("../golden/tools/*.json")
	for _, file := range files {
		data, _ := os.ReadFile(file)
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tools, err := schema.FromTools("f.json", data)
		if err != nil {
			for _, e := range unjoin(err) {
				var se *schema.Error
				if !errors.As(e, &se) || se.Offset < 0 || se.Offset > len(data) {
					t.Fatalf("error %v is not positioned in the input", e)
				}
			}
			return
		}
		js, err := tools.Schema.MarshalFile()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := schema.Parse("f.json", js); err != nil {
			t.Fatalf("converted schema does not read back: %v\n%s", err, js)
		}
	})
}

func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// TestDocsToolsExample checks the registry and the converted schema
// docs/schema.md shows are the golden files they name.
func TestDocsToolsExample(t *testing.T) {
	docs, err := os.ReadFile("../docs/schema.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, marker := range []string{"tools", "tools-schema"} {
		re := regexp.MustCompile("(?s)<!-- " + marker + ": (\\S+) -->\n```json\n(.*?)```\n")
		m := re.FindStringSubmatch(string(docs))
		if m == nil {
			t.Fatalf("docs/schema.md has no %s example", marker)
		}
		file, err := os.ReadFile(filepath.Join("..", m[1]))
		if err != nil {
			t.Fatal(err)
		}
		want := string(file)
		if marker == "tools-schema" {
			want = want[strings.Index(want, "\n{")+1:]
		}
		if m[2] != want {
			t.Errorf("docs/schema.md shows %s differently from the file", m[1])
		}
	}
}
