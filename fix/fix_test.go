package fix

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
)

func parsePlan(t testing.TB, src []byte) *ast.Document {
	t.Helper()
	doc, err := grammar.ParsePlan(context.Background(), "t.md", src, nil)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// wereWithheld reports whether Apply returned src as it is because the
// repairs it would make were withheld (a lone CR they would make hide a
// line, or text they would make unreadable): the output is then the input,
// errors and all (docs/acts.md, "Lone CRs").
func wereWithheld(src []byte, dialect string) bool {
	f := rewrite(src, dialect)
	return len(f.repairs) > 0 && withheld(src, []byte(f.text), dialect)
}

func codes(doc *ast.Document) map[string]int {
	m := map[string]int{}
	for _, d := range doc.Diagnostics {
		m[d.Code]++
	}
	return m
}

// checkProperties asserts what every repair keeps: the result has no
// improperly nested fence and no closing fence with text that a later fence
// made content, a second pass changes nothing, line numbers are
// kept, and blocks before the first repaired line keep their content.
func checkProperties(t testing.TB, src []byte) ([]byte, []*ast.Diagnostic) {
	t.Helper()
	fixed, repairs := Apply(src, grammar.DialectPlan)
	if grammar.Rejects(src) {
		// An input parse rejects (binary, UTF-16, CR-only) is left as it is.
		if !bytes.Equal(fixed, src) || len(repairs) > 0 {
			t.Fatalf("rejected input changed (%d repairs): %q", len(repairs), fixed)
		}
		return fixed, repairs
	}
	doc := parsePlan(t, fixed)
	if len(repairs) == 0 && wereWithheld(src, grammar.DialectPlan) {
		return fixed, repairs
	}
	if n := codes(doc)[grammar.CodeNestedFence]; n > 0 {
		t.Fatalf("fixed text still has %d improperly nested fence(s):\n%s", n, fixed)
	}
	if n := codes(doc)[grammar.CodeHeadingLevel]; n > 0 {
		t.Fatalf("fixed text still has %d action heading(s) at the wrong level:\n%s", n, fixed)
	}
	if n := codes(doc)[grammar.CodeFenceTrailingText]; n > 0 {
		t.Fatalf("fixed text still has %d closing fence(s) with text:\n%s", n, fixed)
	}
	again, more := Apply(fixed, grammar.DialectPlan)
	if !bytes.Equal(again, fixed) || len(more) > 0 {
		t.Fatalf("not idempotent: second pass made %d repair(s)\nfirst:  %q\nsecond: %q", len(more), fixed, again)
	}
	firstLine := 1 << 30
	for _, r := range repairs {
		if r.Severity != ast.Warning || !strings.HasPrefix(r.Code, "fixed-") {
			t.Fatalf("repair %+v is not a fixed-* warning", r)
		}
		if r.Code != CodeTrailingBlank {
			firstLine = min(firstLine, r.Span.Start.Line)
		}
	}
	// Only trailing whitespace-only lines may go.
	if trimmed := func(b []byte) int { return bytes.Count(bytes.TrimRight(b, " \t\r\n"), []byte("\n")) }; trimmed(src) != trimmed(fixed) {
		t.Fatalf("lines added or removed inside the document")
	}
	before := parsePlan(t, src)
	after := doc
	blocks := func(d *ast.Document) []*ast.Block {
		var bs []*ast.Block
		bs = append(bs, d.Blocks...)
		for _, a := range d.Actions {
			bs = append(bs, a.Blocks...)
		}
		return bs
	}
	afterByLine := map[int]*ast.Block{}
	for _, b := range blocks(after) {
		afterByLine[b.Span.Start.Line] = b
	}
	for _, b := range blocks(before) {
		if b.Span.End.Line >= firstLine || b.Unclosed {
			continue
		}
		a := afterByLine[b.Span.Start.Line]
		if a == nil || a.Content != b.Content {
			t.Fatalf("block at line %d changed: %q -> %v", b.Span.Start.Line, b.Content, a)
		}
	}
	return fixed, repairs
}

func TestApply(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
		codes           []string
	}{
		{"nothing", "# T\n\ntext\n", "# T\n\ntext\n", nil},
		{"nested", "```markdown\n# Tool\n```bash\npip install\n```\nThen.\n```\n", "````markdown\n# Tool\n```bash\npip install\n```\nThen.\n````\n", []string{CodeNestedFence}},
		{"nested deeper", "~~~\n~~~~a\n~~~~\n~~~~\n", "~~~~~\n~~~~a\n~~~~\n~~~~~\n", []string{CodeNestedFence}},
		{"nested without outer close", "```md\n```bash\nx\n```\nafter\n", "````md\n```bash\nx\n````\nafter\n", []string{CodeNestedFence}},
		{"trailing text closes unclosed", "```python\nx = 1\n``` <- end\n\nprose\n", "```python\nx = 1\n```\n\nprose\n", []string{CodeTrailingText}},
		{"trailing text in nested", "```\na\n```  # end\n\n### X\n```bash\nb\n```\n", "```\na\n```\n\n### X\n```bash\nb\n```\n", []string{CodeTrailingText}},
		// Text to the parser is text to strip: blanks other than spaces and
		// tabs after the run (CI's FuzzFix/aef8bcff51168894 was a form feed).
		{"form feed after run", "```\n```\f\ntall it:\n\n```bash\npip install tool\n```\n", "```\n```\ntall it:\n\n```bash\npip install tool\n```\n", []string{CodeTrailingText}},
		{"vertical tab after run", "```py\nx\n```\v\ny\n", "```py\nx\n```\ny\n", []string{CodeTrailingText}},
		{"line separator after run", "~~~\nx\n~~~\u2028\ny\n~~~\n", "~~~\nx\n~~~\ny\n~~~\n", []string{CodeTrailingText}},
		{"nbsp after run", "```\nx\n```\u00a0\n", "```\nx\n```\n", []string{CodeTrailingText}},
		// Stripping "0 0" would make the lone CR of the next fence line hide
		// a line (lone-cr): the repair is withheld and the input kept.
		{"lone CR withholds the repair", "```\n```0 0\n```0\r0\n```", "```\n```0 0\n```0\r0\n```", nil},
		{"title space", "#Title\n\n## Action Plan\n", "# Title\n\n## Action Plan\n", []string{CodeTitleSpace}},
		{"title after preamble", "hi\n#Title\n", "hi\n# Title\n", []string{CodeTitleSpace}},
		{"not the title", "# Title\n#tag\n", "# Title\n#tag\n", nil},
		{"trailing blank lines", "# T\n\n  \n\t\n", "# T\n", []string{CodeTrailingBlank}},
		{"trailing blank no newline", "# T\n  ", "# T\n", []string{CodeTrailingBlank}},
		{"blank content of unclosed block kept", "```\nx\n\n\n", "```\nx\n\n\n", nil},
		{"crlf", "```md\r\n```sh\r\nx\r\n```\r\n```\r\n\r\n", "````md\r\n```sh\r\nx\r\n```\r\n````\r\n", []string{CodeNestedFence, CodeTrailingBlank}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, repairs := checkProperties(t, []byte(tc.src))
			if string(got) != tc.want {
				t.Errorf("got\n%q\nwant\n%q", got, tc.want)
			}
			var gotCodes []string
			for _, r := range repairs {
				gotCodes = append(gotCodes, r.Code)
			}
			if strings.Join(gotCodes, ",") != strings.Join(tc.codes, ",") {
				t.Errorf("repairs %v, want %v", gotCodes, tc.codes)
			}
		})
	}
}

