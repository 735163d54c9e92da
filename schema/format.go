package schema

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

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
