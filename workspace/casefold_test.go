package workspace_test

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/schema"
	"github.com/plangram/plangram/workspace"
)

// Find the paths of a plan that name one file on macOS and Windows.
func ExampleCaseCollisions() {
	plan := "~~~act\nwrite_file README.md\n~~~\n~~~\nhi\n~~~\n" +
		"~~~act\nwrite_file Readme.md\n~~~\n~~~\nho\n~~~\n"
	cases := workspace.NewCaseCollisions("acts", nil)
	doc, _ := grammar.Parse(context.Background(), "plan.md", []byte(plan), grammar.Options{})
	for _, a := range doc.Actions {
		cases.Action(a)
	}
	// A second pass finds the line of the earlier path of a warning.
	for _, d := range cases.Diagnostics() {
		fmt.Println(d.Format("plan.md"))
	}
	// Output:
	// plan.md:8:12: warning: write_file's path "Readme.md" and the path at line 2 differ only in letter case (or Unicode normalization): on a case-insensitive file system (macOS, Windows) both name the same file or directory; write them the same way [case-collision]
}

// caseLines checks a plan of read_file actions, one per path, and returns
// the actions (numbered from 1) of its case-collision diagnostics as
// "n:severity".
func caseLines(t *testing.T, paths ...string) []string {
	t.Helper()
	var b strings.Builder
	for _, p := range paths {
		fmt.Fprintf(&b, "~~~act\nread_file %q\n~~~\n", p)
	}
	cases := workspace.NewCaseCollisions("acts", nil)
	doc, err := grammar.Parse(context.Background(), "p.md", []byte(b.String()), grammar.Options{})
	if err != nil || len(doc.Diagnostics) > 0 {
		t.Fatalf("parse: %v %v", err, doc.Diagnostics)
	}
	for _, a := range doc.Actions {
		cases.Action(a)
	}
	var out []string
	for _, d := range cases.Diagnostics() {
		out = append(out, fmt.Sprintf("%d:%s", (d.Span.Start.Line+1)/3, d.Severity))
	}
	return out
}

// TestCaseCollisions pins the folding rule: simple case folding of every
// script (strings.EqualFold's), NFC, `\` and `.`/`..` cleaned, directories
// on the way, each new spelling once.
func TestCaseCollisions(t *testing.T) {
	for _, tc := range []struct {
		name  string
		paths []string
		want  string // the actions reported (numbered from 1), "n:severity"
	}{
		{"ascii", []string{"Foo.go", "foo.go"}, "2:warning"},
		{"same twice", []string{"foo.go", "foo.go", "./foo.go", "a/../foo.go"}, ""},
		{"each spelling once", []string{"a.txt", "A.txt", "A.txt", "a.TXT", "a.txt"}, "2:warning 4:warning"},
		{"backslash", []string{`dir\x.go`, "DIR/x.go"}, "2:warning"},
		{"directory", []string{"src/a.go", "Src/b.go"}, "2:warning"},
		{"file and directory", []string{"build", "Build/out.txt"}, "2:warning"},
		{"greek", []string{"Σίσυφος.txt", "σίσυφος.txt", "ΣΊΣΥΦΟΣ.txt"}, "2:warning 3:warning"},
		{"kelvin sign", []string{"k.txt", "\u212a.txt"}, "2:warning"},
		{"long s", []string{"s.txt", "\u017f.txt"}, "2:warning"},
		{"nfc", []string{"caf\u00e9", "cafe\u0301"}, "2:warning"},
		{"cyrillic", []string{"Файл", "файл"}, "2:warning"},
		{"different", []string{"a.go", "b.go", "a.go.orig", "ab/a.go"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := caseLines(t, tc.paths...)
			if s := strings.Join(got, " "); s != tc.want {
				t.Errorf("%q: got %q, want %q", tc.paths, s, tc.want)
			}
		})
	}
}

