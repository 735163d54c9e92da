package grammar

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// TestActsNestedFence pins when the acts dialect reports an improperly
// nested fence and which diagnostics become its follow-on notes
// (docs/acts.md, "Improperly nested fences").
func TestActsNestedFence(t *testing.T) {
	const head = "```act\nwrite_file a.md\n```\n"
	for _, c := range []struct {
		name, src string
		codes     []string // top-level codes
		notes     int      // follow-on notes of the fence error
	}{
		{"stray close", head + "```markdown\n# Doc\n```go\nx\n```\nend\n```\n",
			[]string{CodeNestedFence}, 2},
		{"no later fence", head + "```markdown\n# Doc\n```go\nx\n```\nend\n",
			nil, 0},
		{"remark before", head + "```markdown\n``` end of code\n```go\nx\n```\nend\n```\n",
			[]string{"wrong-arg-count", CodeFenceTrailingText, CodeUnclosedFence}, 0}, // the remark kept the block from closing
		{"intended close indented", head + "```markdown\n# Doc\n```go\nx\n```\nend\n    ```\n",
			[]string{CodeNestedFence}, 2}, // a fence at any indentation is a fence in this dialect
		{"intended close deeply indented", head + "```markdown\n```go\nx\n```\n\t\t```\n\n```act\necho\n```\n```\nhi\n```\n",
			[]string{CodeNestedFence}, 2}, // wrong-arg-count, and the act block the stray block holds
		{"closed stray", head + "```markdown\n```go\nx\n```\n```\n```act\nrun_command ls\n```\n",
			[]string{CodeNestedFence}, 2}, // wrong-arg-count, and the act block the stray block holds
		{"act in a block", head + "```\nhello\n``` trailing\n\n```act\nrun_command ls\n```\n",
			[]string{CodeNestedFence}, 0}, // no later fence: still an error, for the action taken as content
		{"inline-only action", "```act\ngit_status\n```\n```markdown\n```go\nx\n```\nend\n```\n",
			[]string{"wrong-arg-count", CodeNestedFence}, 1}, // the early-closed block is an argument too
	} {
		doc, err := Parse(context.Background(), "n.md", []byte(c.src), Options{Dialect: DialectActs})
		if err != nil {
			t.Fatal(err)
		}
		var codes []string
		notes := 0
		for _, d := range doc.Diagnostics {
			codes = append(codes, d.Code)
			for _, r := range d.Related {
				if strings.HasPrefix(r.Message, "follow-on: ") {
					notes++
				}
			}
		}
		if !slices.Equal(codes, c.codes) || notes != c.notes {
			t.Errorf("%s: codes %v with %d follow-on notes, want %v with %d", c.name, codes, notes, c.codes, c.notes)
		}
	}
}
