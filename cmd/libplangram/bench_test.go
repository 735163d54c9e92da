package main

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/lint"
	"github.com/plangram/plangram/stream"
)

// BenchmarkParseJSON10MB is the Go side of docs/benchmarks.md's Python
// row: examples/acts.md repeated to 10 MB, parsed and written as JSON as
// plangram_parse does (python/benchmarks/bench.py times the same input
// through the Python binding).
func BenchmarkParseJSON10MB(b *testing.B) {
	one, err := os.ReadFile("../../examples/acts.md")
	if err != nil {
		b.Fatal(err)
	}
	src := bytes.Repeat(one, (10<<20)/len(one)+1)
	opts := grammar.Options{Dialect: grammar.DialectAuto, ReadTools: stream.ReadDocument}
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		doc, err := grammar.Parse(context.Background(), lint.StdinName, src, opts)
		if err != nil {
			b.Fatal(err)
		}
		doc.Diagnostics = lint.Suppress(doc, src, doc.Diagnostics, nil)
		var out bytes.Buffer
		if err := ast.WriteJSON(&out, doc, false); err != nil {
			b.Fatal(err)
		}
	}
}
