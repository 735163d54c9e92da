// Package codegen generates code and documents from an action schema
// (package schema): Go types with a decoder from the generic AST (Go), and
// a canonical example document of a dialect (Example).
package codegen

import (
	"cmp"
	"encoding/json"
	"fmt"
	"go/format"
	"slices"
	"strconv"
	"strings"

	"github.com/plangram/plangram/schema"
)

// GoOptions configures Go.
type GoOptions struct {
	// Package is the generated file's package name (required).
	Package string
	// Source says where the schema came from, for the "Code generated"
	// header: a file name, or "the built-in acts schema". Empty: the dialect.
	Source string
}

// Go generates a gofmt'ed Go source file for the dialect s describes:
//
//   - a struct per action (WriteFile for write_file, ChatWithUser for
//     CHAT_WITH_USER) with one typed field per parameter: string (string,
//     path, resource), bool, int64 (int), float64 (number), a named string
//     type with constants (enum), a slice (list, variadic) or
//     json.RawMessage (json), doc comments from the schema;
//   - the Action interface all of them implement (the union: switch on the
//     dynamic type), with ActionName and Source (the AST node);
//   - Decode(*ast.Document) and DecodeAction(*ast.Action), which convert
//     the generic AST to those types. Optional parameters that are absent
//     take their schema default (else the zero value); a missing required
//     parameter, a parameter the action does not declare, a value of the
//     wrong type or outside its enum is an *Error positioned at the value
//     (or the action's name).
//
// The generated code depends only on the standard library, package ast and
// package typed/typedrt, its runtime: the decoding every generated package
// does alike (a parameter to its Go type, the problems collected) is
// written there once.
func Go(s *schema.Schema, opts GoOptions) ([]byte, error) {
	if !validPackage(opts.Package) {
		return nil, fmt.Errorf("codegen: %q is not a valid Go package name", opts.Package)
	}
	g := &goGen{s: s, top: scope{}}
	for _, name := range []string{"Dialect", "Action", "Decode", "DecodeAction", "Error"} {
		g.top[name] = true
	}
	if err := g.plan(); err != nil {
		return nil, err
	}
	g.emit(opts.Package, cmp.Or(opts.Source, "the "+s.Dialect+" schema"))
	out, err := format.Source([]byte(g.b.String()))
	if err != nil {
		return nil, fmt.Errorf("codegen: formatting the generated code: %w", err)
	}
	return out, nil
}

// goGen holds the Go names chosen for a schema and the output.
type goGen struct {
	s       *schema.Schema
	unknown string // the Go name of the unknown-action type (schema.UnknownAllow)
	// usesJSON: a field is of a json.RawMessage type, for which the
	// generated file imports encoding/json.
	usesJSON bool
	top      scope
	actions  []*goAction
	b        strings.Builder
}

type goAction struct {
	def    *schema.Action
	name   string // the struct
	fields []*goField
}

type goField struct {
	p          *schema.Param
	name       string
	typ        string // Go type
	want       string // what the value must be, for errors
	enum       string // the named enum type, if any
	enumVals   []string
	enumConsts []string // the constants of enumVals
	def        string   // Go literal of the default, if any
}

// plan chooses every Go name and type.
func (g *goGen) plan() error {
	for _, a := range g.s.Actions {
		ga := &goAction{def: a, name: g.top.claim(goName(a.Name), "Action")}
		fields := scope{"ActionName": true, "Source": true}
		for _, p := range a.Params {
			f := &goField{p: p, name: fields.claim(goName(p.Name), "Param")}
			if err := g.typeOf(ga, f); err != nil {
				return fmt.Errorf("codegen: action %s, parameter %s: %w", a.Name, p.Name, err)
			}
			ga.fields = append(ga.fields, f)
		}
		g.actions = append(g.actions, ga)
	}
	if g.s.AllowsUnknownActions() {
		g.unknown = g.top.claim("Unknown", "Action")
	}
	return nil
}

