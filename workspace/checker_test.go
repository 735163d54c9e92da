package workspace

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/internal/number"
)

// cappedPlan returns an acts plan of n patch_file actions on missing files
// and n write_file actions on absolute paths.
func cappedPlan(n int) []byte {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "~~~act\npatch_file missing%d.txt\n~~~\n~~~\nold\n~~~\n~~~\nnew\n~~~\n\n", i)
		fmt.Fprintf(&b, "~~~act\nwrite_file /abs/f%d.txt\n~~~\n~~~\nx\n~~~\n\n", i)
	}
	return []byte(b.String())
}

// TestWorkspaceCap pins the workspace rules' cap (docs/check.md, "Bounded
// output"): the first 100 diagnostics of a code are listed, one more sums
// up the rest with their count and lines, and nothing else is kept of
// them; a breach of the path rule is said once, by the parser, even past
// the parser's own cap (it counted it). Check and Checker alike
// (TestCheckerAsCheck "capped"); each document of a Simulate has a cap
// of its own.
func TestWorkspaceCap(t *testing.T) {
	ctx := context.Background()
	for _, n := range []int{100, 101, 150, 1000} {
		src := cappedPlan(n)
		doc, err := grammar.Parse(ctx, "plan.md", src, grammar.Options{Dialect: grammar.DialectActs})
		if err != nil {
			t.Fatal(err)
		}
		sim := Simulate(ctx, []*ast.Document{doc, doc}, t.TempDir(), Options{})
		for i, diags := range sim.Diagnostics {
			counts, summed := map[string]int{}, map[string]string{}
			for _, d := range diags {
				counts[d.Code]++
				if grammar.IsOverflow(d) {
					summed[d.Code] = d.Message
				}
			}
			if len(counts) != 1 || counts[CodeFileNotFound] != min(n, 100)+min(n-min(n, 100), 1) {
				t.Errorf("n=%d doc %d: workspace diagnostics by code %v, want file-not-found only, %d listed and a summary past 100", n, i, counts, min(n, 100))
			}
			if n > 100 {
				want := fmt.Sprintf("%s more file-not-found errors like the 100 above", number.Thousands(n-100))
				if !strings.HasPrefix(summed[CodeFileNotFound], want) {
					t.Errorf("n=%d doc %d: summary %q, want it to start %q", n, i, summed[CodeFileNotFound], want)
				}
			} else if len(summed) > 0 {
				t.Errorf("n=%d doc %d: summaries %v at the cap", n, i, summed)
			}
		}
	}
}

// state returns the current state of path rel, nil when it was not looked
// at.
func (c *checker) state(rel string) *vfile {
	if e := c.find(rel); e != nil {
		return e.cur
	}
	return nil
}
