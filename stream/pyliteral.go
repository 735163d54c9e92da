package stream

import (
	"encoding/json"
	"strings"

	"github.com/plangram/plangram/internal/view"
)

// maxPyDepth bounds the nesting of a Python literal.
const maxPyDepth = 128

// pyLiteral converts a Python literal — a dict, list or tuple of strings
// in single or double quotes, numbers, True, False and None — to JSON
// text. Models asked for a JSON object in an XML-style parameter
// sometimes write Python's repr of it ({'key': 'value'}); vLLM reads such
// values with ast.literal_eval. ok is false for anything else.
func pyLiteral(s string) (out string, ok bool) {
	r := pyReader{s: s}
	var b strings.Builder
	if !r.value(&b, 0) {
		return "", false
	}
	r.space()
	if r.i != len(r.s) {
		return "", false
	}
	return b.String(), true
}

type pyReader struct {
	s string
	i int
}

func (r *pyReader) space() {
	r.i = len(r.s) - len(strings.TrimLeft(r.s[r.i:], " \t\n\r"))
}

func (r *pyReader) value(b *strings.Builder, depth int) bool {
	r.space()
	if r.i == len(r.s) || depth > maxPyDepth {
		return false
	}
	switch c := r.s[r.i]; {
	case c == '{':
		return r.seq(b, depth, '}', true)
	case c == '[':
		return r.seq(b, depth, ']', false)
	case c == '(':
		return r.seq(b, depth, ')', false)
	case c == '\'' || c == '"':
		return r.str(b)
	}
	j := r.i
	for j < len(r.s) && (isName(r.s[j]) || r.s[j] == '+' || r.s[j] == '-') {
		j++
	}
	word := r.s[r.i:j]
	r.i = j
	switch word {
	case "True":
		b.WriteString("true")
	case "False":
		b.WriteString("false")
	case "None":
		b.WriteString("null")
	default:
		if !json.Valid([]byte(word)) || word == "" || word[0] == '"' {
			return false
		}
		b.WriteString(word)
	}
	return true
}

// seq reads the elements of a dict (key: value pairs, keys strings) or of
// a list or tuple up to the closing byte, a trailing comma allowed.
func (r *pyReader) seq(b *strings.Builder, depth int, closing byte, dict bool) bool {
	r.i++
	open := byte('[')
	if dict {
		open = '{'
	}
	b.WriteByte(open)
	for n := 0; ; n++ {
		r.space()
		if r.i < len(r.s) && r.s[r.i] == closing {
			r.i++
			b.WriteByte(open + 2) // ']' or '}'
			return true
		}
		if n > 0 {
			if r.i == len(r.s) || r.s[r.i] != ',' {
				return false
			}
			r.i++
			r.space()
			if r.i < len(r.s) && r.s[r.i] == closing {
				continue
			}
			b.WriteByte(',')
		}
		if dict {
			r.space()
			if r.i == len(r.s) || r.s[r.i] != '\'' && r.s[r.i] != '"' || !r.str(b) {
				return false
			}
			r.space()
			if r.i == len(r.s) || r.s[r.i] != ':' {
				return false
			}
			r.i++
			b.WriteByte(':')
		}
		if !r.value(b, depth+1) {
			return false
		}
	}
}

// str reads a quoted string, its escapes decoded as Python does
// (pyEscape), and writes it as a JSON string.
func (r *pyReader) str(b *strings.Builder) bool {
	q := r.s[r.i]
	r.i++
	var sb strings.Builder
	for r.i < len(r.s) {
		c := r.s[r.i]
		switch {
		case c == q:
			r.i++
			j, _ := json.Marshal(sb.String())
			b.Write(j)
			return true
		case c == '\\':
			dec, n, _ := pyEscape(view.Bytes(r.s[r.i:]), true)
			if n == 2 && strings.IndexByte("xuU", r.s[r.i+1]) >= 0 {
				return false // a bad \x, \u or \U: literal_eval refuses it
			}
			sb.Write(dec)
			r.i += n
		case c == '\n':
			return false
		default:
			sb.WriteByte(c)
			r.i++
		}
	}
	return false
}
