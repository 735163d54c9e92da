package ast

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/plangram/plangram/internal/jsonw"
)

// Exact bytes in JSON (docs/acts.md, "Exact bytes in JSON").
//
// A JSON string cannot carry bytes that are not UTF-8: the writer puts
// U+FFFD in their place. Every string the AST takes from the input keeps
// its exact bytes in memory, and the JSON output gives them back beside
// the lossy string, in standard padded base64, only where the string is not
// valid UTF-8:
//
//   - a string member "x" (a block's content, info and label, an action's
//     name, a prose node's text, a memo's text, a document's title and
//     rationale, a stream event's text, raw, name and param) gets a member
//     "x_base64";
//   - "args" gets "args_base64", an array as long as args holding the
//     base64 of each argument that is not valid UTF-8 and null for the
//     others;
//   - "params" (and a plan's "metadata") gets "params_base64"
//     ("metadata_base64"), an object with one member per parameter whose
//     value holds such a string: the value's base64 overlay, the value's
//     shape with the base64 of each such string, null for the other
//     elements of an array, and without the other members of an object.
//
// Action.UnmarshalJSON applies args_base64 and params_base64, so an action
// read back from JSON holds the exact bytes again.

// Base64Suffix is appended to a JSON member's name for the member that
// holds its exact bytes.
const Base64Suffix = "_base64"

// WriteExactString writes the object member key: s and, when s is not
// valid UTF-8, the member key_base64 with its exact bytes.
func WriteExactString(w *jsonw.W, key, s string) {
	w.KeyString(key, s)
	if !utf8.ValidString(s) {
		w.KeyString(key+Base64Suffix, base64.StdEncoding.EncodeToString([]byte(s)))
	}
}

// writeArgsBase64 writes "args_base64" when an argument is not valid UTF-8.
func writeArgsBase64(w *jsonw.W, args []string) {
	if slices.ContainsFunc(args, func(s string) bool { return !utf8.ValidString(s) }) {
		w.Key("args" + Base64Suffix)
		writeBareOverlay(args, w)
	}
}

// WriteParamsBase64 writes the member key_base64 holding the base64
// overlay of ps (see above) when a parameter's value holds a string that is
// not valid UTF-8, and nothing otherwise.
func WriteParamsBase64(w *jsonw.W, key string, ps Params) {
	if !paramsInvalid(ps, false) {
		return
	}
	w.Key(key + Base64Suffix)
	writeOverlay(w, generic(reflect.ValueOf(ps)))
}

// HasInvalidUTF8 reports whether v holds a string that is not valid UTF-8:
// v itself, or an element, member or field of it, as encoding/json would
// write it (byte slices are base64 in JSON already and are not looked at).
func HasInvalidUTF8(v any) bool { return invalidIn(v, false) }

// HasInvalidName reports whether v holds an object member name that is
// not valid UTF-8: a parameter's name or a map key, at any depth.
func HasInvalidName(v any) bool { return invalidIn(v, true) }

// invalidIn reports whether v holds a member name (names) or else a string
// value that is not valid UTF-8: directly for the shapes a parameter's
// value usually has, through generic for any other.
func invalidIn(v any, names bool) bool {
	switch x := v.(type) {
	case nil, bool, int, int64, float64, json.Number:
		return false
	case string:
		return !names && !utf8.ValidString(x)
	case []string:
		return !names && slices.ContainsFunc(x, func(s string) bool { return !utf8.ValidString(s) })
	case Params:
		return paramsInvalid(x, names)
	}
	return anyString(generic(reflect.ValueOf(v)), func(s string, name bool) bool { return name == names && !utf8.ValidString(s) })
}

// paramsInvalid is invalidIn for Params, without boxing ps (the JSON
// writer calls it for every action).
func paramsInvalid(ps Params, names bool) bool {
	for i := range ps {
		if names && !utf8.ValidString(ps[i].Name) || invalidIn(ps[i].Value, names) {
			return true
		}
	}
	return false
}

var paramsRType = reflect.TypeFor[Params]()

// generic returns v as the JSON writer writes it, with the exact bytes of
// its strings: an object as Params in the order written (a map's keys
// sorted, a struct's fields in order), an array as []any, a
// json.RawMessage as the value it holds, a string as string, anything else
// as it is. The walkers of the exact bytes walk this one shape.
func generic(v reflect.Value) any {
	if !v.IsValid() {
		return nil
	}
	switch v.Type() {
	case paramsRType:
		ps := v.Interface().(Params)
		out := make(Params, len(ps))
		for i, p := range ps {
			out[i] = Param{Name: p.Name, Value: generic(reflect.ValueOf(p.Value))}
		}
		return out
	case rawMessageType:
		if x, err := jsonw.DecodeExact(v.Bytes()); err == nil {
			return generic(reflect.ValueOf(x))
		}
		return v.Interface()
	case numberType:
		return json.Number(v.String())
	}
	switch v.Kind() {
	case reflect.String:
		return v.String()
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			return nil
		}
		return generic(v.Elem())
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 || v.Kind() == reflect.Slice && v.IsNil() {
			return v.Interface()
		}
		out := make([]any, v.Len())
		for i := range out {
			out[i] = generic(v.Index(i))
		}
		return out
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String || v.IsNil() {
			return v.Interface()
		}
		out := make(Params, 0, v.Len())
		for it := v.MapRange(); it.Next(); {
			out = append(out, Param{Name: it.Key().String(), Value: generic(it.Value())})
		}
		slices.SortFunc(out, func(a, b Param) int { return strings.Compare(a.Name, b.Name) })
		return out
	case reflect.Struct:
		out := Params{}
		eachField(v, func(name string, f reflect.Value) { out = append(out, Param{Name: name, Value: generic(f)}) })
		return out
	}
	return v.Interface()
}

