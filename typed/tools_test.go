package typed_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/stream"
	"github.com/plangram/plangram/typed/tools"
)

// TestDecodeStreamGolden streams every input of the stream corpus
// (golden/stream/*.txt but acts_* and the syntaxes with their own
// schema) in its syntax (SYNTAX_case.txt, else
// tools; all read the tools schema) and pins each tool call decoded into
// its typed form (golden/typed/tools.golden). Calls the stream reports no
// error for must decode.
func TestDecodeStreamGolden(t *testing.T) {
	files, err := filepath.Glob("../golden/stream/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	var all strings.Builder
	for _, f := range files {
		syntax := "tools"
		if pre, _, ok := strings.Cut(filepath.Base(f), "_"); ok && slices.Contains(stream.SyntaxNames(), pre) {
			syntax = pre
		}
		switch syntax {
		case "acts", "openai-chat", "openai-responses", "anthropic", "llama-builtin":
			continue // the provider API syntaxes type calls only by a given schema (--tools); llama-builtin's tools are not package tools's
		}
		if syn, err := stream.LookupSyntax(syntax); err == nil && syn.Schema != "tools" {
			continue // a syntax with its own schema (the edit formats)
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		all.WriteString("== " + filepath.Base(f) + "\n")
		failed := map[int]bool{} // calls with error events
		var calls []*ast.Action
		var ids []int
		err = stream.Parse(context.Background(), bytes.NewReader(src), 0, stream.Options{Syntax: syntax}, func(e *stream.Event) error {
			switch e.Type {
			case stream.Error:
				failed[e.ID] = true
			case stream.ToolCall:
				calls = append(calls, &ast.Action{Name: e.Name, Params: e.Params, Span: e.Span})
				ids = append(ids, e.ID)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for i, a := range calls {
			x, err := tools.DecodeAction(a)
			var got string
			if err != nil {
				got = summary[tools.Action](nil, err)
			} else {
				got = summary([]tools.Action{x}, nil)
			}
			if err != nil && !failed[ids[i]] {
				t.Errorf("%s: call %d has no stream error but does not decode: %v", f, ids[i], err)
			}
			all.WriteString(got)
		}
	}
	g := goldie.New(t, goldie.WithFixtureDir("../golden/typed"), goldie.WithNameSuffix(".golden"))
	g.Assert(t, "tools", []byte(all.String()))
}
