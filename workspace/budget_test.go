package workspace

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
)

// manyHunks writes big.txt, lines lines of "line i", under a new root and
// returns the root and a unified diff of one file editing its first hunks
// lines one hunk each, followed by a read of a missing file.
func manyHunks(t *testing.T, lines, hunks int) (root string, src []byte) {
	t.Helper()
	root = t.TempDir()
	var f strings.Builder
	for i := range lines {
		fmt.Fprintf(&f, "line %d\n", i)
	}
	if err := os.WriteFile(filepath.Join(root, "big.txt"), []byte(f.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("--- a/big.txt\n+++ b/big.txt\n")
	for i := range hunks {
		fmt.Fprintf(&b, "@@ -%d,1 +%d,1 @@\n-line %d\n+LINE %d\n", i+1, i+1, i, i)
	}
	b.WriteString("--- a/missing.txt\n+++ b/missing.txt\n@@ -1,1 +1,1 @@\n-a\n+b\n")
	return root, []byte(b.String())
}

// TestWorkBudget: a diff of 30,000 hunks editing one 300 KB file (each
// hunk scans and copies the file: 18 GB in all) stops at the budget with
// one work-budget error at its update_file, and the workspace rules check
// nothing after it (the missing file's hunk gets no file-not-found); a
// diff of 100 hunks of that file, a real one, is checked whole within the
// budget. The budget's floor is left out of the first (a constant the
// plan does not pay for), so that the test reaches it in a moment.
func TestWorkBudget(t *testing.T) {
	ctx := context.Background()
	check := func(hunks, floor int) ([]string, *checker) {
		root, src := manyHunks(t, 30_000, hunks)
		doc, err := grammar.Parse(ctx, "x.diff", src, grammar.Options{Dialect: grammar.DialectUdiff})
		if err != nil {
			t.Fatal(err)
		}
		c, err := newChecker(root, Options{})
		if err != nil {
			t.Fatal(err)
		}
		c.begin(0, doc, Options{})
		c.work.floor = floor
		for _, a := range doc.Actions {
			c.action(ctx, a)
		}
		var codes []string
		for _, d := range c.diags {
			codes = append(codes, d.Code)
			if d.Code == CodeWorkBudget && (d.Severity != ast.Error || d.Span.Start.Line != 1) {
				t.Errorf("work-budget diagnostic: %s", d.Format("x.diff"))
			}
		}
		return codes, c
	}
	codes, c := check(30_000, 0)
	if got := strings.Join(codes, ","); got != CodeWorkBudget {
		t.Errorf("codes %s, want one %s", got, CodeWorkBudget)
	}
	if c.work.spent > c.work.limit()+4*c.work.paid {
		t.Errorf("spent %d bytes for a limit of %d: the check went on past it", c.work.spent, c.work.limit())
	}
	codes, c = check(100, budgetFloor)
	if got := strings.Join(codes, ","); got != CodeFileNotFound {
		t.Errorf("codes %s, want one %s (the missing file)", got, CodeFileNotFound)
	}
	if f := c.state("big.txt"); f == nil || !strings.HasPrefix(f.content, "LINE 0\nLINE 1\n") || !strings.Contains(f.content, "LINE 99\nline 100\n") {
		t.Error("big.txt was not edited by the 100 hunks")
	}
}

// TestWorkBudgetPaths: looking up a path costs its length per directory
// on it, which the budget counts too: deep paths stop at a small budget.
func TestWorkBudgetPaths(t *testing.T) {
	var b strings.Builder
	for i := range 50 {
		fmt.Fprintf(&b, "~~~act\nwrite_file d%d/%s/f.txt\n~~~\n~~~\nx\n~~~\n", i, strings.Repeat("a/", 1000))
	}
	doc, err := grammar.Parse(context.Background(), "plan.md", []byte(b.String()), grammar.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := newChecker(t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	c.begin(0, doc, Options{})
	c.work.floor = 0 // 128 bytes a byte of the plan only: about 13 MB
	for _, a := range doc.Actions {
		c.action(context.Background(), a)
	}
	if len(c.diags) != 1 || c.diags[0].Code != CodeWorkBudget {
		t.Fatalf("want one %s: %v", CodeWorkBudget, c.diags)
	}
	if !c.stopped {
		t.Error("the checker did not stop")
	}
}
