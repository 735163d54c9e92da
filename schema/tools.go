package schema

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"

	"github.com/plangram/plangram/ast"
)

// ToolsFamily names the registry format FromTools detected.
type ToolsFamily string

// The registry formats FromTools reads.
const (
	// OpenAIChat is a Chat Completions tools array:
	// [{"type": "function", "function": {"name", "description", "parameters"}}].
	OpenAIChat ToolsFamily = "openai"
	// OpenAIResponses is the Responses API's flat form:
	// [{"type": "function", "name", "description", "parameters"}].
	OpenAIResponses ToolsFamily = "openai-responses"
	// Anthropic is a Messages API tools array:
	// [{"name", "description", "input_schema"}].
	Anthropic ToolsFamily = "anthropic"
	// MCP is an MCP tools/list result, {"tools": [{"name", "description",
	// "inputSchema"}]}, also inside a JSON-RPC response's "result".
	MCP ToolsFamily = "mcp"
)

// Tools is the result of FromTools: the converted schema and what the
// conversion has to say about it.
type Tools struct {
	// Schema is the action schema: dialect "tools", one action per tool,
	// one parameter per property of its parameter schema.
	Schema *Schema
	// Family is the detected registry format (of the first tool; a file
	// may mix them).
	Family ToolsFamily
	// Diagnostics are warnings and notes, positioned in the input: JSON
	// Schema keywords plangram does not check (kept in the parameter's
	// doc), tools without a parameter schema (provider tools, left out).
	Diagnostics []*Error
}

// FromTools converts a tools registry people already have into an action
// schema, detecting its format: an OpenAI tools array (Chat Completions
// or the flat Responses form), an Anthropic tools array (input_schema), or
// an MCP tools/list result (inputSchema), bare or inside a JSON-RPC
// response; a request body holding a "tools" array is read the same way.
// file names the input in diagnostics.
//
// Each function tool becomes an action of the same name and description,
// and each property of its parameter schema a parameter, in order:
// "required" is kept, "description" becomes the doc, "enum" of strings an
// enum, "default" a default; JSON Schema types map to plangram types
// (string, integer → int, number, boolean → bool, an array of scalars →
// list with typed items, an object or an array of objects → json, which
// keeps the value as JSON). What plangram does not check (minimum,
// pattern, format, anyOf, a nested object's schema…) is a warning or note
// positioned at the keyword and is kept in the parameter's doc; a tool
// without a parameter schema (a provider's built-in tool) is a warning and
// is left out. Anything that cannot be converted — malformed JSON, a tool
// without a name, a property whose type is not a JSON Schema type, a
// parameter name that is not a word — is an error: the returned error
// joins *Error values, each positioned in file, and no schema is returned.
func FromTools(file string, data []byte) (*Tools, error) {
	root, err := readTree(data)
	if err != nil {
		var se *json.SyntaxError
		var te *trailingError
		off := len(data)
		switch {
		case errors.As(err, &se):
			off = int(se.Offset) - 1
		case errors.As(err, &te):
			off = te.off
		case len(bytes.TrimSpace(data)) == 0:
			off, err = 0, errors.New("the tools file is empty (nothing but white space): it holds a JSON array of tools or an object with a \"tools\" array (docs/schema.md)")
		case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
			err = errors.New("JSON ends before the value is complete (is the file cut off?)")
		}
		e := newError(file, data, off, "", strings.TrimPrefix(err.Error(), "json: "))
		e.Code = "bad-tools"
		return nil, e
	}
	c := &toolsConv{file: file, data: data, out: &Tools{}}
	list, path := c.findTools(root)
	if list == nil {
		return nil, errors.Join(c.errs...)
	}
	s := &Schema{Version: FormatVersion, Dialect: "tools",
		Description: "Tools converted from " + describeFile(file) + "."}
	for i, el := range list.vals {
		if a := c.tool(el, fmt.Sprintf("%s[%d]", path, i)); a != nil {
			s.Actions = append(s.Actions, a)
		}
	}
	if len(c.errs) == 0 && len(s.Actions) == 0 {
		c.fail(list, path, "no function tool to convert")
	}
	if len(c.errs) == 0 {
		for _, p := range s.check() {
			c.fail(list, path, "%s: %s", p.path, p.msg)
		}
	}
	if len(c.errs) > 0 {
		return nil, errors.Join(c.errs...)
	}
	s.reindex()
	c.out.Schema = s
	return c.out, nil
}

