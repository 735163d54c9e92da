package lint

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/plangram/plangram/grammar"
)

// TestDiagnosticTextValidUTF8: diagnostic text (message, detail, related
// notes) is valid UTF-8 whatever the input holds, so the text, JSON, SARIF
// and LSP outputs show it without U+FFFD: input quoted in a message is
// escaped (docs/acts.md, "Exact bytes in JSON"). Every golden input is
// checked in every dialect, with the workspace rules, after mutations that
// put bytes that are not UTF-8 in names, keys, info strings, paths and
// text.
func TestDiagnosticTextValidUTF8(t *testing.T) {
	if testing.Short() {
		t.Skip("parses the golden corpus 20 times")
	}
	files, err := filepath.Glob("../golden/*/*")
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("caf\xe9\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, ".golden") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil || len(src) > 20000 {
			continue
		}
		for _, m := range [][]byte{
			bytes.ReplaceAll(src, []byte("e"), []byte("\xe9")),
			bytes.ReplaceAll(src, []byte(" "), []byte("\xff ")),
			bytes.ReplaceAll(src, []byte("a"), []byte("a\xc3")),
			bytes.ReplaceAll(src, []byte("\n"), []byte("\xa0\n")),
		} {
			for _, d := range grammar.Dialects() {
				_, diags, err := Source(context.Background(), "x.md", m, Options{Parse: grammar.Options{Dialect: d}, Root: root})
				if err != nil {
					t.Fatal(err)
				}
				for _, x := range diags {
					n++
					bad := !utf8.ValidString(x.Message) || !utf8.ValidString(x.Detail)
					for _, r := range x.Related {
						bad = bad || !utf8.ValidString(r.Message)
					}
					if bad {
						t.Errorf("%s (%s): %s: text not valid UTF-8: %q\n%q", f, d, x.Code, x.Message, x.Detail)
					}
				}
			}
		}
	}
	if n < 1000 {
		t.Fatalf("only %d diagnostics checked", n)
	}
}
