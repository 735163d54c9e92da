package workspace

import "testing"

func TestNonPortable(t *testing.T) {
	for _, c := range []struct {
		path string
		bad  bool
	}{
		{"src/a.go", false}, {"CON", true}, {"con", true}, {"docs/Con.md", true}, {"nul.txt", true},
		{"NUL.tar.gz", true}, {"com1", true}, {"LPT9.log", true}, {"com0", true}, {"COM¹", true},
		{"com10", false}, {"console.txt", false}, {"prnt", false}, {"auxiliary/x", false},
		{"a.", true}, {"a /b", true}, {`dir.\x`, true}, {".", false}, {"a/../b", false}, {"./x", false},
		{"a<b", true}, {"a>b", true}, {`a"b`, true}, {"a|b", true}, {"a?b", true}, {"a*b", true},
		{"con .txt", true}, {"...", true}, {".gitignore", false}, {"a..b", false},
	} {
		if got := nonPortable(c.path) != ""; got != c.bad {
			t.Errorf("nonPortable(%q) = %q, want bad=%v", c.path, nonPortable(c.path), c.bad)
		}
	}
}
