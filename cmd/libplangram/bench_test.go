package main

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/internal/testkit/corpus"
	"github.com/plangram/plangram/lint"
	"github.com/plangram/plangram/stream"
)

// BenchmarkParseJSON10MB is the Go side of docs/benchmarks.md's Python
// row: 10 MB of acts (grammar's BenchmarkParseJSON input), parsed and
// written as JSON as plangram_parse does. With $PLANGRAM_BENCH_INPUT set it
// writes the input there, for python/benchmarks/bench.py to time the same
// bytes through the Python binding.
func BenchmarkParseJSON10MB(b *testing.B) {
	src := corpus.Acts(10 << 20)
	if f := os.Getenv("PLANGRAM_BENCH_INPUT"); f != "" {
		if err := os.WriteFile(f, src, 0o644); err != nil {
			b.Fatal(err)
		}
	}
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
