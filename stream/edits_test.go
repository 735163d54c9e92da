package stream

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
)

var editSyntaxes = []string{grammar.DialectSearchReplace, grammar.DialectUdiff, grammar.DialectApplyPatch}

// editParse is the whole-document parse of an edit-format dialect.
func editParse(t testing.TB, dialect string, in []byte) *ast.Document {
	t.Helper()
	parse := map[string]func(context.Context, string, []byte) (*ast.Document, error){
		grammar.DialectSearchReplace: grammar.ParseSearchReplace,
		grammar.DialectUdiff:         grammar.ParseUdiff,
		grammar.DialectApplyPatch:    grammar.ParseApplyPatch,
	}[dialect]
	doc, err := parse(context.Background(), "x", in)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// checkEditAgrees: the merged events of a complete edit-format document
// agree with its whole-document parse: one call per action, in order,
// with its name, span, source and parameters; one hunk event per hunk of
// an update_file, with its block's span; one error per diagnostic (same
// code, severity, span, message); and the text is the prose that lies
// outside every action.
func checkEditAgrees(t testing.TB, dialect string, in []byte, evs []Event) {
	t.Helper()
	doc := editParse(t, dialect, in)
	var calls, hunks []Event
	var errs []string
	var text strings.Builder
	for _, e := range evs {
		switch e.Type {
		case ToolCall:
			calls = append(calls, e)
		case Hunk:
			hunks = append(hunks, e)
		case Error:
			errs = append(errs, fmt.Sprintf("%v %s %s %s", e.Span, e.Severity, e.Kind, e.Message))
		case Text:
			text.WriteString(e.Text)
		}
	}
	if len(calls) != len(doc.Actions) {
		t.Fatalf("%s: %d calls, the parse has %d actions", dialect, len(calls), len(doc.Actions))
	}
	var wantHunks []*ast.Block
	inAction := make([]bool, len(in)+1)
	for i, a := range doc.Actions {
		c := calls[i]
		if c.Name != a.Name || c.Span != a.Span || c.Raw != string(in[a.Span.Start.Offset:a.Span.End.Offset]) {
			t.Fatalf("%s: call %d is %s at %v, the parse's action %s at %v", dialect, i+1, c.Name, c.Span, a.Name, a.Span)
		}
		got, _ := json.Marshal(c.Params)
		want, _ := json.Marshal(a.Params)
		if string(got) != string(want) {
			t.Fatalf("%s: call %d params %s, want %s", dialect, i+1, got, want)
		}
		if dialect == grammar.DialectUdiff || a.Name == grammar.ActionUpdateFile {
			wantHunks = append(wantHunks, a.Blocks...) // every udiff hunk; apply-patch's update chunks
		}
		for j := a.Span.Start.Offset; j < a.Span.End.Offset; j++ {
			inAction[j] = true
		}
	}
	if len(hunks) != len(wantHunks) {
		t.Fatalf("%s: %d hunk events, the parse has %d hunks", dialect, len(hunks), len(wantHunks))
	}
	for i, h := range hunks {
		if h.Span != wantHunks[i].Span {
			t.Fatalf("%s: hunk %d at %v, want %v", dialect, i+1, h.Span, wantHunks[i].Span)
		}
	}
	var wantErrs []string
	for _, d := range doc.Diagnostics {
		wantErrs = append(wantErrs, fmt.Sprintf("%v %s %s %s", d.Span, d.Severity, d.Code, d.Message))
	}
	slices.Sort(errs)
	slices.Sort(wantErrs)
	if !slices.Equal(errs, wantErrs) {
		t.Fatalf("%s: errors\n%s\nwant the parse's\n%s", dialect, strings.Join(errs, "\n"), strings.Join(wantErrs, "\n"))
	}
	var prose strings.Builder
	for _, p := range doc.Prose {
		for j := p.Span.Start.Offset; j < p.Span.End.Offset; j++ {
			if !inAction[j] {
				prose.WriteByte(in[j])
			}
		}
	}
	if text.String() != prose.String() {
		t.Fatalf("%s: text %q, the parse's prose outside actions %q", dialect, text.String(), prose.String())
	}
}

// TestEditSyntaxesAgree: over every golden edit-format input, each edit
// syntax's events have the chunking property and agree with the parse.
func TestEditSyntaxesAgree(t *testing.T) {
	for _, dir := range editSyntaxes {
		files, _ := filepath.Glob("../golden/" + dir + "/*.md")
		if len(files) == 0 {
			t.Fatalf("no golden inputs in %s", dir)
		}
		for _, file := range files {
			in, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			for _, syn := range editSyntaxes {
				t.Run(syn+"/"+dir+"/"+filepath.Base(file), func(t *testing.T) {
					evs := checkChunks(t, Options{Syntax: syn}, in, uint64(len(in)))
					checkEditAgrees(t, syn, in, evs)
				})
			}
		}
	}
}

// FuzzEditSyntax: on any input, each edit syntax has the chunking property
// (chunks of 1, 7, 4096 bytes and random ones) and its events agree with
// the whole-document parse.
func FuzzEditSyntax(f *testing.F) {
	for _, dir := range editSyntaxes {
		files, _ := filepath.Glob("../golden/" + dir + "/*.md")
		for i, file := range files {
			if in, err := os.ReadFile(file); err == nil {
				f.Add(in, uint64(i), uint8(i))
			}
		}
	}
	f.Fuzz(func(t *testing.T, in []byte, seed uint64, pick uint8) {
		syn := editSyntaxes[int(pick)%len(editSyntaxes)]
		evs := checkChunks(t, Options{Syntax: syn}, in, seed)
		checkEditAgrees(t, syn, in, evs)
	})
}
