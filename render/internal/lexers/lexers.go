// Package lexers holds the syntax highlighters render uses: a fixed set of
// chroma lexers for the languages a plan realistically contains, each built
// the first time a page needs it rather than at program start.
//
// chroma's own lexers package registers all of its ~300 lexers in a
// package initialiser, which every plangram command paid for (about 19 ms
// of CPU and 2.7 MB of heap) although only render highlights code. This
// package holds copies of the definitions it needs instead: chroma's XML
// files, and the two lexers chroma writes in Go (Go and Markdown), all
// from chroma v2.27.0 (MIT licence, see COPYING). Nothing is built at
// package initialisation: a Set looks a language up in a generated table
// of the lexers' names, aliases and file patterns (table.go), and parses
// only the definition it finds, plus those whose rules it embeds.
//
// Lookups follow chroma's registry exactly (TestSameAsChroma): a language
// gets the lexer chroma's global registry would give it, when that lexer
// is in the set. A language outside the set has no lexer.
package lexers

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/alecthomas/chroma/v2"
)

// def describes one lexer of the set: the configuration lookups need,
// without building the lexer.
type def struct {
	file           string // definition under xml/; "" for a lexer written in Go
	rename         bool   // file's own name and patterns are replaced by this entry's (as chroma does for Go Text Template)
	name           string
	aliases        []string
	filenames      []string
	aliasFilenames []string
	priority       float32
	uses           []string // lexers its rules look up by name ("*": any, for Markdown's fenced code)
}

// Set builds the lexers of the set on demand and keeps them, in a chroma
// registry of its own, for the lexers that look others up. The zero value
// is ready to use. A Set is not safe for concurrent use.
type Set struct {
	reg   *chroma.LexerRegistry
	built map[string]chroma.Lexer // by def name
	idx   *globIndex              // built on the first file name looked up
}

// index returns the Set's index of the file patterns.
func (s *Set) index() *globIndex {
	if s.idx == nil {
		s.idx = newGlobIndex()
	}
	return s.idx
}

// Get returns the lexer for a language name, alias or file extension, as
// chroma's lexers.Get finds it, or nil when the set has none.
func (s *Set) Get(name string) (chroma.Lexer, error) {
	d := lookup(name, s.index().match)
	if d == nil {
		return nil, nil
	}
	return s.load(d)
}

// Match returns the lexer for a file name, as chroma's lexers.Match finds
// it, or nil when the set has none.
func (s *Set) Match(filename string) (chroma.Lexer, error) {
	d := s.index().match(filename)
	if d == nil {
		return nil, nil
	}
	return s.load(d)
}

// Languages returns the names of the lexers in the set, in table order.
func Languages() []string {
	names := make([]string, len(defs))
	for i := range defs {
		names[i] = defs[i].name
	}
	return names
}

// load builds d (and the lexers its rules look up) once per Set.
func (s *Set) load(d *def) (chroma.Lexer, error) {
	if lx := s.built[d.name]; lx != nil {
		return lx, nil
	}
	if s.reg == nil {
		s.reg = chroma.NewLexerRegistry()
		s.built = map[string]chroma.Lexer{}
	}
	lx, err := s.build(d)
	if err != nil {
		return nil, fmt.Errorf("lexers: %s: %w", d.name, err)
	}
	// Registered before its dependencies are loaded, so that lexers that
	// refer to each other load once.
	s.built[d.name] = lx
	s.reg.Register(lx)
	for _, u := range d.uses {
		if u == "*" {
			for i := range defs {
				if _, err := s.load(&defs[i]); err != nil {
					return nil, err
				}
			}
			continue
		}
		if ud := lookup(u, s.index().match); ud != nil {
			if _, err := s.load(ud); err != nil {
				return nil, err
			}
		}
	}
	return lx, nil
}

// build makes the lexer d describes.
func (s *Set) build(d *def) (chroma.Lexer, error) {
	switch {
	case d.name == "Go":
		tmpl, err := s.load(lookup("Go Text Template", s.index().match))
		if err != nil {
			return nil, err
		}
		return newGo(tmpl)
	case d.name == "markdown":
		return newMarkdown(s.reg)
	case d.file == "":
		return nil, fmt.Errorf("no definition")
	}
	lx, err := chroma.NewXMLLexer(definitions, "xml/"+d.file)
	if err != nil {
		return nil, err
	}
	if d.rename {
		lx.SetConfig(&chroma.Config{Name: d.name, Aliases: d.aliases})
	}
	return lx, nil
}

// lookup finds a lexer by name, alias or file extension the way chroma's
// LexerRegistry.Get does over the same lexers registered in table order
// (a later registration of a name or alias wins).
func lookup(name string, match func(string) *def) *def {
	lower := strings.ToLower(name)
	byName := func(key string) *def {
		for i := len(defs) - 1; i >= 0; i-- {
			if defs[i].name == key || strings.ToLower(defs[i].name) == key {
				return &defs[i]
			}
		}
		return nil
	}
	byAlias := func(key string) *def {
		for i := len(defs) - 1; i >= 0; i-- {
			for _, a := range defs[i].aliases {
				if a == key || strings.ToLower(a) == key {
					return &defs[i]
				}
			}
		}
		return nil
	}
	for _, d := range []*def{byName(name), byAlias(name), byName(lower), byAlias(lower)} {
		if d != nil {
			return d
		}
	}
	var candidates []*def
	if d := match("filename." + name); d != nil {
		candidates = append(candidates, d)
	}
	if d := match(name); d != nil {
		candidates = append(candidates, d)
	}
	return best(candidates)
}

