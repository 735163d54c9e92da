package schema_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/plangram/plangram/schema"
)

func TestFormatChecks(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"custom dialect without syntax", `{"version": 1, "dialect": "deploy", "actions": [{"name": "a"}]}`,
			`f.json:1:16: error: dialect "deploy" is not built-in (acts, apply-patch, plan, search-replace, tools, udiff): set "syntax" to the built-in grammar that reads it (at dialect) [bad-schema]`},
		{"unknown syntax", `{"version": 1, "dialect": "deploy", "syntax": "yaml", "actions": [{"name": "a"}]}`,
			`f.json:1:37: error: syntax must be one of acts, apply-patch, plan, search-replace, tools, udiff, got "yaml" (at syntax) [bad-schema]`},
		{"default of the wrong type", "{\"version\": 1, \"dialect\": \"acts\", \"actions\": [{\"name\": \"a\", \"params\": [\n  {\"name\": \"n\", \"type\": \"int\", \"default\": \"ten\"}]}]}",
			`f.json:2:32: error: default must be of type int, got a string (at actions[0].params[0].default) [bad-schema]`},
		{"fractional int default", `{"version": 1, "dialect": "acts", "actions": [{"name": "a", "params": [{"name": "n", "type": "int", "default": 1.5}]}]}`,
			"default must be of type int, got a number"},
		{"enum default", `{"version": 1, "dialect": "acts", "actions": [{"name": "a", "params": [{"name": "e", "type": "enum", "enum": ["x"], "default": "y"}]}]}`,
			`default must be one of x, got "y"`},
		{"list default", `{"version": 1, "dialect": "acts", "actions": [{"name": "a", "params": [{"name": "l", "type": "list", "items": "bool", "default": [true, 1]}]}]}`,
			"default element 2 must be of type bool, got a number"},
		{"variadic default", `{"version": 1, "dialect": "acts", "actions": [{"name": "a", "params": [{"name": "v", "variadic": true, "default": "x"}]}]}`,
			"default must be a list, got a string"},
		{"enum elements", `{"version": 1, "dialect": "plan", "actions": [{"name": "a", "params": [{"name": "l", "type": "list", "items": "enum"}]}]}`,
			"a list of enum elements needs enum values"},
		{"negative max", `{"version": 1, "dialect": "plan", "actions": [{"name": "a", "blocks": {"max": -2}}]}`,
			"blocks.max must not be negative, got -2 (at actions[0].blocks.max)"},
	} {
		_, err := schema.Parse("f.json", []byte(tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v\nwant %s", tc.name, err, tc.want)
		}
		var se *schema.Error
		if !errors.As(err, &se) {
			t.Errorf("%s: %T is not a *schema.Error", tc.name, err)
		}
	}
	ok := `{"version": 1, "dialect": "d", "syntax": "acts", "actions": [{"name": "a", "params": [
	  {"name": "i", "type": "int", "default": 3}, {"name": "l", "type": "list", "default": ["a"]},
	  {"name": "j", "type": "json", "default": {"k": null}}, {"name": "b", "type": "bool", "default": false}]}]}`
	s, err := schema.Parse("f.json", []byte(ok))
	if err != nil {
		t.Fatal(err)
	}
	if s.SyntaxName() != "acts" || s.Dialect != "d" {
		t.Errorf("syntax %q dialect %q", s.SyntaxName(), s.Dialect)
	}
}

func TestValue(t *testing.T) {
	s, err := schema.Parse("f.json", []byte(`{"version": 1, "dialect": "acts", "actions": [{"name": "a", "params": [
	  {"name": "s"}, {"name": "p", "type": "path"}, {"name": "b", "type": "bool"}, {"name": "i", "type": "int"},
	  {"name": "n", "type": "number"}, {"name": "e", "type": "enum", "enum": ["x", "y"]},
	  {"name": "l", "type": "list"}, {"name": "li", "type": "list", "items": "int"}, {"name": "j", "type": "json"}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	a := s.Actions[0]
	for _, tc := range []struct {
		param, text, want, err string
	}{
		{"s", " kept \n", `" kept \n"`, ""},
		{"p", " src/a.go\n", `"src/a.go"`, ""},
		{"b", " True ", "true", ""},
		{"b", "yes", "", `want true or false, got "yes"`},
		{"i", "-42", "-42", ""},
		{"i", "4.2", "", `want an integer, got "4.2"`},
		{"n", "2.5e3", "2500", ""},
		{"n", "NaN", "", `want a finite number, got "NaN"`},
		{"e", "y\n", `"y"`, ""},
		{"e", "Y", "", `want one of x, y, got "Y"`},
		{"l", "a\n\n  b \n", `["a","b"]`, ""},
		{"l", `["a b", "c"]`, `["a b","c"]`, ""},
		{"l", `["a", 1]`, "", "want a JSON array of strings"},
		{"li", "1\n2", "[1,2]", ""},
		{"li", "1\nx", "", `element 2: want an integer, got "x"`},
		{"j", `{"k": [1, null]}`, `{"k":[1,null]}`, ""},
		{"j", `{"k"`, "", "want JSON"},
	} {
		v, err := a.Param(tc.param).Value(tc.text)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s %q: error %v, want %q", tc.param, tc.text, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s %q: %v", tc.param, tc.text, err)
			continue
		}
		if got := jsonOf(t, v); got != tc.want {
			t.Errorf("%s %q: %s, want %s", tc.param, tc.text, got, tc.want)
		}
	}
}
