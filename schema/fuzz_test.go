package schema_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/plangram/plangram/schema"
)

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// FuzzSchemaParse: schema.Parse never panics, and every error it returns
// is a *schema.Error positioned inside the file (offset, line and column
// agreeing with each other). A schema it accepts also yields a JSON Schema.
func FuzzSchemaParse(f *testing.F) {
	for _, d := range schema.Dialects() {
		data, err := schema.BuiltinSource(d)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"version": 1, "dialect": "d", "syntax": "acts", "actions": [{"name": "a", "params": [{"name": "n", "type": "int", "default": 2}]}]}`))
	f.Add([]byte(`{"version": 1, "dialect": "acts", "actions": [{"name": "a", "params": [{"name": "p", "type": "enum"}], "blocks": {"min": 3, "max": 1, "info": "("}}]}`))
	f.Add([]byte("{\"version\": 1,\n\"actions\": [null, {\"name\": \"\"}]}"))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := schema.Parse("f.json", data)
		if err != nil {
			var errs []error
			if j, ok := err.(interface{ Unwrap() []error }); ok {
				errs = j.Unwrap()
			} else {
				errs = []error{err}
			}
			for _, e := range errs {
				var se *schema.Error
				if !errors.As(e, &se) {
					t.Fatalf("%T %v is not a *schema.Error", e, e)
				}
				if se.Offset < 0 || se.Offset > len(data) {
					t.Fatalf("offset %d outside the file (%d bytes): %v", se.Offset, len(data), se)
				}
				line := 1 + bytes.Count(data[:se.Offset], []byte{'\n'})
				col := se.Offset - bytes.LastIndexByte(data[:se.Offset], '\n')
				if se.Line != line || se.Col != col {
					t.Fatalf("position %d:%d, offset %d is at %d:%d", se.Line, se.Col, se.Offset, line, col)
				}
			}
			return
		}
		if _, err := schema.JSONSchema(s); err != nil {
			t.Fatalf("accepted schema gives no JSON Schema: %v", err)
		}
	})
}