// ignoredSuffixes are chroma's: a file name with one of them matches as
// the name without it.
var ignoredSuffixes = [...]string{
	"~", ".bak", ".old", ".orig",
	".dpkg-dist", ".dpkg-old", ".ucf-dist", ".ucf-new", ".ucf-old",
	".rpmnew", ".rpmorig", ".rpmsave",
	".in",
}

// match finds a lexer by file name the way chroma's LexerRegistry.Match
// does: the file patterns first, then the alias patterns, the highest
// priority winning. It tries every pattern (with every ignored suffix):
// the reference globIndex.match is checked against (TestIndexedMatch).
func match(filename string) *def {
	filename = filepath.Base(filename)
	for _, patterns := range []func(*def) []string{
		func(d *def) []string { return d.filenames },
		func(d *def) []string { return d.aliasFilenames },
	} {
		var matched []*def
		for i := range defs {
			for _, glob := range patterns(&defs[i]) {
				if globMatch(glob, filename) {
					matched = append(matched, &defs[i])
					continue
				}
				for _, suf := range ignoredSuffixes {
					if globMatch(glob+suf, filename) {
						matched = append(matched, &defs[i])
						break
					}
				}
			}
		}
		if d := best(matched); d != nil {
			return d
		}
	}
	return nil
}

func globMatch(glob, name string) bool {
	ok, err := filepath.Match(glob, name)
	return err == nil && ok
}

// best is the first of the highest priority (chroma counts 0 as 1), as
// chroma's sort of its few candidates leaves them.
func best(ds []*def) *def {
	prio := func(d *def) float32 {
		if d.priority == 0 {
			return 1
		}
		return d.priority
	}
	slices.SortStableFunc(ds, func(a, b *def) int {
		switch pa, pb := prio(a), prio(b); {
		case pa > pb:
			return -1
		case pa < pb:
			return 1
		}
		return 0
	})
	if len(ds) == 0 {
		return nil
	}
	return ds[0]
}

// globIndex finds the patterns a file name matches without trying each
// of them: match tried every pattern of every lexer (hundreds of
// filepath.Match calls, 0.7 ms a file name), once per code block of a
// page. Patterns that are a literal name or `*` and a literal (`*.py`) are
// looked up in maps; the few others (`.env.*`, `Dockerfile.*`) are tried.
type globIndex struct {
	kinds [2]globKind // file patterns, alias patterns
}

type globKind struct {
	exact     map[string][]int // a literal pattern → the defs that have it
	suffix    map[string][]int // `*` + literal → the defs, by the literal
	maxSuffix int
	other     []globRef
}

type globRef struct {
	def  int
	glob string
}

func newGlobIndex() *globIndex {
	x := &globIndex{}
	for k, patterns := range []func(*def) []string{
		func(d *def) []string { return d.filenames },
		func(d *def) []string { return d.aliasFilenames },
	} {
		g := &x.kinds[k]
		g.exact, g.suffix = map[string][]int{}, map[string][]int{}
		for i := range defs {
			for _, glob := range patterns(&defs[i]) {
				switch rest, star := strings.CutPrefix(glob, "*"); {
				case !strings.ContainsAny(glob, `*?[\`):
					g.exact[glob] = append(g.exact[glob], i)
				case star && !strings.ContainsAny(rest, `*?[\/`):
					g.suffix[rest] = append(g.suffix[rest], i)
					g.maxSuffix = max(g.maxSuffix, len(rest))
				default:
					g.other = append(g.other, globRef{i, glob})
				}
			}
		}
	}
	return x
}

// match is the package's match, from the index.
func (x *globIndex) match(filename string) *def {
	filename = filepath.Base(filename)
	var ids []int
	for k := range x.kinds {
		g := &x.kinds[k]
		ids = ids[:0]
		try := func(name string) {
			ids = append(ids, g.exact[name]...)
			for i := max(0, len(name)-g.maxSuffix); i <= len(name); i++ {
				ids = append(ids, g.suffix[name[i:]]...)
			}
			for _, o := range g.other {
				if globMatch(o.glob, name) {
					ids = append(ids, o.def)
				}
			}
		}
		try(filename)
		for _, suf := range ignoredSuffixes {
			if strings.HasSuffix(filename, suf) {
				try(filename[:len(filename)-len(suf)])
			}
		}
		slices.Sort(ids)
		ids = slices.Compact(ids)
		matched := make([]*def, len(ids))
		for j, i := range ids {
			matched[j] = &defs[i]
		}
		if d := best(matched); d != nil {
			return d
		}
	}
	return nil
}
