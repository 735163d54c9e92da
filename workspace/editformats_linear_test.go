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

// editFormatFamily is a document of k edits in one of the edit formats
// against big.txt (lines "<line i>"), each of which fails one way.
type editFormatFamily struct {
	name    string
	dialect string
	code    string // the error each edit gets
	file    func(lines int) string
	doc     func(b *strings.Builder, i, lines int)
}

func bigLines(lines int) string {
	var b strings.Builder
	for i := range lines {
		fmt.Fprintf(&b, "<line %d>\n", i)
	}
	return b.String()
}

// twiceLines is bigLines twice: every line occurs two times.
func twiceLines(lines int) string { return bigLines(lines/2) + bigLines(lines/2) }

var editFormatFamilies = []editFormatFamily{
	{"search-replace/not-found", grammar.DialectSearchReplace, CodeFindNotFound, bigLines, func(b *strings.Builder, i, lines int) {
		fmt.Fprintf(b, "big.txt\n```\n<<<<<<< SEARCH\n<line %d>\n<line %d>\n=======\nx\n>>>>>>> REPLACE\n```\n\n", i, i+2)
	}},
	{"search-replace/in-line", grammar.DialectSearchReplace, CodeFindNotFound, bigLines, func(b *strings.Builder, i, lines int) {
		fmt.Fprintf(b, "big.txt\n```\n<<<<<<< SEARCH\nline %d>\n=======\nx\n>>>>>>> REPLACE\n```\n\n", i)
	}},
	{"search-replace/ambiguous", grammar.DialectSearchReplace, CodeFindAmbiguous, twiceLines, func(b *strings.Builder, i, lines int) {
		fmt.Fprintf(b, "big.txt\n```\n<<<<<<< SEARCH\n<line %d>\n=======\nx\n>>>>>>> REPLACE\n```\n\n", i%(lines/2))
	}},
	{"udiff/not-found", grammar.DialectUdiff, CodeFindNotFound, bigLines, func(b *strings.Builder, i, lines int) {
		fmt.Fprintf(b, "```diff\n--- big.txt\n+++ big.txt\n@@ -1,2 +1,1 @@\n <line %d>\n-<line %d>\n```\n\n", i, i+2)
	}},
	{"udiff/ambiguous", grammar.DialectUdiff, CodeFindAmbiguous, twiceLines, func(b *strings.Builder, i, lines int) {
		fmt.Fprintf(b, "```diff\n--- big.txt\n+++ big.txt\n@@ -0,0 +0,0 @@\n-<line %d>\n+x\n```\n\n", i%(lines/2))
	}},
	{"apply-patch/not-found", grammar.DialectApplyPatch, CodeFindNotFound, bigLines, func(b *strings.Builder, i, lines int) {
		fmt.Fprintf(b, "*** Begin Patch\n*** Update File: big.txt\n@@\n <line %d>\n-<line %d>\n+x\n*** End Patch\n\n", i, i+2)
	}},
	{"apply-patch/context-not-found", grammar.DialectApplyPatch, CodeFindNotFound, bigLines, func(b *strings.Builder, i, lines int) {
		fmt.Fprintf(b, "*** Begin Patch\n*** Update File: big.txt\n@@ <nope %d>\n-<line %d>\n+x\n*** End Patch\n\n", i, i)
	}},
}

