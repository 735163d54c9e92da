package lint

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/internal/testkit/corpus"
)

// TestRunDiagnosticsAsSource pins the check Run does without keeping the
// tree (diagnostics: the parser hands each action over and keeps none) to
// Source's: the same diagnostics, in the same order, over every Markdown
// input of golden/, examples/ and docs/, generated documents, and
// directive comments that need the fenced blocks' lines, with and without
// --disable, and with a root (the workspace rules fed one action at a time).
func TestRunDiagnosticsAsSource(t *testing.T) {
	inputs := map[string][]byte{
		"corpus.Acts":      corpus.Acts(100_000),
		"corpus.SmallActs": corpus.SmallActs(50_000),
		"corpus.Plan":      corpus.Plan(100_000),
		"directives": []byte(strings.Join([]string{
			"~~~act", "write_file", "~~~",
			"<!-- plangram-disable-next-line wrong-arg-count -->",
			"~~~act", "write_file", "~~~",
			"~~~", "<!-- plangram-disable wrong-arg-count -->", "~~~", // content, not a directive
			"~~~act", "write_file", "~~~",
			"<!-- plangram-disable -->", "",
		}, "\n")),
		"directive before a stray block": []byte("<!-- plangram-disable-next-line block-before-act -->\n~~~\nx\n~~~\n~~~act\nrun_command a\n~~~\n"),
	}
	for _, root := range []string{"../golden", "../examples", "../docs"} {
		_ = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.HasSuffix(path, ".md") || strings.HasSuffix(path, ".txt")) {
				if data, err := os.ReadFile(path); err == nil {
					inputs[path] = data
				}
			}
			return nil
		})
	}
	if len(inputs) < 100 {
		t.Fatalf("only %d inputs", len(inputs))
	}
	ctx := context.Background()
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "src", "pkg1"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "src", "pkg1", "file0.py"), []byte("        return value * 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, src := range inputs {
		for _, o := range []Options{{}, {Disable: []string{"wrong-arg-count"}}, {Root: root}} {
			opts, disable := o, o.Disable
			_, want, err := Source(ctx, name, src, opts)
			if err != nil {
				t.Fatal(err)
			}
			got, err := diagnostics(ctx, name, src, opts)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s (disable %v, root %q):\n got %s\nwant %s", name, disable, opts.Root, diagList(got), diagList(want))
			}
		}
	}
}

func diagList(ds []*ast.Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d.Format("") + "\n")
	}
	return b.String()
}