func describeFile(file string) string {
	if file == "" {
		return "a tools registry"
	}
	return path.Base(file)
}

// MarshalFile writes the schema as a schema file (docs/schema.md):
// indented JSON ending in a newline, which Parse reads back.
func (s *Schema) MarshalFile() ([]byte, error) {
	out, err := ast.JSON(s)
	if err != nil {
		return nil, fmt.Errorf("schema %s: %w", s.Dialect, err)
	}
	return out, nil
}

type toolsConv struct {
	file string
	data []byte
	out  *Tools
	errs []error
}

func (c *toolsConv) diag(sev string, n *node, path, f string, a ...any) *Error {
	e := newError(c.file, c.data, n.off, path, fmt.Sprintf(f, a...))
	e.Severity, e.Code = sev, "bad-tools"
	if sev != "" {
		e.Code = "unchecked"
	}
	return e
}

func (c *toolsConv) fail(n *node, path, f string, a ...any) {
	c.errs = append(c.errs, c.diag("", n, path, f, a...))
}

func (c *toolsConv) warn(sev string, n *node, path, f string, a ...any) {
	c.out.Diagnostics = append(c.out.Diagnostics, c.diag(sev, n, path, f, a...))
}

// findTools returns the array of tools in root and its path.
func (c *toolsConv) findTools(root *node) (*node, string) {
	switch root.kind {
	case '[':
		return root, ""
	case '{':
		if res := root.get("result"); res != nil && res.kind == '{' {
			if t := res.get("tools"); t != nil && t.kind == '[' {
				c.out.Family = MCP
				return t, "result.tools"
			}
		}
		if t := root.get("tools"); t != nil && t.kind == '[' {
			return t, "tools"
		}
		if root.get("name") != nil || root.get("function") != nil {
			return &node{kind: '[', off: root.off, vals: []*node{root}}, ""
		}
	}
	c.fail(root, "", "want an OpenAI or Anthropic tools array, or an MCP tools/list result ({\"tools\": […]})")
	return nil, ""
}

// tool converts one element of the tools array.
func (c *toolsConv) tool(el *node, path string) *Action {
	if el.kind != '{' {
		c.fail(el, path, "a tool must be an object, got %s", el.kindName())
		return nil
	}
	fam, def, params, ppath := OpenAIResponses, el, el.get("parameters"), path+".parameters"
	typ := el.str("type")
	switch {
	case el.get("function") != nil:
		fn := el.get("function")
		if fn.kind != '{' {
			c.fail(fn, path+".function", "function must be an object, got %s", fn.kindName())
			return nil
		}
		fam, def, path = OpenAIChat, fn, path+".function"
		params, ppath = fn.get("parameters"), path+".parameters"
	case el.get("input_schema") != nil:
		fam, params, ppath = Anthropic, el.get("input_schema"), path+".input_schema"
	case el.get("inputSchema") != nil:
		fam, params, ppath = MCP, el.get("inputSchema"), path+".inputSchema"
	case typ != "" && typ != "function":
		c.warn("warning", el, path, "tool of type %q has no parameter schema (a provider's built-in tool): left out", typ)
		return nil
	}
	c.out.Family = cmp.Or(c.out.Family, fam)
	nameNode := def.get("name")
	name := def.str("name")
	if nameNode == nil || nameNode.kind != 's' || strings.TrimSpace(name) == "" || strings.ContainsAny(name, " \t\r\n") {
		at := el
		if nameNode != nil {
			at = nameNode
		}
		c.fail(at, path+".name", "a tool needs a name of one word (a non-empty string)")
		return nil
	}
	a := &Action{Name: name, Description: strings.TrimSpace(def.str("description"))}
	for _, m := range []*node{el, def} {
		for i, k := range m.keys {
			switch k {
			case "type", "function", "name", "description", "parameters", "input_schema", "inputSchema",
				"strict", "cache_control", "annotations", "title", "outputSchema", "_meta", "icons":
			default:
				c.warn("warning", m.vals[i], path+"."+k, "member %s of tool %s is not used", k, name)
			}
		}
		if m == def {
			break
		}
	}
	if params == nil {
		if fam == OpenAIChat || fam == OpenAIResponses {
			return a // OpenAI allows a function without parameters
		}
		c.fail(def, path, "tool %s has no parameter schema", name)
		return nil
	}
	c.object(a, params, ppath)
	return a
}

