package typedrt_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/typed/typedrt"
)

// span returns a one-line span starting at line:col.
func span(line, col int) *ast.Span {
	return &ast.Span{Start: ast.Pos{Line: line, Col: col}, End: ast.Pos{Line: line, Col: col + 1}}
}

// mode is an enum type as generated code declares one.
type mode string

func (m mode) Valid() bool { return m == "ro" || m == "rw" }

// errorList returns the messages of a joined error, one per problem.
func errorList(err error) []string {
	if err == nil {
		return nil
	}
	var out []string
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			out = append(out, e.Error())
		}
		return out
	}
	return []string{err.Error()}
}

func TestDecoder(t *testing.T) {
	a := &ast.Action{
		Name:     "set",
		NameSpan: *span(1, 1),
		Params: ast.Params{
			{Name: "key", Value: "k", Span: span(1, 5)},
			{Name: "ttl", Value: "soon", Span: span(1, 7)},
			{Name: "mode", Value: "rx", Span: span(1, 12)},
			{Name: "tags", Value: []any{"a", "b"}, Span: span(2, 1)},
			{Name: "note", Value: strings.Repeat("n", 80), Span: span(3, 1)},
			{Name: "bogus", Value: true, Span: span(4, 3)},
			{Name: "nil", Value: nil, Span: span(5, 1)},
		},
	}
	d := typedrt.NewDecoder(a, nil)
	if d.Action() != a {
		t.Fatal("Action() is not the action decoded")
	}
	var key, absent string
	ttl := int64(60) // a default: kept when the value is bad or absent
	var m mode
	var tags []string
	var note int64
	var missing bool
	if !typedrt.Param(d, "key", "a string", true, &key) || key != "k" {
		t.Errorf("key: %q", key)
	}
	if typedrt.Param(d, "ttl", "an integer", false, &ttl) || ttl != 60 {
		t.Errorf("ttl: decoded a string as %d", ttl)
	}
	if !typedrt.Param(d, "mode", "one of ro, rw", true, &m) {
		t.Error("mode: not decoded")
	}
	typedrt.CheckEnum(d, "mode", "one of ro, rw", m)
	if !typedrt.Param(d, "tags", "a list of strings", true, &tags) || len(tags) != 2 {
		t.Errorf("tags: %q", tags)
	}
	typedrt.Param(d, "note", "an integer", false, &note)
	if typedrt.Param(d, "absent", "a string", false, &absent) {
		t.Error("absent: reported present")
	}
	if typedrt.Param(d, "missing", "true or false", true, &missing) {
		t.Error("missing: reported present")
	}
	typedrt.Param(d, "nil", "a string", false, &absent) // a nil value is absent
	got := errorList(d.Finish())
	want := []string{
		`1:7: set: parameter ttl: want an integer, got "soon"`,
		`1:12: set: parameter mode: want one of ro, rw, got "rx"`,
		`3:1: set: parameter note: want an integer, got "` + strings.Repeat("n", 56) + `...`,
		`1:1: set: parameter missing: missing required parameter`,
		`4:3: set: parameter bogus: the action has no such parameter`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestProblemType checks that each problem is made by the function given
// (generated code's *Error), else is a *Problem, with its fields.
func TestProblemType(t *testing.T) {
	a := &ast.Action{Name: "run", Span: *span(7, 2)} // no name span: the action's
	type own struct{ typedrt.Problem }
	d := typedrt.NewDecoder(a, func(p typedrt.Problem) error { return &own{p} })
	var s string
	typedrt.Param(d, "cmd", "a string", true, &s)
	var o *own
	if err := d.Finish(); !errors.As(err, &o) || o.Param != "cmd" || o.Span.Start.Line != 7 || o.Msg != "missing required parameter" {
		t.Errorf("Finish: %v, want an *own for cmd at 7:2", err)
	}

	var p *typedrt.Problem
	err := typedrt.NewDecoder(a, nil).UnknownAction()
	if !errors.As(err, &p) || p.Action != "run" || p.Param != "" || p.Span != *span(7, 2) {
		t.Fatalf("UnknownAction: %#v", err)
	}
	if got, want := err.Error(), `7:2: run: unknown action "run"`; got != want {
		t.Errorf("UnknownAction: %q, want %q", got, want)
	}
}

// TestProblemUTF8 checks that a problem's text is valid UTF-8 whatever the
// bytes of the names in it.
func TestProblemUTF8(t *testing.T) {
	p := &typedrt.Problem{Action: "a\xff", Param: "p\xfe", Span: *span(2, 3), Msg: "bad"}
	if got, want := p.Error(), `2:3: a\xff: parameter p\xfe: bad`; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}

// TestParseRawNotUTF8 checks the problem of a JSON value that cannot carry
// a string's exact bytes.
func TestParseRawNotUTF8(t *testing.T) {
	a := &ast.Action{Name: "put", Params: ast.Params{{Name: "data", Value: "\xff", Span: span(1, 5)}}}
	d := typedrt.NewDecoder(a, nil)
	var raw json.RawMessage
	if typedrt.Param(d, "data", "JSON", true, &raw) {
		t.Fatal("a string that is not UTF-8 decoded into JSON")
	}
	if err := d.Finish(); !strings.Contains(err.Error(), ast.ErrRawNotUTF8.Error()) {
		t.Errorf("%v, want %v", err, ast.ErrRawNotUTF8)
	}
}

func TestDecode(t *testing.T) {
	doc := &ast.Document{Actions: []*ast.Action{{Name: "a"}, {Name: "b"}, {Name: "c"}, {Name: "b"}}}
	out, err := typedrt.Decode(doc, func(a *ast.Action) (string, error) {
		if a.Name == "b" {
			return "", errors.New("no b")
		}
		return strings.ToUpper(a.Name), nil
	})
	if strings.Join(out, ",") != "A,C" || strings.Join(errorList(err), ",") != "no b,no b" {
		t.Errorf("Decode: %q, %v", out, err)
	}
	out, err = typedrt.Decode(&ast.Document{}, func(*ast.Action) (string, error) { return "x", nil })
	if out != nil || err != nil {
		t.Errorf("Decode of no actions: %q, %v", out, err)
	}
}
