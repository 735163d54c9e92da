// Package validate checks parsed actions against the declarative action
// schema: it binds arguments to named, typed parameters and reports what
// does not fit (unknown actions, wrong argument counts, misplaced arguments).
package validate

import (
	"errors"
	"fmt"
	"strings"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/internal/number"
	"github.com/plangram/plangram/schema"
)

// Diagnostic codes reported by this package (docs/acts.md, "Diagnostics";
// docs/schema.md).
const (
	CodeUnknownAction  = "unknown-action"
	CodeArgCount       = "wrong-arg-count"
	CodeInlineNotTaken = "inline-args-not-allowed"
	CodeBlockNotTaken  = "block-args-not-allowed"
	// CodeBadValue: an argument does not convert to its parameter's declared
	// type (schema.Param.Value); the value is kept as trimmed text.
	CodeBadValue = "bad-value"
)

// BindAct fills a.Params from a.Args (inline arguments) and a.Blocks
// according to the schema's argument mode for the action, and returns the
// problems found. In hybrid mode inline arguments come first, then block
// contents, in order; a variadic last parameter takes all remaining values as
// a list. Values convert to their declared types (schema.Param.Value): a
// path is trimmed, a string kept byte for byte, a bool, int, number, enum,
// list or json value parsed, and a value that does not convert is a
// bad-value error. An action the schema does not know keeps its arguments
// with no named params and is reported by UnknownAction. a.Params is
// replaced.
func BindAct(a *ast.Action, s *schema.Schema) []*ast.Diagnostic {
	a.Params = nil
	if a.Name == "" {
		return nil // the parser reports the empty name
	}
	def := s.Lookup(a.Name)
	if def == nil {
		if d := UnknownAction(s, a.Name, a.NameSpan); d != nil {
			return []*ast.Diagnostic{d}
		}
		return nil
	}
	var diags []*ast.Diagnostic
	type value struct {
		text   string
		span   *ast.Span
		inline bool // an inline argument (a block's is laid out: not padded)
	}
	required, max := 0, len(def.Params)
	for _, p := range def.Params {
		if p.Required {
			required++
		}
		if p.Variadic {
			max = -1
		}
	}
	var buf [8]value
	vals := buf[:0]
	// n counts the arguments given; only those a param takes are kept in
	// vals (all of them for a variadic param), so that an action given a
	// hundred thousand arguments it does not take costs no copy of them.
	n := 0
	keep := func() bool {
		n++
		return max < 0 || len(vals) < max
	}
	// The params' spans are copies (a param does not alias the action's
	// nodes), held in one array: cap is exact, so &spans[k] stays valid.
	size := min(len(a.Args), len(a.ArgSpans)) + len(a.Blocks)
	if max >= 0 {
		size = min(size, max)
	}
	spans := make([]ast.Span, 0, size)
	addArgs := func() {
		for i, arg := range a.Args {
			if !keep() {
				continue
			}
			var sp *ast.Span
			if i < len(a.ArgSpans) {
				spans = append(spans, a.ArgSpans[i])
				sp = &spans[len(spans)-1]
			}
			vals = append(vals, value{arg, sp, true})
		}
	}
	addBlocks := func() {
		for _, b := range a.Blocks {
			if !keep() {
				continue
			}
			spans = append(spans, b.ContentSpan)
			vals = append(vals, value{b.Content, &spans[len(spans)-1], false})
		}
	}
	addParam := func(p ast.Param) {
		if a.Params == nil {
			a.Params = make(ast.Params, 0, len(def.Params))
		}
		a.Params = append(a.Params, p)
	}
	switch def.Mode() {
	case schema.ArgsInline:
		addArgs()
		if len(a.Blocks) > 0 {
			diags = append(diags, &ast.Diagnostic{Severity: ast.Error, Code: CodeBlockNotTaken,
				Message: fmt.Sprintf("%s takes inline arguments only, got %s; expected %s", a.Name, number.Plural(len(a.Blocks), "argument block"), def.Signature()),
				Span:    a.Blocks[0].Span})
		}
	case schema.ArgsBlock:
		addBlocks()
		if len(a.Args) > 0 {
			sp := a.NameSpan
			if len(a.ArgSpans) > 0 {
				sp = a.ArgSpans[0]
			}
			diags = append(diags, &ast.Diagnostic{Severity: ast.Error, Code: CodeInlineNotTaken,
				Message: fmt.Sprintf("%s takes block arguments only, got %s; expected %s", a.Name, number.Plural(len(a.Args), "inline argument"), def.Signature()),
				Span:    sp})
		}
	default:
		addArgs()
		addBlocks()
	}

	total := len(a.Args) + len(a.Blocks)
	misplaced := len(diags) > 0 && total >= required && (max < 0 || total <= max)
	if !misplaced && (n < required || (max >= 0 && n > max)) {
		diags = append(diags, &ast.Diagnostic{Severity: ast.Error, Code: CodeArgCount,
			Message: fmt.Sprintf("%s expects %s, got %s", a.Name, expectation(def, required, max), number.Plural(n, "argument")),
			Span:    a.NameSpan})
	}
	// at is a value's span, the action's name for a value without one.
	at := func(sp *ast.Span) ast.Span {
		if sp != nil {
			return *sp
		}
		return a.NameSpan
	}
	badValue := func(p *schema.Param, sp *ast.Span, err error) {
		code := CodeBadValue
		if pe, ok := errors.AsType[*schema.PathError](err); ok { // the path rule has its own codes
			code = pe.Code
		}
		diags = append(diags, &ast.Diagnostic{Severity: ast.Error, Code: code,
			Message: fmt.Sprintf("%s's %s: %v", a.Name, p.Name, err), Span: at(sp)})
	}
	padded := func(p *schema.Param, v value) {
		// An inline argument with white space around it was quoted so;
		// a block's indentation and line ending are its layout.
		if !v.inline || !p.PaddedPath(v.text) {
			return
		}
		diags = append(diags, &ast.Diagnostic{Severity: ast.Warning, Code: schema.CodePathWhitespace,
			Message: schema.PaddedPathMessage(a.Name, p.Name, v.text), Span: at(v.span)})
	}
	for i, p := range def.Params {
		if p.Variadic {
			var sp *ast.Span
			items := []string{}
			for j := i; j < len(vals); j++ {
				items = append(items, vals[j].text)
				if sp == nil {
					sp = vals[j].span
				}
				padded(p, vals[j])
			}
			v, err := p.ListValue(items)
			if err != nil {
				badValue(p, sp, err)
				for j := range items {
					items[j] = strings.TrimSpace(items[j])
				}
				v = items
			}
			addParam(ast.Param{Name: p.Name, Value: v, Span: sp})
			break
		}
		if i >= len(vals) {
			break
		}
		v, err := p.Value(vals[i].text)
		if err != nil {
			badValue(p, vals[i].span, err)
			v = strings.TrimSpace(vals[i].text)
		} else {
			padded(p, vals[i])
		}
		addParam(ast.Param{Name: p.Name, Value: v, Span: vals[i].span})
	}
	return diags
}

