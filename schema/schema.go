// Package schema is plangram's one declarative description of actions: their
// names, aliases, typed parameters and blocks. The same schema drives the
// parsers of every dialect, the validator, the JSON Schema and generated Go
// types. Built-in dialects are embedded schema files (builtin/*.json) in the
// same documented format users write for their own dialects
// (docs/schema.md).
package schema

import (
	"bytes"
	"cmp"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// FormatVersion is the schema file format version this package reads.
const FormatVersion = 1

// Schema describes one dialect's actions.
type Schema struct {
	// SchemaRef is the optional "$schema" key editors use for completion.
	SchemaRef string `json:"$schema,omitempty"`
	Version   int    `json:"version"`
	Dialect   string `json:"dialect"`
	// Syntax names the built-in grammar that reads this dialect's documents
	// (acts, plan, tools or an edit format); empty means Dialect, which must then be a
	// built-in dialect. A custom dialect sets it (docs/schema.md).
	Syntax      string `json:"syntax,omitempty"`
	Description string `json:"description,omitempty"`
	// UnknownActions says what an action the schema does not declare is:
	// UnknownError ("error", the default when empty) or UnknownAllow
	// ("allow": plug-in actions, kept with their arguments and no params).
	// docs/schema.md, "Unknown actions".
	UnknownActions string `json:"unknown_actions,omitempty"`
	// UnknownKeys says what a plan's metadata key that an action does not
	// declare is: UnknownError ("error", the default when empty: the item
	// would be lost) or UnknownAllow ("allow": a warning, the item is
	// ignored). docs/schema.md, "Unknown keys".
	UnknownKeys string    `json:"unknown_keys,omitempty"`
	Actions     []*Action `json:"actions"`

	index map[string]*Action
}

// Values of Schema.UnknownActions.
const (
	UnknownError = "error"
	UnknownAllow = "allow"
)

// AllowsUnknownActions reports whether the schema declares that actions it
// does not know are allowed (plug-in actions). A nil schema allows none.
func (s *Schema) AllowsUnknownActions() bool {
	return s != nil && s.UnknownActions == UnknownAllow
}

// AllowsUnknownKeys reports whether the schema declares that metadata keys
// an action does not declare are allowed (ignored with a warning). A nil
// schema allows none.
func (s *Schema) AllowsUnknownKeys() bool {
	return s != nil && s.UnknownKeys == UnknownAllow
}

// SyntaxName returns the grammar that reads the dialect: Syntax, or Dialect
// when Syntax is empty.
func (s *Schema) SyntaxName() string { return cmp.Or(s.Syntax, s.Dialect) }

// ArgMode says where an acts-dialect action takes its arguments from.
type ArgMode string

// Argument modes.
const (
	// ArgsHybrid fills parameters from inline arguments first, then blocks.
	ArgsHybrid ArgMode = "hybrid"
	// ArgsInline takes inline arguments only; argument blocks are an error.
	ArgsInline ArgMode = "inline"
	// ArgsBlock takes argument blocks only; inline arguments are an error.
	ArgsBlock ArgMode = "block"
)

// Action describes one action.
type Action struct {
	Name        string   `json:"name"`
	Aliases     []string `json:"aliases,omitempty"`
	Description string   `json:"description,omitempty"`
	// Args is the acts dialect's argument mode; empty means hybrid.
	Args   ArgMode  `json:"args,omitempty"`
	Params []*Param `json:"params,omitempty"`
	Blocks *Blocks  `json:"blocks,omitempty"`
}

// Blocks constrains an action's fenced blocks (plan dialect).
type Blocks struct {
	Min *int `json:"min,omitempty"`
	Max *int `json:"max,omitempty"`
	// Labels are the headings that introduce blocks, in order, repeating as a
	// group (e.g. ["FIND:", "REPLACE:"] for EDIT pairs).
	Labels []string `json:"labels,omitempty"`
	// Info is a regular expression the info string must match.
	Info string `json:"info,omitempty"`
}

// Type is a parameter's value type.
type Type string

// Parameter types.
const (
	String Type = "string"
	Path   Type = "path"
	Bool   Type = "bool"
	Int    Type = "int"
	Number Type = "number"
	Enum   Type = "enum"
	List   Type = "list"
	JSON   Type = "json"
	// Resource is a project path or a URL (URLs are kept untouched); a
	// Path value must be a project path.
	Resource Type = "resource"
)

var types = []Type{String, Path, Bool, Int, Number, Enum, List, JSON, Resource}

// Param describes one parameter.
type Param struct {
	// Name is the parameter's name in JSON output (a tool's argument key)
	// and, CamelCased, in generated code: a letter or _, then letters,
	// digits, _ - . (snake_case is recommended; tools converted from a
	// registry keep their argument keys, e.g. filePath).
	Name string `json:"name"`
	// Key is the name as written in a plan's metadata list ("File Path");
	// empty means Name.
	Key      string   `json:"key,omitempty"`
	Aliases  []string `json:"aliases,omitempty"`
	Type     Type     `json:"type,omitempty"`
	Required bool     `json:"required,omitempty"`
	Default  any      `json:"default,omitempty"`
	Enum     []string `json:"enum,omitempty"`
	// Variadic marks the last parameter as taking all remaining arguments
	// (its value is a list of strings).
	Variadic bool `json:"variadic,omitempty"`
	// From says where a dialect takes the value from; the meaning of each
	// value is the dialect's (docs/schema.md). Empty means the default source.
	From string `json:"from,omitempty"`
	// Raw marks a streamed tool parameter whose text may contain anything,
	// tags included; it is not trimmed.
	Raw bool `json:"raw,omitempty"`
	// Nullable marks a parameter whose type also allows null (a tools
	// file's ["string", "null"], or an anyOf of a type and null): a null
	// value, or the text null in a syntax of text values, is null.
	Nullable bool `json:"nullable,omitempty"`
	// Entities is the streamed parameter's entity policy: "keep" (default)
	// or "unescape" (&lt; &gt; &amp; &quot; &apos; and numeric references).
	Entities string `json:"entities,omitempty"`
	// Items is the type of each element of a list parameter (string when
	// unset), e.g. "resource" for a list of links.
	Items Type `json:"items,omitempty"`
	// AliasType is the type of a value written under one of Aliases when it
	// differs from Type: READ's resource accepts a URL under "Resource" but
	// only a project path under its alias "File Path". Empty means Type.
	AliasType Type `json:"alias_type,omitempty"`
	// Fallback names another parameter of the same action whose value this
	// one takes when its own source gives none (INVOKE's message falls back
	// to its description).
	Fallback string `json:"fallback,omitempty"`
	Doc      string `json:"doc,omitempty"`
}

// TypeOrDefault returns the parameter's type, String when unset.
func (p *Param) TypeOrDefault() Type { return cmp.Or(p.Type, String) }

// KeyOrName returns Key, or Name when Key is empty.
func (p *Param) KeyOrName() string { return cmp.Or(p.Key, p.Name) }

// Mode returns the action's argument mode, hybrid when unset.
func (a *Action) Mode() ArgMode { return cmp.Or(a.Args, ArgsHybrid) }

// Param returns the named parameter (by Name) or nil.
func (a *Action) Param(name string) *Param {
	if i := slices.IndexFunc(a.Params, func(p *Param) bool { return p.Name == name }); i >= 0 {
		return a.Params[i]
	}
	return nil
}

// Signature renders the action as name(param, optional?, rest…).
func (a *Action) Signature() string {
	parts := make([]string, 0, len(a.Params))
	for _, p := range a.Params {
		s := p.Name
		if p.Variadic {
			s += "…"
		} else if !p.Required {
			s += "?"
		}
		parts = append(parts, s)
	}
	return a.Name + "(" + strings.Join(parts, ", ") + ")"
}

// Lookup finds an action by name or alias, compared exactly.
func (s *Schema) Lookup(name string) *Action {
	if s.index == nil {
		s.reindex()
	}
	return s.index[name]
}

// Names returns the action names in schema order.
func (s *Schema) Names() []string {
	out := make([]string, len(s.Actions))
	for i, a := range s.Actions {
		out[i] = a.Name
	}
	return out
}

func (s *Schema) reindex() {
	s.index = make(map[string]*Action, 2*len(s.Actions))
	for _, a := range s.Actions {
		s.index[a.Name] = a
		for _, al := range a.Aliases {
			if _, dup := s.index[al]; !dup {
				s.index[al] = a
			}
		}
	}
}

// Suggest returns the known action name closest to name (edit distance,
// case-insensitive), or "" when none is close enough to be a plausible typo.
func (s *Schema) Suggest(name string) string {
	best, bestD := "", 1<<30
	lname := strings.ToLower(name)
	limit := len(name)/3 + 1
	try := func(action, cand string) {
		cand = strings.ToLower(cand)
		if d := len(lname) - len(cand); max(d, -d) > limit {
			return // the distance is at least the difference in length: too far
		}
		if d := Distance(lname, cand); d < bestD {
			best, bestD = action, d
		}
	}
	for _, a := range s.Actions {
		try(a.Name, a.Name)
		for _, alias := range a.Aliases {
			try(a.Name, alias)
		}
	}
	if bestD > limit {
		return ""
	}
	return best
}

// Distance is the Levenshtein edit distance between a and b (in bytes).
func Distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// Error is a problem in a schema file (or a tools registry), positioned
// like any other input.
type Error struct {
	// Severity is "error" when empty; FromTools also reports "warning"s
	// and "note"s about what a conversion does not check.
	Severity string
	File     string
	Offset   int // byte offset
	Line     int // 1-based
	Col      int // 1-based, bytes
	Path     string
	Msg      string
	// Code is the diagnostic code; empty means CodeBadSchema.
	Code string
}

// CodeBadSchema is the code of a problem in a schema file.
const CodeBadSchema = "bad-schema"

func (e *Error) Error() string {
	where := ""
	if e.Path != "" {
		where = " (at " + e.Path + ")"
	}
	return fmt.Sprintf("%s:%d:%d: %s: %s%s [%s]", e.File, e.Line, e.Col, cmp.Or(e.Severity, "error"), e.Msg, where, cmp.Or(e.Code, CodeBadSchema))
}

// Parse reads a schema file (JSON). Every problem is returned as an *Error
// with the file position it concerns; several problems are joined.
func Parse(file string, data []byte) (*Schema, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var s Schema
	if err := dec.Decode(&s); err != nil {
		off := int(dec.InputOffset())
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		msg := err.Error()
		path := ""
		switch {
		case errors.Is(err, io.EOF):
			// Decode says only "EOF": name what is wrong.
			off, msg = 0, "the schema file is empty (nothing but white space): a schema is a JSON object such as {\"version\": 1, \"dialect\": \"NAME\", \"actions\": [...]} (docs/schema.md)"
			if len(data) > 0 {
				msg = "the schema file holds only white space: a schema is a JSON object such as {\"version\": 1, \"dialect\": \"NAME\", \"actions\": [...]} (docs/schema.md)"
			}
		case errors.Is(err, io.ErrUnexpectedEOF):
			off, msg = len(data), "the schema file ends before its JSON is complete (is it cut off?): a value, a closing bracket or a closing quote is missing at its end"
		case errors.As(err, &se):
			off = int(se.Offset) - 1 // Offset counts the offending byte
		case errors.As(err, &te):
			path = te.Field
			off = locate(data, path)
			msg = fmt.Sprintf("%s: want %s, got JSON %s", te.Field, te.Type, te.Value)
		}
		return nil, newError(file, data, off, path, strings.TrimPrefix(msg, "json: "))
	}
	if dec.More() {
		return nil, newError(file, data, int(dec.InputOffset()), "", "unexpected data after the schema object")
	}
	var errs []error
	for _, p := range s.check() {
		off := locate(data, p.path)
		errs = append(errs, newError(file, data, off, p.path, p.msg))
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	s.reindex()
	return &s, nil
}

type problem struct{ path, msg string }

// paramName reports whether s is a valid parameter name,
// ^[A-Za-z_][A-Za-z0-9_.-]*$ (a loop rather than a regular expression
// compiled when the package is initialised, on every start of plangram).
func paramName(s string) bool {
	return plainKey(s) && (s[0] == '_' || isASCIILetter(s[0]))
}

// plainKey reports whether name is non-empty and all ASCII letters,
// digits, '_', '.' and '-' (^[A-Za-z0-9_.-]+$).
func plainKey(name string) bool {
	return name != "" && !strings.ContainsFunc(name, func(r rune) bool {
		return !(r < 0x80 && (isASCIILetter(byte(r)) || '0' <= r && r <= '9' || r == '_' || r == '.' || r == '-'))
	})
}

func (s *Schema) check() []problem {
	var ps []problem
	add := func(path, f string, a ...any) { ps = append(ps, problem{path, fmt.Sprintf(f, a...)}) }
	// oneOf reports a value that is set and not one of allowed; msg says
	// what is allowed and takes the value.
	oneOf := func(path, v, msg string, allowed ...string) {
		if v != "" && !slices.Contains(allowed, v) {
			add(path, msg, v)
		}
	}
	if s.Version != FormatVersion {
		add("version", "version must be %d, got %d", FormatVersion, s.Version)
	}
	if strings.TrimSpace(s.Dialect) == "" {
		add("dialect", "dialect must be set")
	}
	oneOf("unknown_actions", s.UnknownActions, `unknown_actions must be "error" or "allow", got %q`, UnknownError, UnknownAllow)
	oneOf("unknown_keys", s.UnknownKeys, `unknown_keys must be "error" or "allow", got %q`, UnknownError, UnknownAllow)
	// What the file format requires beyond each field's own type: a grammar
	// that reads the dialect (syntax), defaults of their parameter's type
	// (format.go), enum values for enum list elements, and block counts
	// that are not negative.
	known := Dialects()
	switch {
	case s.Syntax != "" && !slices.Contains(known, s.Syntax):
		add("syntax", "syntax must be one of %s, got %q", strings.Join(known, ", "), s.Syntax)
	case s.Syntax == "" && strings.TrimSpace(s.Dialect) != "" && !slices.Contains(known, s.Dialect):
		add("dialect", "dialect %q is not built-in (%s): set \"syntax\" to the built-in grammar that reads it",
			s.Dialect, strings.Join(known, ", "))
	}
	for i, a := range s.Actions {
		if a == nil {
			continue
		}
		ap := fmt.Sprintf("actions[%d]", i)
		for j, p := range a.Params {
			if p == nil {
				continue
			}
			pp := fmt.Sprintf("%s.params[%d]", ap, j)
			if p.TypeOrDefault() == List && p.Items == Enum && len(p.Enum) == 0 {
				add(pp+".enum", "a list of enum elements needs enum values")
			}
			if p.Default != nil && validType(p.Type) && validType(p.Items) {
				if err := checkDefault(p); err != nil {
					add(pp+".default", "default %v", err)
				}
			}
		}
		if b := a.Blocks; b != nil {
			if b.Min != nil && *b.Min < 0 {
				add(ap+".blocks.min", "blocks.min must not be negative, got %d", *b.Min)
			}
			if b.Max != nil && *b.Max < 0 {
				add(ap+".blocks.max", "blocks.max must not be negative, got %d", *b.Max)
			}
		}
	}
	if len(s.Actions) == 0 {
		add("actions", "a schema needs at least one action")
	}
	seen := map[string]string{}
	for i, a := range s.Actions {
		ap := fmt.Sprintf("actions[%d]", i)
		if a == nil {
			add(ap, "action must be an object")
			continue
		}
		if strings.TrimSpace(a.Name) == "" || strings.ContainsAny(a.Name, " \t\r\n") {
			add(ap+".name", "action name %q must be one non-empty word", a.Name)
		}
		for j, n := range append([]string{a.Name}, a.Aliases...) {
			if prev, dup := seen[n]; dup && n != "" {
				path := ap + ".name"
				if j > 0 {
					path = fmt.Sprintf("%s.aliases[%d]", ap, j-1)
				}
				add(path, "%q is already declared by %s", n, prev)
			}
			seen[n] = ap
		}
		oneOf(ap+".args", string(a.Args), "args must be hybrid, inline or block, got %q", string(ArgsHybrid), string(ArgsInline), string(ArgsBlock))
		pseen := map[string]bool{}
		for j, p := range a.Params {
			pp := fmt.Sprintf("%s.params[%d]", ap, j)
			if p == nil {
				add(pp, "parameter must be an object")
				continue
			}
			if !paramName(p.Name) {
				add(pp+".name", "parameter name %q must be a letter or _ followed by letters, digits, _ - or .", p.Name)
			}
			if pseen[p.Name] {
				add(pp+".name", "parameter %q declared twice", p.Name)
			}
			pseen[p.Name] = true
			if !validType(p.Type) {
				add(pp+".type", "unknown type %q (want one of %s)", p.Type, typeList())
			}
			if p.Type == Enum && len(p.Enum) == 0 {
				add(pp+".enum", "an enum parameter needs enum values")
			}
			if p.Variadic && j != len(a.Params)-1 {
				add(pp+".variadic", "only the last parameter can be variadic")
			}
			oneOf(pp+".entities", p.Entities, "entities must be keep or unescape, got %q", "keep", "unescape")
			if p.Items != "" && (p.Type != List || !validType(p.Items) || p.Items == List) {
				add(pp+".items", "items needs type list and an element type other than list, got type %q items %q", p.Type, p.Items)
			}
			if p.AliasType != "" && (!validType(p.AliasType) || len(p.Aliases) == 0) {
				add(pp+".alias_type", "alias_type needs aliases and a known type, got %q", p.AliasType)
			}
			if allowed, ok := fromValues[s.SyntaxName()]; ok && p.From != "" && !slices.Contains(allowed, p.From) {
				add(pp+".from", "from %q is not a %s source (want one of %s)", p.From, s.Dialect, strings.Join(allowed, ", "))
			}
		}
		for j, p := range a.Params {
			if p != nil && p.Fallback != "" && (p.Fallback == p.Name || a.Param(p.Fallback) == nil) {
				add(fmt.Sprintf("%s.params[%d].fallback", ap, j), "fallback %q must name another parameter of %s", p.Fallback, a.Name)
			}
		}
		if b := a.Blocks; b != nil {
			if b.Min != nil && b.Max != nil && *b.Min > *b.Max {
				add(ap+".blocks", "blocks.min %d is greater than blocks.max %d", *b.Min, *b.Max)
			}
			if b.Info != "" {
				if _, err := regexp.Compile(b.Info); err != nil {
					add(ap+".blocks.info", "bad info pattern: %v", err)
				}
			}
		}
	}
	return ps
}

// fromValues lists, per dialect, the sources a parameter's From may name
// (docs/plan.md describes the plan dialect's).
var fromValues = map[string][]string{
	"plan": {"meta", "block", "script", "cwd", "env", "groups", "block_lines", "markdown"},
}

func validType(t Type) bool {
	return t == "" || slices.Contains(types, t)
}

func typeList() string {
	s := make([]string, len(types))
	for i, t := range types {
		s[i] = string(t)
	}
	return strings.Join(s, ", ")
}

func newError(file string, data []byte, off int, path, msg string) *Error {
	off = min(max(off, 0), len(data))
	line := 1 + bytes.Count(data[:off], []byte{'\n'})
	col := off - (bytes.LastIndexByte(data[:off], '\n') + 1) + 1
	return &Error{File: file, Offset: off, Line: line, Col: col, Path: path, Msg: msg}
}

// locate returns the byte offset of the value at a path such as
// "actions[2].params[0].type" (an array element's value, an object
// member's key; of a key given twice, the last, whose value Go keeps), or
// of its closest existing ancestor.
func locate(data []byte, path string) int {
	n, err := readNode(json.NewDecoder(bytes.NewReader(data)), data)
	if err != nil {
		return 0
	}
	best := 0
	// The path's segments: "actions", "2]", "params", "0]", "type".
	for _, seg := range strings.FieldsFunc(path, func(r rune) bool { return r == '.' || r == '[' }) {
		i := -1
		if idx, ok := strings.CutSuffix(seg, "]"); ok && n.kind == '[' {
			if j, err := strconv.Atoi(idx); err == nil && j < len(n.vals) {
				i, best = j, n.vals[j].off
			}
		} else if n.kind == '{' {
			for j := len(n.keys) - 1; j >= 0 && i < 0; j-- {
				if n.keys[j] == seg {
					i, best = j, n.keyOffs[j]
				}
			}
		}
		if i < 0 {
			break
		}
		n = n.vals[i]
	}
	return best
}

func skipSpace(data []byte, off int) int {
	for off < len(data) && (data[off] == ' ' || data[off] == '\t' || data[off] == '\n' || data[off] == '\r' || data[off] == ',' || data[off] == ':') {
		off++
	}
	return off
}

//go:embed builtin/*.json
var builtinFS embed.FS

// Dialects lists the built-in dialect names.
func Dialects() []string {
	entries, _ := builtinFS.ReadDir("builtin")
	var out []string
	for _, e := range entries {
		out = append(out, strings.TrimSuffix(e.Name(), ".json"))
	}
	sort.Strings(out)
	return out
}

// BuiltinSource returns the embedded schema file of a built-in dialect.
func BuiltinSource(dialect string) ([]byte, error) {
	data, err := builtinFS.ReadFile("builtin/" + dialect + ".json")
	if err != nil {
		return nil, fmt.Errorf("no built-in schema for dialect %q (have %s)", dialect, strings.Join(Dialects(), ", "))
	}
	return data, nil
}

// Builtin returns the schema of a built-in dialect, parsed from its embedded
// file on the first call and shared by every later one (each parse of a
// document asks for it, and parsing the file costs more than a small
// document). The Schema is shared and safe for concurrent use: the caller
// must not modify it (parse BuiltinSource for a copy of its own).
func Builtin(dialect string) (*Schema, error) {
	r, ok := builtins()[dialect]
	if !ok {
		_, err := BuiltinSource(dialect) // the error names the dialects there are
		return nil, err
	}
	return r.s, r.err
}

type builtinSchema struct {
	s   *Schema
	err error
}

// builtins parses every embedded schema once; the map and the schemas are
// never written after that.
var builtins = sync.OnceValue(func() map[string]builtinSchema {
	m := map[string]builtinSchema{}
	for _, d := range Dialects() {
		data, err := BuiltinSource(d)
		if err == nil {
			var r builtinSchema
			r.s, r.err = Parse("builtin/"+d+".json", data)
			m[d] = r
		}
	}
	return m
})
