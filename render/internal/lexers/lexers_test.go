package lexers

import (
	"path"
	"sort"
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
	chromalexers "github.com/alecthomas/chroma/v2/lexers"
)

// samples are texts each lexer tokenises in TestSameAsChroma: a little of
// every language, plus text no lexer expects.
var samples = []string{
	"package main\n\nimport \"fmt\"\n\nfunc main() {\n\tx := `raw {{.X}}`\n\tfmt.Println(\"hi\", 42, x) // note\n}\n",
	"def f(x: int) -> str:\n    \"\"\"Doc.\"\"\"\n    return f'{x!r}' + 'a' # c\n\n@decorator\nclass A(B): pass\n",
	"const a = {b: [1, 2.5, 'c', `t${x}`]}; // c\nfunction f(x: number): string { return x > 1 ? \"y\" : null }\n",
	"{\"a\": [1, true, null, \"s\\u00e9\"], \"b\": {\"c\": -1.5e3}}\n",
	"key: value\nlist:\n  - a\n  - 'b'\nn: 1 # c\n---\nother: |\n  text\n",
	"#!/bin/sh\nset -eu\nfor f in *.go; do echo \"$f\" | grep -q x && rm -rf \"$HOME/x\"; done\n$ ls -la\n",
	"--- a/x.go\n+++ b/x.go\n@@ -1,2 +1,2 @@\n-old\n+new\n ctx\n",
	"# Title\n\nSome *text* and `code`.\n\n```go\nfunc f() {}\n```\n\n- [x] done\n",
	"<!doctype html><html><head><style>p { color: red; }</style><script>var x = 1 < 2;</script></head><body class=\"a\">&amp;</body></html>\n",
	"#include <stdio.h>\nint main(void) { printf(\"%d\\n\", 1 << 2); return 0; } /* c */\ntemplate<class T> struct S : B<T> {};\n",
	"fn main() -> Result<(), Box<dyn Error>> { let s: &str = \"x\"; println!(\"{s}\"); Ok(()) }\n",
	"public class A extends B { @Override public static void main(String[] a) { int x = 0x1F; } }\n",
	"SELECT a, COUNT(*) FROM t WHERE b = 'x' AND c > 1 GROUP BY a; -- c\nCREATE TABLE t (id INTEGER PRIMARY KEY);\n",
	"[package]\nname = \"x\"\nversion = 1\n[[bin]]\npath = 'a' # c\n",
	"FROM golang:1.26 AS build\nRUN go build -o /x ./... && echo done\nCMD [\"/x\"]\n",
	"all: x\n\tgo build ./...\n\n.PHONY: all\n",
	"plain words, no code at all \u00e9\u6f22 \r\n\ttabs\n",
	"",
}

// TestSameAsChroma checks that every lexer in the set is chroma's own:
// looked up by any name, alias or extension chroma knows and by each of its
// file patterns, the set gives the lexer chroma's global registry gives
// (when that one is in the set), and each lexer tokenises every sample
// exactly as chroma's does.
func TestSameAsChroma(t *testing.T) {
	var s Set
	inSet := map[string]bool{}
	for _, n := range Languages() {
		inSet[n] = true
	}
	keys := chromalexers.Names(true)
	for _, d := range defs {
		keys = append(keys, d.name, strings.ToLower(d.name), strings.ToUpper(d.name))
		keys = append(keys, d.aliases...)
		for _, glob := range d.filenames {
			if ext := strings.TrimPrefix(glob, "*."); ext != glob && !strings.ContainsAny(ext, "*?[") {
				keys = append(keys, ext)
			}
		}
	}
	keys = append(keys, "h", "hcl", "H", "cc", "sh", "shell", "console", "patch", "nosuch", "")
	for _, key := range keys {
		want := chromalexers.Get(key)
		if want != nil && !inSet[want.Config().Name] {
			continue
		}
		got, err := s.Get(key)
		if err != nil {
			t.Fatal(err)
		}
		if name(got) != name(want) {
			t.Errorf("Get(%q) = %s, chroma gives %s", key, name(got), name(want))
		}
	}
	for _, d := range defs {
		for _, glob := range append(append([]string{}, d.filenames...), d.aliasFilenames...) {
			base := strings.NewReplacer("*", "x", "?", "x", "[", "", "]", "").Replace(glob)
			for _, file := range []string{path.Join("dir", base), base + ".orig"} {
				want := chromalexers.Match(file)
				if want != nil && !inSet[want.Config().Name] {
					continue
				}
				got, err := s.Match(file)
				if err != nil {
					t.Fatal(err)
				}
				if name(got) != name(want) {
					t.Errorf("Match(%q) = %s, chroma gives %s", file, name(got), name(want))
				}
			}
		}
	}
	for _, d := range defs {
		lx, err := s.Get(d.name)
		if err != nil {
			t.Fatal(err)
		}
		want := chromalexers.Get(d.name)
		if name(lx) != d.name || name(want) != d.name {
			t.Errorf("Get(%q) = %s, chroma gives %s", d.name, name(lx), name(want))
			continue
		}
		for _, sample := range samples {
			// chroma gives each rule's regular expression a 250 ms wall-clock
			// match timeout, so on a loaded machine one tokenisation can
			// differ by chance; a real difference shows in every attempt.
			g, w := tokens(t, lx, sample), tokens(t, want, sample)
			for try := 0; g != w && try < 2; try++ {
				g, w = tokens(t, lx, sample), tokens(t, want, sample)
			}
			if g != w {
				t.Errorf("%s tokenises %q as\n%s\nchroma as\n%s", d.name, sample, g, w)
			}
		}
	}
}

