package ast_test

import (
	"context"
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
)

// exactStrings are strings a JSON round trip loses: bytes that are not
// UTF-8, a cut sequence, and the escape rune DecodeValue uses.
var exactStrings = []string{"caf\xe9", "\xff\xfe", "a\xe6\xbc", "\uF8FF", "\uF8FF\xff\uF8FF\uF7FF", "plain", ""}

func TestDecodeValueExact(t *testing.T) {
	type hunk struct {
		Old  string   `json:"old"`
		New  string   `json:"new"`
		N    *int     `json:"n,omitempty"`
		Tags []string `json:"tags"`
	}
	for _, s := range exactStrings {
		var str string
		if err := ast.DecodeValue(s, &str); err != nil || str != s {
			t.Errorf("string %q: got %q, %v", s, str, err)
		}
		var list []string
		if err := ast.DecodeValue([]any{s, "x"}, &list); err != nil || !reflect.DeepEqual(list, []string{s, "x"}) {
			t.Errorf("[]any %q: got %q, %v", s, list, err)
		}
		n := 3
		in := []any{hunk{Old: s, New: "n" + s, N: &n, Tags: []string{s}}, map[string]any{"old": s, "new": s, "tags": []any{s}}}
		var hs []hunk
		if err := ast.DecodeValue(in, &hs); err != nil || len(hs) != 2 || hs[0].Old != s || hs[0].New != "n"+s || *hs[0].N != 3 || hs[0].Tags[0] != s || hs[1].Old != s || hs[1].Tags[0] != s {
			t.Errorf("structs %q: got %+v, %v", s, hs, err)
		}
		var m map[string]string
		if err := ast.DecodeValue(map[string]any{s: s}, &m); err != nil || m[s] != s || len(m) != 1 {
			t.Errorf("map %q: got %q, %v", s, m, err)
		}
		var ps []struct {
			Find string `json:"find"`
		}
		if err := ast.DecodeValue([]ast.Params{{{Name: "find", Value: s}}}, &ps); err != nil || len(ps) != 1 || ps[0].Find != s {
			t.Errorf("params %q: got %q, %v", s, ps, err)
		}
	}
	var n int64
	if err := ast.DecodeValue("x", &n); err == nil {
		t.Error("a string into an int64: no error")
	}
}

// TestExactBytesRoundTrip parses the golden inputs whose strings are not
// UTF-8, writes the JSON and reads it back: args, params, names and block
// contents come back byte for byte.
func TestExactBytesRoundTrip(t *testing.T) {
	for _, name := range []string{"../golden/acts/not_utf8_args.md", "../golden/acts/invalid_utf8.md", "../golden/acts/emoji_latin1_text.md"} {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := grammar.Parse(context.Background(), name, src, grammar.Options{Dialect: "acts"})
		if err != nil {
			t.Fatal(err)
		}
		data, err := ast.JSON(doc)
		if err != nil {
			t.Fatal(err)
		}
		var back ast.Document
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatal(err)
		}
		if len(back.Actions) != len(doc.Actions) {
			t.Fatalf("%s: %d actions back, want %d", name, len(back.Actions), len(doc.Actions))
		}
		for i, a := range doc.Actions {
			b := back.Actions[i]
			if b.Name != a.Name || !reflect.DeepEqual(b.Args, a.Args) {
				t.Errorf("%s: action %d: name %q args %q, want %q %q", name, i, b.Name, b.Args, a.Name, a.Args)
			}
			for _, p := range a.Params {
				var want, got string
				if ast.DecodeValue(p.Value, &want) != nil {
					continue
				}
				v, _ := b.Params.Get(p.Name)
				if err := ast.DecodeValue(v, &got); err != nil || got != want {
					t.Errorf("%s: action %d param %s: %q, want %q (%v)", name, i, p.Name, got, want, err)
				}
			}
			for j, blk := range a.Blocks {
				if got := back.Actions[i].Blocks[j].ExactContent(); got != blk.Content {
					t.Errorf("%s: action %d block %d: %q, want %q", name, i, j, got, blk.Content)
				}
			}
		}
	}
}
