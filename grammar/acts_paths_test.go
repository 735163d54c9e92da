package grammar

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/internal/testkit/corpus"
	"github.com/plangram/plangram/lexer"
	"github.com/plangram/plangram/schema"
)

// actsInputs returns every acts input of the repository's corpus: the
// acts golden files first, then every other Markdown input under golden/,
// examples/ and docs/ (any text is an acts document, most of them with
// no act or with act blocks shown in other dialects' blocks), the seeds,
// the fuzz regressions and a generated document.
func actsInputs(t testing.TB) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, pattern := range []string{"../golden/**", "../examples/*", "../docs/*.md", "../docs/**/*.md", "testdata/fuzz/FuzzActs/*"} {
		var files []string
		if strings.HasSuffix(pattern, "**") {
			_ = filepath.WalkDir(strings.TrimSuffix(pattern, "/**"), func(path string, d os.DirEntry, err error) error {
				if err == nil && !d.IsDir() && (strings.HasSuffix(path, ".md") || strings.HasSuffix(path, ".txt")) {
					files = append(files, path)
				}
				return nil
			})
		} else {
			files, _ = filepath.Glob(pattern)
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			out[f] = data
		}
	}
	if len(out) < 34 {
		t.Fatalf("only %d inputs found", len(out))
	}
	out["corpus.Acts(200000)"] = corpus.Acts(200_000)
	return out
}

