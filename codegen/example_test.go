package codegen_test

import (
	"fmt"
	"strings"

	"github.com/plangram/plangram/codegen"
	"github.com/plangram/plangram/schema"
)

const opsSchema = `{"version": 1, "dialect": "ops", "syntax": "acts",
  "actions": [{"name": "scale", "args": "inline", "description": "Scale a service.", "params": [
    {"name": "service", "required": true, "doc": "The service."},
    {"name": "replicas", "type": "int", "required": true, "doc": "How many instances."},
    {"name": "mode", "type": "enum", "enum": ["gradual", "at-once"], "default": "gradual"}]}]}`

// Generate Go types for a custom dialect: one struct per action, typed
// fields with the schema's docs, and a decoder from the generic AST.
func ExampleGo() {
	s, err := schema.Parse("ops.json", []byte(opsSchema))
	if err != nil {
		panic(err)
	}
	src, err := codegen.Go(s, codegen.GoOptions{Package: "ops", Source: "ops.json"})
	if err != nil {
		panic(err)
	}
	text := string(src)
	start := strings.Index(text, "// Scale is")
	fmt.Print(text[start : strings.Index(text[start:], "}\n")+start+2])
	// Output:
	// // Scale is the scale action. Scale a service.
	// type Scale struct {
	// 	// Service (string, required): The service.
	// 	Service string `json:"service"`
	// 	// Replicas (int, required): How many instances.
	// 	Replicas int64 `json:"replicas"`
	// 	// Mode (enum, default "gradual")
	// 	Mode ScaleMode `json:"mode,omitempty"`
	//
	// 	src *ast.Action
	// }
}

// A canonical example document of a dialect, for a prompt.
func ExampleExample() {
	s, err := schema.Parse("ops.json", []byte(opsSchema))
	if err != nil {
		panic(err)
	}
	doc, err := codegen.Example(s)
	if err != nil {
		panic(err)
	}
	fmt.Print(string(doc))
	// Output:
	// Scale a service.
	//
	// ~~~~~act
	// scale "example service" 1 gradual
	// ~~~~~
}