var numberType = reflect.TypeFor[json.Number]()

// anyString reports whether fn returns true for a string of v, a generic
// value: a member name (name is true) or a string value, at any depth.
func anyString(v any, fn func(s string, name bool) bool) bool {
	switch x := v.(type) {
	case string:
		return fn(x, false)
	case []any:
		return slices.ContainsFunc(x, func(e any) bool { return anyString(e, fn) })
	case Params:
		return slices.ContainsFunc(x, func(p Param) bool { return fn(p.Name, true) || anyString(p.Value, fn) })
	}
	return false
}

// eachField calls fn with the JSON name and value of each field of a
// struct that encoding/json writes (embedded structs flattened).
func eachField(v reflect.Value, fn func(name string, f reflect.Value)) {
	t := v.Type()
	for i := range t.NumField() {
		sf := t.Field(i)
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if name == "-" || !sf.IsExported() && !sf.Anonymous {
			continue
		}
		f := v.Field(i)
		if sf.Anonymous && name == "" {
			for f.Kind() == reflect.Pointer && !f.IsNil() {
				f = f.Elem()
			}
			if f.Kind() == reflect.Struct {
				eachField(f, fn)
				continue
			}
			if !sf.IsExported() {
				continue
			}
		}
		if name == "" {
			name = sf.Name
		}
		fn(name, f)
	}
}

// writeOverlay writes the base64 overlay of v, a generic value that holds
// a string that is not valid UTF-8.
func writeOverlay(w *jsonw.W, v any) {
	invalid := func(s string, name bool) bool { return !name && !utf8.ValidString(s) }
	switch x := v.(type) {
	case string:
		w.String(base64.StdEncoding.EncodeToString([]byte(x)))
	case []any:
		w.BeginArray()
		for _, e := range x {
			if anyString(e, invalid) {
				writeOverlay(w, e)
			} else {
				w.Null()
			}
		}
		w.EndArray()
	case Params:
		ks := paramSuffixes(x)
		w.BeginObject()
		for i, p := range x {
			if anyString(p.Value, invalid) {
				w.KeyN(p.Name, jsonw.Suffix(ks, i))
				writeOverlay(w, p.Value)
			}
		}
		w.EndObject()
	default:
		w.Null()
	}
}

// ApplyBase64 returns v, a value read back from JSON (string, []any,
// map[string]any, …), with the exact bytes of its base64 overlay (see
// above) put back in place: a string of the overlay replaces the string at
// the same place in v. Places the overlay does not reach stay as they are.
func ApplyBase64(v, overlay any) (any, error) {
	switch o := overlay.(type) {
	case nil:
		return v, nil
	case string:
		raw, err := base64.StdEncoding.DecodeString(o)
		if err != nil {
			return v, fmt.Errorf("ast: base64 overlay: %w", err)
		}
		return string(raw), nil
	case []any:
		switch x := v.(type) {
		case []any:
			return applySlice(x, o)
		case []string:
			return applySlice(x, o)
		}
	case map[string]any:
		if x, ok := v.(map[string]any); ok {
			out := maps.Clone(x)
			for k, sub := range o {
				if e, ok := out[k]; ok {
					e, err := ApplyBase64(e, sub)
					if err != nil {
						return v, err
					}
					out[k] = e
				}
			}
			return out, nil
		}
		if ps, ok := v.(Params); ok {
			out := slices.Clone(ps)
			for i := range out {
				if sub, ok := o[out[i].Name]; ok {
					e, err := ApplyBase64(out[i].Value, sub)
					if err != nil {
						return v, err
					}
					out[i].Value = e
				}
			}
			return out, nil
		}
	}
	return v, nil
}

// applySlice is ApplyBase64 for a slice: a copy of x with the overlay's
// elements applied.
func applySlice[E any](x []E, o []any) ([]E, error) {
	out := slices.Clone(x)
	for i := range min(len(o), len(out)) {
		e, err := ApplyBase64(out[i], o[i])
		if err != nil {
			return x, err
		}
		out[i], _ = e.(E)
	}
	return out, nil
}

// UnmarshalJSON reads an action as MarshalJSON writes it and puts the
// exact bytes of args_base64, params_base64 and params_keys_base64 back
// into Args and Params
// (and of name_base64 into Name; a head or argument block keeps its
// content_base64, see Block.ExactContent).
func (a *Action) UnmarshalJSON(data []byte) error {
	type plain Action
	var x struct {
		*plain
		NameBase64   *string        `json:"name_base64"`
		ArgsBase64   []any          `json:"args_base64"`
		ParamsBase64 map[string]any `json:"params_base64"`
		ParamsKeys   map[string]any `json:"params_keys_base64"`
	}
	x.plain = (*plain)(a)
	if err := json.Unmarshal(data, &x); err != nil {
		return err
	}
	if x.NameBase64 != nil {
		name, err := ApplyBase64(a.Name, *x.NameBase64)
		if err != nil {
			return fmt.Errorf("ast: name_base64: %w", err)
		}
		a.Name = name.(string)
	}
	if x.ArgsBase64 != nil {
		args, err := applySlice(a.Args, x.ArgsBase64)
		if err != nil {
			return fmt.Errorf("ast: args_base64: %w", err)
		}
		a.Args = args
	}
	if x.ParamsBase64 != nil {
		ps, err := ApplyBase64(a.Params, x.ParamsBase64)
		if err != nil {
			return fmt.Errorf("ast: params_base64: %w", err)
		}
		a.Params = ps.(Params)
	}
	if x.ParamsKeys != nil {
		if _, err := ApplyKeysBase64(a.Params, x.ParamsKeys); err != nil {
			return fmt.Errorf("ast: params_keys_base64: %w", err)
		}
	}
	return nil
}
