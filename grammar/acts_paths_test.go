package grammar

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
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

// checkActs parses src with p and checks what holds of every acts
// document: the parse reads the whole input (no parse-error), every node's
// span lies inside the input and agrees with its offsets, every byte is in
// exactly one prose node or block, every block's content is the input at
// its content span, and the actions, their blocks and the stray blocks
// come in source order.
func checkActs(t testing.TB, name string, src []byte, p *ActsParser) *ast.Document {
	t.Helper()
	doc, err := p.Parse(context.Background(), name, src)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range doc.Diagnostics {
		if d.Code == CodeParse {
			t.Fatalf("%s: the grammar failed: %s", name, d.Message)
		}
	}
	checkLossless(t, src, doc)
	if doc.Span.Start.Offset != 0 || doc.Span.End.Offset != len(src) {
		t.Fatalf("%s: document span %v for %d bytes", name, doc.Span, len(src))
	}
	at := 0
	ordered := func(what string, s ast.Span) {
		if s.Start.Offset < at {
			t.Fatalf("%s: %s at %v starts before offset %d", name, what, s, at)
		}
		at = s.End.Offset
	}
	for _, a := range doc.Actions {
		ordered("act block", a.Head.Span)
		for _, b := range a.Blocks {
			ordered("argument block", b.Span)
		}
		if a.Span.Start != a.Head.Span.Start || a.Span.End.Offset != at {
			t.Fatalf("%s: action %s spans %v, its blocks %v to %d", name, a.Name, a.Span, a.Head.Span.Start, at)
		}
	}
	at = 0
	for _, b := range doc.Blocks {
		ordered("stray block", b.Span)
	}
	at = 0
	for _, pr := range doc.Prose {
		ordered("prose", pr.Span)
	}
	return doc
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

// TestActsInvariants parses every acts input of the corpus, with the fence
// detected and forced to each character, and edge cases (no trailing
// newline, CRLF, BOM, empty, blank-only act blocks, a name-less first line
// (”), unterminated quotes, very long lines, positions at the very end),
// and checks the invariants of checkActs.
func TestActsInvariants(t *testing.T) {
	parsers := actsParsers(t)
	inputs := actsInputs(t)
	for _, src := range []string{
		"", "\n", "~~~act", "~~~act\n", "~~~act\n~~~", "\uFEFF~~~act\necho hi\n~~~\n",
		"~~~act\r\nwrite_file a\r\n~~~\r\n~~~\r\nx\r\n~~~\r\n",
		"~~~act\n\n  \n~~~\n", "~~~act\n'' x\n~~~\n", "~~~act\necho 'open\n~~~\n",
		"```\nstray\n```\n~~~act\necho\n~~~\n```act\nother\n```\ntail",
		"~~~act\necho " + strings.Repeat("x", 70_000) + "\n~~~\n" + strings.Repeat("y\n", 1000),
		"x\n~~~~act\nrun_command \"a b\" c\\ d\n  more  \n~~~~\n~~~\nunclosed\n",
	} {
		inputs[fmt.Sprintf("edge %q", src[:min(len(src), 40)])] = []byte(src)
	}
	for name, src := range inputs {
		for _, p := range parsers {
			checkActs(t, name, src, p)
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
// fences, the acts invariants (checkActs) and that every byte is in exactly
// one node in the plan dialect too.
func TestListMarkerDocuments(t *testing.T) {
	parsers := actsParsers(t)
	n := 2000
	if testing.Short() {
		n = 200
	}
	for _, src := range randomDocs(n, markerVocab) {
		for _, p := range parsers {
			checkActs(t, "marker.md", src, p)
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

// TestActsConcurrent parses documents from several goroutines at once with
// one ActsParser (and so one participle grammar, which every parser
// shares): each gets the document a parse alone gives. Run with -race, it
// also checks that the shared grammar is only read.
func TestActsConcurrent(t *testing.T) {
	p := actsParsers(t)[0]
	docs := [][]byte{corpus.Acts(20_000), []byte("```\nstray\n```\n~~~act\necho\n~~~\n"), markerSteps(5_000), hiddenQuoted(5_000)}
	want := make([][]byte, len(docs))
	for i, src := range docs {
		want[i] = docJSON(t, checkActs(t, "alone.md", src, p))
	}
	errs := make(chan error, 4*len(docs))
	for g := 0; g < 4; g++ {
		for i, src := range docs {
			go func() {
				doc, err := p.Parse(context.Background(), "alone.md", src)
				if err == nil {
					if got, _ := json.Marshal(doc); !bytes.Equal(got, want[i]) {
						err = fmt.Errorf("document %d parsed concurrently differs from its parse alone", i)
					}
				}
				errs <- err
			}()
		}
	}
	for range 4 * len(docs) {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// docJSON is doc's JSON, for comparing whole documents.
func docJSON(t *testing.T, doc *ast.Document) []byte {
	t.Helper()
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
