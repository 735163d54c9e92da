package schema

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/plangram/plangram/ast"
)

// JSONSchemaDraft is the JSON Schema dialect JSONSchema writes.
const JSONSchemaDraft = "https://json-schema.org/draft/2020-12/schema"

// JSONSchema returns a JSON Schema (draft 2020-12) of the JSON output of
// `plangram parse` (an ast.Document) for documents of s's dialect.
//
// The document's structure (spans, blocks, prose, diagnostics) is derived
// from the ast package's types, so it cannot drift from what is marshalled.
// Each action declared by s gets a definition "action.NAME" whose params
// are typed from the schema ("params.NAME", usable on its own, e.g. as a
// tool's parameter schema), with descriptions from the schema's docs;
// actions the schema does not declare match "unknown_action". Every action
// must be structurally valid; in a document without error diagnostics each
// action must also match exactly one of those definitions (a oneOf
// discriminated by name), with its required params present and every value
// of its declared type. A document with errors may hold partly bound
// actions, so only its structure is checked.
//
// The output is indented, deterministic and ends in a newline.
func JSONSchema(s *Schema) ([]byte, error) {
	g := &jsGen{defs: &ast.Params{}, seen: map[reflect.Type]string{}}
	root := g.structSchema(reflect.TypeFor[ast.Document]())
	root.Schema = JSONSchemaDraft
	root.Title = fmt.Sprintf("plangram %s document", s.Dialect)
	root.Description = strings.TrimSpace(s.Description + "\n\n" +
		"The JSON output of `plangram parse` (contract v1) for the " + s.Dialect + " dialect.")

	dialects := []any{s.SyntaxName()}
	if s.Dialect != s.SyntaxName() {
		dialects = append(dialects, s.Dialect)
	}
	dialect := &jsNode{Description: "The dialect that read the document.", Type: "string", Enum: dialects}
	if len(dialects) == 1 {
		dialect.Const, dialect.Enum = dialects[0], nil
	}
	root.Properties.Set("dialect", dialect, nil)

	var branches []*jsNode
	var names []any
	for i, a := range s.Actions {
		key := defKey(a.Name, i)
		all := []any{a.Name}
		for _, al := range a.Aliases {
			all = append(all, al)
		}
		names = append(names, all...)
		name := &jsNode{Const: a.Name}
		if len(all) > 1 {
			name = &jsNode{Enum: all}
		}
		act := &jsNode{Title: a.Name, Description: actionDoc(a), Type: "object",
			Properties: &ast.Params{}, Required: []string{"name", "params"}}
		act.Properties.Set("name", name, nil)
		act.Properties.Set("params", &jsNode{Ref: "#/$defs/params." + key}, nil)
		g.defs.Set("action."+key, act, nil)
		g.defs.Set("params."+key, paramsSchema(a), nil)
		branches = append(branches, &jsNode{Ref: "#/$defs/action." + key})
	}
	unknown := &jsNode{Title: "unknown action",
		Description: "An action the schema does not declare (an unknown-action diagnostic reports it); it has no params.",
		Type:        "object", Properties: &ast.Params{}}
	unknown.Properties.Set("name", &jsNode{Not: &jsNode{Enum: names}}, nil)
	unknown.Properties.Set("params", &jsNode{Type: "object", MaxProperties: new(int)}, nil)
	g.defs.Set("unknown_action", unknown, nil)
	branches = append(branches, &jsNode{Ref: "#/$defs/unknown_action"})
	g.defs.Set("typed_action", &jsNode{
		Description: "An action whose name selects its definition and whose params are typed by it.",
		AllOf:       []*jsNode{{Ref: "#/$defs/action"}},
		OneOf:       branches,
	}, nil)

	errDiag := &jsNode{Properties: &ast.Params{}, Required: []string{"severity"}}
	errDiag.Properties.Set("severity", &jsNode{Const: "error"}, nil)
	hasError := &jsNode{Properties: &ast.Params{}, Required: []string{"diagnostics"}}
	hasError.Properties.Set("diagnostics", &jsNode{Contains: errDiag}, nil)
	root.If = hasError
	strict := &jsNode{Properties: &ast.Params{}}
	strict.Properties.Set("actions", &jsNode{Items: &jsNode{Ref: "#/$defs/typed_action"}}, nil)
	root.Else = strict
	root.Comment = "Without error diagnostics every action matches its typed definition (else); with errors only the structure is checked."
	root.Defs = g.defs

	out, err := ast.JSON(root)
	if err != nil {
		return nil, fmt.Errorf("json schema of dialect %s: %w", s.Dialect, err)
	}
	return out, nil
}

