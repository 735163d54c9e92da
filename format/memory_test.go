package format

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"weak"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/schema"
)

// messyPlan is a plan fmt rewrites (a title without its space, loose
// blank lines, a `*` metadata list), with n CREATE actions, so that its
// canonical form differs from it and is parsed again to be checked.
func messyPlan(n int) []byte {
	var b bytes.Buffer
	b.WriteString("#Plan\n\n\n* **Author:** x\n\n## Rationale\n\n```\nwhy\n```\n\n## Action Plan\n\n")
	for i := range n {
		fmt.Fprintf(&b, "### `CREATE`\n\n\n* **File Path:** f%d.py\n\n```python\nx = %d\n```\n\n", i, i)
	}
	return b.Bytes()
}

// TestPlanLetsTheTreeGo pins that plan lets go of the document it prints
// before it parses its canonical form again to check it, so fmt holds one
// document tree at a time (a 1 MB plan of 33k actions: 221 → 129 MB
// whole process; docs/benchmarks.md, "fmt memory"): when reparse is
// called, the input's tree must be collectable.
func TestPlanLetsTheTreeGo(t *testing.T) {
	src := messyPlan(50)
	opts := grammar.Options{Dialect: grammar.DialectPlan, Uncapped: true}
	doc := parse(t, src, opts)
	tree := weak.Make(doc)
	s, err := schema.Builtin(grammar.DialectPlan)
	if err != nil {
		t.Fatal(err)
	}
	calls, kept := 0, 0
	out, err := plan(doc, src, s, func(out []byte) (*ast.Document, error) {
		calls++
		runtime.GC()
		if tree.Value() != nil {
			kept++
		}
		return grammar.Parse(context.Background(), "fmt.md", out, opts)
	})
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(out, src) || calls == 0 {
		t.Fatalf("the plan was not rewritten (%d reparses): the test needs one that is", calls)
	}
	if kept > 0 {
		t.Errorf("the input's tree was still reachable at %d of %d reparses of its canonical form", kept, calls)
	}
}

// TestCanonicalIsSource pins that Canonical gives what Source gives: the
// same canonical form and the input's diagnostics, for plans, acts and
// every golden input of the edit formats (which Canonical reads one
// action at a time), in their dialect and detected.
func TestCanonicalIsSource(t *testing.T) {
	srcs := [][]byte{messyPlan(3), []byte("```act\nrun_comand\n```\n```\nls\n```\n"), []byte("# T\n\n### `FOO`\n")}
	for _, pat := range []string{"../golden/acts/*.md", "../golden/fmt/*.md", "../examples/*.md"} {
		files, _ := filepath.Glob(pat)
		for _, file := range files {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			srcs = append(srcs, src)
			for _, fence := range []byte{'`', '~'} {
				checkCanonicalIsSource(t, src, grammar.Options{Dialect: grammar.DialectActs, Fence: fence})
			}
		}
	}
	for _, d := range editDialects {
		files, _ := filepath.Glob("../golden/" + d + "/*.md")
		if len(files) == 0 {
			t.Fatalf("%s: no golden inputs", d)
		}
		for _, file := range files {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			checkCanonicalIsSource(t, src, grammar.Options{Dialect: d})
			srcs = append(srcs, src)
		}
	}
	for _, src := range srcs {
		checkCanonicalIsSource(t, src, grammar.Options{})
	}
}

// checkCanonicalIsSource checks that Canonical and Source agree on src.
func checkCanonicalIsSource(t testing.TB, src []byte, opts grammar.Options) {
	t.Helper()
	ctx := context.Background()
	out1, doc, err1 := Source(ctx, "x.md", src, opts)
	out2, diags, err2 := Canonical(ctx, "x.md", src, opts)
	if (err1 == nil) != (err2 == nil) {
		t.Fatalf("%q: Source's error %v, Canonical's %v", src, err1, err2)
	}
	if err1 != nil {
		return
	}
	if !bytes.Equal(out1, out2) {
		t.Errorf("%q (%s): Canonical gave\n%q\nSource\n%q", src, doc.Dialect, out2, out1)
	}
	if got, want := diagText(diags), diagText(doc.Diagnostics); got != want {
		t.Errorf("%q (%s): Canonical's diagnostics\n%s\nSource's\n%s", src, doc.Dialect, got, want)
	}
}

func diagText(ds []*ast.Diagnostic) string {
	var b bytes.Buffer
	for _, d := range ds {
		fmt.Fprintf(&b, "%+v\n", *d)
	}
	return b.String()
}
