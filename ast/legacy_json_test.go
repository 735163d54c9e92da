package ast

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/plangram/plangram/internal/jsonw"
)

// LegacyJSON is the encoder path the direct writer replaced, kept as the
// reference it must match byte for byte: encoding/json (indented by two
// spaces, no HTML escaping) over mirror types that reflect builds from the
// ast types — the same fields with the same tags, so a field added to ast
// is in the reference at once — with the rules of the former custom
// MarshalJSON methods: a Document's nil actions and diagnostics and an
// Action's nil args and blocks as [], nil params as {}, params as an object
// in list order (legacyParams).
func LegacyJSON(doc *Document) ([]byte, error) {
	m := &mirror{types: map[reflect.Type]reflect.Type{}}
	v := m.copy(reflect.ValueOf(doc))
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v.Interface()); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// exactExtra names, per ast type, the fields whose exact bytes the JSON
// gives beside them when they are not valid UTF-8 (exact.go): the mirror
// gets an extra field "<json name>_base64" right after each.
var exactExtra = map[reflect.Type]map[string]bool{
	reflect.TypeFor[Document](): {"Title": true, "Rationale": true, "Metadata": true},
	reflect.TypeFor[Memo]():     {"Text": true},
	reflect.TypeFor[Action]():   {"Name": true, "Args": true, "Params": true},
	reflect.TypeFor[Block]():    {"Info": true, "Label": true},
	reflect.TypeFor[Prose]():    {"Text": true},
}

// exactValue computes an extra field's value: base64 of a string (or of
// the string a pointer holds), the args' array, the params' overlay.
func exactValue(v reflect.Value, mt reflect.Type) reflect.Value {
	out := reflect.New(mt).Elem()
	switch x := v.Interface().(type) {
	case string:
		if !utf8.ValidString(x) {
			out.SetString(base64.StdEncoding.EncodeToString([]byte(x)))
		}
	case *string:
		if x != nil && !utf8.ValidString(*x) {
			out.SetString(base64.StdEncoding.EncodeToString([]byte(*x)))
		}
	case []string:
		if slices.ContainsFunc(x, func(s string) bool { return !utf8.ValidString(s) }) {
			list := make([]*string, len(x))
			for i, s := range x {
				if !utf8.ValidString(s) {
					b := base64.StdEncoding.EncodeToString([]byte(s))
					list[i] = &b
				}
			}
			out.Set(reflect.ValueOf(list))
		}
	case Params:
		if HasInvalidUTF8(x) {
			w := &jsonw.W{}
			writeOverlay(w, generic(reflect.ValueOf(x)))
			out.Set(reflect.ValueOf(json.RawMessage(w.B)))
		}
	}
	return out
}

// exactType is the type of an extra field.
func exactType(t reflect.Type) reflect.Type {
	switch t {
	case reflect.TypeFor[[]string]():
		return reflect.TypeFor[[]*string]()
	case paramsType:
		return reflect.TypeFor[json.RawMessage]()
	}
	return reflect.TypeFor[string]()
}

// legacyParams is the former Params.MarshalJSON, verbatim.
type legacyParams []Param

