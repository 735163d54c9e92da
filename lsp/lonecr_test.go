package lsp

import (
	"testing"

	"go.lsp.dev/uri"

	"github.com/plangram/plangram/lsp/internal/protocol"
)

// TestLoneCRError checks that the language server shows the lone-cr error
// of a lone CR that hides an act block (docs/acts.md, "Lone CRs") at the
// CR: line 2, column 13 (0-based: 2, 12).
func TestLoneCRError(t *testing.T) {
	s := start(t, Options{NoWorkspace: true})
	s.initialize("")
	u := uri.URI("file:///tmp/plan.md")
	s.open(u, "Build it.\n\nThen deploy:\r```act\rrun_command \"make deploy\"\r```\r\n")
	p := s.waitDiags(u, 1)
	found := false
	for _, d := range p.Diagnostics {
		if d.Code == "lone-cr" {
			found = true
			if d.Severity != protocol.SeverityError || d.Range.Start.Line != 2 || d.Range.Start.Character != 12 {
				t.Errorf("lone-cr diagnostic %+v, want an error at 2:12", d)
			}
		}
	}
	if !found {
		t.Fatalf("diagnostics = %+v, want a lone-cr error", p.Diagnostics)
	}
	s.exit()
}
