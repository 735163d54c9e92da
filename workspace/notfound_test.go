package workspace

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
)

// notFoundFamilies write edits edits of big.txt whose FIND text (or hunk)
// is nowhere in it, one per edit format.
var notFoundFamilies = []struct {
	name, dialect string
	doc           func(b *strings.Builder, edits int)
}{
	{"acts/patch_file", grammar.DialectActs, func(b *strings.Builder, edits int) {
		for i := 0; i < edits; i++ {
			fmt.Fprintf(b, "~~~act\npatch_file big.txt\n~~~\n~~~\n<nope %d>\n~~~\n~~~\nx\n~~~\n", i)
		}
	}},
	{"acts/replace", grammar.DialectActs, func(b *strings.Builder, edits int) {
		for i := 0; i < edits; i++ {
			fmt.Fprintf(b, "~~~act\nreplace big.txt\n~~~\n~~~\n<nope %d>\n~~~\n~~~\nx\n~~~\n", i)
		}
	}},
	{"plan/EDIT", grammar.DialectPlan, func(b *strings.Builder, edits int) {
		b.WriteString("# Edit\n\n- **Status:** Green\n- **Agent:** Developer\n- **Goal:** Edit.\n\n## Rationale\n```text\nA test.\n```\n\n## Action Plan\n\n### `EDIT`\n- **File Path:** `big.txt`\n- **Description:** Edit lines.\n")
		for i := 0; i < edits; i++ {
			fmt.Fprintf(b, "\n#### `FIND:`\n```\n<nope %d>\n```\n#### `REPLACE:`\n```\nx\n```\n", i)
		}
	}},
	{"search-replace/blocks", grammar.DialectSearchReplace, func(b *strings.Builder, edits int) {
		for i := 0; i < edits; i++ {
			fmt.Fprintf(b, "big.txt\n```\n<<<<<<< SEARCH\n<nope %d>\n=======\nx\n>>>>>>> REPLACE\n```\n", i)
		}
	}},
	{"udiff/files", grammar.DialectUdiff, func(b *strings.Builder, edits int) {
		for i := 0; i < edits; i++ {
			fmt.Fprintf(b, "--- a/big.txt\n+++ b/big.txt\n@@ -1,1 +1,1 @@\n-<nope %d>\n+x\n", i)
		}
	}},
	{"apply-patch/files", grammar.DialectApplyPatch, func(b *strings.Builder, edits int) {
		b.WriteString("*** Begin Patch\n")
		for i := 0; i < edits; i++ {
			fmt.Fprintf(b, "*** Update File: big.txt\n@@\n-<nope %d>\n+x\n", i)
		}
		b.WriteString("*** End Patch\n")
	}},
}

// runNotFound checks n not-found edits of a file of n lines ("<line i>")
// with the given budget floor and returns the closest-region work, the
// bytes allocated and how many diagnostics said the budget was spent.
// Every edit must still be a find-not-found error.
func runNotFound(t *testing.T, dialect string, doc func(*strings.Builder, int), n, floor int) (work int, alloc uint64, spent int) {
	t.Helper()
	root := t.TempDir()
	var file strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&file, "<line %d>\n", i)
	}
	if err := os.WriteFile(filepath.Join(root, "big.txt"), []byte(file.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	doc(&b, n)
	d, err := grammar.Parse(context.Background(), "edit.md", []byte(b.String()), grammar.Options{Dialect: dialect})
	if err != nil {
		t.Fatal(err)
	}
	c, err := newChecker(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	c.begin(0, d, Options{})
	c.cap.NoLimit = true // every diagnostic, each looked at
	c.closestFloor = floor
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for _, a := range d.Actions {
		c.action(context.Background(), a)
	}
	runtime.ReadMemStats(&after)
	errs := 0
	for _, x := range c.diags {
		if x.Severity != ast.Error {
			continue
		}
		if x.Code != CodeFindNotFound {
			t.Fatalf("%s", x.Format("edit.md"))
		}
		errs++
		if strings.Contains(x.Message, budgetSpent) {
			spent++
			if x.Detail != "" {
				t.Fatalf("a budget-spent diagnostic has a detail: %s", x.Format("edit.md"))
			}
		}
	}
	if errs != n {
		t.Fatalf("%d find-not-found errors, want %d", errs, n)
	}
	return c.closestWork, after.TotalAlloc - before.TotalAlloc, spent
}

// TestNotFoundLinear pins that n failing edits of a file of n lines cost
// O(n) in closest-region search, in every edit format: without the
// budget (closestWithin) each search reads the whole file, ×16 from n to
// 4n. The floor is off (-1) so that the budget of 8 bytes of work per
// byte of input binds at both sizes; every edit is still an error.
func TestNotFoundLinear(t *testing.T) {
	const n = 400
	for _, fam := range notFoundFamilies {
		t.Run(fam.name, func(t *testing.T) {
			small, smallAlloc, _ := runNotFound(t, fam.dialect, fam.doc, n, -1)
			large, largeAlloc, spent := runNotFound(t, fam.dialect, fam.doc, 4*n, -1)
			if spent == 0 {
				t.Fatalf("the budget was never spent at 4n: the test does not measure it")
			}
			ratio := float64(large) / float64(small)
			t.Logf("closest work %d at n=%d, %d at 4n: ×%.2f (%d budget-spent)", small, n, large, ratio, spent)
			if ratio > 6 {
				t.Errorf("closest-region work grows ×%.2f from n to 4n failing edits; linear is about ×4, quadratic ×16", ratio)
			}
			ratio = float64(largeAlloc) / float64(smallAlloc)
			t.Logf("bytes allocated %d at n=%d, %d at 4n: ×%.2f", smallAlloc, n, largeAlloc, ratio)
			if ratio > 8 {
				t.Errorf("bytes allocated grow ×%.2f from n to 4n failing edits; linear is about ×4, quadratic ×16", ratio)
			}
		})
	}
}

// TestNotFoundBudgetDefault: with the default floor, a plan of a few
// hundred failing edits is far from the budget: every diagnostic names
// its closest region, as the goldens do.
func TestNotFoundBudgetDefault(t *testing.T) {
	fam := notFoundFamilies[0]
	if _, _, spent := runNotFound(t, fam.dialect, fam.doc, 200, 0); spent != 0 {
		t.Errorf("%d diagnostics say the budget is spent at the default floor", spent)
	}
}

// TestNotFoundBudgetMessage pins the message once the budget is spent:
// the same error, code and span, its message ending with budgetSpent.
func TestNotFoundBudgetMessage(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("one\ntwo\nthree\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	src := "~~~act\npatch_file a.txt\n~~~\n~~~\ntwo!\n~~~\n~~~\nx\n~~~\n"
	d, err := grammar.Parse(context.Background(), "plan.md", []byte(src), grammar.Options{Dialect: grammar.DialectActs})
	if err != nil {
		t.Fatal(err)
	}
	c, err := newChecker(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	c.begin(0, d, Options{})
	c.cap.NoLimit = true // every diagnostic, each looked at
	c.closestFloor = -1
	c.closestWork = 1 << 30 // as if earlier searches spent it
	for _, a := range d.Actions {
		c.action(context.Background(), a)
	}
	var got []string
	for _, x := range c.diags {
		got = append(got, x.Format("plan.md"))
	}
	want := "plan.md:5:1: error: patch_file: the old text is not in a.txt " + budgetSpent + " [" + CodeFindNotFound + "]"
	if len(got) != 1 || got[0] != want {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", strings.Join(got, "\n"), want)
	}
}
