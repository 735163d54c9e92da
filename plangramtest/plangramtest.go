// Package plangramtest pins what plangram makes of model output in Go
// tests, as httptest serves net/http's: Golden and GoldenStream write the
// golden format of package golden (the one `plangram test` writes and
// checks) to the caller's testdata/ with goldie, which `go test -update`
// rewrites, and report a mismatch as the semantic difference (golden.Diff:
// actions added, removed, moved, params changed), not as a text diff.
package plangramtest

import (
	"testing"

	"github.com/sebdah/goldie/v2"

	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/plangramtest/golden"
	"github.com/plangram/plangram/stream"
)

// Golden parses src as grammar.Parse does with opts (at most one; the
// zero Options detect the dialect) and checks its golden against
// testdata/NAME.golden; name also names src in positions.
func Golden(t testing.TB, name string, src []byte, opts ...grammar.Options) {
	t.Helper()
	var o grammar.Options
	if len(opts) > 0 {
		o = opts[0]
	}
	if o.ReadTools == nil {
		o.ReadTools = stream.ReadDocument
	}
	doc, err := grammar.Parse(t.Context(), name, src, o)
	if err != nil {
		t.Fatalf("plangramtest: %v", err)
	}
	check(t, name, golden.Document(doc))
}

// GoldenStream feeds chunks to a stream parser (syntax auto) and checks
// the golden of its events against testdata/NAME.golden. The golden is
// the same however the stream is cut into chunks.
func GoldenStream(t testing.TB, name string, chunks ...string) {
	t.Helper()
	data, err := golden.Stream(stream.Options{Syntax: stream.Auto}, chunks...)
	if err != nil {
		t.Fatalf("plangramtest: %v", err)
	}
	check(t, name, data)
}

func check(t testing.TB, name string, data []byte) {
	t.Helper()
	gd := goldie.New(t, goldie.WithFixtureDir("testdata"), goldie.WithNameSuffix(".golden"), goldie.WithDiffFn(Differ))
	gd.Assert(t, name, data)
}

// Differ is a goldie DiffFn: the semantic difference of two goldens
// (golden.Text of golden.Diff from expected to actual), or why one cannot
// be read.
func Differ(actual, expected string) string {
	old, err := golden.Parse([]byte(expected))
	if err != nil {
		return "the golden file: " + err.Error()
	}
	g, err := golden.Parse([]byte(actual))
	if err != nil {
		return err.Error()
	}
	return golden.Text(golden.Diff(old, g))
}
