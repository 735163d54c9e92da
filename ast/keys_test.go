package ast_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"unicode/utf8"

	"github.com/plangram/plangram/ast"
)

// TestKeysExactRoundTrip: parameter names and keys of object values that
// are not UTF-8, including ones that read the same once written (U+FFFD),
// the same as a valid name, or a name with "#2" already, come back byte for
// byte from an action's JSON, and no member hides another.
func TestKeysExactRoundTrip(t *testing.T) {
	nested := map[string]any{"k\xff": "v\xfe", "k\xfe": "w", "k\ufffd": []any{"x\xff", map[string]any{"a/\xe9~": "b"}}}
	a := &ast.Action{Name: "frob", Args: []string{}, Params: ast.Params{
		{Name: "caf\xe9", Value: "1"},
		{Name: "caf\xe8", Value: "2\xff"},
		{Name: "caf\ufffd", Value: "3"},
		{Name: "caf\ufffd#2", Value: "4"},
		{Name: "opts", Value: nested},
		{Name: "m\xe9", Value: map[string]string{"\xe9": "s", "\xe8": "t"}},
		{Name: "raw", Value: json.RawMessage("{\"r\xe9\": [\"\xff\"], \"r\xe8\": 1}")},
	}}
	data, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	if !utf8.Valid(data) || !json.Valid(data) {
		t.Fatalf("not valid UTF-8 JSON: %s", data)
	}
	var obj struct{ Params map[string]json.RawMessage }
	if err := json.Unmarshal(data, &obj); err != nil || len(obj.Params) != len(a.Params) {
		t.Fatalf("members hide each other: %d of %d: %s", len(obj.Params), len(a.Params), data)
	}
	var back ast.Action
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	want := ast.Params{
		{Name: "caf\xe9", Value: "1"},
		{Name: "caf\xe8", Value: "2\xff"},
		{Name: "caf\ufffd", Value: "3"},
		{Name: "caf\ufffd#2", Value: "4"},
		{Name: "opts", Value: map[string]any{"k\xff": "v\xfe", "k\xfe": "w", "k\ufffd": []any{"x\xff", map[string]any{"a/\xe9~": "b"}}}},
		{Name: "m\xe9", Value: map[string]any{"\xe9": "s", "\xe8": "t"}},
		{Name: "raw", Value: map[string]any{"r\xe9": []any{"\xff"}, "r\xe8": json.Number("1")}},
	}
	if !reflect.DeepEqual(back.Params, want) {
		t.Errorf("params back:\n%#v\nwant\n%#v\nJSON %s", back.Params, want, data)
	}
	var keys struct {
		Overlay map[string]string `json:"params_keys_base64"`
	}
	if err := json.Unmarshal(data, &keys); err != nil || keys.Overlay["/caf\ufffd#3"] != "Y2Fm6Q==" || keys.Overlay["/opts/k\ufffd/1/a~1\ufffd~0"] != "YS/pfg==" {
		t.Errorf("keys overlay %q: %s", keys.Overlay, data)
	}
}

// TestRawExact: a value holding strings and names that are not UTF-8
// written by RawExact is valid UTF-8 JSON that plain decoding reads with
// U+FFFD and UnmarshalExact reads byte for byte.
func TestRawExact(t *testing.T) {
	for _, v := range []any{
		map[string]any{"find": "caf\xe9", "replace": "x", "n": 2.0},
		map[string]any{"lines": []any{"a", "\xff", []any{"\xfe"}}, "sub": map[string]any{"k\xe9": "v", "k\xe8": map[string]any{"z": "\xe9"}}},
		[]any{map[string]any{"old": "\xef"}, "plain"},
		map[string]any{"only": "valid", "x_base64": "not an overlay"},
	} {
		raw, err := ast.RawExact(v)
		if err != nil || !utf8.Valid(raw) || !json.Valid(raw) {
			t.Fatalf("%#v: %s, %v", v, raw, err)
		}
		var back any
		if err := ast.UnmarshalExact(raw, &back); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(back, v) {
			t.Errorf("RawExact %s read back as %#v, want %#v", raw, back, v)
		}
	}
	// Values of other types (an edit format's hunk is a struct) are read
	// back as json.Marshal writes them, with the exact bytes in place
	// (FuzzEditSyntax/ceb56a6f548bf9c5: a udiff hunk's "old" lost its byte).
	type hunk struct {
		Old   string   `json:"old"`
		New   string   `json:"new,omitempty"`
		Lines []string `json:"lines,omitempty"`
		N     *int     `json:"n,omitempty"`
	}
	one := 1
	for _, c := range []struct {
		v    any
		want any
	}{
		{ast.Params{{Name: "hunks", Value: []any{hunk{Old: "-\xad"}}}}, map[string]any{"hunks": []any{map[string]any{"old": "-\xad"}}}},
		{map[string]any{"h": []hunk{{Old: "a", New: "b\xff", N: &one}, {Lines: []string{"ok", "\xfe"}}}},
			map[string]any{"h": []any{map[string]any{"old": "a", "new": "b\xff", "n": 1.0}, map[string]any{"old": "", "lines": []any{"ok", "\xfe"}}}}},
		{map[string]any{"p": &hunk{Old: "\xe9"}}, map[string]any{"p": map[string]any{"old": "\xe9"}}},
	} {
		raw, err := ast.RawExact(c.v)
		if err != nil || !utf8.Valid(raw) || !json.Valid(raw) {
			t.Fatalf("%#v: %s, %v", c.v, raw, err)
		}
		var back any
		if err := ast.UnmarshalExact(raw, &back); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(back, c.want) {
			t.Errorf("RawExact %s read back as %#v, want %#v", raw, back, c.want)
		}
	}
	for _, v := range []any{"caf\xe9", []any{"\xff"}} {
		if _, err := ast.RawExact(v); !errors.Is(err, ast.ErrRawNotUTF8) {
			t.Errorf("RawExact(%q): %v, want ErrRawNotUTF8", v, err)
		}
	}
	// JSON text that is not UTF-8 itself, with the escape rune written
	// both ways.
	var s map[string]any
	if err := ast.UnmarshalExact([]byte("{\"k\xe9\": \"\\uf8ff\uF8FF\xff\"}"), &s); err != nil || s["k\xe9"] != "\uF8FF\uF8FF\xff" {
		t.Errorf("UnmarshalExact: %q, %v", s, err)
	}
}

// TestHasInvalidNameReflect: member names that are not UTF-8 are found in
// values of any Go type encoding/json writes (a struct, a pointer, a typed
// slice or map), and valid ones are not reported.
func TestHasInvalidNameReflect(t *testing.T) {
	type inner struct{ M map[string]int }
	type outer struct {
		Name  string // a value, not a name: never reported
		Inner *inner
		List  []map[string]bool
	}
	for _, c := range []struct {
		v    any
		want bool
	}{
		{outer{Name: "\xff"}, false},
		{outer{Inner: &inner{M: map[string]int{"ok": 1}}}, false},
		{outer{Inner: &inner{M: map[string]int{"k\xe9": 1}}}, true},
		{&outer{List: []map[string]bool{{"a": true}, {"b\xff": false}}}, true},
		{map[string]inner{"fine": {M: map[string]int{"\xfe": 2}}}, true},
		{map[int]string{1: "\xff"}, false},
	} {
		if got := ast.HasInvalidName(c.v); got != c.want {
			t.Errorf("HasInvalidName(%#v) = %v, want %v", c.v, got, c.want)
		}
	}
}