// actsParsers returns parsers with the built-in schema for the fence
// detected, tilde and backtick.
func actsParsers(t testing.TB) [3]*ActsParser {
	t.Helper()
	s, err := schema.Builtin(DialectActs)
	if err != nil {
		t.Fatal(err)
	}
	var out [3]*ActsParser
	for i, fence := range []byte{0, lexer.Tilde, lexer.Backtick} {
		if out[i], err = NewActsParser(fence, s); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// comparePaths parses src with the hand-written path (Parse) and with the
// participle grammar of record (parseGrammar) and reports any difference
// in the documents they build, diagnostics included.
func comparePaths(t testing.TB, name string, src []byte, p *ActsParser) {
	t.Helper()
	fence := p.fence
	ctx := context.Background()
	fast, err := p.Parse(ctx, name, src)
	if err != nil {
		t.Fatal(err)
	}
	spec, err := p.parseGrammar(ctx, name, src)
	if err != nil {
		t.Fatal(err)
	}
	// The exported parsers escape diagnostic text that is not UTF-8
	// (ast.EscapeDiagnostics); the grammar of record is compared as they
	// give it.
	ast.EscapeDiagnostics(spec.Diagnostics)
	for _, d := range spec.Diagnostics {
		if d.Code == CodeParse {
			t.Fatalf("%s: the grammar failed: %s", name, d.Message)
		}
	}
	if reflect.DeepEqual(fast, spec) {
		return
	}
	fj, _ := ast.JSON(fast)
	sj, _ := ast.JSON(spec)
	if i := firstDiff(fj, sj); i >= 0 {
		t.Fatalf("%s (fence %q): the fast path and the grammar differ at JSON byte %d:\nfast:    %q\ngrammar: %q",
			name, fence, i, excerpt(fj, i), excerpt(sj, i))
	}
	t.Fatalf("%s (fence %q): the fast path and the grammar build different documents with the same JSON", name, fence)
}

func firstDiff(a, b []byte) int {
	for i := 0; i < min(len(a), len(b)); i++ {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}

func excerpt(b []byte, i int) []byte {
	return b[max(0, i-120):min(len(b), i+120)]
}

// TestActsPathsAgree runs the participle grammar (the specification) and
// the hand-written path that Parse runs over every acts input of the
// corpus, with the fence detected and forced to each character, and checks
// that they build the same document: the same nodes, spans and
// diagnostics.
func TestActsPathsAgree(t *testing.T) {
	parsers := actsParsers(t)
	for name, src := range actsInputs(t) {
		for _, p := range parsers {
			comparePaths(t, name, src, p)
		}
	}
	// Edge cases: no trailing newline, CRLF, BOM, empty, blank-only act
	// blocks, a name-less first line (''), unterminated quotes, very long
	// lines, positions at the very end.
	for _, src := range []string{
		"", "\n", "~~~act", "~~~act\n", "~~~act\n~~~", "\uFEFF~~~act\necho hi\n~~~\n",
		"~~~act\r\nwrite_file a\r\n~~~\r\n~~~\r\nx\r\n~~~\r\n",
		"~~~act\n\n  \n~~~\n", "~~~act\n'' x\n~~~\n", "~~~act\necho 'open\n~~~\n",
		"```\nstray\n```\n~~~act\necho\n~~~\n```act\nother\n```\ntail",
		"~~~act\necho " + strings.Repeat("x", 70_000) + "\n~~~\n" + strings.Repeat("y\n", 1000),
		"x\n~~~~act\nrun_command \"a b\" c\\ d\n  more  \n~~~~\n~~~\nunclosed\n",
	} {
		for _, p := range parsers {
			comparePaths(t, "edge.md", []byte(src), p)
		}
	}
}

// TestLineCursor checks the forward cursor against the line index for
// offsets asked in order, out of order and out of range.
func TestLineCursor(t *testing.T) {
	src := "a\nbc\n\n\r\nlast"
	lines := ast.NewLines([]byte(src))
	c := &lineCursor{src: src, line: 1}
	for _, off := range []int{0, 1, 2, 3, 5, 5, 6, 8, 12, 13, 4, 0, 7, 2, -1, 9, 99, 6} {
		if got, want := c.Pos(off), lines.Pos(off); got != want {
			t.Fatalf("Pos(%d) = %+v, want %+v", off, got, want)
		}
	}
	var buf bytes.Buffer
	for i := 0; i < 200; i++ {
		buf.WriteString(strings.Repeat("x", i%7))
		buf.WriteByte('\n')
	}
	src = buf.String()
	lines = ast.NewLines(buf.Bytes())
	c = &lineCursor{src: src, line: 1}
	for i := 0; i <= len(src); i += 3 {
		for _, off := range []int{i, i / 2, i} {
			if got, want := c.Pos(off), lines.Pos(off); got != want {
				t.Fatalf("Pos(%d) = %+v, want %+v", off, got, want)
			}
		}
	}
}

// markerVocab are lines that mix fences on list items' marker lines with
// plain fences, markers and text, for the random documents of
// TestListMarkerDocuments (byte-level fuzzing reaches such lines slowly).
var markerVocab = []string{"1. ```act", "- ```", "  - ~~~act", "* ````md", "10) ~~~", "```", "~~~", "````", "  ```",
	"   ~~~", "- ``` `x`", "-```", "write_file a.py", "echo hi", "text", "", "- item", "1. step", "\t+ ```python", "- - ~~~~"}

// randomDocs returns n documents of up to 12 lines of vocab, from a fixed
// seed.
func randomDocs(n int, vocab []string) [][]byte {
	seed := uint64(7)
	next := func(k int) int {
		seed = seed*6364136223846793005 + 1442695040888963407
		return int((seed >> 33) % uint64(k))
	}
	docs := make([][]byte, n)
	for i := range docs {
		var b strings.Builder
		for j := next(12) + 1; j > 0; j-- {
			b.WriteString(vocab[next(len(vocab))])
			if j > 1 || next(4) > 0 {
				b.WriteByte('\n')
			}
		}
		docs[i] = []byte(b.String())
	}
	return docs
}

// TestListMarkerDocuments checks, on random documents of marker-line
// fences, that both acts paths build the same document and that every
// byte is in exactly one node, in both dialects.
func TestListMarkerDocuments(t *testing.T) {
	parsers := actsParsers(t)
	n := 2000
	if testing.Short() {
		n = 200
	}
	for _, src := range randomDocs(n, markerVocab) {
		for _, p := range parsers {
			comparePaths(t, "marker.md", src, p)
		}
		for _, d := range []string{DialectActs, DialectPlan} {
			doc, err := Parse(context.Background(), "marker.md", src, Options{Dialect: d})
			if err != nil {
				t.Fatal(err)
			}
			if d == DialectPlan {
				checkPlanLossless(t, src, doc)
			} else {
				checkLossless(t, src, doc)
			}
		}
	}
}
