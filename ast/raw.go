package ast

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/plangram/plangram/internal/jsonw"
)

// Exact bytes in raw JSON (docs/acts.md, "Exact bytes in JSON"): the typed
// API keeps a `json` value as json.RawMessage (EDIT's edits, the edit
// formats' hunks, …). Where the value holds a string or a member name that
// is not valid UTF-8, RawExact writes it with the exact bytes beside it,
// object by object:
//
//   - a member x whose value is such a string gets x_base64, its base64;
//   - a member x whose value is an array holding such strings (in the array
//     or in arrays inside it) gets x_base64, the array's shape with the
//     base64 of each such string and null for the other elements (an
//     object inside carries its own);
//   - an object with member names that are not valid UTF-8 (written with
//     U+FFFD, jsonw.NameSuffixes) gets _keys_base64: each such name as
//     written to the base64 of its exact bytes.
//
// UnmarshalExact reads such JSON back with the exact bytes.

// ErrRawNotUTF8 is returned for a JSON value that is not an object and
// holds, outside any object, a string that is not valid UTF-8: such bytes
// have no place beside it in json.RawMessage.
var ErrRawNotUTF8 = errors.New("a JSON value holds a string that is not valid UTF-8 outside any object, which JSON cannot carry")

// RawExact returns v, a decoded JSON value (map[string]any, []any, string,
// json.Number, bool, nil; also Params), as JSON: json.Marshal's bytes when
// every string and member name in v is valid UTF-8, else the form with the
// exact bytes beside them (see above). A value of another type inside it
// (a struct such as an edit format's hunk, a typed slice, a pointer) is
// written as json.Marshal writes it, with the same exact bytes beside its
// strings.
func RawExact(v any) (json.RawMessage, error) {
	if !HasInvalidUTF8(v) && !HasInvalidName(v) {
		return json.Marshal(v)
	}
	if bareInvalid(v) {
		return nil, ErrRawNotUTF8
	}
	w := &jsonw.W{}
	writeRaw(v, w)
	return w.B, w.Err()
}

// bareInvalid reports whether v holds a string that is not valid UTF-8
// outside any object.
func bareInvalid(v any) bool {
	switch x := v.(type) {
	case string:
		return !utf8.ValidString(x)
	case []string:
		return slices.ContainsFunc(x, func(s string) bool { return !utf8.ValidString(s) })
	case []any:
		return slices.ContainsFunc(x, bareInvalid)
	}
	return false
}

// writeRaw writes v with the exact bytes of its objects' members beside
// them.
func writeRaw(v any, w *jsonw.W) {
	switch x := v.(type) {
	case Params:
		m := make(map[string]any, len(x))
		for _, p := range x {
			m[p.Name] = p.Value
		}
		writeRaw(m, w)
	case map[string]any:
		keys := slices.Sorted(maps.Keys(x))
		ks := jsonw.NameSuffixes(keys)
		w.BeginObject()
		var renamed []string
		for i, k := range keys {
			n := jsonw.Suffix(ks, i)
			w.KeyN(k, n)
			writeRaw(x[k], w)
			written := jsonw.WrittenName(k, n)
			if !utf8.ValidString(k) {
				renamed = append(renamed, written, k)
			}
			if bareInvalid(x[k]) {
				w.Key(written + Base64Suffix)
				writeBareOverlay(x[k], w)
			}
		}
		if len(renamed) > 0 {
			w.Key(KeysBase64Suffix)
			w.BeginObject()
			for i := 0; i < len(renamed); i += 2 {
				w.KeyString(renamed[i], base64.StdEncoding.EncodeToString([]byte(renamed[i+1])))
			}
			w.EndObject()
		}
		w.EndObject()
	case []any:
		jsonw.Array(w, x, writeRaw)
	case json.RawMessage:
		if y, err := jsonw.DecodeExact(x); err == nil {
			writeRaw(y, w)
			return
		}
		w.Value(x)
	default:
		if g, ok := exactGeneric(v); ok {
			writeRaw(g, w)
			return
		}
		w.Value(v)
	}
}

