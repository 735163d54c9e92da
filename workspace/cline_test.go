package workspace

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/stream"
)

// replaceCall is a Cline replace_in_file call of path with diff.
func replaceCall(path, diff string) string {
	return "<replace_in_file>\n<path>" + path + "</path>\n<diff>\n" + diff + "\n</diff>\n</replace_in_file>\n"
}

// block is one SEARCH/REPLACE block of a replace_in_file diff.
func block(search, replace string) string {
	return "------- SEARCH\n" + search + "=======\n" + replace + "+++++++ REPLACE\n"
}

// TestClineTools pins the effects of Cline's file tools (docs/apply.md,
// "Cline's replace_in_file"): write_to_file writes; replace_in_file's
// blocks apply in order by the search-replace rules, all or none; an empty
// SEARCH only creates a missing or empty file; a malformed diff is
// bad-replace-diff; execute_command is a command.
func TestClineTools(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		reply string
		codes []string          // the diagnostics' codes, in order
		want  map[string]string // the files changed, by their new content
		at    string            // the source text the first diagnostic is at
	}{
		{name: "write then replace",
			reply: "<write_to_file>\n<path>b.txt</path>\n<content>\none\ntwo\n</content>\n</write_to_file>\n" + replaceCall("b.txt", block("two\n", "2\n")),
			want:  map[string]string{"b.txt": "one\n2\n"}},
		{name: "write over a file", files: map[string]string{"a.txt": "old\n"},
			reply: "<write_to_file>\n<path>a.txt</path>\n<content>\nnew\n\n</content>\n</write_to_file>\n",
			codes: []string{CodeFileExists}, want: map[string]string{"a.txt": "new\n"}},
		{name: "write over a file keeps its final line ending", files: map[string]string{"a.txt": "old\n", "c.txt": "old\r\n", "d.txt": "old"},
			reply: "<write_to_file>\n<path>a.txt</path>\n<content>\nnew\n</content>\n</write_to_file>\n" +
				"<write_to_file>\n<path>c.txt</path>\n<content>\nnew\n</content>\n</write_to_file>\n" +
				"<write_to_file>\n<path>d.txt</path>\n<content>\nnew\n</content>\n</write_to_file>\n" +
				"<write_to_file>\n<path>n.txt</path>\n<content>\nnew\n</content>\n</write_to_file>\n",
			codes: []string{CodeFileExists, CodeFileExists, CodeFileExists},
			want:  map[string]string{"a.txt": "new\n", "c.txt": "new\r\n", "d.txt": "new", "n.txt": "new"}},
		{name: "two blocks in order", files: map[string]string{"a.txt": "a\nb\nc\n"},
			reply: replaceCall("a.txt", block("a\n", "x\n")+"\n"+block("x\nb\n", "y\n")),
			want:  map[string]string{"a.txt": "y\nc\n"}},
		{name: "block not found", files: map[string]string{"a.txt": "a\nb\nc\n"},
			reply: replaceCall("a.txt", block("a\n", "x\n")+block("zzz\n", "y\n")),
			codes: []string{CodeFindNotFound}, at: block("zzz\n", "y\n")},
		{name: "ambiguous", files: map[string]string{"a.txt": "x\nx\n"},
			reply: replaceCall("a.txt", block("x\n", "y\n")),
			codes: []string{CodeFindAmbiguous}, at: block("x\n", "y\n")},
		{name: "legacy markers", files: map[string]string{"a.txt": "a\nb\n"},
			reply: replaceCall("a.txt", "<<<<<<< SEARCH>\nb\n=======  \nc\n>>>>>>> REPLACE \n\n<<< SEARCH\na\n===\nz\n+++ REPLACE>"),
			want:  map[string]string{"a.txt": "z\nc\n"}},
		{name: "crlf file", files: map[string]string{"a.txt": "a\r\nb\r\n"},
			reply: replaceCall("a.txt", block("b\n", "c\nd\n")),
			codes: []string{CodeCRLFKept}, want: map[string]string{"a.txt": "a\r\nc\r\nd\r\n"}},
		{name: "no block", files: map[string]string{"a.txt": "a\n"},
			reply: replaceCall("a.txt", "a\n"), codes: []string{CodeBadReplaceDiff}, at: "a"},
		{name: "no separator", files: map[string]string{"a.txt": "a\n"},
			reply: replaceCall("a.txt", "------- SEARCH\na\n+++++++ REPLACE"), codes: []string{CodeBadReplaceDiff}, at: "+++++++ REPLACE"},
		{name: "no end", files: map[string]string{"a.txt": "a\n"},
			reply: replaceCall("a.txt", block("a\n", "b\n")+"------- SEARCH\na\n=======\nc"), codes: []string{CodeBadReplaceDiff}, at: "------- SEARCH\na\n=======\nc"},
		{name: "text outside", files: map[string]string{"a.txt": "a\n"},
			reply: replaceCall("a.txt", block("a\n", "b\n")+"and more"), codes: []string{CodeBadReplaceDiff}, at: "and more"},
		{name: "empty search creates", reply: replaceCall("n.txt", block("", "new\n")),
			want: map[string]string{"n.txt": "new\n"}},
		{name: "empty search fills an empty file", files: map[string]string{"e.txt": ""},
			reply: replaceCall("e.txt", block("", "new\n")), want: map[string]string{"e.txt": "new\n"}},
		{name: "empty search on content", files: map[string]string{"a.txt": "keep\n"},
			reply: replaceCall("a.txt", block("", "new\n")), codes: []string{CodeFileExists}, at: block("", "new\n")},
		{name: "command", reply: "<execute_command>\n<command>go test ./...</command>\n</execute_command>\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			root := t.TempDir()
			for name, content := range tc.files {
				if err := os.WriteFile(filepath.Join(root, name), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			doc, err := stream.ReadDocument(ctx, "reply.md", []byte(tc.reply), grammar.Options{Dialect: grammar.DialectTools})
			if err != nil || len(doc.Diagnostics) > 0 {
				t.Fatalf("reading the reply: %v %v", err, doc.Diagnostics)
			}
			sim := Simulate(ctx, []*ast.Document{doc}, root, Options{})
			diags := sim.Diagnostics[0]
			var codes []string
			for _, d := range diags {
				codes = append(codes, d.Code)
			}
			if !slices.Equal(codes, tc.codes) {
				t.Fatalf("codes %v, want %v: %v", codes, tc.codes, messages(diags))
			}
			if tc.at != "" {
				sp := diags[0].Span
				if got := tc.reply[sp.Start.Offset:sp.End.Offset]; strings.TrimSuffix(got, "\n") != strings.TrimSuffix(tc.at, "\n") {
					t.Errorf("diagnostic at %q, want %q", got, tc.at)
				}
			}
			got := map[string]string{}
			for _, ch := range sim.Changes {
				got[ch.Path] = ch.New
			}
			if len(got) != len(tc.want) {
				t.Errorf("changes %q, want %q", got, tc.want)
			}
			for p, w := range tc.want {
				if got[p] != w {
					t.Errorf("%s: %q, want %q", p, got[p], w)
				}
			}
			if wantCmd := strings.Contains(tc.reply, "<execute_command>"); (len(sim.Commands[0]) == 1) != wantCmd {
				t.Errorf("commands %v", sim.Commands[0])
			}
		})
	}
}

func messages(ds []*ast.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Message)
	}
	return out
}
