package format

import (
	"bytes"
	"context"
	"fmt"
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
// document tree at a time (docs/benchmarks.md, "Memory"): when reparse is
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