// object converts a tool's parameter schema (a JSON Schema object).
func (c *toolsConv) object(a *Action, n *node, path string) {
	if n.kind != '{' {
		c.fail(n, path, "the parameter schema of %s must be an object, got %s", a.Name, n.kindName())
		return
	}
	if t := n.get("type"); t != nil && !(t.kind == 's' && t.s == "object") {
		c.fail(t, path+".type", "the parameter schema of %s must have type \"object\", got %s", a.Name, t.text(c.data))
		return
	}
	req := map[string]bool{}
	var reqNames []*node // each must name a property
	if r := n.get("required"); r != nil && r.kind != '[' {
		c.fail(r, path+".required", "required must be an array of names, got %s", r.kindName())
	} else if r != nil {
		for i, x := range r.vals {
			if x.kind != 's' {
				c.fail(x, fmt.Sprintf("%s.required[%d]", path, i), "required must list names (strings), got %s", x.kindName())
				continue
			}
			req[x.s] = true
		}
		reqNames = r.vals
	}
	props := n.get("properties")
	if props != nil && props.kind != '{' {
		c.fail(props, path+".properties", "properties must be an object, got %s", props.kindName())
		return
	}
	if props != nil {
		for i, k := range props.keys {
			if p := c.param(k, props.vals[i], props.keyOffs[i], path+".properties."+k, req[k]); p != nil {
				a.Params = append(a.Params, p)
			}
		}
	}
	for i, x := range reqNames {
		if x.kind == 's' && props.get(x.s) == nil {
			c.fail(x, fmt.Sprintf("%s.required[%d]", path, i), "required names %q, which is not a property of %s", x.s, a.Name)
		}
	}
	for i, k := range n.keys {
		v := n.vals[i]
		switch k {
		case "type", "properties", "required", "description", "title", "$schema", "$comment", "$id":
		case "additionalProperties":
			if v.kind == 'b' && !v.b {
				continue // plangram reports undeclared arguments anyway
			}
			c.warn("warning", v, path+"."+k, "additionalProperties is not supported: %s reports undeclared arguments as unknown-param", a.Name)
		default:
			c.warn("warning", v, path+"."+k, "keyword %s of %s's parameter schema is not checked", k, a.Name)
			a.Description = appendDoc(a.Description, k, v.text(c.data))
		}
	}
}

// typeAliases maps type names that tool definitions use although JSON
// Schema does not (Python's and C's names; vLLM's and SGLang's parsers
// accept them) to the JSON Schema type they mean.
var typeAliases = map[string]string{
	"float": "number", "double": "number", "int": "integer", "long": "integer",
	"bool": "boolean", "str": "string", "dict": "object", "list": "array",
}

// scalarTypes maps JSON Schema scalar types to plangram types.
var scalarTypes = map[string]Type{"string": String, "integer": Int, "number": Number, "boolean": Bool}

