package lint_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/lint"
	"github.com/plangram/plangram/report"
)

// TestPlanCheckStreamSameAsTree runs `plangram check`'s engine over every
// plan of the golden corpus both ways — Run, which streams (each action
// checked as it is read, grammar.Options.OnAction), and Source, which
// builds the whole tree — and compares the report byte for byte in every
// output format (the AST diff, the metadata and title checks and the
// suppression comments included).
func TestPlanCheckStreamSameAsTree(t *testing.T) {
	files, err := filepath.Glob("../golden/plan/*.md")
	if err != nil || len(files) < 50 {
		t.Fatalf("%d golden plans: %v", len(files), err)
	}
	ctx := context.Background()
	opts := lint.Options{Parse: grammar.Options{Dialect: grammar.DialectPlan}}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		streamed, err := lint.Run(ctx, []string{f}, opts)
		if err != nil || len(streamed) != 1 {
			t.Fatalf("%s: %d files, %v", f, len(streamed), err)
		}
		_, diags, err := lint.Source(ctx, f, src, opts)
		if err != nil {
			t.Fatal(err)
		}
		tree := []*report.File{{Path: f, Source: src, Diagnostics: diags}}
		for _, format := range report.Formats() {
			var want, got bytes.Buffer
			if err := report.Write(&want, format, tree, report.Options{}); err != nil {
				t.Fatal(err)
			}
			if err := report.Write(&got, format, streamed, report.Options{}); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(want.Bytes(), got.Bytes()) {
				t.Errorf("%s, --format %s: the streaming check reports\n%s\nthe whole tree\n%s", f, format, got.Bytes(), want.Bytes())
			}
		}
	}
}
