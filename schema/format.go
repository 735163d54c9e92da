package schema

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// checkFormat checks what the file format requires beyond each field's own
// type: a grammar that reads the dialect (syntax), defaults of their
// parameter's type, enum values for enum list elements, and block counts
// that are not negative.
func checkFormat(s *Schema) []problem {
	var ps []problem
	add := func(path, f string, a ...any) { ps = append(ps, problem{path, fmt.Sprintf(f, a...)}) }
	known := Dialects()
	switch {
	case s.Syntax != "" && !slices.Contains(known, s.Syntax):
		add("syntax", "syntax must be one of %s, got %q", strings.Join(known, ", "), s.Syntax)
	case s.Syntax == "" && strings.TrimSpace(s.Dialect) != "" && !slices.Contains(known, s.Dialect):
		add("dialect", "dialect %q is not built-in (%s): set \"syntax\" to the built-in grammar that reads it",
			s.Dialect, strings.Join(known, ", "))
	}
	for i, a := range s.Actions {
		if a == nil {
			continue
		}
		ap := fmt.Sprintf("actions[%d]", i)
		for j, p := range a.Params {
			if p == nil {
				continue
			}
			pp := fmt.Sprintf("%s.params[%d]", ap, j)
			if p.TypeOrDefault() == List && p.Items == Enum && len(p.Enum) == 0 {
				add(pp+".enum", "a list of enum elements needs enum values")
			}
			if p.Default != nil && validType(p.Type) && validType(p.Items) {
				if err := checkDefault(p); err != nil {
					add(pp+".default", "default %v", err)
				}
			}
		}
		if b := a.Blocks; b != nil {
			if b.Min != nil && *b.Min < 0 {
				add(ap+".blocks.min", "blocks.min must not be negative, got %d", *b.Min)
			}
			if b.Max != nil && *b.Max < 0 {
				add(ap+".blocks.max", "blocks.max must not be negative, got %d", *b.Max)
			}
		}
	}
	return ps
}

// checkDefault checks a parameter's default (a decoded JSON value) against
// its type: a list of elements for a list or variadic parameter.
func checkDefault(p *Param) error {
	if p.Variadic || p.TypeOrDefault() == List {
		items, ok := p.Default.([]any)
		if !ok {
			return fmt.Errorf("must be a list, got %s", jsonKind(p.Default))
		}
		for i, it := range items {
			if err := checkValue(p, p.ItemType(), it); err != nil {
				return fmt.Errorf("element %d %w", i+1, err)
			}
		}
		return nil
	}
	return checkValue(p, p.TypeOrDefault(), p.Default)
}

func checkValue(p *Param, t Type, v any) error {
	ok := true
	switch t {
	case Bool:
		_, ok = v.(bool)
	case Int:
		n, isNum := v.(float64)
		ok = isNum && n == math.Trunc(n) && math.Abs(n) < 1<<63
	case Number:
		_, ok = v.(float64)
	case Enum:
		s, isStr := v.(string)
		if isStr && !slices.Contains(p.Enum, s) {
			return fmt.Errorf("must be one of %s, got %q", strings.Join(p.Enum, ", "), s)
		}
		ok = isStr
	case JSON:
	default: // string, path, resource
		_, ok = v.(string)
	}
	if !ok {
		return fmt.Errorf("must be of type %s, got %s", t, jsonKind(v))
	}
	return nil
}

// jsonKind names the JSON kind of a decoded value.
func jsonKind(v any) string {
	switch v.(type) {
	case bool:
		return "a boolean"
	case float64:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return "null"
}
