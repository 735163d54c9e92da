package workspace

import (
	"context"
	"fmt"
	"hash/maphash"
	"strings"
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/internal/testkit/corpus"
)

func codes(ds []*ast.Diagnostic, code string) []*ast.Diagnostic {
	var out []*ast.Diagnostic
	for _, d := range ds {
		if d.Code == code {
			out = append(out, d)
		}
	}
	return out
}

// TestDirBudget pins CodeTooManyDirectories: a plan of distinct deep
// paths keeps at most dirBudget directories in the case table and in the
// overlay, whatever its size; without a root the case rule still compares
// later paths with the names it kept, with a root the workspace rules stop
// with an error; a plan under the budget gets neither.
func TestDirBudget(t *testing.T) {
	// The first path's first directory is named again in another case
	// after the budget is spent: still found. The patch_file of a missing
	// file after the stop is not checked.
	tail := "~~~act\nwrite_file " + "Z/late.txt\n~~~\n~~~\nx\n~~~\n\n~~~act\npatch_file missing.txt\n~~~\n~~~\na\n~~~\n~~~\nb\n~~~\n"
	src := corpus.DeepPaths(60, 1900)
	first := strings.ToUpper(string(src[len("~~~act\nwrite_file ")]))
	src = append(src, strings.Replace(tail, "Z/", first+"/", 1)...)
	doc, err := grammar.Parse(context.Background(), "deep.md", src, grammar.Options{Dialect: grammar.DialectActs})
	if err != nil {
		t.Fatal(err)
	}
	budget := dirBudget(len(src))

	cc := NewCaseCollisions(doc.Dialect, nil)
	for _, a := range doc.Actions {
		cc.Action(a)
	}
	if cc.dirs > budget {
		t.Errorf("case table kept %d directories, budget %d", cc.dirs, budget)
	}
	slots := 0
	for _, s := range cc.names.shards {
		slots += len(s.slots)
	}
	if limit := 2 * (budget + len(doc.Actions)); slots > limit {
		t.Errorf("case table has %d slots for a budget of %d", slots, budget)
	}
	cc.Close()
	ds := cc.Diagnostics()
	if w := codes(ds, CodeTooManyDirectories); len(w) != 1 || w[0].Severity != ast.Warning {
		t.Fatalf("want one too-many-directories warning, got %v", w)
	}
	if c := codes(ds, CodeCaseCollision); len(c) != 1 || !strings.Contains(c[0].Message, `"`+first+`/late.txt" (its directory "`+first+`")`) {
		t.Errorf("the kept directory's other spelling is not reported after the budget: %v", c)
	}

	c, err := newChecker(doc, t.TempDir(), Options{Source: src})
	if err != nil {
		t.Fatal(err)
	}
	defer c.o.mem.free()
	for _, a := range doc.Actions {
		c.action(context.Background(), a)
	}
	// The action that passes the budget adds its own directories first.
	if c.o.n > budget+1900+len(doc.Actions) {
		t.Errorf("overlay holds %d entries, budget %d", c.o.n, budget)
	}
	stop := codes(c.diags, CodeTooManyDirectories)
	if len(stop) != 1 || stop[0].Severity != ast.Error {
		t.Fatalf("want one too-many-directories error, got %v", c.diags)
	}
	if n := len(codes(c.diags, CodeFileNotFound)); n != 0 {
		t.Errorf("the workspace rules went on after the stop: %d file-not-found", n)
	}

	// A plan of many files in shared directories is far from the budget.
	plain := manyFilesPlan(20000)
	pdoc, err := grammar.Parse(context.Background(), "plain.md", plain, grammar.Options{Dialect: grammar.DialectActs})
	if err != nil {
		t.Fatal(err)
	}
	if ds := Check(context.Background(), pdoc, t.TempDir(), Options{Source: plain}); len(codes(ds, CodeTooManyDirectories)) != 0 {
		t.Error("a plain plan passed the budget")
	}
}

// BenchmarkCheckDistinctDeepPaths: n, 2n and 4n write_file actions whose
// paths are 1,900 distinct one-letter directories (one per two bytes),
// checked against an empty root with the case rule: time and memory grow
// linearly, as the directories kept stop at dirBudget (before it, 4n took
// 30× the plan's size in memory and 1.4 s per MB).
func BenchmarkCheckDistinctDeepPaths(b *testing.B) {
	for _, n := range []int{200, 400, 800} {
		src := corpus.DeepPaths(n, 1900)
		doc := parseBench(b, src)
		root := b.TempDir()
		b.Run(fmt.Sprintf("paths=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				cc := NewCaseCollisions(doc.Dialect, nil)
				for _, a := range doc.Actions {
					cc.Action(a)
				}
				cc.Close()
				if ds := Check(context.Background(), doc, root, Options{Source: src}); len(codes(ds, CodeTooManyDirectories)) != 1 {
					b.Fatalf("want one too-many-directories, got %d diagnostics", len(ds))
				}
			}
		})
	}
}

// TestPrefixHashes: the hash of each directory on a path, made from the
// one before, is the overlay's hash of that directory (prefixHashes).
func TestPrefixHashes(t *testing.T) {
	o := newOverlay(nil)
	for _, p := range []string{"a/b/c.txt", "/x", "a//b/", strings.Repeat("dir/", 100) + "f", string(corpus.DeepPaths(1, 300)[18:])} {
		sums := o.prefixes(p)
		for j := 0; j < len(p); j++ {
			if p[j] != '/' {
				continue
			}
			if got, want := sums.sum(j), maphash.String(o.seed, p[:j]); got != want {
				t.Fatalf("%.30q: the hash of %.30q is %x, want %x", p, p[:j], got, want)
			}
		}
	}
}
