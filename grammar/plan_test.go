package grammar

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2"
	plex "github.com/alecthomas/participle/v2/lexer"
	"github.com/sebdah/goldie/v2"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/lexer"
	"github.com/plangram/plangram/schema"
)

// undetectable lists the golden plans that lack what Detect looks for (a
// title and an `## Action Plan` or `## Message` heading): `--dialect plan`
// parses them, `--dialect auto` takes them for acts.
var undetectable = map[string]bool{"actions_without_heading": true, "missing_action_plan": true, "missing_title": true}

// TestPlanGolden pins, for every golden/plan/NAME.md, the document JSON
// (NAME.json.golden) and the diagnostics as the CLI prints them
// (NAME.diag.golden). The correction messages for the model of the
// NAME.llm.md inputs are pinned by cmd/plangram (TestCheckLLMGolden).
func TestPlanGolden(t *testing.T) {
	files, err := filepath.Glob("../golden/plan/*.md")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	g := goldie.New(t, goldie.WithFixtureDir("../golden/plan"), goldie.WithNameSuffix(".golden"))
	for _, f := range files {
		base := filepath.Base(f)
		name := strings.TrimSuffix(base, ".md")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if got := Detect(src); got != DialectPlan && !undetectable[name] {
				t.Errorf("Detect = %s, want plan", got)
			}
			doc, err := Parse(context.Background(), base, src, Options{Dialect: DialectPlan})
			if err != nil {
				t.Fatal(err)
			}
			checkPlanLossless(t, src, doc)
			details := 0
			for _, d := range doc.Diagnostics {
				if strings.HasPrefix(d.Detail, "Expected:") {
					details++
				}
			}
			if details > 1 {
				t.Errorf("%d diagnostics carry the AST diff; one does", details)
			}
			js, diags := goldenDoc(t, base, doc)
			g.Assert(t, name+".json", js)
			if len(doc.Diagnostics) > 0 {
				g.Assert(t, name+".diag", diags)
			}
		})
	}
}

// checkPlanLossless asserts what every plan document keeps: block content
// is exactly the source its span names, every byte of the source belongs to
// exactly one block or prose node, and positions agree with offsets.
func checkPlanLossless(t testing.TB, src []byte, doc *ast.Document) {
	t.Helper()
	lines := ast.NewLines(src)
	covered := make([]int, len(src)+1)
	cover := func(what string, sp ast.Span) {
		if sp.Start.Offset < 0 || sp.Start.Offset > sp.End.Offset || sp.End.Offset > len(src) {
			t.Fatalf("%s: bad span %v for %d bytes", what, sp, len(src))
		}
		if sp.Start != lines.Pos(sp.Start.Offset) || sp.End != lines.Pos(sp.End.Offset) {
			t.Fatalf("%s: span %+v disagrees with its offsets", what, sp)
		}
		covered[sp.Start.Offset]++
		covered[sp.End.Offset]--
	}
	seen := map[*ast.Block]bool{}
	block := func(b *ast.Block) {
		if seen[b] {
			t.Fatalf("block at %v placed twice", b.Span)
		}
		seen[b] = true
		if got := string(src[b.ContentSpan.Start.Offset:b.ContentSpan.End.Offset]); got != b.Content {
			t.Fatalf("block at %v: content %q != source slice %q", b.Span, b.Content, got)
		}
		if b.ContentSpan.Start.Offset < b.Span.Start.Offset || b.ContentSpan.End.Offset > b.Span.End.Offset {
			t.Fatalf("block content span %v outside block span %v", b.ContentSpan, b.Span)
		}
		cover("block", b.Span)
	}
	for _, b := range doc.Blocks {
		block(b)
	}
	for _, a := range doc.Actions {
		for _, b := range a.Blocks {
			block(b)
		}
		for _, p := range a.Params {
			if p.Span != nil && (p.Span.Start != lines.Pos(p.Span.Start.Offset) || p.Span.End != lines.Pos(p.Span.End.Offset)) {
				t.Fatalf("param %s: bad span %+v", p.Name, p.Span)
			}
		}
	}
	for _, p := range doc.Prose {
		if got := string(src[p.Span.Start.Offset:p.Span.End.Offset]); got != p.Text {
			t.Fatalf("prose %q != source slice %q", p.Text, got)
		}
		cover("prose", p.Span)
	}
	n := 0
	for i := 0; i < len(src); i++ {
		n += covered[i]
		if n != 1 {
			t.Fatalf("byte %d covered %d times", i, n)
		}
	}
	for _, d := range doc.Diagnostics {
		if d.Span.Start != lines.Pos(d.Span.Start.Offset) || d.Span.End != lines.Pos(d.Span.End.Offset) {
			t.Fatalf("diagnostic %q has inconsistent span %+v", d.Message, d.Span)
		}
	}
}

