package grammar

import (
	"context"
	"strings"
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/schema"
)

// TestMaxArgs: an act block reads at most MaxArgs inline arguments, from
// its act line and its further lines alike; the ones past it are one
// too-many-args error that spans them (nothing is dropped silently), and
// binding counts only what it was given (wrong-arg-count).
func TestMaxArgs(t *testing.T) {
	s, err := schema.Builtin(DialectActs)
	if err != nil {
		t.Fatal(err)
	}
	words := func(n int) string { return strings.TrimSuffix(strings.Repeat("ab ", n), " ") }
	lines := func(n int) string { return strings.Repeat("ab\n", n) }
	for _, c := range []struct {
		name, src string
		over      bool
		from, to  ast.Pos // the error's span
	}{
		{"line at the cap", "```act\nrun_command " + words(MaxArgs) + "\n```\n", false, ast.Pos{}, ast.Pos{}},
		{"line past the cap", "```act\nrun_command " + words(MaxArgs+3) + "  \n```\n", true,
			ast.Pos{Offset: 7 + 12 + 3*MaxArgs, Line: 2, Col: 13 + 3*MaxArgs}, ast.Pos{Offset: 7 + 12 + 3*MaxArgs + 8, Line: 2, Col: 13 + 3*MaxArgs + 8}},
		{"lines at the cap", "```act\nrun_command\n" + lines(MaxArgs) + "```\n", false, ast.Pos{}, ast.Pos{}},
		{"lines past the cap", "```act\nrun_command\n" + lines(MaxArgs+2) + "```\n", true,
			ast.Pos{Offset: 19 + 3*MaxArgs, Line: 3 + MaxArgs, Col: 1}, ast.Pos{Offset: 19 + 3*MaxArgs + 5, Line: 4 + MaxArgs, Col: 3}},
		{"line then lines", "```act\nrun_command " + words(MaxArgs+1) + "\n\n  ab  \n```\n", true,
			ast.Pos{Offset: 7 + 12 + 3*MaxArgs, Line: 2, Col: 13 + 3*MaxArgs}, ast.Pos{Offset: 7 + 12 + 3*MaxArgs + 8, Line: 4, Col: 5}},
	} {
		doc, err := ParseActs(context.Background(), "", []byte(c.src), 0, s)
		if err != nil {
			t.Fatal(err)
		}
		if len(doc.Actions) != 1 || len(doc.Actions[0].Args) != MaxArgs || len(doc.Actions[0].ArgSpans) != MaxArgs {
			t.Fatalf("%s: %d actions, want 1 with %d args", c.name, len(doc.Actions), MaxArgs)
		}
		var over []*ast.Diagnostic
		counts := 0
		for _, d := range doc.Diagnostics {
			switch d.Code {
			case CodeTooManyArgs:
				over = append(over, d)
			case "wrong-arg-count":
				counts++
				if !strings.Contains(d.Message, "got 65536 arguments") {
					t.Errorf("%s: %s", c.name, d.Message)
				}
			}
		}
		if counts != 1 {
			t.Errorf("%s: %d wrong-arg-count errors, want 1", c.name, counts)
		}
		if !c.over {
			if len(over) > 0 {
				t.Errorf("%s: %v", c.name, over[0])
			}
			continue
		}
		if len(over) != 1 || over[0].Severity != ast.Error || over[0].Span.Start != c.from || over[0].Span.End != c.to {
			for _, d := range over {
				t.Logf("%s: %+v–%+v", c.name, d.Span.Start, d.Span.End)
			}
			t.Fatalf("%s: %d too-many-args errors, want one from %+v to %+v", c.name, len(over), c.from, c.to)
		}
		if !strings.Contains(over[0].Message, "more than 65,536 inline arguments") {
			t.Errorf("%s: %s", c.name, over[0].Message)
		}
	}
}
