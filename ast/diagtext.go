package ast

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Diagnostic text is valid UTF-8 (docs/acts.md, "Exact bytes in JSON"): a
// message that quotes input quotes it with Go's %q, which escapes every
// byte that is not UTF-8 (and the backslash) and so loses nothing; the
// producers of diagnostics (the parsers, the workspace rules, the stream
// parser, the typed decoders) pass their diagnostics through
// EscapeDiagnostics as a last guard, so a byte that is not UTF-8 and was
// put in a message as it is becomes \xNN instead of U+FFFD in the text,
// JSON, SARIF and LSP output.

// EscapeInvalidUTF8 returns s with each byte that is not part of valid
// UTF-8 written as \xNN (two lower-case hex digits), and s itself when it
// is valid UTF-8.
func EscapeInvalidUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			fmt.Fprintf(&b, `\x%02x`, s[i])
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// EscapeDiagnostics makes the text of each diagnostic (message, detail and
// the related notes' messages) valid UTF-8 with EscapeInvalidUTF8, in
// place, and returns ds.
func EscapeDiagnostics(ds []*Diagnostic) []*Diagnostic {
	for _, d := range ds {
		if d == nil {
			continue
		}
		d.Message = EscapeInvalidUTF8(d.Message)
		d.Detail = EscapeInvalidUTF8(d.Detail)
		for i := range d.Related {
			d.Related[i].Message = EscapeInvalidUTF8(d.Related[i].Message)
		}
	}
	return ds
}

// QuoteIfNeeded returns s for a message as it is when it is valid UTF-8
// free of backslashes, quotes and control characters, and else quoted with
// Go's %q (every byte kept, escaped): a name quoted in a diagnostic.
func QuoteIfNeeded(s string) string {
	if !utf8.ValidString(s) || strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f || r == '\\' || r == '"' }) {
		return strconv.Quote(s)
	}
	return s
}