// TestLoadsOnDemand checks that a Set builds only the lexer asked for and
// those its rules use.
func TestLoadsOnDemand(t *testing.T) {
	for _, c := range []struct {
		key  string
		want []string
	}{
		{"py", []string{"Python"}},
		{"html", []string{"HTML", "CSS", "JavaScript"}},
		{"dockerfile", []string{"Docker", "Bash", "JSON"}},
		{"go", []string{"Go", "Go Text Template"}},
		{"nosuch", nil},
	} {
		var s Set
		if _, err := s.Get(c.key); err != nil {
			t.Fatal(err)
		}
		var got []string
		for n := range s.built {
			got = append(got, n)
		}
		sort.Strings(got)
		sort.Strings(c.want)
		if strings.Join(got, ",") != strings.Join(c.want, ",") {
			t.Errorf("Get(%q) built %v, want %v", c.key, got, c.want)
		}
	}
	var s Set
	if _, err := s.Get("markdown"); err != nil {
		t.Fatal(err)
	}
	if len(s.built) != len(defs) {
		t.Errorf("markdown built %d lexers, want all %d (its fenced code may be any)", len(s.built), len(defs))
	}
}

func name(lx chroma.Lexer) string {
	if lx == nil {
		return "nil"
	}
	return lx.Config().Name
}

func tokens(t *testing.T, lx chroma.Lexer, s string) string {
	t.Helper()
	it, err := lx.Tokenise(&chroma.TokeniseOptions{State: "root"}, s)
	if err != nil {
		return "error: " + err.Error()
	}
	var b strings.Builder
	for tok := it(); tok != chroma.EOF; tok = it() {
		b.WriteString(tok.Type.String() + " " + tok.Value + "\n")
	}
	return b.String()
}

// TestLanguagesCovered pins the languages render promises in
// docs/render.md, looked up as render looks them up.
func TestLanguagesCovered(t *testing.T) {
	var s Set
	for key, want := range map[string]string{
		"go": "Go", "golang": "Go", "python": "Python", "py": "Python", "python3": "Python",
		"js": "JavaScript", "javascript": "JavaScript", "ts": "TypeScript", "tsx": "TypeScript",
		"jsx": "react", "json": "JSON", "yaml": "YAML", "yml": "YAML", "sh": "Bash",
		"bash": "Bash", "shell": "Bash", "zsh": "Bash", "console": "Bash Session",
		"diff": "Diff", "patch": "Diff", "markdown": "markdown", "md": "markdown",
		"html": "HTML", "css": "CSS", "c": "C", "h": "C", "cpp": "C++", "c++": "C++",
		"rust": "Rust", "rs": "Rust", "java": "Java", "sql": "SQL", "toml": "TOML",
		"dockerfile": "Docker", "Dockerfile": "Docker", "makefile": "Makefile",
	} {
		got, err := s.Get(key)
		if err != nil {
			t.Fatal(err)
		}
		if name(got) != want {
			t.Errorf("Get(%q) = %s, want %s", key, name(got), want)
		}
	}
}

// BenchmarkGet is the cost of the first highlighted block of a page.
func BenchmarkGet(b *testing.B) {
	for _, key := range []string{"python", "html", "markdown"} {
		b.Run(key, func(b *testing.B) {
			for b.Loop() {
				var s Set
				if _, err := s.Get(key); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
