package grammar

import (
	"maps"
	"slices"
	"strings"

	"github.com/plangram/plangram/ast"
)

// Cap says which diagnostics a document reports one by one: the first
// MaxPerCode of each code. Past that, a diagnostic of the code costs a
// count, not its message, and one diagnostic (an Overflow) sums up all of
// them, so a document's output and the memory its diagnostics take stay
// small whatever the document repeats (docs/acts.md and docs/plan.md,
// "Bounded output"). Both dialects' parsers cap their diagnostics with a Cap of
// their own; a caller that parses a document piece by piece shares one
// across the pieces (ActsParser.Cap) and reports the overflows at the end,
// as the stream does. The zero Cap is ready to use; a Cap is not safe for
// concurrent use.
type Cap struct {
	// NoLimit makes Take list every diagnostic (Options.Uncapped).
	NoLimit bool
	// Silenced, when set, says which diagnostics a directive comment or
	// --disable silences (Options.Silenced): Take drops them before it
	// counts, so the first MaxPerCode listed and the count past them are
	// of the diagnostics that will be shown.
	Silenced func(code string, line int) bool
	n        map[string]int
	over     map[string]*Overflow
	at       ast.Pos // where the piece being parsed starts (At)
}

// Overflow sums up the diagnostics of one code past MaxPerCode.
type Overflow struct {
	Code string
	// Severity is the most severe of them.
	Severity ast.Severity
	// First is the span of the first one left out, Raw its source text.
	First ast.Span
	Raw   string
	// LastLine is the line of the last one; N how many were left out.
	LastLine int
	N        int
}

// Message is the message of the diagnostic that sums the overflow up
// (OverflowMessage).
func (o *Overflow) Message() string {
	return OverflowMessage(o.N, o.Code, o.Severity, o.First.Start.Line, o.LastLine)
}

// Take counts a diagnostic of code with severity sev at span (raw: its
// source text) and reports whether it is listed one by one: true for the
// first MaxPerCode of the code. Otherwise it is summed up in the code's
// Overflow. A silenced diagnostic (Silenced) is neither listed nor
// counted.
func (c *Cap) Take(sev ast.Severity, code string, span ast.Span, raw string) bool {
	if c.Silenced != nil && c.Silenced(code, span.In(c.at).Start.Line) {
		return false
	}
	if c.NoLimit {
		return true
	}
	if c.n == nil {
		c.n = map[string]int{}
	}
	if c.n[code] < MaxPerCode {
		c.n[code]++
		return true
	}
	first := span.In(c.at)
	c.Absorb(Overflow{Code: code, Severity: sev, First: first, Raw: raw, LastLine: first.Start.Line, N: 1})
	return false
}

// Full reports whether MaxPerCode diagnostics of code were taken: any more
// are summed up (a caller can then skip building their messages).
func (c *Cap) Full(code string) bool {
	return c.n[code] >= MaxPerCode
}

// Absorb counts the o.N diagnostics o sums up as left out, as if each had
// been taken past the cap, after those counted so far: a caller that held
// diagnostics back with a Cap of their own (the stream, until it knows the
// document's fence character) adds that Cap's overflows to the document's.
func (c *Cap) Absorb(o Overflow) {
	if o.N <= 0 {
		return
	}
	if c.over == nil {
		c.over = map[string]*Overflow{}
	}
	cur := c.over[o.Code]
	if cur == nil {
		cur = new(Overflow)
		*cur = o
		c.over[o.Code] = cur
		return
	}
	cur.N += o.N
	cur.LastLine = max(cur.LastLine, o.LastLine)
	cur.Severity = min(cur.Severity, o.Severity)
}

// At says that the spans taken from now on are of a piece of the document
// that starts at position pos, so that an Overflow's First and LastLine
// are positions in the whole document; the zero Pos means no shift.
func (c *Cap) At(pos ast.Pos) {
	c.at = pos
}

// Overflows returns the overflow of each code past MaxPerCode, by code.
func (c *Cap) Overflows() []*Overflow {
	return slices.SortedFunc(maps.Values(c.over), func(a, b *Overflow) int { return strings.Compare(a.Code, b.Code) })
}

// Summaries returns one diagnostic per overflow of c, by code: what a
// caller that capped its own diagnostics with c adds at the end.
func (c *Cap) Summaries() []*ast.Diagnostic {
	var out []*ast.Diagnostic
	for _, o := range c.Overflows() {
		out = append(out, &ast.Diagnostic{Severity: o.Severity, Code: o.Code, Span: o.First, Message: o.Message()})
	}
	return out
}

// IsOverflow reports whether d is a diagnostic that sums up the
// diagnostics of its code past MaxPerCode (an Overflow's, with
// OverflowMessage's message): a consumer of a parser's diagnostics learns
// from it that every diagnostic of the code was found, listed or counted
// (the workspace rules do not report again a path-rule breach the parser
// counted).
func IsOverflow(d *ast.Diagnostic) bool {
	n, rest, ok := strings.Cut(d.Message, " more ")
	if !ok || n == "" || strings.Trim(n, "0123456789,") != "" {
		return false
	}
	return strings.HasPrefix(rest, d.Code+" "+d.Severity.String()+"s like the ") &&
		strings.Contains(rest, " above are not listed one by one (lines ")
}
