package lexers

import (
	"strings"
	"testing"
)

// TestIndexedMatch: the pattern index gives the lexer that trying every
// pattern gives, for names made from every pattern (its `*` and `?`
// replaced, with and without each ignored suffix) and others.
func TestIndexedMatch(t *testing.T) {
	x := newGlobIndex()
	names := []string{"", "a", "a.txt", "x.py", "Makefile", "makefile", "a.b.c", ".env", ".env.local", "Dockerfile.dev",
		"x.tar.gz", "a~", "a.py.bak", "dir/x.go", `a\b.rs`, "PKGBUILD", ".bashrc.orig", "x.in", "CMakeLists.txt.in", "*.py"}
	for i := range defs {
		for _, glob := range append(append([]string{}, defs[i].filenames...), defs[i].aliasFilenames...) {
			for _, fill := range []string{"", "x", "ab.c"} {
				n := strings.NewReplacer("*", fill, "?", "q").Replace(glob)
				names = append(names, n, n+"z", "z"+n)
				for _, suf := range ignoredSuffixes {
					names = append(names, n+suf)
				}
			}
		}
	}
	for _, n := range names {
		if got, want := x.match(n), match(n); got != want {
			t.Errorf("match(%q): index %v, every pattern %v", n, defName(got), defName(want))
		}
	}
}

func defName(d *def) string {
	if d == nil {
		return "none"
	}
	return d.name
}