// typeOf sets a field's Go type, enum and default.
func (g *goGen) typeOf(ga *goAction, f *goField) error {
	p := f.p
	list := p.Variadic || p.TypeOrDefault() == schema.List
	t := p.ItemType()
	var elem, want string
	switch t {
	case schema.Bool:
		elem, want = "bool", "true or false"
	case schema.Int:
		elem, want = "int64", "an integer"
	case schema.Number:
		elem, want = "float64", "a number"
	case schema.JSON:
		elem, want = "json.RawMessage", "JSON"
		g.usesJSON = true
	case schema.Enum:
		f.enum = g.top.claim(ga.name+f.name, "Enum")
		f.enumVals = p.Enum
		consts := scope{}
		for _, v := range p.Enum {
			f.enumConsts = append(f.enumConsts, g.top.claim(f.enum+consts.claim(goName(v), ""), "Value"))
		}
		elem, want = f.enum, "one of "+strings.Join(p.Enum, ", ")
	default: // string, path, resource
		elem, want = "string", "a string"
	}
	f.typ, f.want = elem, want
	if list {
		f.typ, f.want = "[]"+elem, "a list of "+plurals[t]
		if t == schema.Enum {
			f.want = "a list of values, each " + want
		}
	}
	// A zero default (false, 0, "") is what the Go field holds anyway.
	if p.Default != nil && p.Default != false && p.Default != 0.0 && p.Default != "" {
		lit, err := goLiteral(f, p.Default)
		if err != nil {
			return fmt.Errorf("default: %w", err)
		}
		f.def = lit
	}
	return nil
}

// plurals name lists of each element type in errors.
var plurals = map[schema.Type]string{
	schema.String: "strings", schema.Path: "paths", schema.Resource: "paths or URLs",
	schema.Bool: "booleans", schema.Int: "integers", schema.Number: "numbers", schema.JSON: "JSON values",
}

// goLiteral writes a schema default (a decoded JSON value) as a Go literal
// of the field's type.
func goLiteral(f *goField, v any) (string, error) {
	if f.typ == "json.RawMessage" {
		data, err := json.Marshal(v)
		if err != nil {
			return "", err
		}
		return "json.RawMessage(" + strconv.Quote(string(data)) + ")", nil
	}
	if strings.HasPrefix(f.typ, "[]") {
		items, ok := v.([]any)
		if !ok {
			return "", fmt.Errorf("want a list, got %v", v)
		}
		elem := &goField{typ: f.typ[2:], want: f.want, enum: f.enum, enumVals: f.enumVals, enumConsts: f.enumConsts}
		var parts []string
		for _, it := range items {
			lit, err := goLiteral(elem, it)
			if err != nil {
				return "", err
			}
			parts = append(parts, lit)
		}
		return f.typ + "{" + strings.Join(parts, ", ") + "}", nil
	}
	switch f.typ {
	case "bool":
		if b, ok := v.(bool); ok {
			return strconv.FormatBool(b), nil
		}
	case "int64":
		if n, ok := v.(float64); ok && n == float64(int64(n)) {
			return strconv.FormatInt(int64(n), 10), nil
		}
	case "float64":
		if n, ok := v.(float64); ok {
			return strconv.FormatFloat(n, 'g', -1, 64), nil
		}
	case "string":
		if s, ok := v.(string); ok {
			return strconv.Quote(s), nil
		}
	default: // an enum type
		if s, ok := v.(string); ok {
			if i := slices.Index(f.enumVals, s); i >= 0 {
				return f.enumConsts[i], nil
			}
		}
	}
	return "", fmt.Errorf("%v is not %s", v, f.want)
}

func (g *goGen) p(format string, args ...any) { fmt.Fprintf(&g.b, format, args...) }

