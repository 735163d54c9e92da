package format

import (
	"bytes"
	"context"
	"testing"

	"github.com/plangram/plangram/grammar"
)

// TestLoneCRKept pins fmt's rule for lone CRs (docs/acts.md, "Lone CRs"):
// a document whose lone CR hides a line is printed as it is, and a
// canonical form in which a lone CR that hid nothing would hide a line
// (a fence run shortened to the one after the CR) is not used.
func TestLoneCRKept(t *testing.T) {
	for _, c := range []struct{ name, src string }{
		{"hides an act block", "Build.\n\n```act\nwrite_file a\n```\n```\nx\n```\nThen:\r```act\rrun_command make\r```\r\n"},
		{"hides a closing fence", "```act\nwrite_file a\n```\n```\ndone\r```\n\n```act\nrun_command make\n```\n"},
		{"would hide a closing fence", "```act\nwrite_file a\n```\n````\nx\r```\n````\n"},
		{"plan: hides a heading", "# T\n\n- **Status:** draft\n\n## Action Plan\n\n### 1. EXECUTE\n\ntext\r### 2. EXECUTE\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, doc, err := Source(context.Background(), "in.md", []byte(c.src), grammar.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out, []byte(c.src)) {
				t.Errorf("fmt rewrote %q (diagnostics %v) as %q", c.src, doc.Diagnostics, out)
			}
		})
	}
	// A lone CR that hides nothing does not stop fmt.
	src := "```act\nwrite_file a\n```\n\n\n```\n10%\r100%\n```\n"
	out, _, err := Source(context.Background(), "in.md", []byte(src), grammar.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(out, []byte(src)) || !bytes.Contains(out, []byte("10%\r100%\n")) {
		t.Errorf("fmt of %q: %q", src, out)
	}
}
