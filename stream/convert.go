package stream

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/schema"
)

// convert turns a parameter's text into a value of its declared type. A
// raw parameter is taken as it is, any other trimmed; entity references are
// decoded when the parameter's policy is "unescape"; the typed conversion is
// the schema's own (schema.Param.Value), the same for every dialect. The
// text null of a nullable parameter is null.
func convert(sp *schema.Param, s string) (any, error) {
	if sp.Nullable && strings.TrimSpace(s) == "null" {
		return nil, nil
	}
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
		b.WriteString(r)
		s = s[n:]
		i = strings.IndexByte(s, '&')
	}
	b.WriteString(s)
	return b.String()
}

// entity decodes the reference at the start of s ("&...;"), returning the
// text and the length read; "&" and 1 when s starts with no reference.
func entity(s string) (text string, n int) {
	end := strings.IndexByte(s, ';')
	if end < 0 || end > 12 {
		return "&", 1
	}
	ref := s[1:end]
	if i := slices.Index([]string{"lt", "gt", "amp", "quot", "apos"}, ref); i >= 0 {
		return `<>&"'`[i : i+1], end + 1
	}
	digits, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return "&", 1
	}
	base := 10
	if digits != "" && (digits[0] == 'x' || digits[0] == 'X') {
		base, digits = 16, digits[1:]
	}
	r, err := strconv.ParseUint(digits, base, 32)
	if err != nil || r == 0 || r > 0x10FFFF || r >= 0xD800 && r <= 0xDFFF {
		return "&", 1
	}
	return string(rune(r)), end + 1
}

// paramNamed returns act's parameter called name, by name or alias, or nil.
func paramNamed(act *schema.Action, name string) *schema.Param {
	for _, sp := range act.Params {
		if sp.Name == name || slices.Contains(sp.Aliases, name) {
			return sp
		}
	}
	return nil
}

// arg is one argument of a call as a syntax read it, for bind.
type arg struct {
	key     string
	param   *schema.Param // the parameter key names (by name or alias); nil when the tool has none or is unknown
	value   any           // as read: decoded JSON, or the tools syntax's text
	raw     string        // the source text an error quotes
	json    string        // JSON syntaxes: a number's, literal's, object's or array's text (jsonargs.Event.Raw)
	span    ast.Span
	partial bool // cut by the end of the stream
}

// binder types a call's arguments by the schema, the same way for every
// syntax; what differs is how a value is read and converted.
type binder struct {
	act     *schema.Action // nil: an unknown tool (or no schema), its arguments kept as read
	id      int
	name    string
	missing ast.Span // where a missing parameter is reported
	// typed converts an argument to its parameter's type; on error it
	// returns the value to keep in its place.
	typed func(sp *schema.Param, a *arg) (any, error)
	// plain is an unknown tool's argument value (nil: as read).
	plain func(a *arg) any
	errs  *[]Event
}

// bind returns the call's parameters in schema order, each converted to
// its type, and appends the errors: unknown parameters; a parameter given
// twice (by name or alias: the first is kept); missing required ones (an
// absent optional one takes its default); values that do not convert
// (kept as read, with the error); paths padded with white space. A JSON
// null is no value, except for a json or nullable parameter, which takes
// it. An
// unknown tool's arguments are kept as read, the first of each key, in
// their order, duplicates reported.
func (b binder) bind(args []arg) ast.Params {
	fail := func(kind, param, msg string, a *arg) {
		*b.errs = append(*b.errs, Event{Type: Error, ID: b.id, Name: b.name, Param: param, Kind: kind, Message: msg, Raw: a.raw, Span: a.span})
	}
	byKey := map[string]int{}
	byParam := map[*schema.Param]int{}
	for i := range args {
		a := &args[i]
		if a.value == nil && !a.partial && a.param != nil && a.param.TypeOrDefault() != schema.JSON && !a.param.Nullable {
			continue // null: the parameter is not given
		}
		name, dup := a.key, false
		if a.param != nil {
			name = a.param.Name
			_, dup = byParam[a.param]
		} else {
			_, dup = byKey[a.key]
		}
		switch {
		case dup:
			fail(KindDuplicateParam, name, fmt.Sprintf("parameter %s is given twice; the first is kept", name), a)
		case a.param != nil:
			byParam[a.param] = i
		default:
			byKey[a.key] = i
			if b.act != nil {
				fail(KindUnknownParam, a.key, fmt.Sprintf("%s has no parameter %s", ast.QuoteIfNeeded(b.name), ast.QuoteIfNeeded(a.key)), a)
			}
		}
	}
	n := len(byParam)
	if b.act == nil {
		n = len(byKey)
	}
	var ps ast.Params // nil without parameters
	var spans []ast.Span
	if n > 0 {
		ps, spans = make(ast.Params, 0, n), make([]ast.Span, 0, n) // the params' spans, one allocation
	}
	add := func(name string, v any, a *arg) {
		spans = append(spans, a.span)
		ps = append(ps, ast.Param{Name: name, Value: v, Span: &spans[len(spans)-1]})
	}
	if b.act == nil {
		for i := range args {
			if a := &args[i]; byKey[a.key] == i {
				v := a.value
				if b.plain != nil {
					v = b.plain(a)
				}
				add(a.key, v, a)
			}
		}
		return ps
	}
	for _, sp := range b.act.Params {
		i, ok := byParam[sp]
		if !ok {
			if sp.Required {
				*b.errs = append(*b.errs, Event{Type: Error, ID: b.id, Name: b.name, Param: sp.Name, Kind: KindMissingParam,
					Message: fmt.Sprintf("%s needs parameter %s", b.name, sp.Name), Span: b.missing})
			} else if sp.Default != nil {
				ps = append(ps, ast.Param{Name: sp.Name, Value: grammar.DefaultValue(sp)})
			}
			continue
		}
		a := &args[i]
		v, err := b.typed(sp, a)
		if pe, ok := errors.AsType[*schema.PathError](err); ok {
			// The path rule's own code, as every dialect reports it (and
			// the workspace rules do not say it again).
			fail(pe.Code, sp.Name, fmt.Sprintf("parameter %s: %v", sp.Name, err), a)
		} else if err != nil {
			fail(KindBadValue, sp.Name, fmt.Sprintf("parameter %s: %v", sp.Name, err), a)
		} else if x, ok := a.value.(string); ok && !a.partial && sp.PaddedPath(x) {
			*b.errs = append(*b.errs, Event{Type: Error, ID: b.id, Name: b.name, Param: sp.Name, Kind: KindPathWhitespace, Severity: ast.Warning,
				Message: schema.PaddedPathMessage(b.name, sp.Name, x), Raw: a.raw, Span: a.span})
		}
		add(sp.Name, v, a)
	}
	return ps
}