func FuzzPlan(f *testing.F) {
	files, _ := filepath.Glob("../golden/plan/*.md")
	for _, file := range files {
		if data, err := os.ReadFile(file); err == nil {
			f.Add(data)
		}
	}
	p, err := NewPlanParser(nil)
	if err != nil {
		f.Fatal(err)
	}
	g, err := planGrammar()
	if err != nil {
		f.Fatal(err)
	}
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, src []byte) {
		doc, err := p.Parse(ctx, "fuzz.md", src)
		if err != nil {
			t.Fatal(err)
		}
		checkPlanLossless(t, src, doc)
		checkPlanTree(t, g, src)
		for _, d := range doc.Diagnostics {
			if d.Code == CodeParse {
				t.Fatalf("grammar rejected input: %s", d.Message)
			}
		}
		if _, err := json.Marshal(doc); err != nil {
			t.Fatal(err)
		}
		Detect(src)
	})
}

// checkPlanTree asserts what the plan grammar's tree holds for any input:
// participle reads it, the tokens of the intro, the actions and the
// sections, in that order, are the input byte for byte, each section
// starts with its H2 and each run of actions is one H3 token, which no
// other part of them holds, and a section's actions are its last token.
func checkPlanTree(t testing.TB, g *participle.Parser[planFile], src []byte) {
	t.Helper()
	f, err := g.ParseBytes("", src)
	if err != nil {
		t.Fatalf("the plan grammar rejected the input: %v", err)
	}
	var b strings.Builder
	heads := func(what string, ts []plex.Token, head plex.TokenType) {
		for i, tok := range ts {
			if (tok.Type == head) != (i == 0 && head != plex.EOF) || tok.Type == lexer.MdH2 && head != lexer.MdH2 || tok.Type == lexer.MdH3 && head != lexer.MdH3 {
				t.Fatalf("%s holds a %v token at %d", what, tok.Type, tok.Pos.Offset)
			}
		}
	}
	action := func(a plex.Token) {
		heads("action", []plex.Token{a}, lexer.MdH3)
		b.WriteString(a.Value)
	}
	if f.Intro != nil {
		heads("intro", f.Intro.Tokens, plex.EOF)
		for _, tok := range f.Intro.Tokens {
			b.WriteString(tok.Value)
		}
	}
	for _, a := range f.Actions {
		action(a)
	}
	for _, s := range f.Sections {
		n := len(s.Tokens)
		if n > 1 && s.Tokens[n-1].Type == lexer.MdH3 {
			n-- // the section's actions
		}
		heads("section", s.Tokens[:n], lexer.MdH2)
		for _, tok := range s.Tokens[:n] {
			b.WriteString(tok.Value)
		}
		for _, a := range s.Tokens[n:] {
			action(a)
		}
	}
	if b.String() != string(src) {
		t.Fatalf("the tree's tokens give %q, not the input", b.String())
	}
}