// exactGeneric returns v, a value of another type than the decoded JSON
// ones (a struct such as an edit format's hunk, a typed slice or map, a
// pointer) that holds a string that is not valid UTF-8, as the decoded JSON
// value json.Marshal makes of it with those strings' exact bytes in place
// (json.Marshal writes U+FFFD instead): its overlay (writeOverlay) put
// back (ApplyBase64). ok is false when v holds none, or cannot be
// converted.
func exactGeneric(v any) (any, bool) {
	switch v.(type) {
	case string, []string, json.Number, bool, float64, int, int64, nil:
		return nil, false // written as they are, their bytes beside them
	}
	if !invalidIn(v, false) {
		return nil, false
	}
	data, err := json.Marshal(v)
	if err != nil {
		return nil, false
	}
	g, err := jsonw.DecodeExact(data)
	if err != nil {
		return nil, false
	}
	ow := &jsonw.W{}
	writeOverlay(ow, generic(reflect.ValueOf(v)))
	var overlay any
	if ow.Err() != nil || json.Unmarshal(ow.B, &overlay) != nil {
		return nil, false
	}
	g, err = ApplyBase64(g, overlay)
	return g, err == nil
}

// writeBareOverlay writes the base64 overlay of the strings of v outside
// any object: base64 for such a string, null for objects and valid
// strings.
func writeBareOverlay(v any, w *jsonw.W) {
	switch x := v.(type) {
	case string:
		if utf8.ValidString(x) {
			w.Null()
		} else {
			w.String(base64.StdEncoding.EncodeToString([]byte(x)))
		}
	case []string:
		jsonw.Array(w, x, func(s string, w *jsonw.W) { writeBareOverlay(s, w) })
	case []any:
		jsonw.Array(w, x, writeBareOverlay)
	default:
		w.Null()
	}
}

// UnmarshalExact decodes JSON into dst, a pointer, as json.Unmarshal does,
// except that strings and member names keep their exact bytes: bytes that
// are not UTF-8 in data itself, and the exact bytes RawExact gives beside
// them (x_base64, _keys_base64), which it takes in place of the strings
// and names they stand for (and leaves out).
func UnmarshalExact(data []byte, dst any) error {
	v, err := jsonw.DecodeExact(data)
	if err != nil {
		return err
	}
	if v, err = restoreRaw(v); err != nil {
		return err
	}
	return DecodeValue(v, dst)
}

// restoreRaw applies the members RawExact adds and removes them.
func restoreRaw(v any) (any, error) {
	switch x := v.(type) {
	case []any:
		for i := range x {
			e, err := restoreRaw(x[i])
			if err != nil {
				return v, err
			}
			x[i] = e
		}
	case map[string]any:
		for k, e := range x {
			e, err := restoreRaw(e)
			if err != nil {
				return v, err
			}
			x[k] = e
		}
		for k, o := range x {
			base, ok := strings.CutSuffix(k, Base64Suffix)
			if !ok || k == KeysBase64Suffix {
				continue
			}
			if e, ok := x[base]; ok {
				e, err := ApplyBase64(e, o)
				if err != nil {
					return v, fmt.Errorf("ast: %s: %w", k, err)
				}
				x[base] = e
				delete(x, k)
			}
		}
		if keys, ok := x[KeysBase64Suffix].(map[string]any); ok {
			delete(x, KeysBase64Suffix)
			for written, b := range keys {
				s, _ := b.(string)
				raw, err := base64.StdEncoding.DecodeString(s)
				if err != nil {
					return v, fmt.Errorf("ast: %s: %w", KeysBase64Suffix, err)
				}
				if e, ok := x[written]; ok {
					delete(x, written)
					x[string(raw)] = e
				}
			}
		}
	}
	return v, nil
}