func (g *goGen) emit(pkg, source string) {
	g.p("// Code generated by plangram gen go from %s; DO NOT EDIT.\n\n", oneLine(source))
	g.p("package %s\n\n", pkg)
	g.p("import (\n")
	if g.usesJSON {
		g.p("\t\"encoding/json\"\n\n")
	}
	g.p("\t\"github.com/plangram/plangram/ast\"\n\t\"github.com/plangram/plangram/typed/typedrt\"\n)\n\n")

	doc := "Dialect is the dialect these types decode."
	if g.s.Description != "" {
		doc += "\n\n" + g.s.Description
	}
	g.p("%sconst Dialect = %q\n\n", wrap("// ", doc, 77), g.s.Dialect)

	var names []string
	for _, a := range g.actions {
		names = append(names, "*"+a.name)
	}
	g.p("%s", wrap("// ", "Action is one decoded action of the "+g.s.Dialect+" dialect: "+strings.Join(names, ", ")+". Switch on its dynamic type.", 77))
	g.p(`type Action interface {
	// ActionName returns the action's name as the schema declares it.
	ActionName() string
	// Source returns the AST node the action was decoded from, or nil.
	Source() *ast.Action
	isAction()
}

// Error is a problem decoding one action, positioned in the source.
type Error struct {
	Action string   // the action's name as written
	Param  string   // the parameter concerned, if any
	Span   ast.Span // where the problem is
	Msg    string   // what is wrong
}

// Error formats the problem as LINE:COL: action: parameter p: message, in
// valid UTF-8: a byte of a name that is not UTF-8 is written \xNN.
func (e *Error) Error() string {
	p := typedrt.Problem{Action: e.Action, Param: e.Param, Span: e.Span, Msg: e.Msg}
	return p.Error()
}

// newError is how the decoder reports a problem: as an *Error.
func newError(p typedrt.Problem) error {
	return &Error{Action: p.Action, Param: p.Param, Span: p.Span, Msg: p.Msg}
}

// Decode converts the actions of a parsed document to their typed form, in
// order. Every problem is an *Error; all of them are returned, joined, with
// the actions that did decode. Check doc.HasErrors first: a document with
// error diagnostics may hold partly bound actions.
func Decode(doc *ast.Document) ([]Action, error) {
	return typedrt.Decode(doc, DecodeAction)
}

// DecodeAction converts one action, found by its name or an alias. Absent
// optional parameters take their default.
func DecodeAction(a *ast.Action) (Action, error) {
	d := typedrt.NewDecoder(a, newError)
	var x Action
	switch a.Name {
`)
	for _, a := range g.actions {
		labels := []string{strconv.Quote(a.def.Name)}
		for _, al := range a.def.Aliases {
			labels = append(labels, strconv.Quote(al))
		}
		g.p("\tcase %s:\n\t\tx = decode%s(d)\n", strings.Join(labels, ", "), a.name)
	}
	unknown := "return nil, d.UnknownAction()"
	if g.s.AllowsUnknownActions() {
		unknown = "return &" + g.unknown + "{Name: a.Name, src: a}, nil // the schema allows unknown actions"
	}
	g.p("\tdefault:\n\t\t%s\n\t}\n", unknown)
	g.p(`	if err := d.Finish(); err != nil {
		return nil, err
	}
	return x, nil
}
`)
	for _, a := range g.actions {
		g.emitAction(a)
	}
	if g.s.AllowsUnknownActions() {
		g.p(`
// %[1]s is an action the schema does not declare: the schema allows unknown
// actions (plug-in actions), so DecodeAction returns it rather than an
// error. Its inline arguments and blocks are in Source().
type %[1]s struct {
	// Name is the action's name as written.
	Name string `+"`json:\"name\"`"+`

	src *ast.Action
}

// ActionName returns the action's name as written.
func (x *%[1]s) ActionName() string { return x.Name }

// Source returns the parsed action.
func (x *%[1]s) Source() *ast.Action { return x.src }

func (*%[1]s) isAction() {}
`, g.unknown)
	}
}

