package schema_test

import (
	"encoding/json"
	"fmt"

	"github.com/plangram/plangram/schema"
)

// A custom dialect defined only by a schema file: the JSON Schema of its
// parsed documents types each action's params.
func ExampleJSONSchema() {
	s, err := schema.Parse("ops.json", []byte(`{"version": 1, "dialect": "ops", "syntax": "acts",
	  "actions": [{"name": "scale", "description": "Scale a service.", "params": [
	    {"name": "service", "required": true, "doc": "The service."},
	    {"name": "replicas", "type": "int", "required": true}]}]}`))
	if err != nil {
		panic(err)
	}
	js, err := schema.JSONSchema(s)
	if err != nil {
		panic(err)
	}
	var doc struct {
		Defs map[string]json.RawMessage `json:"$defs"`
	}
	if err := json.Unmarshal(js, &doc); err != nil {
		panic(err)
	}
	var params any
	_ = json.Unmarshal(doc.Defs["params.scale"], &params)
	out, _ := json.Marshal(params)
	fmt.Println(string(out))
	// Output:
	// {"additionalProperties":false,"description":"Parameters of scale.","properties":{"replicas":{"type":"integer"},"service":{"description":"The service.","type":"string"}},"required":["service","replicas"],"type":"object"}
}

// Param.Value converts the text a document gives a parameter to its
// declared type.
func ExampleParam_Value() {
	for _, p := range []*schema.Param{
		{Name: "path", Type: schema.Path},
		{Name: "count", Type: schema.Int},
		{Name: "tags", Type: schema.List},
		{Name: "mode", Type: schema.Enum, Enum: []string{"fast", "safe"}},
	} {
		v, err := p.Value(map[string]string{"path": " src/a.go\n", "count": "3", "tags": "a\nb\n", "mode": "slow"}[p.Name])
		fmt.Printf("%s: %#v %v\n", p.Name, v, err)
	}
	// Output:
	// path: "src/a.go" <nil>
	// count: 3 <nil>
	// tags: []string{"a", "b"} <nil>
	// mode: <nil> want one of fast, safe, got "slow"
}
