package ast

import (
	"encoding/base64"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/plangram/plangram/internal/jsonw"
)

// Member names that are not valid UTF-8 (docs/acts.md, "Exact bytes in
// JSON"): a parameter's name (a plan's metadata key, a tool call's
// argument name) or a key of an object value.
//
// In the object such a name is written with U+FFFD for each byte that is
// not UTF-8 and, should that clash with another member's name, "#k"
// appended (jsonw.NameSuffixes), so no member hides another. Beside the
// member x holding the object (params, metadata), the member
// x_keys_base64 gives the exact bytes: an object whose member names are
// JSON Pointers (RFC 6901) into x's value, naming each member as written,
// and whose values are the base64 of the exact names, in the order the
// members are written. x_base64 names members as written too.

// KeysBase64Suffix is appended to a JSON member's name for the member that
// holds the exact bytes of the member names inside its value.
const KeysBase64Suffix = "_keys" + Base64Suffix

// WriteParams writes the object member key: ps (Params.WriteJSON) and,
// where needed, key_base64 (WriteParamsBase64) and key_keys_base64 (see
// above).
func WriteParams(w *jsonw.W, key string, ps Params) {
	w.Key(key)
	ps.WriteJSON(w)
	WriteParamsBase64(w, key, ps)
	if paramsInvalid(ps, true) {
		w.Key(key + KeysBase64Suffix)
		w.BeginObject()
		walkNames(generic(reflect.ValueOf(ps)), "", func(ptr, name string) {
			w.KeyString(ptr, base64.StdEncoding.EncodeToString([]byte(name)))
		})
		w.EndObject()
	}
}

// paramSuffixes returns jsonw.NameSuffixes of the params' names, without
// allocating when every name is valid UTF-8.
func paramSuffixes(ps Params) []int {
	for i := range ps {
		if !utf8.ValidString(ps[i].Name) {
			names := make([]string, len(ps))
			for j := range ps {
				names[j] = ps[j].Name
			}
			return jsonw.NameSuffixes(names)
		}
	}
	return nil
}

// walkNames calls fn, in the order the JSON writer writes them, with the
// JSON Pointer (below prefix) and the exact name of each member name in v,
// a generic value, that is not valid UTF-8.
func walkNames(v any, prefix string, fn func(ptr, name string)) {
	switch x := v.(type) {
	case []any:
		for i, e := range x {
			walkNames(e, prefix+"/"+strconv.Itoa(i), fn)
		}
	case Params:
		ks := paramSuffixes(x)
		for i, p := range x {
			name := jsonw.WrittenName(p.Name, jsonw.Suffix(ks, i))
			ptr := prefix + "/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(name) // a JSON Pointer token
			if !utf8.ValidString(p.Name) {
				fn(ptr, p.Name)
			}
			walkNames(p.Value, ptr, fn)
		}
	}
}

// ApplyKeysBase64 puts the exact names of keys (a key_keys_base64 object
// as read back from JSON: JSON Pointer to base64) back into v, a value
// read back from JSON (Params, map[string]any, []any, …), in place, and
// returns v. Apply the value overlay (ApplyBase64) first: both name
// members as written.
func ApplyKeysBase64(v any, keys map[string]any) (any, error) {
	type entry struct {
		tokens []string
		name   string
	}
	entries := make([]entry, 0, len(keys))
	for ptr, b := range keys {
		s, ok := b.(string)
		if !ok {
			return v, fmt.Errorf("ast: keys overlay %q: want a base64 string", ptr)
		}
		raw, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return v, fmt.Errorf("ast: keys overlay %q: %w", ptr, err)
		}
		if !strings.HasPrefix(ptr, "/") {
			return v, fmt.Errorf("ast: keys overlay %q: not a JSON Pointer", ptr)
		}
		toks := strings.Split(ptr[1:], "/")
		for i, t := range toks {
			toks[i] = strings.NewReplacer("~1", "/", "~0", "~").Replace(t)
		}
		entries = append(entries, entry{toks, string(raw)})
	}
	// Deepest first: a pointer names its parents as written.
	slices.SortStableFunc(entries, func(a, b entry) int { return len(b.tokens) - len(a.tokens) })
	for _, e := range entries {
		parent := v
		for _, t := range e.tokens[:len(e.tokens)-1] {
			parent = child(parent, t)
		}
		last := e.tokens[len(e.tokens)-1]
		switch p := parent.(type) {
		case Params:
			for i := range p {
				if p[i].Name == last {
					p[i].Name = e.name
					break
				}
			}
		case map[string]any:
			if x, ok := p[last]; ok {
				delete(p, last)
				p[e.name] = x
			}
		}
	}
	return v, nil
}

// child returns the element or member tok of v (nil when there is none).
func child(v any, tok string) any {
	switch x := v.(type) {
	case Params:
		if e, ok := x.Get(tok); ok {
			return e
		}
	case map[string]any:
		return x[tok]
	case []any:
		if i, err := strconv.Atoi(tok); err == nil && i >= 0 && i < len(x) {
			return x[i]
		}
	}
	return nil
}
