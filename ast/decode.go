package ast

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"unicode/utf8"
)

// DecodeValue stores a parameter value (as a dialect or Params.UnmarshalJSON
// holds it: string, bool, numbers, []string, []any, map[string]any, Params,
// a dialect's struct) into dst, a pointer, the way a JSON round trip
// (json.Marshal, then json.Unmarshal into dst) would, except that strings
// keep their exact bytes: a JSON round trip puts U+FFFD in place of bytes
// that are not UTF-8, DecodeValue does not. A string, bool or number
// already of dst's type is assigned as it is. A json.RawMessage inside dst is JSON and cannot
// carry such bytes: it gets U+FFFD in their place, as the JSON output does.
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
	if !HasInvalidUTF8(v) && !containsEscape(reflect.ValueOf(v)) {
		data, err := json.Marshal(v)
		if err != nil {
			return err
		}
		return json.Unmarshal(data, dst)
	}
	data, err := json.Marshal(escapeCopy(reflect.ValueOf(v)))
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, dst); err != nil {
		return err
	}
	unescapeIn(reflect.ValueOf(dst))
	return nil
}

// The escape that carries bytes through JSON: escRune doubles itself, and
// escRune followed by escByte+b stands for the byte b. Only strings that are
// not valid UTF-8 or that hold escRune are escaped; unescape undoes it on
// every string that holds escRune, so the round trip is exact.
const (
	escRune = '\uF8FF'
	escByte = 0xF700 // escByte+b for b in 0..255 is a private-use rune other than escRune
)

func needsEscape(s string) bool {
	return !utf8.ValidString(s) || strings.ContainsRune(s, escRune)
}

func escapeString(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteRune(escRune)
			b.WriteRune(rune(escByte + int(s[i])))
		case r == escRune:
			b.WriteRune(escRune)
			b.WriteRune(escRune)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func unescapeString(s string) string {
	if !strings.ContainsRune(s, escRune) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r != escRune || i+n >= len(s) {
			b.WriteString(s[i : i+n])
			i += n
			continue
		}
		r2, n2 := utf8.DecodeRuneInString(s[i+n:])
		switch {
		case r2 == escRune:
			b.WriteRune(escRune)
		case r2 >= escByte && r2 <= escByte+0xFF:
			b.WriteByte(byte(r2 - escByte))
		default:
			b.WriteString(s[i : i+n+n2])
		}
		i += n + n2
	}
	return b.String()
}

// containsEscape reports whether a string in v holds escRune.
func containsEscape(v reflect.Value) bool {
	found := false
	walkStrings(v, func(s string) { found = found || strings.ContainsRune(s, escRune) })
	return found
}

// walkStrings calls fn with every string of v, as hasInvalid walks.
func walkStrings(v reflect.Value, fn func(string)) {
	if !v.IsValid() {
		return
	}
	if v.Type() == paramsRType {
		for _, p := range v.Interface().(Params) {
			walkStrings(reflect.ValueOf(p.Value), fn)
		}
		return
	}
	switch v.Kind() {
	case reflect.String:
		fn(v.String())
	case reflect.Interface, reflect.Pointer:
		if !v.IsNil() {
			walkStrings(v.Elem(), fn)
		}
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return
		}
		for i := range v.Len() {
			walkStrings(v.Index(i), fn)
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			if it.Key().Kind() == reflect.String {
				fn(it.Key().String())
			}
			walkStrings(it.Value(), fn)
		}
	case reflect.Struct:
		eachField(v, func(_ string, f reflect.Value) { walkStrings(f, fn) })
	}
}

// escapeCopy returns v as generic JSON values (map[string]any, []any,
// strings, and the other values as they are) with every string escaped.
func escapeCopy(v reflect.Value) any {
	if !v.IsValid() {
		return nil
	}
	if v.Type() == paramsRType {
		m := map[string]any{}
		for _, p := range v.Interface().(Params) {
			m[escapeString(p.Name)] = escapeCopy(reflect.ValueOf(p.Value))
		}
		return m
	}
	if _, ok := v.Interface().(json.Number); ok {
		return v.Interface()
	}
	switch v.Kind() {
	case reflect.String:
		return escapeString(v.String())
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			return nil
		}
		return escapeCopy(v.Elem())
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 || v.Kind() == reflect.Slice && v.IsNil() {
			return v.Interface()
		}
		out := make([]any, v.Len())
		for i := range out {
			out[i] = escapeCopy(v.Index(i))
		}
		return out
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String || v.IsNil() {
			return v.Interface()
		}
		m := make(map[string]any, v.Len())
		for it := v.MapRange(); it.Next(); {
			m[escapeString(it.Key().String())] = escapeCopy(it.Value())
		}
		return m
	case reflect.Struct:
		m := map[string]any{}
		eachField(v, func(name string, f reflect.Value) { m[name] = escapeCopy(f) })
		return m
	}
	return v.Interface()
}

var rawMessageType = reflect.TypeFor[json.RawMessage]()

// unescapeIn undoes escapeString on every string reachable from v, in
// place (map entries and interface values are replaced).
func unescapeIn(v reflect.Value) {
	if !v.IsValid() {
		return
	}
	if v.Type() == rawMessageType {
		if v.CanSet() && bytes.ContainsRune(v.Bytes(), escRune) {
			dec := json.NewDecoder(bytes.NewReader(v.Bytes()))
			dec.UseNumber()
			var x any
			if dec.Decode(&x) == nil {
				unescapeIn(reflect.ValueOf(&x))
				if raw, err := json.Marshal(x); err == nil {
					v.SetBytes(raw)
				}
			}
		}
		return
	}
	switch v.Kind() {
	case reflect.String:
		if v.CanSet() {
			v.SetString(unescapeString(v.String()))
		}
	case reflect.Pointer:
		if !v.IsNil() {
			unescapeIn(v.Elem())
		}
	case reflect.Interface:
		if v.IsNil() || !v.CanSet() {
			return
		}
		c := reflect.New(v.Elem().Type()).Elem()
		c.Set(v.Elem())
		unescapeIn(c)
		v.Set(c)
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return
		}
		for i := range v.Len() {
			unescapeIn(v.Index(i))
		}
	case reflect.Map:
		if v.IsNil() {
			return
		}
		type kv struct{ k, v reflect.Value }
		var entries []kv
		for it := v.MapRange(); it.Next(); {
			c := reflect.New(it.Value().Type()).Elem()
			c.Set(it.Value())
			unescapeIn(c)
			k := it.Key()
			if k.Kind() == reflect.String {
				nk := reflect.New(k.Type()).Elem()
				nk.SetString(unescapeString(k.String()))
				k2 := k
				k = nk
				if k2.String() != k.String() {
					v.SetMapIndex(k2, reflect.Value{})
				}
			}
			entries = append(entries, kv{k, c})
		}
		for _, e := range entries {
			v.SetMapIndex(e.k, e.v)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				unescapeIn(v.Field(i))
			}
		}
	}
}
