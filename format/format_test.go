package format

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/plangram/plangram/stream"
	"github.com/sebdah/goldie/v2"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/internal/testkit/corpus"
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
		switch d.Code {
		case "unterminated-quote":
		case "fence-trailing-text":
			// Likewise a line of a block's run with text after it is
			// plain content of the longer fences fmt writes (docs/acts.md).
		case "improperly-nested-fence":
			// fmt makes every fence longer than the runs inside its
			// block, so a block closed by a nested block's fence is no
			// longer one after formatting: its blocks stay the same, and
			// the diagnostics collapsed into the error's follow-on notes
			// are reported on their own (docs/acts.md).
			for _, r := range d.Related {
				if msg, ok := strings.CutPrefix(r.Message, "follow-on: "); ok && strings.HasSuffix(msg, "]") {
					// A follow-on nested-fence error (an act block taken
					// into a stray block) goes the same way as the error.
					// So do the follow-ons fmt's canonical form drops on
					// their own (an unterminated quote, a run with text).
					if i := strings.LastIndex(msg, " ["); i >= 0 {
						switch code := msg[i+2 : len(msg)-1]; code {
						case "improperly-nested-fence", "unterminated-quote", "fence-trailing-text":
						default:
							m.Codes = append(m.Codes, code)
						}
					}
				}
			}
		default:
			m.Codes = append(m.Codes, d.Code)
		}
	}
	// Diagnostics are ordered by position, which fmt moves: two at the
	// same offset after formatting may swap. The set of codes is the meaning.
	sort.Strings(m.Codes)
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// planMeaning is what formatting a plan must keep, as comparable text
// (writePlanMeaning; fmt compares its digest, planDigest), for tests that
// show a difference.
func planMeaning(doc *ast.Document) (string, error) {
	var b strings.Builder
	err := writePlanMeaning(&b, doc)
	return b.String(), err
}

// checkRoundTrip checks fmt's properties on src and returns fmt(src):
// parse(fmt(x)) means what parse(x) means, and fmt(fmt(x)) == fmt(x).
func checkRoundTrip(t testing.TB, src []byte, opts grammar.Options) []byte {
	t.Helper()
	return checkMeaningRoundTrip(t, src, opts, func(t testing.TB, dialect string, d *ast.Document) string {
		if dialect != grammar.DialectPlan {
			return meaning(t, d)
		}
		m, err := planMeaning(d)
		if err != nil {
			t.Fatal(err)
		}
		return m
	})
}

// checkMeaningRoundTrip checks that parse(fmt(src)) means what parse(src)
// means, by mean (given the dialect src parses in), and that
// fmt(fmt(src)) == fmt(src); it returns fmt(src).
func checkMeaningRoundTrip(t testing.TB, src []byte, opts grammar.Options, mean func(t testing.TB, dialect string, d *ast.Document) string) []byte {
	t.Helper()
	doc := parse(t, src, opts)
	out, err := document(context.Background(), doc, src, opts)
	if err != nil {
		t.Fatal(err)
	}
	doc2 := parse(t, out, opts)
	if got, want := mean(t, doc.Dialect, doc2), mean(t, doc.Dialect, doc); got != want {
		t.Fatalf("fmt changed the meaning\ninput:  %q\noutput: %q\nwant %s\ngot  %s", src, out, want, got)
	}
	again, err := document(context.Background(), doc2, out, opts)
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
			opts := actsOpts
			if strings.HasPrefix(name, "plan_") {
				opts = planOpts
			}
			g.Assert(t, name, checkRoundTrip(t, src, opts))
		})
	}
}

