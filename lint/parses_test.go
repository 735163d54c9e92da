package lint_test

import (
	"context"
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/lint"
	"github.com/plangram/plangram/stream"
)

// TestSourceParsesAtMostTwice: a check parses its input once, and a
// second time only when a directive comment or --disable silences
// something (the parser then drops it before counting it against the
// cap). The parses are counted through Options.ReadTools, which Parse
// calls once per parse of a tools document.
func TestSourceParsesAtMostTwice(t *testing.T) {
	const reply = "<read_file>\n<path>a.go</path>\n</read_file>\n"
	for _, c := range []struct {
		name    string
		src     string
		disable []string
		want    int
	}{
		{"plain", reply, nil, 1},
		{"--disable", reply, []string{"unknown-action"}, 1},
		{"a directive", "<!-- plangram-disable unknown-action -->\n" + reply, nil, 2},
		{"a directive and --disable", "<!-- plangram-disable unknown-action -->\n" + reply, []string{"x"}, 2},
		{"a directive that silences nothing", "<!-- plangram-disable -->\n" + reply, nil, 1},
	} {
		n := 0
		opts := lint.Options{Disable: c.disable}
		opts.Parse = grammar.Options{Dialect: grammar.DialectTools, ReadTools: func(ctx context.Context, name string, src []byte, o grammar.Options) (*ast.Document, error) {
			n++
			return stream.ReadDocument(ctx, name, src, o)
		}}
		if _, _, err := lint.Source(context.Background(), "r.md", []byte(c.src), opts); err != nil {
			t.Fatal(err)
		}
		if n != c.want {
			t.Errorf("%s: %d parses, want %d", c.name, n, c.want)
		}
	}
}
