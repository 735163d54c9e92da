package stream

import (
	"bytes"
	"slices"

	"github.com/plangram/plangram/schema"
)

// llamaBuiltinActions are Llama 3.1's built-in tools as its model card
// describes them, in the action schema's form.
const llamaBuiltinActions = `
    {"name": "brave_search", "description": "Search the web.", "params": [{"name": "query", "type": "string", "required": true}]},
    {"name": "wolfram_alpha", "description": "Ask Wolfram Alpha.", "params": [{"name": "query", "type": "string", "required": true}]},
    {"name": "code_interpreter", "description": "Run Python code.", "params": [{"name": "code", "type": "string", "required": true}]},`

// LlamaBuiltin registers the llama-builtin syntax: the llama syntax whose
// registry, unless a schema is given, also declares Llama 3.1's built-in
// tools, called as <|python_tag|>brave_search.call(query="…"). It has no
// marker for auto, which reads these calls as llama (the same bytes).
func (registry) LlamaBuiltin() *Syntax {
	s := registry{}.Llama()
	llama := s.open
	s.Name, s.Markers = "llama-builtin", nil
	s.Summary = `llama, with Llama 3.1's built-in tools declared: <|python_tag|>brave_search.call(query="…")`
	s.open = func(c *config) (scanner, error) {
		if c.opts.Schema == nil {
			src, err := schema.BuiltinSource(s.Schema)
			if err != nil {
				return nil, err
			}
			at := []byte(`"actions": [`)
			i := bytes.Index(src, at) + len(at)
			if c.schema, err = schema.Parse("builtin/tools.json and Llama 3.1's built-in tools", slices.Concat(src[:i], []byte(llamaBuiltinActions), src[i:])); err != nil {
				return nil, err
			}
		}
		return llama(c)
	}
	return s
}