// defKey names an action's definitions: its name when that is safe in a
// JSON pointer and a URI fragment, else its index.
func defKey(name string, i int) string {
	if plainKey(name) {
		return name
	}
	return fmt.Sprintf("%d", i)
}

// actionDoc is an action's description with its aliases.
func actionDoc(a *Action) string {
	d := a.Description
	if len(a.Aliases) > 0 {
		d = strings.TrimSpace(d + " Aliases: " + strings.Join(a.Aliases, ", ") + ".")
	}
	return d
}

// paramsSchema is the schema of an action's params object.
func paramsSchema(a *Action) *jsNode {
	n := &jsNode{Description: "Parameters of " + a.Name + ".", Type: "object", Properties: &ast.Params{}, AdditionalProperties: false}
	for _, p := range a.Params {
		n.Properties.Set(p.Name, valueSchema(p), nil)
		if p.Required {
			n.Required = append(n.Required, p.Name)
		}
	}
	return n
}

// valueSchema is the schema of one parameter's value, as schema.Param.Value
// produces it.
func valueSchema(p *Param) *jsNode {
	var n *jsNode
	if p.Variadic || p.TypeOrDefault() == List {
		n = &jsNode{Type: "array", Items: typeSchema(p, p.ItemType())}
	} else {
		n = typeSchema(p, p.TypeOrDefault())
	}
	n.Description, n.Default = paramDoc(p), p.Default
	return n
}

func typeSchema(p *Param, t Type) *jsNode {
	switch t {
	case Bool:
		return &jsNode{Type: "boolean"}
	case Int:
		return &jsNode{Type: "integer"}
	case Number:
		return &jsNode{Type: "number"}
	case Enum:
		n := &jsNode{Type: "string"}
		for _, e := range p.Enum {
			n.Enum = append(n.Enum, e)
		}
		return n
	case JSON:
		return &jsNode{}
	}
	return &jsNode{Type: "string"} // string, path, resource
}

// paramDoc is a parameter's doc with what its type and key say.
func paramDoc(p *Param) string {
	var notes []string
	switch t := p.TypeOrDefault(); {
	case p.Variadic:
		notes = append(notes, "variadic: the remaining arguments, each a "+string(p.ItemType()))
	case t == List && p.ItemType() != String:
		notes = append(notes, "list of "+string(p.ItemType()))
	case t != String && t != Bool && t != Int && t != Number && t != Enum && t != List:
		notes = append(notes, string(t))
	}
	if p.Key != "" || len(p.Aliases) > 0 {
		notes = append(notes, "written as "+strings.Join(append([]string{p.KeyOrName()}, p.Aliases...), " or "))
	}
	d := p.Doc
	if len(notes) > 0 {
		d = strings.TrimSpace(d + " (" + strings.Join(notes, "; ") + ")")
	}
	return d
}

// jsGen derives definitions from the ast package's Go types.
type jsGen struct {
	defs *ast.Params
	seen map[reflect.Type]string
}