func (ps legacyParams) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	b.WriteByte('{')
	ks := paramSuffixes(Params(ps)) // names as written: docs/acts.md, "Exact bytes in JSON"
	for i, p := range ps {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := enc.Encode(p.Name); err != nil {
			return nil, err
		}
		b.Truncate(b.Len() - 1)
		if ks != nil && ks[i] != 0 {
			b.Truncate(b.Len() - 1)
			fmt.Fprintf(&b, "#%d\"", ks[i])
		}
		b.WriteByte(':')
		if err := enc.Encode(p.Value); err != nil {
			return nil, fmt.Errorf("param %q: %w", p.Name, err)
		}
		b.Truncate(b.Len() - 1)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

var (
	paramsType = reflect.TypeFor[Params]()
	astPkg     = reflect.TypeFor[Document]().PkgPath()
	// emptyAsList names the fields the former MarshalJSON methods wrote as
	// [] or {} when nil.
	emptyAsList = map[reflect.Type][]string{
		reflect.TypeFor[Document](): {"Actions", "Diagnostics"},
		reflect.TypeFor[Action]():   {"Args", "Blocks", "Params"},
	}
)

type mirror struct{ types map[reflect.Type]reflect.Type }

// typ returns the method-less mirror of an ast type.
func (m *mirror) typ(t reflect.Type) reflect.Type {
	if mt, ok := m.types[t]; ok {
		return mt
	}
	var mt reflect.Type
	switch {
	case t == paramsType:
		mt = reflect.TypeFor[legacyParams]()
	case t.Kind() == reflect.Pointer:
		mt = reflect.PointerTo(m.typ(t.Elem()))
	case t.Kind() == reflect.Slice:
		mt = reflect.SliceOf(m.typ(t.Elem()))
	case t.Kind() == reflect.Struct && t.PkgPath() == astPkg && t != reflect.TypeFor[Param]():
		var fs []reflect.StructField
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			fs = append(fs, reflect.StructField{Name: f.Name, Type: m.typ(f.Type), Tag: f.Tag})
			if exactExtra[t][f.Name] {
				name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
				fs = append(fs, reflect.StructField{Name: f.Name + "Base64X", Type: exactType(f.Type),
					Tag: reflect.StructTag(`json:"` + name + `_base64,omitempty"`)})
				if f.Type == paramsType {
					fs = append(fs, reflect.StructField{Name: f.Name + "KeysX", Type: reflect.TypeFor[json.RawMessage](),
						Tag: reflect.StructTag(`json:"` + name + `_keys_base64,omitempty"`)})
				}
			}
		}
		mt = reflect.StructOf(fs)
	default:
		mt = t
	}
	m.types[t] = mt
	return mt
}

// copy returns v as a value of its mirror type.
func (m *mirror) copy(v reflect.Value) reflect.Value {
	t := v.Type()
	mt := m.typ(t)
	if mt == t {
		return v
	}
	out := reflect.New(mt).Elem()
	switch {
	case t == paramsType:
		out.Set(v.Convert(mt))
	case t.Kind() == reflect.Pointer:
		if !v.IsNil() {
			out.Set(m.copy(v.Elem()).Addr())
		}
	case t.Kind() == reflect.Slice:
		if !v.IsNil() {
			out.Set(reflect.MakeSlice(mt, v.Len(), v.Len()))
			for i := range v.Len() {
				out.Index(i).Set(m.copy(v.Index(i)))
			}
		}
	case t.Kind() == reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			if f.IsExported() {
				out.FieldByName(f.Name).Set(m.copy(v.Field(i)))
			}
			if exactExtra[t][f.Name] {
				x := out.FieldByName(f.Name + "Base64X")
				x.Set(exactValue(v.Field(i), x.Type()))
				if ps, ok := v.Field(i).Interface().(Params); ok && HasInvalidName(ps) {
					w := &jsonw.W{}
					w.BeginObject()
					walkNames(generic(reflect.ValueOf(ps)), "", func(ptr, name string) {
						w.Key(ptr)
						w.String(base64.StdEncoding.EncodeToString([]byte(name)))
					})
					w.EndObject()
					out.FieldByName(f.Name + "KeysX").Set(reflect.ValueOf(json.RawMessage(w.B)))
				}
			}
		}
		if t == reflect.TypeFor[Block]() && v.FieldByName("ContentBase64").String() == "" {
			out.FieldByName("ContentBase64").Set(exactValue(v.FieldByName("Content"), reflect.TypeFor[string]()))
		}
		for _, name := range emptyAsList[t] {
			if f := out.FieldByName(name); f.IsNil() {
				f.Set(reflect.MakeSlice(f.Type(), 0, 0))
			}
		}
	}
	return out
}