// param converts one property.
func (c *toolsConv) param(name string, n *node, keyOff int, path string, required bool) *Param {
	key := &node{off: keyOff}
	if !paramName(name) {
		c.fail(key, path, "parameter name %q must be a letter or _ followed by letters, digits, _ - or .", name)
		return nil
	}
	p := &Param{Name: name, Required: required}
	if n.kind == 'b' && n.b { // "name": true, any value
		p.Type = JSON
		return p
	}
	if n.kind != '{' {
		c.fail(n, path, "the schema of parameter %s must be an object, got %s", name, n.kindName())
		return nil
	}
	p.Doc = cmp.Or(strings.TrimSpace(n.str("description")), strings.TrimSpace(n.str("title")))
	if title := strings.TrimSpace(n.str("title")); title != "" && title != p.Doc {
		p.Doc = appendDoc(p.Doc, "title", n.get("title").text(c.data))
	}
	handled := map[string]bool{"type": true, "description": true, "title": true}
	t, ok := c.jsonType(n, path, name)
	if !ok {
		return nil
	}
	if ty := n.get("type"); ty != nil && ty.kind == '[' && t != "" {
		p.Required, p.Nullable = false, true // strict OpenAI schemas mark optional members so
	} else if a := n.get("anyOf"); t == "" && ty == nil && a != nil {
		if st := orNull(a); st != "" { // anyOf [{"type": T}, {"type": "null"}] is ["T", "null"]
			c.warn("warning", a, path+".anyOf", "parameter %s may be null: it is made optional, and null is kept as null (type %s)", name, st)
			t, handled["anyOf"], p.Required, p.Nullable = st, true, false, true
		}
	}
	switch t {
	case "string", "integer", "number", "boolean":
		p.Type = scalarTypes[t]
		if e := n.get("enum"); e != nil {
			handled["enum"] = c.enum(p, e, path+".enum")
		}
		if k := n.get("const"); k != nil && k.kind == 's' && p.Type == String {
			p.Type, p.Enum, handled["const"] = Enum, []string{k.s}, true
		}
	case "array":
		p.Type = JSON
		handled["items"] = true
		it := n.get("items")
		if it == nil || it.kind != '{' {
			break
		}
		ity, _ := c.jsonType(it, path+".items", name)
		if st, ok := scalarTypes[ity]; ok && onlyKeys(it, "type", "description", "title", "enum") {
			p.Type, p.Items = List, st
			if st == String {
				p.Items = ""
			}
			if e := it.get("enum"); e != nil {
				handled["items"] = c.enum(p, e, path+".items.enum")
				if p.Items == "" && p.Enum != nil {
					p.Items = Enum
				}
			}
			break
		}
		c.warn("note", it, path+".items", "the elements of %s are kept as JSON: their schema is not checked", name)
		p.Doc = appendDoc(p.Doc, "items", it.text(c.data))
	case "object":
		p.Type = JSON
		noted := false
		for _, k := range []string{"properties", "required", "additionalProperties", "patternProperties"} {
			if v := n.get(k); v != nil {
				handled[k] = true
				if !noted {
					c.warn("note", v, path+"."+k, "%s is kept as JSON: the schema of its members is not checked (kept in its doc)", name)
					noted = true
				}
				p.Doc = appendDoc(p.Doc, k, v.text(c.data))
			}
		}
	default: // any JSON value
		p.Type = JSON
	}
	if d := n.get("default"); d != nil {
		handled["default"] = true
		var v any
		_ = json.Unmarshal([]byte(d.text(c.data)), &v)
		p.Default = v
		if err := checkDefault(p); err != nil || p.Type == JSON {
			p.Default = nil
			if err != nil {
				c.warn("warning", d, path+".default", "default of %s is not of its type (%v): kept in its doc only", name, err)
			}
			p.Doc = appendDoc(p.Doc, "default", d.text(c.data))
		}
	}
	for i, k := range n.keys {
		if handled[k] || k == "$comment" {
			continue
		}
		v := n.vals[i]
		c.warn("warning", v, path+"."+k, "keyword %s of parameter %s is not checked (kept in its doc)", k, name)
		p.Doc = appendDoc(p.Doc, k, v.text(c.data))
	}
	return p
}

// jsonType returns the JSON Schema type a property's values have: its
// "type", the non-null one of a nullable type (with a warning), the type
// its enum's values share, or "" for any value.
func (c *toolsConv) jsonType(n *node, path, name string) (string, bool) {
	t := n.get("type")
	switch {
	case t == nil:
		if e := n.get("enum"); e != nil && e.kind == '[' && len(e.vals) > 0 && allKind(e.vals, 's') {
			return "string", true
		}
		if k := n.get("const"); k != nil && k.kind == 's' {
			return "string", true
		}
		if n.get("properties") != nil {
			return "object", true
		}
		return "", true
	case t.kind == 's':
		switch t.s {
		case "string", "integer", "number", "boolean", "array", "object":
			return t.s, true
		case "null":
			c.warn("warning", t, path+".type", "parameter %s of type null is kept as JSON", name)
			return "", true
		}
		if std, ok := typeAliases[t.s]; ok {
			c.warn("warning", t, path+".type", "parameter %s: %q is not a JSON Schema type: read as %s", name, t.s, std)
			return std, true
		}
		c.fail(t, path+".type", "parameter %s: unknown JSON Schema type %q (want string, integer, number, boolean, array, object or null)", name, t.s)
		return "", false
	case t.kind == '[':
		var types []string
		for _, x := range t.vals {
			if x.kind != 's' {
				c.fail(x, path+".type", "parameter %s: type must list type names, got %s", name, x.kindName())
				return "", false
			}
			if x.s != "null" {
				types = append(types, cmp.Or(typeAliases[x.s], x.s))
			}
		}
		if len(types) == 1 && len(t.vals) == 2 {
			c.warn("warning", t, path+".type", "parameter %s may be null: it is made optional, and null is kept as null (type %s)", name, types[0])
			return types[0], true
		}
		c.warn("warning", t, path+".type", "parameter %s has several types: kept as JSON", name)
		return "", true
	}
	c.fail(t, path+".type", "parameter %s: type must be a string or an array of strings, got %s", name, t.kindName())
	return "", false
}

