package schema

import (
	"regexp"
	"testing"
)

// TestNameFuncsAsRegexps pins paramName and plainKey to the regular
// expressions they replace.
func TestNameFuncsAsRegexps(t *testing.T) {
	param := regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.-]*$`)
	plain := regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)
	for _, s := range []string{"", "a", "_", "A9", "9a", "a.b-c_d", "-a", ".a", "a b", "a\n", "é", "aé", "a/b", "Z", "_9", "a\x00", "\n", "a$"} {
		if got, want := paramName(s), param.MatchString(s); got != want {
			t.Errorf("paramName(%q) = %v, want %v", s, got, want)
		}
		if got, want := plainKey(s), plain.MatchString(s); got != want {
			t.Errorf("plainKey(%q) = %v, want %v", s, got, want)
		}
	}
	for c := 0; c < 256; c++ {
		for _, s := range []string{string([]byte{byte(c)}), "a" + string([]byte{byte(c)})} {
			if paramName(s) != param.MatchString(s) || plainKey(s) != plain.MatchString(s) {
				t.Errorf("%q: paramName %v, plainKey %v", s, paramName(s), plainKey(s))
			}
		}
	}
}
