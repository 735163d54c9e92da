package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/internal/testkit/corpus"
	"github.com/plangram/plangram/lint"
)

// TestParseStreamedSameAsWhole pins parseStreamed, which writes a
// document's JSON while the parser hands its actions over, to writeDoc on
// the whole document: byte for byte, indented and compact, over every
// Markdown file of golden/, examples/ and docs/, the corpus, and inputs
// that are not plain UTF-8 text (invalid UTF-8 in blocks and prose, CR
// line endings, UTF-16, binary, empty).
func TestParseStreamedSameAsWhole(t *testing.T) {
	var files []string
	for _, dir := range []string{"../../golden", "../../examples", "../../docs"} {
		_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
				files = append(files, p)
			}
			return nil
		})
	}
	inputs := map[string][]byte{
		"corpus-acts":  corpus.Acts(200_000),
		"corpus-small": corpus.SmallActs(100_000),
		"invalid-utf8": []byte("pro\xffse\n~~~act\nwrite_file a\xfe.txt\n~~~\n~~~\nbad \xc3 byte\n~~~\n"),
		"cr-only":      []byte("~~~act\rwrite_file a\r~~~\r~~~\rx\r~~~\r"),
		"utf16":        append([]byte{0xff, 0xfe}, []byte("~\x00~\x00~\x00a\x00c\x00t\x00\n\x00")...),
		"binary":       {0, 1, 2, 3, 0, 0, 0xff},
		"empty":        {},
		"stray-first":  []byte("~~~\nstray\n~~~\n~~~act\nrun_command ls\n~~~\n"),
		"corpus-plan":  corpus.Plan(200_000),
		"plan-invalid-utf8": []byte("# T\xff\n\n- **Status:** Green\n\n## Rationale\n```text\nr\xfe\n```\n\n## Action Plan\n\n" +
			"### `CREATE`\n- **File Path:** a\xfe.py\n```python\nx \xc3\n```\n\nstray \xff prose\n"),
		// Directive comments: one silences the next act, one inside an
		// argument block is content and silences nothing (the blocks'
		// spans are collected as the actions go by).
		"directives-acts": []byte("<!-- plangram-disable-next-line unknown-action -->\n~~~act\nfoo\n~~~\n\n~~~act\nbar\n~~~\n~~~\n<!-- plangram-disable -->\n~~~\n\n~~~act\nbaz\n~~~\n"),
		"directives-plan": []byte("# T\n\n- **Status:** Green\n\n## Rationale\n```text\nr\n```\n\n## Action Plan\n\n<!-- plangram-disable-next-line unknown-action -->\n### `FOO`\n\n" +
			"### `CREATE`\n- **File Path:** a.py\n```python\n<!-- plangram-disable -->\n```\n\n### `BAR`\n"),
		// A plan's head (rationale, memos) after its actions, and an
		// action outside its Action Plan: the first parse finds them.
		"plan-late-head": []byte("# T\n\n- **Status:** Green\n\n## Action Plan\n\n### `READ`\n- **Resource:** a.md\n\n" +
			"## Rationale\n```text\nlate\n```\n\n## Memos\n```text\n[+] a fact\n```\n\n### `READ`\n- **Resource:** b.md\n"),
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs[f] = src
	}
	streamed, dialects := 0, map[string]int{}
	for name, src := range inputs {
		for _, compact := range []bool{false, true} {
			opts := grammar.Options{}
			dialect, ok := streamable(src, opts)
			if !ok {
				continue
			}
			streamed++
			dialects[dialect]++
			doc, err := grammar.Parse(context.Background(), name, src, opts)
			if err != nil {
				t.Fatal(err)
			}
			doc.Diagnostics = lint.Suppress(doc, src, doc.Diagnostics, nil)
			var want, got bytes.Buffer
			if err := writeDoc(&env{stdout: &want}, name, doc, "json", false, compact); err != nil {
				t.Fatal(err)
			}
			lean, err := parseStreamed(context.Background(), &env{stdout: &got}, name, src, dialect, opts, nil, compact)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Errorf("%s (compact %v): streamed JSON differs from the whole document's:\n got %.300s\nwant %.300s", name, compact, got.Bytes(), want.Bytes())
			}
			if len(lean.Actions) != 0 {
				t.Errorf("%s: parseStreamed kept %d actions", name, len(lean.Actions))
			}
			a, _ := ast.JSON(&ast.Document{Diagnostics: lean.Diagnostics})
			b, _ := ast.JSON(&ast.Document{Diagnostics: doc.Diagnostics})
			if !bytes.Equal(a, b) {
				t.Errorf("%s: diagnostics differ", name)
			}
		}
	}
	if streamed < 40 {
		t.Errorf("only %d inputs were streamed", streamed)
	}
	for _, d := range []string{grammar.DialectActs, grammar.DialectPlan, grammar.DialectSearchReplace, grammar.DialectUdiff, grammar.DialectApplyPatch} {
		if dialects[d] == 0 {
			t.Errorf("no %s input was streamed (%v)", d, dialects)
		}
	}
}

// TestParseNDJSONStreamed pins `plangram parse DIR`, which streams each
// file's document into its NDJSON line, to the line writeDoc writes for
// the whole document: {"file", "document"} with the document compact and
// the line's closing brace after it (lineWriter holds the document's
// newline back), for every dialect, a file with directive comments and
// one that is not text.
func TestParseNDJSONStreamed(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a_acts.md":  "~~~act\nwrite_file a.txt\n~~~\n~~~\nhi\n~~~\n",
		"b_plan.md":  string(corpus.Plan(4_000)),
		"c_dir.md":   "<!-- plangram-disable-next-line unknown-action -->\n~~~act\nfoo\n~~~\n\n~~~act\nbar\n~~~\n",
		"d_sr.md":    "a.py\n```python\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n```\n",
		"e_bin.md":   "\x00\x01\x02",
		"f_empty.md": "",
	}
	var names []string
	for name, body := range files {
		writeTemp(t, dir, name, body, 0o644)
		names = append(names, name)
	}
	sort.Strings(names)
	var want bytes.Buffer
	for _, name := range names {
		path := filepath.Join(dir, name)
		src := []byte(files[name])
		doc, err := grammar.Parse(context.Background(), path, src, grammar.Options{})
		if err != nil {
			t.Fatal(err)
		}
		doc.Diagnostics = lint.Suppress(doc, src, doc.Diagnostics, nil)
		if err := writeDoc(&env{stdout: &want}, path, doc, "json", true, false); err != nil {
			t.Fatal(err)
		}
	}
	_, got, _ := runCLI(t, "", "parse", dir)
	if got != want.String() {
		t.Errorf("parse DIR:\n got %.400s\nwant %.400s", got, want.String())
	}
	if n := strings.Count(got, "\n"); n != len(names) {
		t.Errorf("%d lines for %d files", n, len(names))
	}
}
