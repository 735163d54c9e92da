package fix

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/lexer"
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

// TestFixPlanLinear: the plan dialect's fix allocates in proportion to the
// input for n and 4n fence repairs (each of which left its block unclosed
// to the end of the document) and n and 4n misnested blocks; before, each
// repair copied the whole text (bytes ×16 for 4n).
func TestFixPlanLinear(t *testing.T) {
	nested := func(n int) []byte {
		var b strings.Builder
		b.WriteString("# T\n\n## Action Plan\n\n")
		for i := range n {
			fmt.Fprintf(&b, "### `CREATE`\n- **File Path:** a%d.md\n\n```md\n```go\nx\n```\n```\n\n", i)
		}
		return []byte(b.String())
	}
	for name, gen := range map[string]func(int) []byte{"trailing-text": planRepairs, "nested": nested} {
		measure := func(n int) (float64, int) {
			src := gen(n)
			var reps int
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, r := Apply(src, grammar.DialectPlan)
			runtime.ReadMemStats(&after)
			reps = countRepairs(r)
			return float64(after.TotalAlloc - before.TotalAlloc), reps
		}
		b1, r1 := measure(1000)
		b4, r4 := measure(4000)
		if r1 < 1000 || r4 < 4000 {
			t.Fatalf("%s: %d and %d repairs, want 1000 and 4000", name, r1, r4)
		}
		if ratio := b4 / b1; ratio > 6 {
			t.Errorf("%s: bytes allocated grow ×%.1f from 1000 to 4000 repairs, want about ×4", name, ratio)
		} else {
			t.Logf("%s: bytes allocated ×%.2f from 1000 to 4000 repairs", name, ratio)
		}
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
// never change); before, the window was a view of a buffer that each
// repair rewrote. The pass is driven as fixer.fences drives it, on the
// golden plans and on documents whose repairs leave repaired lines after
// the block being judged (a block repaired twice, the second time shorter).
func TestFenceTextImmutable(t *testing.T) {
	docs := []string{
		string(planRepairs(40)),
		"- - ```\n  ```\n1. ```bash\n```bash\n* ````md\n```  <!-- x -->\n\n  ```\n    - ```\n   ```\n  ```\n````md\n    ```\n```\n",
		strings.Repeat("```md\n```go\nx\n```\n```\n\n", 20),
	}
	files, _ := filepath.Glob("../golden/plan/*.md")
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, string(data))
	}
	for _, src := range docs {
		type snap struct{ s, copy string }
		var seen []snap
		keep := func(s string) { seen = append(seen, snap{s, strings.Clone(s)}) }
		f := &fixer{text: src}
		f.fb = newFenceText(src)
		f.text = f.fb.view()
		keep(f.text)
		limit := 2*strings.Count(src, "\n") + 16
		for off, n := 0, 0; off < f.size() && n < limit; n++ {
			typ, end := f.scan(off)
			keep(f.text)
			if typ != lexer.MdFence || !f.repairBlock(off, end) {
				off = end
				if f.fb.lineStart(off) {
					f.fb.commit(off)
					f.text, off = f.fb.view(), 0
				}
			}
			keep(f.text)
		}
		ref := &fixer{text: src}
		ref.fences()
		if got, want := f.fb.text(), ref.text; got != want || len(f.repairs) != len(ref.repairs) {
			t.Errorf("pass of %q driven here gave %q, fixer.fences %q", src, got, want)
		}
		for _, s := range seen {
			if s.s != s.copy {
				t.Fatalf("a window of the pass over %q changed from %q to %q", src, s.copy, s.s)
			}
		}
	}
}
