package render

import (
	"fmt"
	"html"
	"strings"
	"unicode/utf8"
)

// writeCode escapes s for HTML text. Characters a reviewer could not see
// are shown: control characters (carriage return included), invisible
// format characters and bidirectional overrides (which can make code read
// differently from what runs) become a visible label, with the character
// itself kept in a hidden span so the element's text is still exactly s.
// The two exceptions: NUL cannot exist in an HTML document (U+FFFD stands
// for it) and an invalid UTF-8 byte is kept as U+FFFD.
func writeCode(b *strings.Builder, s string) {
	plain := 0 // the start of the run of text written escaped as it is
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		invalid := r == utf8.RuneError && n == 1
		if !invalid && !invisible(r) && (r >= 0x20 && r != 0x7f || r == '\t' || r == '\n') {
			i += n
			continue
		}
		b.WriteString(html.EscapeString(s[plain:i]))
		if invalid {
			fmt.Fprintf(b, `<span class="ctl" data-cp="\x%02X" title="invalid UTF-8 byte 0x%02X"><span class="raw">`+"\uFFFD"+`</span></span>`, s[i], s[i])
		} else {
			writeInvisible(b, r)
		}
		i += n
		plain = i
	}
	b.WriteString(html.EscapeString(s[plain:]))
}

// invisible reports characters shown as labels: C1 controls, zero-width
// and other format characters, bidirectional controls, the byte-order mark.
func invisible(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9f, r == 0xad,
		r >= 0x200b && r <= 0x200f, r >= 0x2028 && r <= 0x202e,
		r >= 0x2060 && r <= 0x2069, r == 0xfeff,
		r >= 0xfff9 && r <= 0xfffb:
		return true
	}
	return false
}

func writeInvisible(b *strings.Builder, r rune) {
	label, title := fmt.Sprintf("U+%04X", r), fmt.Sprintf("invisible character U+%04X", r)
	raw := string(r)
	if r < 0x20 || r == 0x7f {
		raw = fmt.Sprintf("&#%d;", r) // a raw CR would become LF in the parsed page
	}
	switch {
	case r == '\r':
		label, title = "CR", `carriage return (\r)`
	case r == 0:
		label, title, raw = "NUL", "NUL (shown as U+FFFD: HTML cannot hold it)", "\uFFFD"
	case r < 0x20:
		label, title = c0Name(r), fmt.Sprintf("control character U+%04X", r)
	case r == 0x7f:
		label, title = "DEL", "control character U+007F (DEL)"
	case r == 0xfeff:
		label, title = "BOM", "byte-order mark / zero-width no-break space U+FEFF"
	case r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069:
		title = fmt.Sprintf("bidirectional control U+%04X: text may display in a different order than it is stored", r)
	}
	fmt.Fprintf(b, `<span class="ctl" data-cp="%s" title="%s"><span class="raw">%s</span></span>`, label, title, raw)
}

// c0Name returns the ASCII abbreviation of a C0 control character.
func c0Name(r rune) string {
	return [32]string{"NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS", "HT", "LF", "VT", "FF", "CR", "SO", "SI",
		"DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB", "CAN", "EM", "SUB", "ESC", "FS", "GS", "RS", "US"}[r&31]
}

// esc escapes s for HTML text and attribute values, invalid UTF-8 as U+FFFD.
func esc(s string) string { return html.EscapeString(strings.ToValidUTF8(s, "\uFFFD")) }