// planSchema returns the built-in plan schema.
func planSchema(t testing.TB) *schema.Schema {
	t.Helper()
	s, err := schema.Builtin(DialectPlan)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestPlanGrammarTree checks the plan grammar's tree (checkPlanTree) on
// every Markdown input of the golden corpus and on heading-heavy inputs.
func TestPlanGrammarTree(t *testing.T) {
	g, err := planGrammar()
	if err != nil {
		t.Fatal(err)
	}
	inputs := map[string][]byte{
		"headings":   []byte("# T\n" + strings.Repeat("## x\n### y\n\ntext\n", 50)),
		"folded":     []byte("# T\n## a\n" + strings.Repeat("## x\n### y\n\n#### z\n", 5) + "text\n### p\n- i\n## b\n## c\n\n## Action Plan\n## d\n## e\n```\n## f\n```\n## g\n## Message\n## h\n## i\n"),
		"parts":      []byte("### a\n- x\n### b\n## s\n\n### c\n```\n## not\n```\n"),
		"empty":      nil,
		"only blank": []byte("\n\n"),
	}
	// Every Markdown input of the golden corpus, of every dialect: the
	// grammar reads any text, and the plan dialect parses any text given
	// --dialect plan.
	plans := 0
	err = filepath.WalkDir("../golden", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".md") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		inputs[filepath.ToSlash(path)] = data
		if strings.HasPrefix(filepath.ToSlash(path), "../golden/plan/") {
			plans++
		}
		return nil
	})
	if err != nil || plans < 50 {
		t.Fatalf("%d golden plans: %v", plans, err)
	}
	for name, src := range inputs {
		t.Run(name, func(t *testing.T) { checkPlanTree(t, g, src) })
	}
}

func TestDetect(t *testing.T) {
	plan := "# T\n\n- **Status:** x\n\n## Rationale\n```\nwhy\n```\n\n## Action Plan\n\n### `READ`\n- **Resource:** a\n"
	for src, want := range map[string]string{
		plan:                                  DialectPlan,
		strings.Replace(plan, "# T", "#T", 1): DialectPlan,
		strings.Replace(plan, "## Action Plan", "## Message", 1):        DialectPlan,
		strings.Replace(plan, "## Action Plan", "## 2. Action Plan", 1): DialectPlan,
		strings.Replace(plan, "# T", "## T", 1):                         DialectActs, // no title
		strings.Replace(plan, "## Action Plan", "## Actions", 1):        DialectActs,
		// An acts script whose prose has the plan headings stays acts.
		"# Fix it\n\n## Action Plan\n\n~~~~~act\nwrite_file a.py\n~~~~~\n~~~~~\nx\n~~~~~\n": DialectActs,
		// A plan that shows an act block inside one of its blocks stays a plan.
		strings.Replace(plan, "why", "~~~act\necho\n~~~", 1): DialectPlan,
		// Headings inside a fenced block do not count.
		"```\n# T\n## Action Plan\n```\n": DialectActs,
		"":                                DialectActs,
	} {
		if got := Detect([]byte(src)); got != want {
			t.Errorf("Detect(%q) = %s, want %s", src, got, want)
		}
	}
}

