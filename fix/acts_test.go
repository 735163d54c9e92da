package fix

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/lexer"
)

func parseActs(t testing.TB, src []byte) *ast.Document {
	t.Helper()
	doc, err := grammar.Parse(context.Background(), "t.md", src, grammar.Options{Dialect: grammar.DialectActs})
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// checkActsProperties asserts what every repair of a fenced-acts document
// keeps (docs/cli.md, "fix"): the result has no fence-trailing-text and
// no improperly-nested-fence but the two cases fix leaves to the author (a
// run followed by `act`; an act block taken into a block with no fence
// meant to close it), a second pass changes nothing, and every line is
// the same byte for byte except the fence lines a repair names — which
// only lose the text after their run or get a longer run — and
// whitespace-only lines at the end. So no byte of block content is lost
// or changed.
func checkActsProperties(t testing.TB, src []byte) ([]byte, []*ast.Diagnostic) {
	t.Helper()
	fixed, repairs := Apply(src, grammar.DialectActs)
	if grammar.Rejects(src) || len(repairs) == 0 && wereWithheld(src, grammar.DialectActs) {
		return fixed, repairs
	}
	doc := parseActs(t, fixed)
	for _, d := range doc.Diagnostics {
		switch d.Code {
		case grammar.CodeFenceTrailingText:
			if !lexer.IsAct(string(fixed[d.Span.Start.Offset:d.Span.End.Offset])) {
				t.Fatalf("fixed text still has a closing fence with text at %v:\n%q\nfrom\n%q", d.Span.Start, fixed, src)
			}
		case grammar.CodeNestedFence:
			from := 0
			for _, r := range d.Related {
				if strings.Contains(r.Message, "outer block opens here") {
					from = r.Span.End.Offset
				}
			}
			for _, r := range d.Related {
				// Left to the author: longer fences would make an act
				// block content.
				if strings.Contains(r.Message, "meant to close here") && !hasAct(string(fixed[from:r.Span.Start.Offset]), lexer.Detect(fixed)) {
					t.Fatalf("fixed text still has an improperly nested fence at %v:\n%q\nfrom\n%q", d.Span.Start, fixed, src)
				}
			}
		}
	}
	again, more := Apply(fixed, grammar.DialectActs)
	if !bytes.Equal(again, fixed) || len(more) > 0 {
		t.Fatalf("not idempotent: second pass made %d repair(s)\nfirst:  %q\nsecond: %q", len(more), fixed, again)
	}
	named := map[int]bool{}
	for _, r := range repairs {
		if r.Severity != ast.Warning || !strings.HasPrefix(r.Code, "fixed-") {
			t.Fatalf("repair %+v is not a fixed-* warning", r)
		}
		named[r.Span.Start.Line] = true
		for _, rl := range r.Related {
			named[rl.Span.Start.Line] = true
		}
	}
	before := strings.SplitAfter(string(src), "\n")
	after := strings.SplitAfter(string(fixed), "\n")
	if len(after) > len(before) {
		t.Fatalf("fix added lines: %d -> %d", len(before), len(after))
	}
	for i, a := range after {
		b := before[i]
		if a == b {
			continue
		}
		if i == len(after)-1 && strings.TrimSpace(strings.Join(before[i:], "")) == strings.TrimSpace(a) && strings.HasPrefix(b, a) {
			continue // the last line, with the whitespace-only lines after it gone
		}
		if !named[i+1] || !fenceRepair(b, a) {
			t.Fatalf("line %d changed by no fence repair: %q -> %q\nrepairs: %v", i+1, b, a, repairs)
		}
	}
	for _, b := range before[len(after):] {
		if strings.TrimSpace(b) != "" {
			t.Fatalf("fix dropped the line %q", b)
		}
	}
	return fixed, repairs
}

// fenceRepair reports whether the fence line b became a as fence
// repairs make it: its run made longer, or the text after its run
// removed, or both. What precedes the run (indentation, list markers) is
// kept.
//
// The text a repair strips is what keeps a fence line from closing:
// anything but spaces, tabs and CRs (a vertical tab or form feed counts, as
// lexer's trim reads a fence line).
func fenceRepair(b, a string) bool {
	bb, be := body(b)
	ab, ae := body(a)
	if be != ae {
		return false
	}
	for _, c := range []byte{'`', '~'} {
		i := strings.Index(bb, strings.Repeat(string(c), 3))
		if i < 0 || !strings.HasPrefix(ab, bb[:i]) {
			continue
		}
		k, m := runLen(bb[i:], c), runLen(ab[i:], c)
		rb, ra := bb[i+k:], ab[i+m:]
		if m > k && ra == rb || m >= k && ra == "" && strings.Trim(rb, " \t\r") != "" {
			return true
		}
	}
	return false
}

// runLen returns the number of bytes c that s starts with.
func runLen(s string, c byte) int {
	n := 0
	for n < len(s) && s[n] == c {
		n++
	}
	return n
}

func TestApplyActs(t *testing.T) {
	const head = "```act\nwrite_file a.md\n```\n"
	for _, tc := range []struct {
		name, src, want string
		codes           []string
	}{
		{"nothing", head + "```\nx\n```\n", head + "```\nx\n```\n", nil},
		{"trailing text swallows an act", head + "```\nhello\n``` end of file\n\n```act\ndelete_file b\n```\n",
			head + "```\nhello\n```\n\n```act\ndelete_file b\n```\n", []string{CodeTrailingText}},
		{"trailing text in an act block", "```act\nwrite_file a\n``` done writing\n```text\nhi\n```\n",
			"```act\nwrite_file a\n```\n```text\nhi\n```\n", []string{CodeTrailingText}},
		{"trailing text, unclosed", head + "```md\n# N\n  ``` (end)  \n\nmore\n", head + "```md\n# N\n  ```\n\nmore\n", []string{CodeTrailingText}},
		{"trailing text, crlf", head + "```\r\nx\r\n``` end of it\r\n", head + "```\r\nx\r\n```\r\n", []string{CodeTrailingText}},
		{"trailing text before the first act", "```\nx\n``` end of x\n```sh\ny\n```\n```act\necho hi\n```\n",
			"```\nx\n```\n```sh\ny\n```\n```act\necho hi\n```\n", []string{CodeTrailingText}},
		{"nested", head + "```markdown\n# Doc\n```go\nx\n```\nend\n```\n",
			head + "````markdown\n# Doc\n```go\nx\n```\nend\n````\n", []string{CodeNestedFence}},
		{"nested, intended close indented", "~~~act\nwrite_file a\n~~~\n~~~~\n~~~~go\nx\n~~~~\n      ~~~~\n",
			"~~~act\nwrite_file a\n~~~\n~~~~~\n~~~~go\nx\n~~~~\n      ~~~~~\n", []string{CodeNestedFence}},
		{"nested on a list marker line", head + "1. ```markdown\n   ```sh\n   ls\n   ```\n   ```\n",
			head + "1. ````markdown\n   ```sh\n   ls\n   ```\n   ````\n", []string{CodeNestedFence}},
		{"tilde document", "~~~act\nwrite_file a\n~~~\n~~~\nx\n~~~ end of x\n```\n~~~text\ny\n~~~\n",
			"~~~act\nwrite_file a\n~~~\n~~~\nx\n~~~\n```\n~~~text\ny\n~~~\n", []string{CodeTrailingText}},
		{"act taken in with a later fence: left", head + "```\n\n```act\necho\n```\n```\nhi\n```\n",
			head + "```\n\n```act\necho\n```\n```\nhi\n```\n", nil},
		{"remark with no fence after it: content", head + "```\nhello\n``` end of file\nmore\n```\n",
			head + "```\nhello\n``` end of file\nmore\n```\n", nil},
		{"act taken in, no later fence: left", head + "```\nhello\n``` trailing\n\n```act\nrun_command ls\n```\n",
			head + "```\nhello\n``` trailing\n\n```act\nrun_command ls\n```\n", nil},
		{"run then act: left", "```\n```act\n````\n```\n", "```\n```act\n````\n```\n", nil},
		{"content as written", head + "```python\nx\n```python\ny\n```\n", head + "```python\nx\n```python\ny\n```\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, repairs := checkActsProperties(t, []byte(tc.src))
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

// TestFixGoldenActs pins, for every golden acts document that needs
// repairs, the fixed text and the repairs (golden/acts/NAME.fixed.golden).
func TestFixGoldenActs(t *testing.T) {
	files, err := filepath.Glob("../golden/acts/*.md")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	g := goldie.New(t, goldie.WithFixtureDir("../golden/acts"), goldie.WithNameSuffix(".golden"))
	for _, file := range files {
		base := filepath.Base(file)
		name := strings.TrimSuffix(base, ".md")
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		fixed, repairs := checkActsProperties(t, src)
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

// TestActsPropertiesRandomFences checks the acts repair properties on
// documents made of fence-heavy lines, which byte-level fuzzing reaches
// slowly.
func TestActsPropertiesRandomFences(t *testing.T) {
	vocab := []string{"```act", "~~~act", "write_file a", "echo", "```", "```bash", "````", "````md", "~~~", "~~~~ x",
		"``` end", "``` end of it", "``` act", "    ```", "text", "", "\t```", "- ```", "1. ```bash", "  - ~~~",
		"* ````md", "  ```", "```` `x`", "~~~ done here", "      ````"}
	seed := uint64(7)
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
		for j := next(16); j >= 0; j-- {
			b.WriteString(vocab[next(len(vocab))])
			b.WriteByte('\n')
		}
		checkActsProperties(t, []byte(b.String()))
	}
}

// TestFixRepairsCapped: past grammar.MaxPerCode repairs of one kind, fix
// lists the first ones and one warning that sums up the rest, with the
// lines they span; every repair is still made (the output is fixed, and
// fixing it again repairs nothing).
func TestFixRepairsCapped(t *testing.T) {
	var b strings.Builder
	b.WriteString("```act\nwrite_file a\n```\n")
	for range 150 {
		b.WriteString("```\nx\n``` end of it\n```sh\nls\n```\n")
	}
	out, reps := Apply([]byte(b.String()), grammar.DialectActs)
	if len(reps) != grammar.MaxPerCode+1 {
		t.Fatalf("%d repairs listed, want %d", len(reps), grammar.MaxPerCode+1)
	}
	last := reps[len(reps)-1]
	if !strings.Contains(last.Message, "50 more fixed-fence-trailing-text repairs like the 100 above were made (lines ") {
		t.Fatalf("no summing-up repair: %s", last.Message)
	}
	if got := countRepairs(reps); got != 150 {
		t.Fatalf("the repairs count %d, want 150", got)
	}
	if again, reps := Apply(out, grammar.DialectActs); len(reps) != 0 || string(again) != string(out) {
		t.Fatalf("fixing the output again: %d repairs", len(reps))
	}
}