func TestRoundTripCorpus(t *testing.T) {
	var files []string
	for _, pat := range []string{"../golden/acts/*.md", "../golden/fmt/[^p]*.md", "../examples/*.md", "../docs/*.md"} {
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

var planOpts = grammar.Options{Dialect: grammar.DialectPlan}

func TestPlanRoundTrip(t *testing.T) {
	files, _ := filepath.Glob("../golden/plan/*.md")
	more, _ := filepath.Glob("../golden/fmt/plan_*.md")
	if len(files) == 0 {
		t.Skip("no plan corpus")
	}
	for _, file := range append(files, more...) {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		checkRoundTrip(t, src, planOpts)
	}
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
	plans, _ := filepath.Glob("../golden/plan/*.md")
	for _, file := range plans {
		if data, err := os.ReadFile(file); err == nil {
			f.Add(data, uint8(3))
		}
	}
	f.Add([]byte("~~~act\necho\n~~~\n~~~\nx\r\r\n~~~\n"), uint8(2))
	// mode: 0 acts (fence detected), 1 acts with backticks, 2 acts with
	// tildes, 3 plan.
	f.Fuzz(func(t *testing.T, src []byte, mode uint8) {
		opts := actsOpts
		switch mode % 4 {
		case 1:
			opts.Fence = '`'
		case 2:
			opts.Fence = '~'
		case 3:
			opts = planOpts
		}
		checkRoundTrip(t, src, opts)
	})
}

// docExamples returns the examples of a docs page: for each line
// `<!-- MARKER ARG -->`, ARG and the contents of the fenced blocks that
// follow it (each closed by a line holding exactly its opening run, so an
// example may show shorter or longer fences inside).
func docExamples(t *testing.T, text, marker string, blocks int) (args []string, bodies [][]string) {
	t.Helper()
	lines := strings.SplitAfter(text, "\n")
	for i := 0; i < len(lines); i++ {
		line := strings.TrimSpace(lines[i])
		if !strings.HasPrefix(line, "<!-- "+marker) {
			continue
		}
		args = append(args, strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(line, "<!-- "+marker), "-->")))
		var got []string
		for len(got) < blocks && i+1 < len(lines) {
			i++
			open := strings.TrimRight(lines[i], "\n")
			run := strings.TrimRight(open, "abcdefghijklmnopqrstuvwxyz")
			if strings.Trim(run, "`") != "" || len(run) < 3 {
				continue // text between the blocks
			}
			var body strings.Builder
			for i++; i < len(lines) && strings.TrimRight(lines[i], "\n") != run; i++ {
				body.WriteString(lines[i])
			}
			got = append(got, body.String())
		}
		if len(got) != blocks {
			t.Fatalf("example %d: %d blocks, want %d", len(args), len(got), blocks)
		}
		bodies = append(bodies, got)
	}
	return args, bodies
}

// TestDocsExamples checks every example of docs/fmt.md: the documented
// output is exactly what fmt prints.
func TestDocsExamples(t *testing.T) {
	data, err := os.ReadFile("../docs/fmt.md")
	if err != nil {
		t.Fatal(err)
	}
	dialects, examples := docExamples(t, string(data), "fmt-example", 2)
	if len(examples) < 4 {
		t.Fatalf("docs/fmt.md: %d examples found", len(examples))
	}
	for i, m := range examples {
		opts := actsOpts
		if dialects[i] == "plan" {
			opts = planOpts
		}
		got := checkRoundTrip(t, []byte(m[0]), opts)
		if string(got) != m[1] {
			t.Errorf("docs/fmt.md example %d:\n got:\n%s\nwant:\n%s", i+1, got, m[1])
		}
	}
}

// TestFmtNeverMakesBinary: dropping blank lines raises the share of bytes
// that are not text; past the binary threshold the output would be
// rejected (binary-input), so fmt keeps such an input as it is.
func TestFmtNeverMakesBinary(t *testing.T) {
	src := []byte("\xfd\xfc\xfb\xfa\n\n\n\n\n\n\n\n\n")
	if grammar.Rejects(src) {
		t.Fatal("the input itself is rejected")
	}
	out := checkRoundTrip(t, src, actsOpts)
	if grammar.Rejects(out) {
		t.Fatalf("fmt turned %q into %q, which is rejected", src, out)
	}
}

