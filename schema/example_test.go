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

// FromTools converts a tools registry (here an Anthropic tools array) into
// an action schema whose parameters are typed and checked.
func ExampleFromTools() {
	tools, err := schema.FromTools("tools.json", []byte(`[{"name": "get_stock_price",
	  "description": "Current price of a stock.",
	  "input_schema": {"type": "object", "properties": {
	    "ticker": {"type": "string", "description": "e.g. AAPL"},
	    "exchange": {"type": "string", "enum": ["NYSE", "NASDAQ"]},
	    "days": {"type": "integer", "minimum": 1}},
	  "required": ["ticker"]}}]`))
	if err != nil {
		panic(err)
	}
	fmt.Println(tools.Family)
	for _, d := range tools.Diagnostics {
		fmt.Println(d)
	}
	a := tools.Schema.Lookup("get_stock_price")
	fmt.Println(a.Signature())
	for _, p := range a.Params {
		fmt.Println(p.Name, p.Type, p.Enum)
	}
	_, err = a.Param("exchange").Value("LSE")
	fmt.Println(err)
	// Output:
	// anthropic
	// tools.json:6:45: warning: keyword minimum of parameter days is not checked (kept in its doc) (at [0].input_schema.properties.days.minimum) [unchecked]
	// get_stock_price(ticker, exchange?, days?)
	// ticker string []
	// exchange enum [NYSE NASDAQ]
	// days int []
	// want one of NYSE, NASDAQ, got "LSE"
}
