package workspace

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/internal/number"
	"github.com/plangram/plangram/internal/testkit/corpus"
)

// TestCheckerAsCheck pins Checker to Check: fed the actions one at a time
// in order, it finds the
// same diagnostics as Check over the whole document, for every golden
// case and a generated document with many files, and a bad root gives the
// same CodeBadRoot diagnostic.
func TestCheckerAsCheck(t *testing.T) {
	dirs, err := filepath.Glob("../golden/workspace/*/plan.md")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no golden cases: %v", err)
	}
	ctx := context.Background()
	compare := func(t *testing.T, src []byte, dialect, root string, opts Options) {
		t.Helper()
		doc, err := grammar.Parse(ctx, "plan.md", src, grammar.Options{Dialect: dialect})
		if err != nil {
			t.Fatal(err)
		}
		want := Check(ctx, doc, root, opts)
		// Without the source, with it, and with it and the parser
		// reusing the memory of each action for the next (the Checker
		// keeps nothing of an action).
		for _, v := range []struct {
			source, reuse bool
		}{{false, false}, {true, false}, {true, true}} {
			o := opts
			if v.source {
				o.Source = src
			}
			k := NewChecker(root, dialect, o)
			lean, err := grammar.Parse(ctx, "plan.md", src, grammar.Options{Dialect: dialect})
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range lean.Actions {
				k.Action(ctx, a)
			}
			got := k.Diagnostics(lean.Diagnostics, lean.Span.Start)
			if len(got) == 0 && len(want) == 0 {
				continue
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("Checker (source %v, reuse %v):\n%s\nCheck:\n%s", v.source, v.reuse, render("plan.md", got), render("plan.md", want))
			}
		}
	}
	for _, planPath := range dirs {
		caseDir := filepath.Dir(planPath)
		name := filepath.Base(caseDir)
		t.Run(name, func(t *testing.T) {
			dialect := caseDialect(name)
			src, err := os.ReadFile(planPath)
			if err != nil {
				t.Fatal(err)
			}
			compare(t, src, dialect, copyFixture(t, caseDir), caseOptions(t, caseDir))
		})
	}
	t.Run("corpus", func(t *testing.T) {
		root := t.TempDir()
		compare(t, corpus.Acts(200_000), grammar.DialectActs, root, Options{})
		compare(t, corpus.SmallActs(20_000), grammar.DialectActs, root, Options{})
		compare(t, corpus.Plan(200_000), grammar.DialectPlan, root, Options{})
	})
	// New files of a unified diff and of an apply_patch envelope, then
	// edited, patched, missed and created again.
	t.Run("new-files", func(t *testing.T) {
		compare(t, []byte(newFilesDiff), grammar.DialectUdiff, t.TempDir(), Options{})
		compare(t, []byte(newFilesPatch), grammar.DialectApplyPatch, t.TempDir(), Options{})
	})
	// Hunks against files with CRLF line endings: matched as CRLF lines
	// when every hunk of the file is LF, as they are once one has a CR.
	t.Run("crlf", func(t *testing.T) {
		root := t.TempDir()
		for name, content := range map[string]string{"c1.txt": "a\r\nb\r\nc\r\nd\r\n", "c2.txt": "a\r\nb\r\nc\r\n", "c3.txt": "a\r\nb\r\n", "l.txt": "a\nb\nc\n"} {
			if err := os.WriteFile(filepath.Join(root, name), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		compare(t, []byte("--- a/c1.txt\n+++ b/c1.txt\n@@ -1,1 +1,1 @@\n-a\n+A\n@@ -3,1 +3,1 @@\n-c\n+C\n"+
			"--- a/c2.txt\n+++ b/c2.txt\n@@ -1,1 +1,1 @@\n-a\n+A\n@@ -2,1 +2,1 @@\n-b\r\n+B\r\n"+
			"--- a/c3.txt\n+++ b/c3.txt\n@@ -1,1 +1,1 @@\n-x\n+X\n\n@@ -2,1 +2,1 @@\n-b\n+B\n"+
			"--- /dev/null\n+++ b/l.txt\n@@ -0,0 +1,1 @@\n+x\n@@ -2,1 +2,2 @@\n b\n+y\n"), grammar.DialectUdiff, root, Options{})
		compare(t, []byte("*** Begin Patch\n*** Update File: c1.txt\n@@\n-a\n+A\n@@ c\n-d\n+D\n"+
			"*** Update File: c2.txt\n-a\n+A\n-b\r\n+B\r\n*** Update File: c3.txt\n*** Move to: c4.txt\n@@\n-b\n+B\n*** End Patch\n"), grammar.DialectApplyPatch, root, Options{})
	})
	t.Run("bad-root", func(t *testing.T) {
		compare(t, []byte("~~~act\nread_file a\n~~~\n"), grammar.DialectActs, filepath.Join(t.TempDir(), "missing"), Options{})
	})
	// Past the cap of 100 diagnostics a code (TestWorkspaceCap), with the
	// path rule's breaches past the parser's own cap.
	t.Run("capped", func(t *testing.T) {
		compare(t, cappedPlan(150), grammar.DialectActs, t.TempDir(), Options{})
		compare(t, cappedPlan(250), grammar.DialectActs, t.TempDir(), Options{})
	})
}

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

// countDiags counts the diagnostics found: one for each listed, and the
// count a summing-up diagnostic stands for (grammar.IsOverflow).
func countDiags(diags []*ast.Diagnostic) int {
	n := 0
	for _, d := range diags {
		if !grammar.IsOverflow(d) {
			n++
			continue
		}
		k, _, _ := strings.Cut(d.Message, " ")
		v, err := strconv.Atoi(strings.ReplaceAll(k, ",", ""))
		if err != nil {
			panic(d.Message)
		}
		n += v
	}
	return n
}

// newBody is a new file's content: a CRLF line, a line that is a
// header's look-alike, an empty line.
const newBody = "package main\r\n++ not a header\n\nfunc main() {\n\tprintln(\"a rope of lines\")\n}\n"

// newFilesDiff creates a.go and b.txt (no newline at its end), patches
// a.go, misses in b.txt (the closest region is shown from its new text)
// and creates a.go again.
var newFilesDiff = "--- /dev/null\n+++ b/a.go\n@@ -0,0 +1,6 @@\n" + plusLines(newBody) +
	"--- /dev/null\n+++ b/b.txt\n@@ -0,0 +1,3 @@\n+first line of b, long enough to be kept as a rope\n+second\n+third without newline\n\\ No newline at end of file\n" +
	"--- a/a.go\n+++ b/a.go\n@@ -4,3 +4,3 @@\n func main() {\n-\tprintln(\"a rope of lines\")\n+\tprintln(\"patched\")\n }\n" +
	"--- a/b.txt\n+++ b/b.txt\n@@ -2,2 +2,2 @@\n-second line\n+2nd\n third without newline\n\\ No newline at end of file\n" +
	"--- /dev/null\n+++ b/a.go\n@@ -0,0 +1,1 @@\n+again\n"

// newFilesPatch is newFilesDiff's story as an apply_patch envelope.
var newFilesPatch = "*** Begin Patch\n*** Add File: a.go\n" + plusLines(newBody) +
	"*** Add File: b.txt\n+first line of b, long enough to be kept as a rope\n+second\n+third\n" +
	"*** Update File: a.go\n@@ func main() {\n-\tprintln(\"a rope of lines\")\n+\tprintln(\"patched\")\n }\n" +
	"*** Update File: b.txt\n@@\n-second line\n+2nd\n" +
	"*** Add File: a.go\n+again\n*** End Patch\n"

// plusLines writes each line of s after a '+'.
func plusLines(s string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		if l != "" {
			b.WriteString("+" + l)
		}
	}
	return b.String()
}
