package fix

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
)

// checkFastSlow checks that the plan dialect's linear fence pass
// (fix/fencebuf.go) gives the same bytes and repairs as the reference
// algorithm, which rebuilds the text per repair and scans every block.
func checkFastSlow(t *testing.T, src []byte) {
	t.Helper()
	fast, fr := apply(src, grammar.DialectPlan, false)
	slow, sr := apply(src, grammar.DialectPlan, true)
	if !bytes.Equal(fast, slow) {
		t.Fatalf("fix of %q:\nfast %q\nslow %q", src, fast, slow)
	}
	if a, b := repairsText(fr), repairsText(sr); a != b {
		t.Fatalf("fix of %q, repairs:\nfast %s\nslow %s", src, a, b)
	}
}

func repairsText(ds []*ast.Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "%s %s %s|", d.Span, d.Code, d.Message)
		for _, r := range d.Related {
			fmt.Fprintf(&b, "  %s %s|", r.Span, r.Message)
		}
	}
	return b.String()
}

// TestFastFencesAgree: the linear fence pass agrees with the reference on
// the golden plans, the fuzz corpus and random fence-heavy documents
// (byte-order marks, list items, indentation, CRs, long runs).
func TestFastFencesAgree(t *testing.T) {
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
		checkFastSlow(t, data)
	}
	checkFastSlow(t, planRepairs(3))
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
		checkFastSlow(t, []byte(b.String()))
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
