package render

import (
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// lexerIndex finds chroma's lexers the way chroma's global registry does
// (lexers.Get for a language name, alias or extension, lexers.Match for a
// file name), without trying every file pattern of every lexer with
// filepath.Match, as chroma's Match does for a file name and its Get for a
// name that is not a lexer's name or alias, once per code block of a page.
// A known name or alias is handed to lexers.Get; a file name is tried
// against the patterns whose literal tail (the text after their last
// wildcard: `.py` of `*.py`, the whole of `Makefile`) ends it, found in a
// map by its suffixes. TestLexerIndexSameAsChroma checks it against
// chroma's registry.
type lexerIndex struct {
	lexers []chroma.Lexer
	names  map[string]bool // every name and alias, as written and lower-cased: the keys of lexers.Get's maps
	kinds  [2]globIndex    // file patterns, alias file patterns
}

// globIndex holds file patterns by their literal tail.
type globIndex struct {
	byTail  map[string][]globRef
	maxTail int
}

type globRef struct {
	lexer int
	glob  string
}

// ignoredSuffixes are chroma's (chroma.LexerRegistry.Match): a file name
// with one of them matches as the name without it.
var ignoredSuffixes = [...]string{
	"~", ".bak", ".old", ".orig",
	".dpkg-dist", ".dpkg-old", ".ucf-dist", ".ucf-new", ".ucf-old",
	".rpmnew", ".rpmorig", ".rpmsave",
	".in",
}

// chromaLexers is the index of chroma's global registry, built the first
// time a page highlights code: the registry itself is built when the
// program starts (chroma's lexers package initialiser).
var chromaLexers = sync.OnceValue(func() *lexerIndex { return newLexerIndex(lexers.GlobalLexerRegistry.Lexers) })

func newLexerIndex(all []chroma.Lexer) *lexerIndex {
	x := &lexerIndex{lexers: all, names: map[string]bool{}}
	for k := range x.kinds {
		x.kinds[k].byTail = map[string][]globRef{}
	}
	for i, lx := range all {
		c := lx.Config()
		for _, n := range append([]string{c.Name}, c.Aliases...) {
			x.names[n], x.names[strings.ToLower(n)] = true, true
		}
		for k, patterns := range [][]string{c.Filenames, c.AliasFilenames} {
			g := &x.kinds[k]
			for _, glob := range patterns {
				tail := glob[strings.LastIndexAny(glob, `*?]\`)+1:]
				g.byTail[tail] = append(g.byTail[tail], globRef{i, glob})
				g.maxTail = max(g.maxTail, len(tail))
			}
		}
	}
	return x
}

// get returns the lexer for a language name, alias or file extension, as
// chroma's lexers.Get finds it, or nil.
func (x *lexerIndex) get(name string) chroma.Lexer {
	if x.names[name] || x.names[strings.ToLower(name)] {
		return lexers.Get(name) // found in chroma's maps, without trying file names
	}
	var candidates chroma.PrioritisedLexers
	for _, f := range []string{"filename." + name, name} {
		if lx := x.match(f); lx != nil {
			candidates = append(candidates, lx)
		}
	}
	return first(candidates)
}

// match returns the lexer for a file name, as chroma's registry finds it
// (the file patterns first, then the alias patterns, the highest priority
// winning), or nil.
func (x *lexerIndex) match(filename string) chroma.Lexer {
	filename = filepath.Base(filename)
	var ids []int
	for k := range x.kinds {
		g := &x.kinds[k]
		ids = ids[:0]
		try := func(name string) {
			for i := max(0, len(name)-g.maxTail); i <= len(name); i++ {
				for _, o := range g.byTail[name[i:]] {
					if ok, err := filepath.Match(o.glob, name); err == nil && ok {
						ids = append(ids, o.lexer)
					}
				}
			}
		}
		try(filename)
		for _, suf := range ignoredSuffixes {
			if strings.HasSuffix(filename, suf) {
				try(filename[:len(filename)-len(suf)])
			}
		}
		slices.Sort(ids) // registry order, as chroma collects its candidates
		candidates := make(chroma.PrioritisedLexers, 0, len(ids))
		for _, i := range slices.Compact(ids) {
			candidates = append(candidates, x.lexers[i])
		}
		if lx := first(candidates); lx != nil {
			return lx
		}
	}
	return nil
}

// first is the candidate chroma picks: the first of the highest priority
// once sorted (chroma's sort of its few candidates keeps their order); nil
// for none.
func first(candidates chroma.PrioritisedLexers) chroma.Lexer {
	if len(candidates) == 0 {
		return nil
	}
	sort.Stable(candidates)
	return candidates[0]
}