func TestPlanSemantics(t *testing.T) {
	parse := func(t *testing.T, src string) *ast.Document {
		t.Helper()
		doc, err := ParsePlan(context.Background(), "t.md", []byte(src), nil)
		if err != nil {
			t.Fatal(err)
		}
		checkPlanLossless(t, []byte(src), doc)
		return doc
	}
	head := "# T\n\n- **Status:** x\n\n## Rationale\n```\nwhy\n```\n\n## Action Plan\n\n"
	t.Run("spans name the source", func(t *testing.T) {
		src := head + "### 1. `CREATE` the module\n- **File Path:** [a.py](/a.py)\n\n```python\n  x = 1  \n```\n"
		doc := parse(t, src)
		a := doc.Actions[0]
		if got := src[a.NameSpan.Start.Offset:a.NameSpan.End.Offset]; got != "CREATE" || a.Name != "CREATE" {
			t.Fatalf("name %q at %q", a.Name, got)
		}
		p := a.Params[0]
		if p.Name != "path" || p.Value != "a.py" || src[p.Span.Start.Offset:p.Span.End.Offset] != "[a.py](/a.py)" {
			t.Fatalf("path param %+v", p)
		}
		if c, _ := a.Params.Get("content"); c != "  x = 1  " {
			t.Fatalf("content %q", c)
		}
		if !strings.HasPrefix(src[a.Span.Start.Offset:], "### 1.") || a.Span.End.Offset != len(src) {
			t.Fatalf("action span %v", a.Span)
		}
	})
	t.Run("alias reported under the action name", func(t *testing.T) {
		doc := parse(t, head+"### PROMPT\nWhich one?\n")
		if a := doc.Actions[0]; a.Name != "CHAT_WITH_USER" || a.Params.String("prompt") != "Which one?" || len(doc.Diagnostics) != 0 {
			t.Fatalf("%+v %v", a, doc.Diagnostics)
		}
	})
	t.Run("labels on blocks", func(t *testing.T) {
		doc := parse(t, head+"### EDIT\n- **File Path:** a\n#### FIND:\n```\na\n```\n#### REPLACE:\n```\nb\n```\n")
		bs := doc.Actions[0].Blocks
		if len(bs) != 2 || bs[0].Label != "FIND:" || bs[1].Label != "REPLACE:" || len(doc.Diagnostics) != 0 {
			t.Fatalf("blocks %+v %v", bs, doc.Diagnostics)
		}
	})
	t.Run("a nested fence mistake is one error with its follow-ons as notes", func(t *testing.T) {
		create := "### CREATE\n- **File Path:** a.md\n\n```markdown\n# A\n```bash\nx\n```\nThen run it.\n```\n\n"
		doc := parse(t, head+"### CRATE\n\n"+create)
		var got []string
		for _, d := range doc.Diagnostics {
			got = append(got, d.Code)
			if d.Code == CodeNestedFence {
				follow := 0
				for _, r := range d.Related {
					if strings.HasPrefix(r.Message, "follow-on: ") {
						follow++
					}
				}
				if follow != 3 || d.Detail != "" {
					t.Errorf("%d follow-on notes (want 3), detail %q: %+v", follow, d.Detail, d.Related)
				}
			}
		}
		// The unknown action before the broken block is a problem of its
		// own, with the AST diff.
		if strings.Join(got, " ") != "unknown-action improperly-nested-fence" || doc.Diagnostics[0].Detail == "" {
			t.Fatalf("diagnostics %v", got)
		}
	})
	t.Run("a message heading 3 in any case is plan-and-message", func(t *testing.T) {
		doc := parse(t, head+"### READ\n- **Resource:** a\n\n### Message\nhello\n")
		if len(doc.Diagnostics) != 1 || doc.Diagnostics[0].Code != CodePlanAndMessage || !strings.Contains(doc.Diagnostics[0].Message, "`### Message`") {
			t.Fatalf("%v", doc.Diagnostics)
		}
	})
	t.Run("the first structural error alone carries the AST diff", func(t *testing.T) {
		doc := parse(t, "Hello\n\n"+strings.Replace(head, "## Rationale", "Some text\n\n## Rationale", 1)+"### CRATE\n")
		var errs []*ast.Diagnostic
		for _, d := range doc.Diagnostics {
			if d.Severity == ast.Error {
				errs = append(errs, d)
			}
		}
		if len(errs) != 2 {
			t.Fatalf("want 2 errors, got %v", doc.Diagnostics)
		}
		if !strings.HasPrefix(errs[0].Detail, "Expected:") || !strings.Contains(errs[0].Detail, `"CRATE"`) || errs[1].Detail != "" {
			t.Fatalf("details %q, %q", errs[0].Detail, errs[1].Detail)
		}
	})
	t.Run("long documents show the diff around the errors", func(t *testing.T) {
		doc := parse(t, head+strings.Repeat("### READ\n- **Resource:** a\n\n", 100)+"stray\n")
		d := doc.Diagnostics[0]
		if !strings.Contains(d.Detail, "nodes not shown") || strings.Count(d.Detail, "\n") > 20 {
			t.Fatalf("detail:\n%s", d.Detail)
		}
	})
	t.Run("preview", func(t *testing.T) {
		if got := preview(strings.Repeat("é", 70)); got != `"`+strings.Repeat("é", 60)+`…"` {
			t.Fatalf("preview %s", got)
		}
		if got := preview("a\n  b"); got != `"a b"` {
			t.Fatalf("preview %s", got)
		}
	})
}

func TestPlanCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ParsePlan(ctx, "t.md", []byte("# T\n"), nil); err == nil {
		t.Fatal("a cancelled parse returned no error")
	}
}
