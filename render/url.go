package render

import "strings"

// safeURL reports whether a link destination (after Markdown has resolved
// its escapes and entities) may become an href: a relative reference or a
// fragment, or an http, https or mailto URL. Everything else — javascript:,
// vbscript:, data:, file: and any scheme not listed, in any case and with
// tabs, newlines or control characters inside (which browsers strip before
// reading the scheme) — is refused.
func safeURL(dest string) bool {
	// Browsers remove leading and trailing C0 controls and spaces and every
	// tab and newline before parsing a URL; do the same before looking for
	// the scheme. No other control character has a reason to be in a link.
	if strings.ContainsFunc(dest, func(r rune) bool { return (r < 0x20 || r == 0x7f) && r != '\t' && r != '\n' && r != '\r' }) {
		return false
	}
	u := strings.Trim(strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(dest), " ")
	end := strings.IndexAny(u, ":/?#")
	if end < 0 || u[end] != ':' {
		return true // no scheme: relative path, query or fragment
	}
	switch strings.ToLower(u[:end]) {
	case "http", "https", "mailto": // the only schemes a rendered link may use
		return true
	}
	return false
}
