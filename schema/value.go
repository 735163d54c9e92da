package schema

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/plangram/plangram/internal/jsonw"
)

// ItemType returns the type of one element of the parameter's value: Items
// (string when unset) for a list, the parameter's own type otherwise. A
// variadic parameter's value is a list of ItemType elements.
func (p *Param) ItemType() Type {
	if p.TypeOrDefault() == List {
		return cmp.Or(p.Items, String)
	}
	return p.TypeOrDefault()
}

// Value converts a parameter's text to a value of its declared type, the
// typed value a parser puts into the AST:
//
//   - string: the text unchanged, byte for byte;
//   - path, resource: the text trimmed of surrounding white space, which
//     must follow the path rule (CheckPath; a resource may instead be a
//     URL, IsURL) — the one place every dialect's paths are checked;
//   - bool: true or false, any case (trimmed);
//   - int: a base-10 int64; number: a finite float64;
//   - enum: one of the declared values, compared exactly (trimmed);
//   - list: a JSON array of strings, or else one element per non-blank
//     line, trimmed, each converted to ItemType ([]string for string-like
//     elements, []bool, []int64, []float64 or []any otherwise);
//   - json: any JSON value, decoded (map[string]any, []any, float64, …).
//
// A variadic parameter's elements are converted by ListValue. The error
// says what was expected and what was found; the caller positions it.
func (p *Param) Value(text string) (any, error) {
	t := p.TypeOrDefault()
	if t != List {
		return convert(p, t, text)
	}
	items, err := listItems(strings.TrimSpace(text), p.ItemType())
	if err != nil {
		return nil, err
	}
	return p.ListValue(items)
}

// CodePathWhitespace: a path or resource value has white space around it
// on its own line (`'a.txt '` quoted in an act line, `{"path": " a.txt"}`):
// the value is trimmed like every path, and the diagnostic says so, since
// the white space was written (docs/schema.md, "Types"). A warning.
const CodePathWhitespace = "path-whitespace"

// PaddedPath reports whether text, a value (or, for a list or variadic
// parameter, one element) of p, is a path or resource with spaces or tabs
// around it that trimming drops and that no line break separates from it:
// a path written inside quotes with white space, not one laid out on a
// line of its own (a block's `a.txt\n`, an XML parameter's
// `<path>\n  a.txt\n</path>`).
func (p *Param) PaddedPath(text string) bool {
	if t := p.ItemType(); t != Path && t != Resource {
		return false
	}
	trimmed := strings.TrimSpace(text)
	if trimmed == "" || trimmed == text {
		return false
	}
	lead := text[:len(text)-len(strings.TrimLeftFunc(text, unicode.IsSpace))]
	trail := text[len(strings.TrimRightFunc(text, unicode.IsSpace)):]
	return lead != "" && !strings.ContainsAny(lead, "\r\n") || trail != "" && !strings.ContainsAny(trail, "\r\n")
}

// PaddedPathMessage is the message of a CodePathWhitespace diagnostic of
// action's parameter param with value text.
func PaddedPathMessage(action, param, text string) string {
	return fmt.Sprintf("%s's %s %q has white space around it, which is dropped: the path is %q", action, param, text, strings.TrimSpace(text))
}

// ListValue converts the elements of a list or variadic parameter and returns
// them as a typed slice: []string for string, path, resource and enum
// elements, []bool, []int64, []float64, or []any for json elements.
func (p *Param) ListValue(items []string) (any, error) {
	switch p.ItemType() {
	case Bool:
		return convertAll[bool](p, items)
	case Int:
		return convertAll[int64](p, items)
	case Number:
		return convertAll[float64](p, items)
	case JSON:
		return convertAll[any](p, items)
	}
	return convertAll[string](p, items)
}

func convertAll[T any](p *Param, items []string) ([]T, error) {
	out := make([]T, 0, len(items))
	for i, it := range items {
		v, err := convert(p, p.ItemType(), strings.TrimSpace(it))
		if err != nil {
			if len(items) > 1 {
				return nil, fmt.Errorf("element %d: %w", i+1, err)
			}
			return nil, err
		}
		out = append(out, v.(T))
	}
	return out, nil
}

func convert(p *Param, t Type, text string) (any, error) {
	if t == String || t == "" {
		return text, nil
	}
	s := strings.TrimSpace(text)
	switch t {
	case Bool:
		switch {
		case strings.EqualFold(s, "true"):
			return true, nil
		case strings.EqualFold(s, "false"):
			return false, nil
		}
		return nil, fmt.Errorf("want true or false, got %q", s)
	case Int:
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("want an integer, got %q", s)
		}
		return n, nil
	case Number:
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, fmt.Errorf("want a finite number, got %q", s)
		}
		return f, nil
	case Enum:
		if !slices.Contains(p.Enum, s) {
			return nil, fmt.Errorf("want one of %s, got %q", strings.Join(p.Enum, ", "), s)
		}
		return s, nil
	case JSON:
		var v any
		if err := jsonw.Unmarshal([]byte(s), &v); err != nil { // exact bytes (docs/acts.md)
			return nil, fmt.Errorf("want JSON: %w", err)
		}
		return v, nil
	case Path, Resource: // a resource may be a URL instead
		if t == Path || !IsURL(s) {
			if err := CheckPath(s); err != nil {
				return s, err
			}
		}
	}
	return s, nil // path, resource and types a dialect adds
}

// listItems reads a JSON array, or else one element per non-blank line,
// trimmed. The elements of a JSON array are strings when elements of type
// item are strings (string, path, resource, enum), else the JSON text of
// each element ([1, 2] for a list of int).
func listItems(s string, item Type) ([]string, error) {
	if strings.HasPrefix(s, "[") {
		var raw []json.RawMessage
		if err := json.Unmarshal([]byte(s), &raw); err != nil {
			return nil, fmt.Errorf("want a JSON array: %w", err)
		}
		out := make([]string, len(raw))
		for i, r := range raw {
			if len(r) > 0 && r[0] == '"' {
				if err := jsonw.Unmarshal(r, &out[i]); err != nil {
					return nil, fmt.Errorf("element %d: %w", i+1, err)
				}
				continue
			}
			switch item {
			case Bool, Int, Number, JSON:
				out[i] = string(r)
			default:
				return nil, fmt.Errorf("want a JSON array of strings, element %d is %s", i+1, r)
			}
		}
		return out, nil
	}
	out := []string{}
	for line := range strings.Lines(s) {
		if line = strings.TrimSpace(line); line != "" {
			out = append(out, line)
		}
	}
	return out, nil
}