// editFormatWork checks k edits of the family against a file of lines
// lines and returns the work its texts did and the bytes allocated.
func editFormatWork(t *testing.T, fam editFormatFamily, k, lines int) (int, uint64) {
	t.Helper()
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "big.txt"), []byte(fam.file(lines)), 0o644); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for i := range k {
		fam.doc(&b, i, lines)
	}
	doc, err := grammar.Parse(context.Background(), "edit.md", []byte(b.String()), grammar.Options{Dialect: fam.dialect})
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Actions) != k {
		t.Fatalf("%s: %d actions, want %d", fam.name, len(doc.Actions), k)
	}
	c, err := newChecker(doc, root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	c.cap.NoLimit = true // every diagnostic, each looked at
	texts := map[*text]bool{}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for _, a := range doc.Actions {
		c.action(context.Background(), a)
		if buf := c.kept[c.o.intern("big.txt")]; buf != nil {
			texts[buf] = true
		}
	}
	runtime.ReadMemStats(&after)
	errs := 0
	for _, d := range c.diags {
		if d.Severity == ast.Error {
			if d.Code != fam.code {
				t.Fatalf("%s: %s", fam.name, d.Format("edit.md"))
			}
			errs++
		}
	}
	if errs != k {
		t.Fatalf("%s: %d %s errors, want %d", fam.name, errs, fam.code, k)
	}
	total := c.closestWork
	for buf := range texts {
		total += buf.work
	}
	return total, after.TotalAlloc - before.TotalAlloc
}

// TestEditFormatsLinear: k failing SEARCH/REPLACE blocks, unified-diff
// hunks and apply_patch hunks against one file of k lines cost O(k) in
// all (work counted by the texts and the closest-region search, and bytes
// allocated, ×4 or so from k to 4k), not a pass over the file each.
func TestEditFormatsLinear(t *testing.T) {
	const k = 500
	for _, fam := range editFormatFamilies {
		t.Run(fam.name, func(t *testing.T) {
			w1, a1 := editFormatWork(t, fam, k, 2*k)
			w4, a4 := editFormatWork(t, fam, 4*k, 8*k)
			t.Logf("work %d → %d (×%.2f), bytes %d → %d (×%.2f)", w1, w4, float64(w4)/float64(w1), a1, a4, float64(a4)/float64(a1))
			if r := float64(w4) / float64(w1); r > 6 {
				t.Errorf("work grows ×%.2f from %d failing edits to %d; linear is about ×4, quadratic ×16", r, k, 4*k)
			}
			if r := float64(a4) / float64(a1); r > 7 {
				t.Errorf("bytes allocated grow ×%.2f from %d failing edits to %d; linear is about ×4, quadratic ×16", r, k, 4*k)
			}
		})
	}
}

// BenchmarkEditFormatsFailing: k failing SEARCH/REPLACE blocks, udiff and
// apply_patch hunks (each family of editFormatFamilies) against a file of
// 2k lines, at k = 500, 1000, 2000.
func BenchmarkEditFormatsFailing(b *testing.B) {
	for _, fam := range editFormatFamilies {
		for _, k := range []int{500, 1000, 2000} {
			b.Run(fmt.Sprintf("%s/k=%d", fam.name, k), func(b *testing.B) {
				root := b.TempDir()
				if err := os.WriteFile(filepath.Join(root, "big.txt"), []byte(fam.file(2*k)), 0o644); err != nil {
					b.Fatal(err)
				}
				var sb strings.Builder
				for i := range k {
					fam.doc(&sb, i, 2*k)
				}
				doc, err := grammar.Parse(context.Background(), "edit.md", []byte(sb.String()), grammar.Options{Dialect: fam.dialect})
				if err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				for b.Loop() {
					if got := countDiags(Check(context.Background(), doc, root, Options{})); got < k {
						b.Fatalf("%d diagnostics, want %d", got, k)
					}
				}
			})
		}
	}
}

