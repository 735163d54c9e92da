package format

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/internal/corpus"
)

var actsOpts = grammar.Options{Dialect: grammar.DialectActs}

func parse(t testing.TB, src []byte, opts grammar.Options) *ast.Document {
	t.Helper()
	doc, err := grammar.Parse(context.Background(), "in.md", src, opts)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// meaning is what fmt must keep: actions with their inline arguments,
// parameters and blocks, and the stray blocks.
func meaning(t testing.TB, doc *ast.Document) string {
	t.Helper()
	type block struct {
		Info     string `json:"info"`
		Content  string `json:"content"`
		Unclosed bool   `json:"unclosed,omitempty"`
	}
	type action struct {
		Name         string     `json:"name"`
		Args         []string   `json:"args"`
		Params       ast.Params `json:"params"`
		Blocks       []block    `json:"blocks"`
		HeadUnclosed bool       `json:"head_unclosed,omitempty"`
	}
	var m struct {
		Actions []action `json:"actions"`
		Stray   []block  `json:"stray"`
		Codes   []string `json:"codes"`
	}
	blocks := func(bs []*ast.Block) []block {
		var out []block
		for _, b := range bs {
			out = append(out, block{b.Info, b.Content, b.Unclosed})
		}
		return out
	}
	for _, a := range doc.Actions {
		m.Actions = append(m.Actions, action{a.Name, a.Args, a.Params, blocks(a.Blocks), a.Head != nil && a.Head.Unclosed})
	}
	m.Stray = blocks(doc.Blocks)
	for _, d := range doc.Diagnostics {
		// fmt quotes act lines canonically, so an unterminated quote (whose
		// reading is well defined) is no longer reported after formatting.
		if d.Code != "unterminated-quote" {
			m.Codes = append(m.Codes, d.Code)
		}
	}
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// checkRoundTrip checks fmt's properties on src and returns fmt(src):
// parse(fmt(x)) means what parse(x) means, and fmt(fmt(x)) == fmt(x).
func checkRoundTrip(t testing.TB, src []byte, opts grammar.Options) []byte {
	t.Helper()
	doc := parse(t, src, opts)
	out, err := Document(doc, src)
	if err != nil {
		t.Fatal(err)
	}
	doc2 := parse(t, out, opts)
	if got, want := meaning(t, doc2), meaning(t, doc); got != want {
		t.Fatalf("fmt changed the meaning\ninput:  %q\noutput: %q\nwant %s\ngot  %s", src, out, want, got)
	}
	again, err := Document(doc2, out)
	if err != nil {
		t.Fatal(err)
	}
	if string(again) != string(out) {
		t.Fatalf("fmt is not idempotent\ninput:  %q\nfmt:    %q\nfmt^2:  %q", src, out, again)
	}
	return out
}

func TestGolden(t *testing.T) {
	files, err := filepath.Glob("../golden/fmt/*.md")
	if err != nil || len(files) == 0 {
		t.Fatalf("no inputs: %v", err)
	}
	g := goldie.New(t, goldie.WithFixtureDir("../golden/fmt"), goldie.WithNameSuffix(".golden"))
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".md")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			g.Assert(t, name, checkRoundTrip(t, src, actsOpts))
		})
	}
}

func TestRoundTripCorpus(t *testing.T) {
	var files []string
	for _, pat := range []string{"../golden/acts/*.md", "../golden/fmt/*.md", "../examples/*.md", "../docs/*.md"} {
		m, _ := filepath.Glob(pat)
		files = append(files, m...)
	}
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		checkRoundTrip(t, src, actsOpts)
		checkRoundTrip(t, src, grammar.Options{Dialect: grammar.DialectActs, Fence: '`'})
		checkRoundTrip(t, src, grammar.Options{Dialect: grammar.DialectActs, Fence: '~'})
	}
	checkRoundTrip(t, corpus.Acts(200_000), actsOpts)
}

