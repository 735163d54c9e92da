package schema

import (
	"errors"
	"strings"
	"testing"
)

func TestParseErrorsArePositioned(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"syntax", "{\n  \"version\": 1,\n  \"dialect\": \"x\"\n  \"actions\": []\n}", "f.json:4:3: error:"},
		{"type", "{\"version\": \"one\"}", "f.json:1:2: error: version: want int"},
		{"unknown field", "{\"version\": 1, \"colour\": 2}", "unknown field \"colour\""},
		{"bad type", "{\"version\": 1, \"dialect\": \"d\", \"actions\": [\n {\"name\": \"a\"},\n {\"name\": \"b\", \"params\": [\n   {\"name\": \"p\", \"type\": \"colour\"}]}]}",
			"f.json:4:18: error: unknown type \"colour\""},
		{"duplicate", "{\"version\": 1, \"dialect\": \"d\", \"actions\": [\n {\"name\": \"a\"},\n {\"name\": \"a\"}]}",
			"f.json:3:3: error: \"a\" is already declared by actions[0] (at actions[1].name)"},
		{"variadic not last", "{\"version\": 1, \"dialect\": \"d\", \"actions\": [{\"name\": \"a\", \"params\": [\n{\"name\": \"x\", \"variadic\": true}, {\"name\": \"y\"}]}]}",
			"f.json:2:15: error: only the last parameter can be variadic"},
		{"key given twice", "{\"version\": 1, \"dialect\": \"d\", \"actions\": [{\"name\": \"a\"}],\n\"actions\": [{\"name\": \"a\"}, {\"name\": \"a\"}]}",
			"f.json:2:29: error: \"a\" is already declared by actions[0] (at actions[1].name)"},
		{"version", "{\"version\": 2, \"dialect\": \"d\", \"actions\": [{\"name\": \"a\"}]}", "f.json:1:2: error: version must be 1, got 2"},
		{"empty", "", "f.json:1:1: error: the schema file is empty"},
		{"white space", " \n\t", "f.json:1:1: error: the schema file holds only white space"},
		{"cut off", "{\"version\": 1, \"dialect\": \"x\", \"act", "f.json:1:36: error: the schema file ends before its JSON is complete"},
		{"cut off in an array", "{\"version\": 1, \"dialect\": \"x\", \"actions\": [\n", "f.json:2:1: error: the schema file ends before its JSON is complete"},
		{"trailing", "{\"version\": 1, \"dialect\": \"d\", \"actions\": [{\"name\": \"a\"}]} []", "unexpected data after the schema object"},
	} {
		_, err := Parse("f.json", []byte(tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.name, err, tc.want)
		}
		var se *Error
		if err != nil && !errors.As(err, &se) {
			t.Errorf("%s: error %T is not a *schema.Error", tc.name, err)
		}
	}
}

func TestBuiltinsParse(t *testing.T) {
	for _, d := range Dialects() {
		s, err := Builtin(d)
		if err != nil {
			t.Fatalf("%s: %v", d, err)
		}
		if s.Dialect != d || len(s.Actions) == 0 {
			t.Errorf("%s: dialect %q with %d actions", d, s.Dialect, len(s.Actions))
		}
	}
	s, _ := Builtin("acts")
	if s.Lookup("write_file") == nil || s.Suggest("writ_file") != "write_file" || s.Suggest("xyzzy") != "" {
		t.Error("lookup/suggest")
	}
	if got := s.Lookup("git_add").Signature(); got != "git_add(files…)" {
		t.Errorf("signature %q", got)
	}
}