// enum sets p's enum from a JSON Schema enum; it reports whether the enum
// is checked (only string enums are; others are a warning).
func (c *toolsConv) enum(p *Param, e *node, path string) bool {
	if e.kind != '[' || len(e.vals) == 0 {
		c.fail(e, path, "enum of %s must be a non-empty array", p.Name)
		return true
	}
	if !allKind(e.vals, 's') || p.ItemType() != String {
		return false
	}
	for _, x := range e.vals {
		p.Enum = append(p.Enum, x.s)
	}
	if p.Type == String {
		p.Type = Enum
	}
	return true
}

// orNull returns T for an anyOf of two schemas {"type": T}, T a scalar
// type, and {"type": "null"}, in either order; else "".
func orNull(a *node) string {
	if a.kind != '[' || len(a.vals) != 2 {
		return ""
	}
	t := ""
	for _, b := range a.vals {
		ty := b.get("type")
		if b.kind != '{' || len(b.keys) != 1 || ty == nil || ty.kind != 's' {
			return ""
		}
		if ty.s != "null" {
			t = ty.s
		}
	}
	if _, ok := scalarTypes[t]; !ok || a.vals[0].get("type").s != "null" && a.vals[1].get("type").s != "null" {
		return ""
	}
	return t
}

func allKind(ns []*node, k byte) bool {
	return !slices.ContainsFunc(ns, func(n *node) bool { return n.kind != k })
}

func onlyKeys(n *node, keys ...string) bool {
	return !slices.ContainsFunc(n.keys, func(k string) bool { return !slices.Contains(keys, k) })
}

// appendDoc appends "key: JSON" to a doc, so that nothing of the source
// schema is lost.
func appendDoc(doc, key, text string) string {
	var b bytes.Buffer
	if json.Compact(&b, []byte(text)) == nil {
		text = b.String()
	}
	add := fmt.Sprintf("JSON Schema %s: %s", key, text)
	if doc == "" {
		return add
	}
	return doc + " (" + add + ")"
}

// node is a JSON value with its offset, objects keeping their key order.
type node struct {
	kind    byte // '{' '[' 's' 'n' (number) 'b' '0' (null)
	off     int
	end     int
	s       string
	b       bool
	keys    []string
	keyOffs []int
	vals    []*node
}

func (n *node) get(key string) *node {
	if n == nil || n.kind != '{' {
		return nil
	}
	if i := slices.Index(n.keys, key); i >= 0 {
		return n.vals[i]
	}
	return nil
}

func (n *node) str(key string) string {
	if v := n.get(key); v != nil && v.kind == 's' {
		return v.s
	}
	return ""
}

func (n *node) text(data []byte) string { return string(data[n.off:n.end]) }

func (n *node) kindName() string {
	if name, ok := kindNames[n.kind]; ok {
		return name
	}
	return "null"
}

var kindNames = map[byte]string{'{': "an object", '[': "an array", 's': "a string", 'n': "a number", 'b': "a boolean"}

// readTree decodes one JSON value with offsets.
func readTree(data []byte) (*node, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	n, err := readNode(dec, data)
	if err != nil {
		return nil, err
	}
	if off := skipSpace(data, int(dec.InputOffset())); off < len(data) {
		return nil, &trailingError{off}
	}
	return n, nil
}

func readNode(dec *json.Decoder, data []byte) (*node, error) {
	off := skipSpace(data, int(dec.InputOffset()))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	n := &node{off: off}
	switch v := tok.(type) {
	case json.Delim:
		n.kind = byte(v)
		for dec.More() {
			if v == '{' {
				koff := skipSpace(data, int(dec.InputOffset()))
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				n.keys = append(n.keys, k.(string))
				n.keyOffs = append(n.keyOffs, koff)
			}
			child, err := readNode(dec, data)
			if err != nil {
				return nil, err
			}
			n.vals = append(n.vals, child)
		}
		if _, err := dec.Token(); err != nil {
			return nil, err
		}
	case string:
		n.kind, n.s = 's', v
	case json.Number:
		n.kind = 'n'
	case bool:
		n.kind, n.b = 'b', v
	case nil:
		n.kind = '0'
	}
	n.end = int(dec.InputOffset())
	return n, nil
}

// trailingError is data after the JSON value.
type trailingError struct{ off int }

func (e *trailingError) Error() string { return "unexpected data after the JSON value" }
