package apply

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/stream"
	"github.com/plangram/plangram/workspace"
)

// TestApplyCline: a tools reply's write_to_file and replace_in_file are
// applied by Cline's rules (docs/apply.md, "Cline's replace_in_file"), all
// or nothing: a block that does not match, an ambiguous SEARCH, a
// malformed diff or an empty SEARCH on a file with content refuse the
// reply and nothing is written, its write_to_file included.
func TestApplyCline(t *testing.T) {
	replace := func(path, diff string) string {
		return "<replace_in_file>\n<path>" + path + "</path>\n<diff>\n" + diff + "\n</diff>\n</replace_in_file>\n"
	}
	const write = "<write_to_file>\n<path>new.txt</path>\n<content>\nfresh\n</content>\n</write_to_file>\n"
	start := map[string]string{"a.txt": "hello\nworld\n", "crlf.txt": "one\r\ntwo\r\n", "dup.txt": "x\nx\n"}
	for _, c := range []struct {
		name, reply string
		code        string            // the error refusing it; "" applies
		want        map[string]string // files after a successful apply
	}{
		{"write then replace", write + replace("new.txt", "------- SEARCH\nfresh\n=======\nfresher\n+++++++ REPLACE"), "",
			map[string]string{"new.txt": "fresher\n"}},
		{"two blocks in order", replace("a.txt", "------- SEARCH\nworld\n=======\nthere\n+++++++ REPLACE\n------- SEARCH\nhello\nthere\n=======\nhi\n+++++++ REPLACE"), "",
			map[string]string{"a.txt": "hi\n"}},
		{"legacy markers", replace("a.txt", "<<<<<<< SEARCH\nworld\n=======\nthere\n>>>>>>> REPLACE"), "",
			map[string]string{"a.txt": "hello\nthere\n"}},
		{"crlf file", replace("crlf.txt", "------- SEARCH\ntwo\n=======\n2\n+++++++ REPLACE"), "",
			map[string]string{"crlf.txt": "one\r\n2\r\n"}},
		{"empty search creates", replace("made.txt", "------- SEARCH\n=======\nmade\n+++++++ REPLACE"), "",
			map[string]string{"made.txt": "made\n"}},
		{"not found", write + replace("a.txt", "------- SEARCH\nworld\n=======\nthere\n+++++++ REPLACE\n------- SEARCH\nmoon\n=======\nsun\n+++++++ REPLACE"), workspace.CodeFindNotFound, nil},
		{"ambiguous", write + replace("dup.txt", "------- SEARCH\nx\n=======\ny\n+++++++ REPLACE"), workspace.CodeFindAmbiguous, nil},
		{"malformed", write + replace("a.txt", "------- SEARCH\nworld\nthere\n+++++++ REPLACE"), workspace.CodeBadReplaceDiff, nil},
		{"empty search on content", write + replace("a.txt", "------- SEARCH\n=======\nall new\n+++++++ REPLACE"), workspace.CodeFileExists, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			root := t.TempDir()
			files(t, root, start)
			before := snapshot(t, root)
			doc, err := stream.ReadDocument(ctx, "reply.md", []byte(c.reply), grammar.Options{Dialect: grammar.DialectTools})
			if err != nil || len(doc.Diagnostics) > 0 {
				t.Fatalf("reading the reply: %v %v", err, doc.Diagnostics)
			}
			res, err := Apply(ctx, []*ast.Document{doc}, root, Options{})
			if c.code != "" {
				if !errors.Is(err, ErrRefused) || !hasCode(res.Diagnostics[0], c.code) {
					t.Fatalf("err %v, diagnostics %v: want a refusal by %s", err, res.Diagnostics, c.code)
				}
				if after := snapshot(t, root); after != before {
					t.Errorf("a refused apply wrote:\n%s", after)
				}
				return
			}
			if err != nil {
				t.Fatalf("apply: %v %v", err, res.Diagnostics)
			}
			for p, want := range c.want {
				if data, err := os.ReadFile(filepath.Join(root, p)); string(data) != want {
					t.Errorf("%s = %q, want %q (%v)", p, data, want, err)
				}
			}
		})
	}
}

func hasCode(ds []*ast.Diagnostic, code string) bool {
	for _, d := range ds {
		if d.Code == code && d.Severity == ast.Error {
			return true
		}
	}
	return false
}