// TestListMarkerRoundTrip checks fmt's properties on random documents of
// fences on list items' marker lines, mixed with plain fences, act lines
// and plan headings, in every mode FuzzFmt runs (byte-level fuzzing
// reaches such lines slowly).
func TestListMarkerRoundTrip(t *testing.T) {
	vocab := []string{"1. ```act", "- ```", "  - ~~~act", "* ````md", "10) ~~~", "```", "~~~", "````", "  ```",
		"   ~~~", "write_file a.py", "run_command", "text", "", "- **File Path:** a.py", "### `CREATE`",
		"## Action Plan", "# T", "\t+ ```python", "- - ~~~~", "1. ~~~act"}
	seed := uint64(11)
	next := func(k int) int {
		seed = seed*6364136223846793005 + 1442695040888963407
		return int((seed >> 33) % uint64(k))
	}
	n := 1500
	if testing.Short() {
		n = 150
	}
	modes := []grammar.Options{actsOpts, {Dialect: grammar.DialectActs, Fence: '`'}, {Dialect: grammar.DialectActs, Fence: '~'}, planOpts}
	for i := 0; i < n; i++ {
		var b strings.Builder
		for j := next(14) + 1; j > 0; j-- {
			b.WriteString(vocab[next(len(vocab))])
			if j > 1 || next(4) > 0 {
				b.WriteByte('\n')
			}
		}
		checkRoundTrip(t, []byte(b.String()), modes[i%len(modes)])
	}
}

// TestFmtKeepsArgsPastCap: an act block of more inline arguments than the
// parser reads (grammar.MaxArgs, too-many-args) keeps its content: fmt
// prints no act line of only the arguments read, which would drop the
// rest.
func TestFmtKeepsArgsPastCap(t *testing.T) {
	words := strings.TrimSuffix(strings.Repeat("ab ", grammar.MaxArgs+3), " ")
	src := "```act\nrun_command " + words + "\n```\n\n```act\nrun_command\n" + strings.Repeat("x\n", grammar.MaxArgs+1) + "```\n"
	out, _, err := Source(context.Background(), "t.md", []byte(src), grammar.Options{Dialect: grammar.DialectActs})
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != src {
		t.Fatalf("fmt changed the document: %d bytes in, %d out", len(src), len(out))
	}
}

// TestFmtPlanKeepsFlaggedNodesPastCap: fmt keeps the bytes of every node a
// diagnostic points at, past the grammar.MaxPerCode diagnostics of a code
// that the document lists too: 150 stray blocks (an error each) keep their
// five-backtick fences, not the first 100.
func TestFmtPlanKeepsFlaggedNodesPastCap(t *testing.T) {
	var b strings.Builder
	b.WriteString("# T\n\n- **Status:** draft\n- **Agent:** a\n- **Goal:** g\n\n## Rationale\n\n```text\nwhy\n```\n\n## Action Plan\n\n### `READ`\n\n- **Resource:** a.md\n- **Description:** d\n")
	for i := range 150 {
		fmt.Fprintf(&b, "\n`````\nx%d\n`````\n", i)
	}
	src := b.String()
	out, doc, err := Source(context.Background(), "t.md", []byte(src), grammar.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(doc.Diagnostics, grammar.IsOverflow) {
		t.Fatal("the document lists every diagnostic: the test needs more of one code")
	}
	if got := strings.Count(string(out), "\n`````\n"); got != 300 {
		t.Fatalf("%d five-backtick fence lines kept, want 300:\n%s", got, out)
	}
}

// TestToolsIsItsOwnForm: a tools reply (read by the stream parser) has no
// printer; its canonical form is the input, byte for byte, whitespace and
// wrapper tags included, and so fmt never lists or rewrites it.
func TestToolsIsItsOwnForm(t *testing.T) {
	src := []byte("Sure.  \n\n\n<read_file>\n<path>  a.go </path>\n</read_file>\n\n\n\n")
	opts := grammar.Options{Dialect: grammar.DialectTools, ReadTools: stream.ReadDocument}
	out, diags, err := Canonical(context.Background(), "r", src, opts)
	if err != nil || string(out) != string(src) || len(diags) != 1 || diags[0].Code != "path-whitespace" {
		t.Fatalf("Canonical: %q, %v, %v", out, diags, err)
	}
	out, doc, err := Source(context.Background(), "r", src, opts)
	if err != nil || string(out) != string(src) || len(doc.Actions) != 1 {
		t.Fatalf("Source: %q, %v", out, err)
	}
}
