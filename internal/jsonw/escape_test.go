package jsonw

import (
	"testing"
	"unicode/utf8"
)

// The escape round trip is exact: EscapeString gives valid UTF-8 that
// UnescapeString turns back into the input, and DecodeExact reads a JSON
// string holding the raw bytes (or the escape \uf8ff) back byte for byte.
func TestEscapeRoundTrip(t *testing.T) {
	for _, s := range []string{"", "plain", "a\xffb", "\xf8\xff", "\uf8ff", "\uf8ff\uf8ff\xfe", "é\x80😀\xc3"} {
		e := EscapeString(s)
		if !utf8.ValidString(e) {
			t.Errorf("EscapeString(%q) = %q: not valid UTF-8", s, e)
		}
		if got := UnescapeString(e); got != s {
			t.Errorf("UnescapeString(EscapeString(%q)) = %q", s, got)
		}
		v, err := DecodeExact([]byte(`{"k` + s + `":["` + s + `"]}`))
		if err != nil {
			t.Fatalf("DecodeExact(%q): %v", s, err)
		}
		if got := v.(map[string]any)["k"+s].([]any)[0]; got != s {
			t.Errorf("DecodeExact(%q) = %q", s, got)
		}
	}
	v, err := DecodeExact([]byte(`"a\uF8FFb"`))
	if err != nil || v != "a\uf8ffb" {
		t.Errorf(`DecodeExact("a\uF8FFb") = %q, %v`, v, err)
	}
}
