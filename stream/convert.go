package stream

import (
	"strconv"
	"strings"

	"github.com/plangram/plangram/schema"
)

// convert turns a parameter's text into a value of its declared type. A
// raw parameter is taken as it is, any other trimmed; entity references are
// decoded when the parameter's policy is "unescape"; the typed conversion is
// the schema's own (schema.Param.Value), the same for every dialect.
func convert(sp *schema.Param, s string) (any, error) {
	if !sp.Raw {
		s = strings.TrimSpace(s)
	}
	if sp.Entities == "unescape" {
		s = unescape(s)
	}
	return sp.Value(s)
}

// unescape decodes &lt; &gt; &amp; &quot; &apos; and numeric character
// references (&#60; &#x3C;); anything else is kept as written.
func unescape(s string) string {
	i := strings.IndexByte(s, '&')
	if i < 0 {
		return s
	}
	var b strings.Builder
	for i >= 0 {
		b.WriteString(s[:i])
		s = s[i:]
		r, n := entity(s)
		if n == 0 {
			b.WriteByte('&')
			n = 1
		} else {
			b.WriteString(r)
		}
		s = s[n:]
		i = strings.IndexByte(s, '&')
	}
	b.WriteString(s)
	return b.String()
}

// entity decodes the reference at the start of s ("&...;"), returning the
// text and the length read, or n == 0 when s starts with no reference.
func entity(s string) (text string, n int) {
	end := strings.IndexByte(s, ';')
	if end < 0 || end > 12 {
		return "", 0
	}
	switch ref := s[1:end]; ref {
	case "lt":
		return "<", end + 1
	case "gt":
		return ">", end + 1
	case "amp":
		return "&", end + 1
	case "quot":
		return `"`, end + 1
	case "apos":
		return "'", end + 1
	default:
		base, digits := 10, strings.TrimPrefix(ref, "#")
		if len(digits) == len(ref) {
			return "", 0
		}
		if d, ok := strings.CutPrefix(digits, "x"); ok {
			base, digits = 16, d
		} else if d, ok := strings.CutPrefix(digits, "X"); ok {
			base, digits = 16, d
		}
		r, err := strconv.ParseUint(digits, base, 32)
		if err != nil || r == 0 || r > 0x10FFFF || r >= 0xD800 && r <= 0xDFFF {
			return "", 0
		}
		return string(rune(r)), end + 1
	}
}

// defaultValue returns a parameter's declared default as its Go type, as
// the plan parser does: a whole number of an int parameter is an int64.
func defaultValue(p *schema.Param) any {
	if f, ok := p.Default.(float64); ok && p.TypeOrDefault() == schema.Int {
		return int64(f)
	}
	return p.Default
}
