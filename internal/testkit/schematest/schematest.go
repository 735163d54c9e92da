// Package schematest compiles and applies JSON Schemas in tests, with
// github.com/santhosh-tekuri/jsonschema/v6 (a full draft 2020-12
// implementation that also checks each schema against its meta-schema).
// Only tests import it, so the validator is not linked into plangram.
package schematest

import (
	"bytes"
	"fmt"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Compile compiles a JSON Schema document, named url in errors and in
// relative references.
func Compile(url string, data []byte) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", url, err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource(url, doc); err != nil {
		return nil, fmt.Errorf("%s: %w", url, err)
	}
	return c.Compile(url)
}

// Validate checks a JSON instance against a compiled schema.
func Validate(s *jsonschema.Schema, instance []byte) error {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(instance))
	if err != nil {
		return err
	}
	return s.Validate(v)
}
