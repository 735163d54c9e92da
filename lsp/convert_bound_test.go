package lsp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"go.lsp.dev/uri"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/internal/textpos"
)

// TestPublishedDiagnosticsBounded pins issue 10's LSP blow-up: a 15 KB plan
// of `##` headings was published as one 118 MB message. The plan's
// diagnostics are bounded (one AST diff, 100 per code) and a detail adds at
// most maxDetailLines lines to its message.
func TestPublishedDiagnosticsBounded(t *testing.T) {
	src := []byte("# T\n\n## Action Plan\n" + strings.Repeat("## x\n", 3000))
	doc, err := grammar.Parse(context.Background(), "h.md", src, grammar.Options{})
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(toDiagnostics(uri.File("/h.md"), textpos.New(src), doc.Diagnostics))
	if err != nil {
		t.Fatal(err)
	}
	if len(data) > 4*len(src) {
		t.Errorf("%d bytes of plan publish %d bytes of diagnostics", len(src), len(data))
	}
	big := &ast.Diagnostic{Message: "m", Detail: strings.Repeat("line\n", 5000)}
	pd := toDiagnostics(uri.File("/h.md"), textpos.New(src), []*ast.Diagnostic{big})
	if n := strings.Count(pd[0].Message, "\n"); n > maxDetailLines+1 {
		t.Errorf("a 5,000-line detail adds %d lines to the message", n)
	}
}