func TestEdgeCases(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"empty", "", ""},
		{"blank", "\n \n\t\n", ""},
		{"prose only", "\n\nhello  \nworld", "hello  \nworld\n"},
		{"closing fence at EOF", "~~~act\necho hi\n~~~", "~~~act\necho hi\n~~~\n"},
		{"empty block", "```act\necho\n```\n```\n```\n", "```act\necho\n```\n```\n```\n"},
		{"one empty line is empty content", "```act\necho\n```\n```\n\n```\n", "```act\necho\n```\n```\n```\n"},
		{"two empty lines", "```act\necho\n```\n```\n\n\n```\n", "```act\necho\n```\n```\n\n\n```\n"},
		{"unclosed at EOF without newline", "```act\necho\n```\n``` py", "```act\necho\n```\n```py\n"},
		{"unclosed keeps trailing blank lines", "```act\necho\n```\n````\nx\n\n\n", "```act\necho\n```\n```\nx\n\n\n"},
		{"unclosed act keeps its bytes", "~~~~act\n  write_file\n\ta.py  \n", "~~~act\n  write_file\n\ta.py  \n"},
		{"fence grows over content", "~~~~~act\necho\n~~~~~\n~~~~~\n~~~\n ~~~~ x\n~~~~~\n", "~~~act\necho\n~~~\n~~~~~\n~~~\n ~~~~ x\n~~~~~\n"},
		{"bom", "\uFEFF~~~act\nend\n~~~\n", "\uFEFF~~~act\nend\n~~~\n"},
		{"lone CR at end of content", "~~~act\necho\n~~~\n~~~\nx\r\r\n~~~\n", "~~~act\necho\n~~~\n~~~\nx\r\r\n~~~\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := checkRoundTrip(t, []byte(tc.in), actsOpts)
			if string(got) != tc.want {
				t.Errorf("fmt(%q)\n got %q\nwant %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestQuote(t *testing.T) {
	words := []string{"", "a", "src/a.go", "it's", "two words", "tab\there", `back\slash`, `"dq"`, "cr\r", "$HOME", "~~~", "'", "''", "é/ü.txt", "#x", "a;b"}
	var line strings.Builder
	line.WriteString("~~~act\nname")
	for _, w := range words {
		line.WriteString(" " + Quote(w))
	}
	line.WriteString("\n~~~\n")
	doc := parse(t, []byte(line.String()), actsOpts)
	if len(doc.Actions) != 1 {
		t.Fatalf("%d actions", len(doc.Actions))
	}
	got := doc.Actions[0].Args
	if strings.Join(got, "\x00") != strings.Join(words, "\x00") {
		t.Errorf("args %q\nwant %q", got, words)
	}
	if Quote("src/a.go") != "src/a.go" || Quote("it's") != `'it'\''s'` {
		t.Errorf("quoting: %s %s", Quote("src/a.go"), Quote("it's"))
	}
}

func TestUnsupportedDialect(t *testing.T) {
	_, err := Document(&ast.Document{Dialect: "klingon"}, nil)
	if err == nil || !strings.Contains(err.Error(), "klingon") {
		t.Fatalf("err = %v", err)
	}
	if _, err := Document(nil, nil); err == nil {
		t.Fatal("nil document accepted")
	}
}

func FuzzFmt(f *testing.F) {
	for _, pat := range []string{"../golden/acts/*.md", "../golden/fmt/*.md", "../examples/*.md"} {
		files, _ := filepath.Glob(pat)
		for _, file := range files {
			if data, err := os.ReadFile(file); err == nil {
				f.Add(data, uint8(0))
			}
		}
	}
	f.Add([]byte("~~~act\necho\n~~~\n~~~\nx\r\r\n~~~\n"), uint8(2))
	f.Fuzz(func(t *testing.T, src []byte, fence uint8) {
		opts := actsOpts
		switch fence % 3 {
		case 1:
			opts.Fence = '`'
		case 2:
			opts.Fence = '~'
		}
		checkRoundTrip(t, src, opts)
	})
}