// oneFileHunksWork checks one unified diff of k one-line hunks (-a +b at
// lines 1..k, numbered) against a file of k+10 lines "a", and returns the
// work its text did.
func oneFileHunksWork(t testing.TB, k int) int {
	t.Helper()
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "x"), []byte(strings.Repeat("a\n", k+10)), 0o644); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("--- a/x\n+++ b/x\n")
	for i := 1; i <= k; i++ {
		fmt.Fprintf(&b, "@@ -%d,1 +%d,1 @@\n-a\n+b\n", i, i)
	}
	doc, err := grammar.Parse(context.Background(), "x.diff", []byte(b.String()), grammar.Options{Dialect: grammar.DialectUdiff})
	if err != nil || len(doc.Actions) != 1 {
		t.Fatalf("%v, %d actions", err, len(doc.Actions))
	}
	c, err := newChecker(doc, root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	c.action(context.Background(), doc.Actions[0])
	for _, d := range c.diags {
		if d.Severity == ast.Error {
			t.Fatalf("%s", d.Format("x.diff"))
		}
	}
	f := c.cur(c.o.intern("x"))
	if f == nil || f.buf == nil {
		t.Fatal("x was not edited")
	}
	if got := f.buf.String(); got != strings.Repeat("b\n", k)+strings.Repeat("a\n", 10) {
		t.Fatalf("x after the hunks: %.40q…", got)
	}
	return f.buf.work
}

// TestOneFileManyHunksLinear: a diff of one file with k one-line hunks
// whose lines are all alike ("a") costs O(k): each hunk is found near
// where the previous one ended (text.scanMatch). The text was built whole
// for each hunk (work ×16 from k to 4k; 13k hunks took 1.5 s, 333k 76 s),
// and then the line index ranked every line "a" left before each hunk.
func TestOneFileManyHunksLinear(t *testing.T) {
	w1 := oneFileHunksWork(t, 1000)
	w4 := oneFileHunksWork(t, 4000)
	t.Logf("work %d → %d (×%.2f)", w1, w4, float64(w4)/float64(w1))
	if r := float64(w4) / float64(w1); r > 6 {
		t.Errorf("work grows ×%.2f from 1000 hunks to 4000; linear is about ×4, quadratic ×16", r)
	}
}

// BenchmarkOneFileManyHunks: a diff of one file with k one-line hunks
// (oneFileHunksWork), at k = 1000, 2000, 4000: time and memory grow
// linearly.
func BenchmarkOneFileManyHunks(b *testing.B) {
	for _, k := range []int{1000, 2000, 4000} {
		b.Run(fmt.Sprintf("hunks=%d", k), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				oneFileHunksWork(b, k)
			}
		})
	}
}

// TestHunksOfBothForms pins that hunksOf reads an action's hunks the same
// way as the parser made them ([]any of grammar.Hunk, taken as they are)
// and read back from JSON (decoded), exact bytes included.
func TestHunksOfBothForms(t *testing.T) {
	src := "--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@ f\n ctx \xff\n-old\n+new\n@@ -9 +9 @@\n-a\n+b\n"
	doc, err := grammar.Parse(context.Background(), "x.diff", []byte(src), grammar.Options{Dialect: grammar.DialectUdiff})
	if err != nil || len(doc.Actions) != 1 {
		t.Fatalf("%v, %d actions", err, len(doc.Actions))
	}
	direct := hunksOf(doc.Actions[0])
	data, err := doc.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	var back ast.Document
	if err := ast.UnmarshalExact(data, &back); err != nil {
		t.Fatal(err)
	}
	decoded := hunksOf(back.Actions[0])
	if len(direct) != 2 || fmt.Sprintf("%+v", derefHunks(direct)) != fmt.Sprintf("%+v", derefHunks(decoded)) {
		t.Fatalf("in memory %+v\nfrom JSON %+v", derefHunks(direct), derefHunks(decoded))
	}
	if direct[0].Old != "ctx \xff\nold\n" {
		t.Errorf("old text %q", direct[0].Old)
	}
}

// derefHunks shows hunks with their numbers, not their pointers.
func derefHunks(hs []grammar.Hunk) []string {
	var out []string
	n := func(p *int) int {
		if p == nil {
			return -1
		}
		return *p
	}
	for _, h := range hs {
		out = append(out, fmt.Sprintf("%d,%d %d,%d %q %q %q %q %v", n(h.OldStart), n(h.OldLines), n(h.NewStart), n(h.NewLines), h.Section, h.Context, h.Old, h.New, h.EndOfFile))
	}
	return out
}
