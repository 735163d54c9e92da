package grammar

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/internal/testkit/corpus"
	"github.com/plangram/plangram/lexer"
)

// TestOnActionSameDocument pins Options.OnAction: over the whole corpus
// (every dialect Parse detects, each fence mode) and generated documents,
// the actions handed over are the document's actions, in order, and the
// document keeps the same diagnostics, blocks, span and plan fields, with
// no actions and no prose; with ReuseActions too.
func TestOnActionSameDocument(t *testing.T) {
	ctx := context.Background()
	inputs := actsInputs(t)
	inputs["corpus.Plan(100000)"] = corpus.Plan(100_000)
	inputs["not UTF-8"] = []byte("~~~act\nwrite_file a\n~~~\n~~~\n\xff\xfe ok\n~~~\n```act\nrun_command x\n```\n")
	for name, src := range inputs {
		for _, fence := range []byte{0, lexer.Tilde, lexer.Backtick} {
			opts := Options{Fence: fence}
			whole, err := Parse(ctx, name, src, opts)
			if err != nil {
				t.Fatal(err)
			}
			var got []*ast.Action
			opts.OnAction = func(a *ast.Action) { got = append(got, a) }
			lean, err := Parse(ctx, name, src, opts)
			if err != nil {
				t.Fatal(err)
			}
			if len(lean.Actions) != 0 || len(lean.Prose) != 0 {
				t.Errorf("%s (fence %q): OnAction document keeps %d actions, %d prose", name, fence, len(lean.Actions), len(lean.Prose))
			}
			if len(got) != len(whole.Actions) {
				t.Fatalf("%s (fence %q): %d actions handed over, want %d", name, fence, len(got), len(whole.Actions))
			}
			for i := range got {
				if !reflect.DeepEqual(got[i], whole.Actions[i]) {
					t.Fatalf("%s (fence %q): action %d differs:\n got %+v\nwant %+v", name, fence, i, got[i], whole.Actions[i])
				}
			}
			// ReuseActions: each action, read before the next fills its
			// memory again, is the same in JSON (nil and empty slices
			// both print as []).
			i := 0
			opts.ReuseActions = true
			opts.OnAction = func(a *ast.Action) {
				got, err1 := a.MarshalJSON()
				want, err2 := whole.Actions[i].MarshalJSON()
				if err1 != nil || err2 != nil || string(got) != string(want) {
					t.Fatalf("%s (fence %q): reused action %d differs:\n got %s\nwant %s", name, fence, i, got, want)
				}
				i++
			}
			reused, err := Parse(ctx, name, src, opts)
			if err != nil {
				t.Fatal(err)
			}
			if i != len(whole.Actions) || !reflect.DeepEqual(reused, lean) {
				t.Fatalf("%s (fence %q): with ReuseActions %d actions, document differs", name, fence, i)
			}
			whole.Actions, whole.Prose = nil, nil
			if !reflect.DeepEqual(lean, whole) {
				a, _ := ast.JSON(lean)
				b, _ := ast.JSON(whole)
				t.Fatalf("%s (fence %q): documents differ:\n got %s\nwant %s", name, fence, a, b)
			}
		}
	}
}

// TestOnBlockSameDocument: with OnAction and OnBlock, the acts dialect
// hands over each block that belongs to no action, in order, as the whole
// parse has it in Blocks (base64 of content that is not UTF-8 included),
// keeps none, and says the same; with ReuseActions each block handed over
// reads the same before its memory is filled again.
func TestOnBlockSameDocument(t *testing.T) {
	ctx := context.Background()
	inputs := actsInputs(t)
	inputs["not UTF-8"] = []byte("~~~\n\xff\xfe\n~~~\n~~~act\nwrite_file a\n~~~\n~~~\n\xff\xfe ok\n~~~\n")
	inputs["many before the first act"] = []byte(strings.Repeat("```\nx\n```\n", 3*MaxPerCode) + "```act\nrun_command ls\n```\n")
	inputs["no act"] = []byte(strings.Repeat("```sh\nls\n```\n", 3*MaxPerCode))
	for name, src := range inputs {
		if DialectOf(src, Options{}) != DialectActs {
			continue
		}
		for _, reuse := range []bool{false, true} {
			whole, err := Parse(ctx, name, src, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			opts := Options{ReuseActions: reuse, OnAction: func(*ast.Action) {}, OnBlock: func(b *ast.Block) {
				j, err := json.Marshal(b)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, string(j))
			}}
			lean, err := Parse(ctx, name, src, opts)
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, b := range whole.Blocks {
				j, _ := json.Marshal(b)
				want = append(want, string(j))
			}
			if !slices.Equal(got, want) || len(lean.Blocks) != 0 {
				t.Fatalf("%s (reuse %v): %d blocks handed over, %d kept, want the %d of the document", name, reuse, len(got), len(lean.Blocks), len(want))
			}
			if !reflect.DeepEqual(lean.Diagnostics, whole.Diagnostics) {
				a, _ := json.Marshal(lean.Diagnostics)
				b, _ := json.Marshal(whole.Diagnostics)
				t.Fatalf("%s (reuse %v): diagnostics differ:\n got %s\nwant %s", name, reuse, a, b)
			}
		}
	}
}