// TestCaseCollisionsUnbounded: there is no limit on the names compared
// (there were 16,384): names far past it are compared with each other and
// with the first ones, and each warning names the line of the earlier path.
func TestCaseCollisionsUnbounded(t *testing.T) {
	const n = 1 << 16
	paths := make([]string, 0, n+4)
	for i := range n {
		paths = append(paths, fmt.Sprintf("d%d/f%d", i%97, i))
	}
	paths = append(paths, "F7", "g1", "D3/x", "G1", "f7", "d96/F1")
	got := strings.Join(caseLines(t, paths...), " ")
	want := fmt.Sprintf("%d:warning %d:warning %d:warning", n+3, n+4, n+5)
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestCaseCollisionsMessageLine: the warning names the line of the first
// path of the other spelling.
func TestCaseCollisionsMessageLine(t *testing.T) {
	plan := "~~~act\nread_file a/b.txt\n~~~\n~~~act\nread_file c.txt\n~~~\n~~~act\nread_file A/x.txt\n~~~\n"
	cases := workspace.NewCaseCollisions("acts", nil)
	doc, err := grammar.Parse(context.Background(), "p.md", []byte(plan), grammar.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range doc.Actions {
		cases.Action(a)
	}
	if m := cases.Diagnostics()[0].Message; !strings.Contains(m, `"A/x.txt" (its directory "A") and the path at line 2 differ`) {
		t.Errorf("message: %s", m)
	}
}

// TestCaseCollisionsLinear: the allocations of the rule grow linearly with
// the names (n and 4n distinct paths, with directories), counted, not
// timed.
func TestCaseCollisionsLinear(t *testing.T) {
	measure := func(n int) (allocs, bytes uint64) {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "~~~act\nread_file src/p%d/f%d.go\n~~~\n", i%50, i)
		}
		doc, err := grammar.Parse(context.Background(), "p.md", []byte(b.String()), grammar.Options{})
		if err != nil {
			t.Fatal(err)
		}
		cases := workspace.NewCaseCollisions("acts", nil)
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		for _, a := range doc.Actions {
			cases.Action(a)
		}
		runtime.ReadMemStats(&m1)
		if d := cases.Diagnostics(); len(d) != 0 {
			t.Fatalf("unexpected %v", d[0])
		}
		return m1.Mallocs - m0.Mallocs, m1.TotalAlloc - m0.TotalAlloc
	}
	const n = 20000
	a1, b1 := measure(n)
	a4, b4 := measure(4 * n)
	t.Logf("n=%d: %d allocs, %d bytes; 4n: %d allocs, %d bytes", n, a1, b1, a4, b4)
	if a4 > 4*a1+4*a1/10+1000 {
		t.Errorf("allocations: %d for n, %d for 4n: more than linear", a1, a4)
	}
	if b4 > 4*b1+4*b1/10+1<<20 {
		t.Errorf("bytes allocated: %d for n, %d for 4n: more than linear", b1, b4)
	}
}

// BenchmarkCaseCollisions: the rule over n, 2n and 4n distinct paths in 50
// directories (time and allocations per op grow linearly; the table is
// outside the heap).
func BenchmarkCaseCollisions(b *testing.B) {
	for _, n := range []int{25000, 50000, 100000} {
		var sb strings.Builder
		for i := range n {
			fmt.Fprintf(&sb, "~~~act\nread_file src/p%d/f%d.go\n~~~\n", i%50, i)
		}
		doc, err := grammar.Parse(context.Background(), "p.md", []byte(sb.String()), grammar.Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("paths=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				cases := workspace.NewCaseCollisions("acts", nil)
				for _, a := range doc.Actions {
					cases.Action(a)
				}
			}
		})
	}
}

// TestCaseCollisionsListNotCopied pins that the rule reads a list of many
// paths one at a time: it held a copy of each path argument (104 bytes a
// path) for the length of the action, 4.2 MB of a 1 MB list.
func TestCaseCollisionsListNotCopied(t *testing.T) {
	s, err := schema.Builtin("plan")
	if err != nil {
		t.Fatal(err)
	}
	allocated := func(n int) uint64 {
		paths := make([]string, n)
		for i := range paths {
			paths[i] = "src/a.py" // one name: the rule's table does not grow
		}
		sp := ast.Span{}
		a := &ast.Action{Name: "INVOKE", Params: ast.Params{{Name: "handoff_resources", Value: paths, Span: &sp}}}
		cases := workspace.NewCaseCollisions("plan", s)
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		base := ms.TotalAlloc
		cases.Action(a)
		runtime.ReadMemStats(&ms)
		return ms.TotalAlloc - base
	}
	const n = 20000
	small, large := allocated(n), allocated(4*n)
	per := (max(large, small) - small) / (3 * n)
	t.Logf("%d KiB for %d paths, %d KiB for %d: %d bytes a path", small>>10, n, large>>10, 4*n, per)
	if per > 32 {
		t.Errorf("the rule allocated %d bytes a path of a list", per)
	}
}
