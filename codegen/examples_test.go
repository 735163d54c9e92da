package codegen_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/codegen"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/internal/testkit/schematest"
	"github.com/plangram/plangram/schema"
	"github.com/plangram/plangram/stream"
	"github.com/plangram/plangram/typed/acts"
	"github.com/plangram/plangram/typed/applypatch"
	"github.com/plangram/plangram/typed/plan"
	"github.com/plangram/plangram/typed/searchreplace"
	"github.com/plangram/plangram/typed/tools"
	"github.com/plangram/plangram/typed/udiff"
)

// TestExampleBuiltins pins the canonical example of each built-in dialect
// (golden/example/DIALECT.md.golden) and checks it parses with no
// diagnostics, names every action of the schema, and decodes with the
// dialect's generated types.
func TestExampleBuiltins(t *testing.T) {
	g := goldie.New(t, goldie.WithFixtureDir("../golden/example"), goldie.WithNameSuffix(".golden"))
	for _, d := range schema.Dialects() {
		t.Run(d, func(t *testing.T) {
			s, err := schema.Builtin(d)
			if err != nil {
				t.Fatal(err)
			}
			ex, err := codegen.Example(s)
			if err != nil {
				t.Fatal(err)
			}
			g.Assert(t, d+".md", ex)

			var actions []*ast.Action
			if d == "tools" {
				actions = streamTools(t, ex)
			} else {
				doc, err := grammar.Parse(context.Background(), d+".md", ex, grammar.Options{Dialect: d})
				if err != nil {
					t.Fatal(err)
				}
				for _, diag := range doc.Diagnostics {
					t.Errorf("%s", diag.Format("example.md"))
				}
				actions = doc.Actions
				js, err := schema.JSONSchema(s)
				if err != nil {
					t.Fatal(err)
				}
				sch, err := schematest.Compile(d+".json", js)
				if err != nil {
					t.Fatal(err)
				}
				docJSON, _ := docGolden(t, d+".md", doc)
				if err := schematest.Validate(sch, docJSON); err != nil {
					t.Errorf("the example's JSON does not validate: %v", err)
				}
			}
			var got []string
			for _, a := range actions {
				got = append(got, a.Name)
			}
			want := s.Names()
			if d == "plan" { // a plan is an action plan or a message, not both
				want = slices.DeleteFunc(want, func(n string) bool { return n == "MESSAGE" })
			}
			if !slices.Equal(got, want) {
				t.Errorf("actions %v, want %v", got, want)
			}
			for _, a := range actions {
				var err error
				switch d {
				case "acts":
					_, err = acts.DecodeAction(a)
				case "plan":
					_, err = plan.DecodeAction(a)
				case "tools":
					_, err = tools.DecodeAction(a)
				case "search-replace":
					_, err = searchreplace.DecodeAction(a)
				case "udiff":
					_, err = udiff.DecodeAction(a)
				case "apply-patch":
					_, err = applypatch.DecodeAction(a)
				default:
					t.Fatalf("no typed package for dialect %s", d)
				}
				if err != nil {
					t.Errorf("decode: %v", err)
				}
			}
		})
	}
}

// streamTools streams a tools document and returns its calls as actions;
// any error event fails the test.
func streamTools(t *testing.T, src []byte) []*ast.Action {
	t.Helper()
	var out []*ast.Action
	err := stream.Parse(context.Background(), strings.NewReader(string(src)), 0, stream.Options{Dialect: "tools"}, func(e *stream.Event) error {
		switch e.Type {
		case stream.Error:
			t.Errorf("%s: %s %s", e.Span.Start, e.Kind, e.Message)
		case stream.ToolCall:
			out = append(out, &ast.Action{Name: e.Name, Params: e.Params, Span: e.Span})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