// astDocs describes the AST's types and fields, keyed "Type" or
// "Type.json_name"; what is not listed has no description.
var astDocs = map[string]string{
	"Document.title":       "The plan's level-1 heading (plan dialect).",
	"Document.metadata":    "The plan's metadata list, key to value (plan dialect).",
	"Document.rationale":   "The content of the plan's Rationale block (plan dialect).",
	"Document.memos":       "The plan's Memos lines (plan dialect).",
	"Document.actions":     "The actions in source order.",
	"Document.blocks":      "Fenced blocks that belong to no action.",
	"Document.prose":       "The text between blocks, in source order.",
	"Document.diagnostics": "Problems found in the input, ordered by position.",
	"Document.span":        "The whole input.",
	"Action":               "One action: its name, inline arguments, typed params and argument blocks.",
	"Action.name":          "The action's name as written.",
	"Action.args":          "Inline arguments (acts dialect), in order.",
	"Action.arg_spans":     "The source spans of args, index for index.",
	"Action.params":        "Named parameter values, in schema order.",
	"Action.blocks":        "The action's argument blocks in order (not its head block).",
	"Action.head":          "The block or heading that names the action.",
	"Action.name_span":     "Where the name is written.",
	"Action.span":          "The whole action, from its head to its last block.",
	"Block":                "A fenced block; content is exactly the source bytes content_span names.",
	"Block.fence":          "The opening fence run, e.g. \"~~~~~\".",
	"Block.info":           "The trimmed rest of the opening fence line.",
	"Block.label":          "The heading that introduces the block, where a dialect uses one (e.g. \"FIND:\").",
	"Block.content":        "The block's content, byte for byte.",
	"Block.content_base64": "Set only when the content is not valid UTF-8: the exact content bytes, standard padded base64 (\"content\" then shows U+FFFD in their place).",
	"Block.unclosed":       "The block runs to the end of the input (an unclosed-fence error reports it).",
	"Block.span":           "Whole lines, opening fence line to closing fence line.",
	"Block.content_span":   "The content bytes.",
	"Prose":                "Text outside any block, with its span.",
	"Diagnostic":           "A problem found in the input.",
	"Diagnostic.code":      "Stable kebab-case identifier; docs/diagnostics.md lists every code with its meaning.",
	"Diagnostic.detail":    "Multi-line explanation, such as an AST diff.",
	"Related":              "A second place a diagnostic concerns.",
	"Memo":                 "One `[+] fact` (add) or `[-] fact` line of a plan's Memos section.",
	"Span":                 "A half-open byte range [start.offset, end.offset) of the input.",
	"Pos":                  "A position: byte offset (0-based), line and column (1-based, in bytes).",
}

// exactBase64 is what every *_base64 member's description ends with.
const exactBase64 = "standard padded base64, set only where the input's bytes are not valid UTF-8 (the string beside it then shows U+FFFD in their place)."

// exactMember describes the member that gives the exact bytes of the
// member name of an AST type when they are not valid UTF-8 (ast.WriteJSON,
// docs/acts.md "Exact bytes in JSON"), or returns nil.
func exactMember(typ, name string) *jsNode {
	switch typ + "." + name {
	case "Document.title", "Document.rationale", "Memo.text", "Action.name", "Block.info", "Block.label", "Prose.text":
		return &jsNode{Type: "string", Description: "The exact bytes of " + name + ", " + exactBase64}
	case "Action.args":
		return &jsNode{Type: "array", Items: &jsNode{OneOf: []*jsNode{{Type: "string"}, {Type: "null"}}},
			Description: "Index for index with args: the exact bytes of each argument that is not valid UTF-8, null for the others; " + exactBase64}
	case "Action.params", "Document.metadata":
		return &jsNode{Type: "object",
			Description: "For each " + map[string]string{"params": "parameter", "metadata": "metadata entry"}[name] + " whose value holds a string that is not valid UTF-8: the value's shape with the exact bytes of each such string, null for the other elements of an array, without the other members of an object; " + exactBase64}
	}
	return nil
}