func TestApplyOtherDialects(t *testing.T) {
	src := []byte("~~~act\necho\n~~~\n~~~\n```bash\nx\n```\n~~~\n\n\n")
	got, repairs := Apply(src, grammar.DialectActs)
	if string(got) != "~~~act\necho\n~~~\n~~~\n```bash\nx\n```\n~~~\n" || len(repairs) != 1 || repairs[0].Code != CodeTrailingBlank {
		t.Fatalf("got %q %v", got, repairs)
	}
	unclosed := []byte("~~~act\necho\n~~~\n~~~\nx\n\n\n")
	if got, repairs := Apply(unclosed, grammar.DialectAuto); !bytes.Equal(got, unclosed) || len(repairs) != 0 {
		t.Fatalf("changed the content of an unclosed acts block: %q", got)
	}
}

// TestFixGolden pins, for every golden plan that needs repairs, the fixed
// text and the repairs (golden/plan/NAME.fixed.golden).
func TestFixGolden(t *testing.T) {
	files, err := filepath.Glob("../golden/plan/*.md")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	g := goldie.New(t, goldie.WithFixtureDir("../golden/plan"), goldie.WithNameSuffix(".golden"))
	for _, file := range files {
		base := filepath.Base(file)
		name := strings.TrimSuffix(base, ".md")
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		fixed, repairs := checkProperties(t, src)
		if len(repairs) == 0 {
			continue
		}
		t.Run(name, func(t *testing.T) {
			var b strings.Builder
			for _, r := range repairs {
				b.WriteString(r.Format(base) + "\n")
			}
			b.WriteString("----\n")
			b.Write(fixed)
			g.Assert(t, name+".fixed", []byte(b.String()))
		})
	}
}

