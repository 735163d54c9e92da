package workspace

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/internal/corpus"
)

// TestCheckerAsCheck pins Checker to Check: fed the actions one at a time
// (by grammar.Options.OnAction, so the document keeps none), it finds the
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
		// Without the source, with it (the overlay keeps offsets into
		// it), and with it and the parser reusing the memory of each
		// action for the next (the Checker keeps nothing of an action).
		for _, v := range []struct {
			source, reuse bool
		}{{false, false}, {true, false}, {true, true}} {
			o := opts
			if v.source {
				o.Source = src
			}
			k := NewChecker(root, dialect, o)
			lean, err := grammar.Parse(ctx, "plan.md", src, grammar.Options{Dialect: dialect, ReuseActions: v.reuse,
				OnAction: func(a *ast.Action) { k.Action(ctx, a) }})
			if err != nil {
				t.Fatal(err)
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
	t.Run("bad-root", func(t *testing.T) {
		compare(t, []byte("~~~act\nread_file a\n~~~\n"), grammar.DialectActs, filepath.Join(t.TempDir(), "missing"), Options{})
	})
}
