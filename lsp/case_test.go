package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/uri"

	"github.com/plangram/plangram/lsp/internal/protocol"
)

// TestCaseCollisionOnDisk: the language server, whose workspace folder is
// the root, gives the case-collision warnings of `check --root`: a path
// spelt like a name already on disk but for case names it, and the
// warning between two paths of the plan names the earlier one's line.
func TestCaseCollisionOnDisk(t *testing.T) {
	root := workspaceRoot(t) // has src/app.py
	if err := os.WriteFile(filepath.Join(root, "README.md"), []byte("# hi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := start(t, Options{})
	s.initialize(root)
	u := uri.File(filepath.Join(root, "acts.md"))
	s.open(u, "~~~act\nwrite_file readme.md\n~~~\n~~~\nx\n~~~\n~~~act\nread_file SRC/app.py\n~~~\n~~~act\nread_file README.md\n~~~\n")
	p := s.waitDiags(u, 1)
	var got []string
	for _, d := range p.Diagnostics {
		if d.Code == "case-collision" {
			got = append(got, fmt.Sprint(d.Message))
			if d.Severity != protocol.SeverityWarning {
				t.Errorf("severity %v: %s", d.Severity, d.Message)
			}
		}
	}
	want := []string{`"readme.md" and the file "README.md" already in the workspace`, `"SRC/app.py" (its directory "SRC") and the directory "src" already in the workspace`,
		`"README.md" and the path at line 2 differ`} // the plan's own readme.md
	if len(got) != len(want) {
		t.Fatalf("case-collision diagnostics: %q", got)
	}
	for i := range want {
		if !strings.Contains(got[i], want[i]) {
			t.Errorf("got %s\nwant it to contain %s", got[i], want[i])
		}
	}
	s.exit()
}