func FuzzFix(f *testing.F) {
	files, _ := filepath.Glob("../golden/plan/*.md")
	for _, file := range files {
		if data, err := os.ReadFile(file); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("```\n```a\n```\n```\n"))
	f.Add([]byte("~~~~\n~~~ x\n~~~~~ y\n~~~\n~~~~\n"))
	acts, _ := filepath.Glob("../golden/acts/*.md")
	for _, file := range acts {
		if data, err := os.ReadFile(file); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("```act\nwrite_file a\n```\n```\nx\n``` end of x\n```act\necho\n```\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		checkProperties(t, src)
		checkActsProperties(t, src) // the fenced-acts dialect (fix/acts.go)
	})
}

// TestPropertiesRandomFences checks the repair properties on documents
// made of fence-heavy lines, which byte-level fuzzing reaches slowly.
func TestPropertiesRandomFences(t *testing.T) {
	vocab := []string{"```", "```bash", "````", "````md", "~~~", "~~~~ x", "``` end", "```  <!-- x -->",
		"   ```", "    ```", "text", "", "### `CREATE`", "- **File Path:** a", "#Title", "```` `x`", "\t```",
		"- ```", "1. ```bash", "  - ~~~", "* ````md", "  ```"}
	seed := uint64(1)
	next := func(n int) int {
		seed = seed*6364136223846793005 + 1442695040888963407
		return int((seed >> 33) % uint64(n))
	}
	n := 3000
	if testing.Short() {
		n = 300
	}
	for i := 0; i < n; i++ {
		var b strings.Builder
		for j := next(14); j >= 0; j-- {
			b.WriteString(vocab[next(len(vocab))])
			b.WriteByte('\n')
		}
		checkProperties(t, []byte(b.String()))
	}
}

// TestFixNeverMakesUnreadable: removing trailing blank lines raises the
// share of bytes that are not text; a repair that would push the input
// past the binary threshold (binary-input) is not made.
func TestFixNeverMakesUnreadable(t *testing.T) {
	src := []byte("```act\nend\n```\n\xfd\xfc\xfb\xfa\xf9\xf8\xf7\xf6\xf5\n\n\n\n\n\n\n\n\n")
	if grammar.Rejects(src) {
		t.Fatal("the input itself is rejected")
	}
	out, _ := Apply(src, "acts")
	if grammar.Rejects(out) {
		t.Fatalf("fix turned %q into %q, which is rejected", src, out)
	}
}

// TestFixHeadingLevelsPastCap: fix repairs every action heading at the
// wrong level in one pass, not only the first grammar.MaxPerCode the
// plan's diagnostics list, so that it stays idempotent.
func TestFixHeadingLevelsPastCap(t *testing.T) {
	var b strings.Builder
	b.WriteString("# T\n\n- **Status:** draft\n- **Agent:** a\n- **Goal:** g\n\n## Rationale\n\n```text\nwhy\n```\n\n## Action Plan\n")
	for i := range 150 {
		fmt.Fprintf(&b, "\n#### `READ`\n\n- **Resource:** a%d.md\n- **Description:** d\n", i)
	}
	out, reps := Apply([]byte(b.String()), grammar.DialectPlan)
	if n := strings.Count(string(out), "\n### `READ`"); n != 150 {
		t.Fatalf("%d headings made level 3, want 150", n)
	}
	if got := countRepairs(reps); got != 150 {
		t.Fatalf("%d repairs reported, want 150", got)
	}
	if again, reps := Apply(out, grammar.DialectPlan); len(reps) != 0 || string(again) != string(out) {
		t.Fatalf("fixing again: %d repairs", len(reps))
	}
}

// TestApplyTools: a tools reply has nothing fix repairs; its trailing
// blank lines, which another dialect loses, and fence-like lines inside a
// call's content stay as they are.
func TestApplyTools(t *testing.T) {
	open := []byte("<write_to_file>\n<path>a.md</path>\n<content>\n~~~act\n```\nx\n\n\n")
	closed := []byte("<read_file>\n<path>a.md</path>\n</read_file>\n\n\n")
	for _, src := range [][]byte{open, closed} {
		if got, repairs := Apply(src, grammar.DialectTools); !bytes.Equal(got, src) || len(repairs) != 0 {
			t.Fatalf("Apply changed a tools reply: %q %v", got, repairs)
		}
	}
	if got, _ := Apply(closed, grammar.DialectActs); bytes.Equal(got, closed) {
		t.Fatalf("the same text as acts needs no repair: the test shows nothing")
	}
}
