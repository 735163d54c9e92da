package render

import (
	"path"
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// TestLexerIndexSameAsChroma: the index gives the lexer chroma's global
// registry gives (lexers.Get, lexers.Match) for every name, alias and
// chroma knows, case variants, names no lexer has, and extensions and
// file names made from the lexers' file patterns (every pattern with a
// wildcard other than a leading `*`, and one lexer's in eight of the
// others).
func TestLexerIndexSameAsChroma(t *testing.T) {
	x := chromaLexers()
	keys := lexers.Names(true)
	var files []string
	for i, lx := range lexers.GlobalLexerRegistry.Lexers {
		c := lx.Config()
		keys = append(keys, strings.ToUpper(c.Name))
		for _, glob := range append(append([]string{}, c.Filenames...), c.AliasFilenames...) {
			if !strings.ContainsAny(strings.TrimPrefix(glob, "*"), "*?[") && i%8 != 0 {
				continue // chroma's Match tries every pattern (slow): a sample of these
			}
			if ext, ok := strings.CutPrefix(glob, "*."); ok {
				keys = append(keys, ext)
			}
			base := strings.NewReplacer("*", "x", "?", "x", "[", "", "]", "").Replace(glob)
			files = append(files, path.Join("dir", base), base+".orig")
		}
	}
	keys = append(keys, "h", "H", "cc", "sh", "patch", "nosuch", "python.old", "")
	files = append(files, "", "a", "Makefile", ".env.local", "Dockerfile.dev", "x.tar.gz", "a~", "CMakeLists.txt.in", "noext")
	for _, key := range keys {
		if got, want := x.get(key), lexers.Get(key); got != want {
			t.Errorf("get(%q) = %s, chroma gives %s", key, lexerName(got), lexerName(want))
		}
	}
	for _, f := range files {
		if got, want := x.match(f), lexers.Match(f); got != want {
			t.Errorf("match(%q) = %s, chroma gives %s", f, lexerName(got), lexerName(want))
		}
	}
}

func lexerName(lx chroma.Lexer) string {
	if lx == nil {
		return "none"
	}
	return lx.Config().Name
}
