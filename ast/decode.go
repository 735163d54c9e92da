package ast

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"

	"github.com/plangram/plangram/internal/jsonw"
)

// DecodeValue stores a parameter value (as a dialect or Params.UnmarshalJSON
// holds it: string, bool, numbers, []string, []any, map[string]any, Params,
// a dialect's struct) into dst, a pointer, the way a JSON round trip
// (json.Marshal, then json.Unmarshal into dst) would, except that strings
// keep their exact bytes: a JSON round trip puts U+FFFD in place of bytes
// that are not UTF-8, DecodeValue does not. A string, bool or number
// already of dst's type is assigned as it is. A json.RawMessage inside dst
// is JSON, which cannot carry such bytes: it is written by RawExact, with
// the exact bytes beside the strings and names that are not UTF-8; read
// it with UnmarshalExact.
//
// The typed decoders (`plangram gen go`) and the workspace rules convert
// parameters with it, so a file written from a plan gets the bytes the
// plan holds.
func DecodeValue(v any, dst any) error {
	if d := reflect.ValueOf(dst); d.Kind() == reflect.Pointer && !d.IsNil() && v != nil {
		switch rv := reflect.ValueOf(v); rv.Kind() {
		case reflect.String, reflect.Bool, reflect.Int, reflect.Int64, reflect.Float64:
			if rv.Type() == d.Elem().Type() { // a copy, as the round trip makes
				d.Elem().Set(rv)
				return nil
			}
		}
	}
	if !HasInvalidUTF8(v) && !HasInvalidName(v) && !anyString(generic(reflect.ValueOf(v)), func(s string, _ bool) bool { return strings.ContainsRune(s, jsonw.EscRune) }) {
		data, err := json.Marshal(v)
		if err != nil {
			return err
		}
		return json.Unmarshal(data, dst)
	}
	data, err := json.Marshal(escapeCopy(generic(reflect.ValueOf(v))))
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, dst); err != nil {
		return err
	}
	return unescapeIn(reflect.ValueOf(dst))
}

// escapeCopy returns v, a generic value, with every string and member
// name escaped, objects as map[string]any.
func escapeCopy(v any) any {
	switch x := v.(type) {
	case string:
		return jsonw.EscapeString(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = escapeCopy(e)
		}
		return out
	case Params:
		m := make(map[string]any, len(x))
		for _, p := range x {
			m[jsonw.EscapeString(p.Name)] = escapeCopy(p.Value)
		}
		return m
	}
	return v
}

var rawMessageType = reflect.TypeFor[json.RawMessage]()

// unescapeIn undoes escapeString on every string reachable from v, in
// place (map entries and interface values are replaced).
func unescapeIn(v reflect.Value) error {
	if !v.IsValid() {
		return nil
	}
	if v.Type() == rawMessageType {
		if v.CanSet() && bytes.ContainsRune(v.Bytes(), jsonw.EscRune) {
			dec := json.NewDecoder(bytes.NewReader(v.Bytes()))
			dec.UseNumber()
			var x any
			if dec.Decode(&x) == nil {
				raw, err := RawExact(jsonw.UnescapeAny(x))
				if err != nil {
					return err
				}
				v.SetBytes(raw)
			}
		}
		return nil
	}
	switch v.Kind() {
	case reflect.String:
		if v.CanSet() {
			v.SetString(jsonw.UnescapeString(v.String()))
		}
	case reflect.Pointer:
		if !v.IsNil() {
			return unescapeIn(v.Elem())
		}
	case reflect.Interface:
		if v.IsNil() || !v.CanSet() {
			return nil
		}
		c := reflect.New(v.Elem().Type()).Elem()
		c.Set(v.Elem())
		err := unescapeIn(c)
		v.Set(c)
		return err
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return nil
		}
		for i := range v.Len() {
			if err := unescapeIn(v.Index(i)); err != nil {
				return err
			}
		}
	case reflect.Map:
		// An unescaped key never equals another entry's (escaped) key.
		for _, k := range v.MapKeys() {
			c := reflect.New(v.Type().Elem()).Elem()
			c.Set(v.MapIndex(k))
			if err := unescapeIn(c); err != nil {
				return err
			}
			if k.Kind() == reflect.String {
				v.SetMapIndex(k, reflect.Value{})
				k = reflect.ValueOf(jsonw.UnescapeString(k.String())).Convert(k.Type())
			}
			v.SetMapIndex(k, c)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				if err := unescapeIn(v.Field(i)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
