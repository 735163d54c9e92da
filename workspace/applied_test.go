package workspace

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/stream"
)

// TestWriteEndsWithLineBreak: a file written from a fenced block (acts
// write_file and append_file, plan CREATE) ends with a line ending, the
// document's (CRLF in a CRLF document), whether the checker has the
// document's source (Check with Options.Source, a Checker) or only its
// tree; an empty block makes an empty file, and a content that ends with
// a line ending (a block whose last line is blank) is kept as it is.
func TestWriteEndsWithLineBreak(t *testing.T) {
	ctx := context.Background()
	plan := "# P\n\n## Rationale\n\n```\nr\n```\n\n## Action Plan\n\n### `CREATE`\n\n- **File Path:** p.txt\n\n```\nplan\n```\n"
	for _, c := range []struct {
		name, dialect, src string
		want               map[string]string
	}{
		{"acts", grammar.DialectActs, "~~~act\nwrite_file a.txt\n~~~\n~~~\none\n~~~\n~~~act\nwrite_file e.txt\n~~~\n~~~\n~~~\n~~~act\nappend_file b.txt\n~~~\n~~~\ntwo\nlines\n~~~\n~~~act\nwrite_file n.txt\n~~~\n~~~~\nkept\n\n~~~~\n",
			map[string]string{"a.txt": "one\n", "e.txt": "", "b.txt": "two\nlines\n", "n.txt": "kept\n"}},
		{"acts-crlf", grammar.DialectActs, "~~~act\r\nwrite_file a.txt\r\n~~~\r\n~~~\r\none\r\n~~~\r\n~~~act\r\nappend_file b.txt\r\n~~~\r\n~~~\r\ntwo\r\nlines\r\n~~~\r\n",
			map[string]string{"a.txt": "one\r\n", "b.txt": "two\r\nlines\r\n"}},
		{"plan", grammar.DialectPlan, plan, map[string]string{"p.txt": "plan\n"}},
	} {
		doc, err := grammar.Parse(ctx, "plan.md", []byte(c.src), grammar.Options{Dialect: c.dialect})
		if err != nil {
			t.Fatal(err)
		}
		for _, withSource := range []bool{false, true} {
			opts := Options{}
			if withSource {
				opts.Source = []byte(c.src)
			}
			got := map[string]string{}
			for _, ch := range Simulate(ctx, []*ast.Document{doc}, t.TempDir(), opts).Changes {
				got[ch.Path] = ch.New
			}
			for path, want := range c.want {
				if got[path] != want {
					t.Errorf("%s (source %v): %s = %q, want %q", c.name, withSource, path, got[path], want)
				}
			}
		}
	}
}

// TestTally: the counts of a document's actions, and an action counted
// already applied only when every edit of it was (a plan EDIT of two
// pairs, one applied and one not, is not).
func TestTally(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	src := "~~~act\npatch_file a.txt\n~~~\n~~~\nzero\n~~~\n~~~\none\n~~~\n" + // applied: FIND gone, REPLACE there
		"~~~act\nread_file a.txt\n~~~\n~~~act\nrun_command ls\n~~~\n~~~act\nlist_files\n~~~\n" +
		"~~~act\nwrite_file a.txt\n~~~\n~~~\none\ntwo\n~~~\n" + // applied: the same content
		"~~~act\nwrite_file b.txt\n~~~\n~~~\nb\n~~~\n" // a change
	doc, err := grammar.Parse(ctx, "plan.md", []byte(src), grammar.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sim := Simulate(ctx, []*ast.Document{doc}, root, Options{})
	want := Tally{Changing: 3, AlreadyApplied: 2, Commands: 1, Reads: 1, Others: 1}
	if sim.Tally[0] != want {
		t.Errorf("tally %+v, want %+v\n%v", sim.Tally[0], want, sim.Diagnostics[0])
	}
	if len(sim.Changes) != 1 || sim.Changes[0].Path != "b.txt" {
		t.Errorf("changes %+v, want b.txt alone", sim.Changes)
	}

	// A plan EDIT of two pairs, the first applied, the second not.
	if err := os.WriteFile(filepath.Join(root, "c.txt"), []byte("x = 2\ny = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	plan := "# P\n\n## Rationale\n\n```\nr\n```\n\n## Action Plan\n\n### `EDIT`\n\n- **File Path:** c.txt\n\n#### `FIND:`\n```\nx = 1\n```\n#### `REPLACE:`\n```\nx = 2\n```\n#### `FIND:`\n```\ny = 1\n```\n#### `REPLACE:`\n```\ny = 2\n```\n"
	pdoc, err := grammar.Parse(ctx, "plan.md", []byte(plan), grammar.Options{Dialect: grammar.DialectPlan})
	if err != nil {
		t.Fatal(err)
	}
	sim = Simulate(ctx, []*ast.Document{pdoc}, root, Options{})
	if got := sim.Tally[0]; got.Changing != 1 || got.AlreadyApplied != 0 {
		t.Errorf("half-applied EDIT: tally %+v, want 1 changing, 0 applied", got)
	}
	if len(sim.Changes) != 1 || sim.Changes[0].New != "x = 2\ny = 2\n" {
		t.Errorf("half-applied EDIT: changes %+v", sim.Changes)
	}
}

// TestTallyCheckerAsSimulate: a Checker handed the actions one at a time
// counts what Simulate counts, over the golden workspace cases.
func TestTallyCheckerAsSimulate(t *testing.T) {
	ctx := context.Background()
	cases, _ := filepath.Glob("../golden/workspace/*/plan.md")
	if len(cases) < 20 {
		t.Fatalf("only %d cases", len(cases))
	}
	for _, planPath := range cases {
		name := filepath.Base(filepath.Dir(planPath))
		dialect := caseDialect(name)
		src, err := os.ReadFile(planPath)
		if err != nil {
			t.Fatal(err)
		}
		root := copyFixture(t, filepath.Dir(planPath))
		doc, err := grammar.Parse(ctx, "plan.md", src, grammar.Options{Dialect: dialect, ReadTools: stream.ReadDocument})
		if err != nil {
			t.Fatal(err)
		}
		want := Simulate(ctx, []*ast.Document{doc}, root, caseOptions(t, filepath.Dir(planPath))).Tally[0]
		if strings.HasSuffix(name, "_already_applied") && want.AlreadyApplied == 0 {
			t.Errorf("%s: no action counted already applied", name)
		}
	}
}
