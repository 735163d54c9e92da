package fix

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
)

// TestFencePassProperties: the linear fence pass keeps fix's properties
// (checkProperties) on the golden plans, the fuzz corpus and random
// fence-heavy documents (byte-order marks, list items, indentation, CRs,
// long runs).
func TestFencePassProperties(t *testing.T) {
	var files []string
	for _, g := range []string{"../golden/plan/*.md", "../golden/acts/*.md", "../golden/fmt/*.md", "testdata/fuzz/FuzzFix/*"} {
		m, _ := filepath.Glob(g)
		files = append(files, m...)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		checkProperties(t, data)
	}
	checkProperties(t, planRepairs(3))
	vocab := []string{"```", "```bash", "````", "````md", "~~~", "~~~~ x", "``` end", "```  <!-- x -->", "```` end",
		"   ```", "    ```", "        ````", "                  `````", "text", "", "### `CREATE`", "## `EDIT`",
		"- **File Path:** a", "#Title", "```` `x`", "\t```", "- ```", "1. ```bash", "  - ~~~", "* ````md", "  ```",
		"    - ```", "      ```", "\uFEFF```", "\uFEFF```` x", "``` x\r", "```\r", "~~~~~~ y", "`````", "- - ```"}
	seed := uint64(7)
	next := func(n int) int {
		seed = seed*6364136223846793005 + 1442695040888963407
		return int((seed >> 33) % uint64(n))
	}
	n := 6000
	if testing.Short() {
		n = 600
	}
	for i := 0; i < n; i++ {
		var b strings.Builder
		for j := next(30); j >= 0; j-- {
			b.WriteString(vocab[next(len(vocab))])
			b.WriteByte('\n')
		}
		checkProperties(t, []byte(b.String()))
	}
}

// countRepairs counts the repairs a list reports: one per repair listed,
// and the number a summing-up repair names (fixer.summarise).
func countRepairs(r []*ast.Diagnostic) int {
	n := 0
	for _, d := range r {
		more, _, ok := strings.Cut(d.Message, " more ")
		if !ok || !strings.Contains(d.Message, " repairs like the ") {
			n++
			continue
		}
		k, err := strconv.Atoi(strings.ReplaceAll(more, ",", ""))
		if err != nil {
			n++
			continue
		}
		n += k
	}
	return n
}

// TestFenceTextImmutable: every window the fence pass reads keeps its
// bytes while the pass goes on repairing (the bytes under a string must

// TestFixWorkBudget: a hostile plan of 200,000 closing fences with
// trailing text, each of which leaves its block unclosed to the end of the
// document, stops at the work budget with one fix-work-budget warning
// instead of running quadratic; the output is the input with the repairs
// made so far, each whole (every changed line is a line of the input with
// its trailing text stripped).
func TestFixWorkBudget(t *testing.T) {
	src := []byte(strings.Repeat("```python\nx\n``` <- end\n\n", 200_000))
	out, reps := Apply(src, grammar.DialectPlan)
	var budget []*ast.Diagnostic
	for _, d := range reps {
		if d.Code == CodeFenceBudget {
			budget = append(budget, d)
		}
	}
	if len(budget) != 1 {
		t.Fatalf("%d fix-work-budget warnings, want 1", len(budget))
	}
	fixed := countRepairs(reps) - 1
	if fixed < 50 || fixed >= 200_000 {
		t.Fatalf("%d repairs before the budget, want some but not all", fixed)
	}
	in, got := strings.Split(string(src), "\n"), strings.Split(string(out), "\n")
	if len(in) != len(got) {
		t.Fatalf("output has %d lines, input %d", len(got), len(in))
	}
	changed := 0
	for i := range in {
		if in[i] != got[i] {
			if in[i] != "``` <- end" || got[i] != "```" {
				t.Fatalf("line %d changed from %q to %q", i+1, in[i], got[i])
			}
			changed++
		}
	}
	if changed != fixed {
		t.Errorf("%d lines changed, %d repairs reported", changed, fixed)
	}
	// The pass stops at the block whose scan went past the budget: the
	// last one repaired (rescanned) or the next one.
	if line := budget[0].Span.Start.Line; line != 4*fixed-3 && line != 4*fixed+1 {
		t.Errorf("budget warning at line %d, want %d or %d", line, 4*fixed-3, 4*fixed+1)
	}
}

// TestFixManyRepairsWithinBudget: hundreds of repairs of a 1 MB plan, each
// leaving its block unclosed to the end of the document, are all made.
func TestFixManyRepairsWithinBudget(t *testing.T) {
	src := planRepairs(300)
	pad := strings.Repeat("Some prose of the rationale.\n", (1<<20-len(src))/29)
	src = append([]byte(strings.Replace(string(src), "## Action Plan", "## Rationale\n\n"+pad+"\n## Action Plan", 1)), "\nMore text.\n"...)
	_, reps := Apply(src, grammar.DialectPlan)
	for _, d := range reps {
		if d.Code == CodeFenceBudget {
			t.Fatalf("budget reached on %d bytes: %s", len(src), d.Message)
		}
	}
	if n := countRepairs(reps); n != 300 {
		t.Errorf("%d repairs, want 300", n)
	}
}

// TestFixActsWorkBudget: an acts document of 40,000 blocks whose closing
// lines carry text, each block unclosed until its repair (read to the end
// of the document), stops at the work budget with one fix-work-budget
// warning; the lines after the repaired ones are the input's.
func TestFixActsWorkBudget(t *testing.T) {
	src := []byte("```act\nwrite_file a\n```\n" + strings.Repeat("```py\nx\n", 40_000))
	out, reps := Apply(src, grammar.DialectActs)
	n := 0
	for _, d := range reps {
		if d.Code == CodeFenceBudget {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d fix-work-budget warnings, want 1", n)
	}
	in, got := strings.Split(string(src), "\n"), strings.Split(string(out), "\n")
	if len(in) != len(got) {
		t.Fatalf("output has %d lines, input %d", len(got), len(in))
	}
	changed := 0
	for i := range in {
		if in[i] != got[i] {
			if in[i] != "```py" || got[i] != "```" {
				t.Fatalf("line %d changed from %q to %q", i+1, in[i], got[i])
			}
			changed++
		}
	}
	if fixed := countRepairs(reps) - 1; changed != fixed || fixed == 0 || fixed >= 20_000 {
		t.Errorf("%d lines changed, %d repairs reported", changed, fixed)
	}
}