func (g *goGen) emitAction(a *goAction) {
	for _, f := range a.fields {
		if f.enum == "" {
			continue
		}
		g.p("\n// %s is the type of %s's %s parameter.\ntype %s string\n\n", f.enum, a.name, f.p.Name, f.enum)
		g.p("// Values of %s.\nconst (\n", f.enum)
		for i, v := range f.enumVals {
			g.p("\t%s %s = %q\n", f.enumConsts[i], f.enum, v)
		}
		g.p(")\n\n// Valid reports whether v is one of the declared values.\nfunc (v %s) Valid() bool {\n\tswitch v {\n\tcase ", f.enum)
		var qs []string
		for _, v := range f.enumVals {
			qs = append(qs, strconv.Quote(v))
		}
		g.p("%s:\n\t\treturn true\n\t}\n\treturn false\n}\n", strings.Join(qs, ", "))
	}

	doc := a.name + " is the " + a.def.Name + " action."
	if a.def.Description != "" {
		doc += " " + a.def.Description
	}
	if len(a.def.Aliases) > 0 {
		doc += " Also written " + strings.Join(a.def.Aliases, ", ") + "."
	}
	g.p("\n%stype %s struct {\n", wrap("// ", doc, 77), a.name)
	for _, f := range a.fields {
		tag := f.p.Name
		if !f.p.Required {
			tag += ",omitempty"
		}
		g.p("%s\t%s %s `json:\"%s\"`\n", wrap("\t// ", fieldDoc(f), 77), f.name, f.typ, tag)
	}
	if len(a.fields) > 0 {
		g.p("\n")
	}
	g.p("\tsrc *ast.Action\n}\n\n")
	g.p("// ActionName returns %q.\nfunc (*%s) ActionName() string { return %q }\n\n", a.def.Name, a.name, a.def.Name)
	g.p("// Source returns the AST node the action was decoded from, or nil.\nfunc (x *%s) Source() *ast.Action { return x.src }\n\n", a.name)
	g.p("func (*%s) isAction() {}\n\n", a.name)

	g.p("func decode%s(d *typedrt.Decoder) *%s {\n\tx := &%s{src: d.Action()", a.name, a.name, a.name)
	for _, f := range a.fields {
		if f.def != "" {
			g.p(", %s: %s", f.name, f.def)
		}
	}
	g.p("}\n")
	for _, f := range a.fields {
		call := fmt.Sprintf("typedrt.Param(d, %q, %q, %v, &x.%s)", f.p.Name, f.want, f.p.Required, f.name)
		if f.enum == "" {
			g.p("\t%s\n", call)
			continue
		}
		dots := ""
		if strings.HasPrefix(f.typ, "[]") {
			dots = "..."
		}
		g.p("\tif %s {\n\t\ttypedrt.CheckEnum(d, %q, %q, x.%s%s)\n\t}\n", call, f.p.Name, f.want, f.name, dots)
	}
	g.p("\treturn x\n}\n")
}

// fieldDoc is a field's comment: its type, whether required, its default,
// how a plan writes its key, then its doc.
func fieldDoc(f *goField) string {
	p := f.p
	t := string(p.TypeOrDefault())
	if p.TypeOrDefault() == schema.List && p.Items != "" {
		t = "list of " + string(p.Items)
	}
	if p.Variadic {
		t = "variadic " + t
	}
	notes := []string{t}
	if p.Required {
		notes = append(notes, "required")
	}
	if p.Default != nil {
		data, _ := json.Marshal(p.Default)
		notes = append(notes, "default "+string(data))
	}
	if p.Key != "" && p.Key != p.Name {
		notes = append(notes, fmt.Sprintf("written %q", p.Key))
	}
	d := f.name + " (" + strings.Join(notes, ", ") + ")"
	if p.Doc != "" {
		d += ": " + p.Doc
	}
	return d
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