func expectation(def *schema.Action, required, max int) string {
	if len(def.Params) == 0 {
		return "no arguments"
	}
	var n string
	switch {
	case max < 0:
		n = "at least " + number.Plural(required, "argument")
	case required == max:
		n = number.Plural(max, "argument")
	default:
		n = fmt.Sprintf("%d to %d arguments", required, max)
	}
	return n + " " + def.Signature()[len(def.Name):]
}

// UnknownAction returns the diagnostic for an action name the schema does
// not declare, at span: an error with a "did you mean" suggestion when a
// declared name is close. When the schema allows unknown actions
// (schema.UnknownAllow, for plug-in actions) a name close to a declared one
// is a warning, as it is most likely a typo, and any other name gets no
// diagnostic (nil).
func UnknownAction(s *schema.Schema, name string, span ast.Span) *ast.Diagnostic {
	msg := fmt.Sprintf("unknown action %q", name)
	sug := s.Suggest(name)
	if sug != "" {
		msg += fmt.Sprintf("; did you mean %q?", sug)
	}
	if s.AllowsUnknownActions() {
		if sug == "" {
			return nil
		}
		return &ast.Diagnostic{Severity: ast.Warning, Code: CodeUnknownAction, Span: span,
			Message: msg + " (the schema allows unknown actions, so it is kept as a plug-in action)"}
	}
	return &ast.Diagnostic{Severity: ast.Error, Code: CodeUnknownAction, Message: msg, Span: span}
}