// structSchema describes a struct type from its fields' JSON tags: fields
// without omitempty are required, and no other property is allowed.
func (g *jsGen) structSchema(t reflect.Type) *jsNode {
	n := &jsNode{Type: "object", Description: astDocs[t.Name()], Properties: &ast.Params{}, AdditionalProperties: false}
	for f := range t.Fields() {
		if !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		fs := g.typeSchema(f.Type)
		fs.Description = astDocs[t.Name()+"."+name] // beside a $ref too (2020-12)
		n.Properties.Set(name, fs, nil)
		if !strings.Contains(opts, "omitempty") {
			n.Required = append(n.Required, name)
		}
		if x := exactMember(t.Name(), name); x != nil {
			n.Properties.Set(name+ast.Base64Suffix, x, nil)
			if f.Type == reflect.TypeFor[ast.Params]() {
				n.Properties.Set(name+ast.KeysBase64Suffix, &jsNode{Type: "object", AdditionalProperties: &jsNode{Type: "string"},
					Description: "For each member name inside " + name + " that is not valid UTF-8 (written with U+FFFD, and #2, #3, … appended where that name is taken): its JSON Pointer (RFC 6901) into " + name + ", naming members as written, to the exact bytes of the name; " + exactBase64}, nil)
			}
		}
	}
	return n
}

// typeSchema describes a Go type of the AST as marshalled by encoding/json
// (and the AST's own MarshalJSON methods).
func (g *jsGen) typeSchema(t reflect.Type) *jsNode {
	switch t {
	case reflect.TypeFor[ast.Params]():
		return &jsNode{Type: "object"}
	case reflect.TypeFor[ast.Severity]():
		n := &jsNode{Type: "string"}
		for i := ast.Error; !strings.HasPrefix(i.String(), "severity("); i++ {
			n.Enum = append(n.Enum, i.String())
		}
		return n
	}
	switch t.Kind() {
	case reflect.Pointer:
		return g.typeSchema(t.Elem())
	case reflect.String:
		return &jsNode{Type: "string"}
	case reflect.Bool:
		return &jsNode{Type: "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return &jsNode{Type: "integer"}
	case reflect.Float32, reflect.Float64:
		return &jsNode{Type: "number"}
	case reflect.Slice, reflect.Array:
		return &jsNode{Type: "array", Items: g.typeSchema(t.Elem())}
	case reflect.Map:
		return &jsNode{Type: "object", AdditionalProperties: g.typeSchema(t.Elem())}
	case reflect.Struct:
		key, ok := g.seen[t]
		if !ok {
			key = snakeCase(t.Name())
			g.seen[t] = key
			g.defs.Set(key, g.structSchema(t), nil)
		}
		return &jsNode{Ref: "#/$defs/" + key}
	}
	return &jsNode{} // interfaces: any JSON value
}

// snakeCase turns a Go type name into a definition key ("ContentSpan" ->
// "content_span").
func snakeCase(s string) string {
	var b strings.Builder
	for i, r := range s {
		if r >= 'A' && r <= 'Z' {
			if i > 0 {
				b.WriteByte('_')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// jsNode is one JSON Schema object; fields marshal in this order.
type jsNode struct {
	Schema               string      `json:"$schema,omitempty"`
	Ref                  string      `json:"$ref,omitempty"`
	Title                string      `json:"title,omitempty"`
	Description          string      `json:"description,omitempty"`
	Comment              string      `json:"$comment,omitempty"`
	Type                 string      `json:"type,omitempty"`
	Const                any         `json:"const,omitempty"`
	Enum                 []any       `json:"enum,omitempty"`
	Default              any         `json:"default,omitempty"`
	Properties           *ast.Params `json:"properties,omitempty"`
	Required             []string    `json:"required,omitempty"`
	AdditionalProperties any         `json:"additionalProperties,omitempty"`
	MaxProperties        *int        `json:"maxProperties,omitempty"`
	Items                *jsNode     `json:"items,omitempty"`
	Contains             *jsNode     `json:"contains,omitempty"`
	Not                  *jsNode     `json:"not,omitempty"`
	AllOf                []*jsNode   `json:"allOf,omitempty"`
	OneOf                []*jsNode   `json:"oneOf,omitempty"`
	If                   *jsNode     `json:"if,omitempty"`
	Else                 *jsNode     `json:"else,omitempty"`
	Defs                 *ast.Params `json:"$defs,omitempty"`
}
