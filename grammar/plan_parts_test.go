package grammar

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2"

	"github.com/plangram/plangram/ast"
)

func TestMaxActionParts(t *testing.T) {
	head := "# P\n\n- **Status:** draft\n\n## Rationale\n\n```text\nwhy\n```\n\n## Action Plan\n\n### `EDIT`\n\n- **File Path:** a.txt\n- **Description:** d\n\n#### `FIND:`\n\n```text\nold\n```\n\n#### `REPLACE:`\n\n```text\nnew\n```\n\n"
	// Each stray heading and its blank line are two parts (the EDIT's
	// list and pair add a dozen): below the cap, just past it, well past.
	for _, headings := range []int{MaxActionParts/2 - 100, MaxActionParts/2 + 50, MaxActionParts/2 + 1000} {
		extra := max(headings-MaxActionParts/2, 0)
		var b strings.Builder
		b.WriteString(head)
		for i := 0; i < headings; i++ {
			fmt.Fprintf(&b, "#### x%d\n\n", i)
		}
		b.WriteString("### `READ`\n\n- **Resource:** b.txt\n- **Description:** d\n")
		src := []byte(b.String())
		ctx := context.Background()
		doc, err := Parse(ctx, "p.md", src, Options{Dialect: DialectPlan})
		if err != nil {
			t.Fatal(err)
		}
		checkPlanLossless(t, src, doc)
		var over []*ast.Diagnostic
		for _, d := range doc.Diagnostics {
			if d.Code == CodeTooManyParts {
				over = append(over, d)
			}
		}
		if extra == 0 {
			if len(over) != 0 {
				t.Fatalf("at the cap: %v", over)
			}
		} else if len(over) != 1 || !strings.Contains(over[0].Message, "more than 65,536 parts") {
			t.Fatalf("%d headings: too-many-parts %v", headings, over)
		}
		if len(doc.Actions) != 2 || doc.Actions[1].Name != "READ" {
			t.Fatalf("%d actions, want EDIT and the READ after the folded parts", len(doc.Actions))
		}
		all, err := Parse(ctx, "p.md", src, Options{Dialect: DialectPlan, Uncapped: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range all.Diagnostics {
			if d.Code == CodeTooManyParts {
				t.Fatalf("Uncapped folded parts: %s", d.Message)
			}
		}
	}
}

// TestPlanListAllocPerItem pins what one long metadata list costs while
// its action is bound: its item ranges and values, not an entry of 160
// bytes for each item that is not `Key: value`, has a key the action does
// not have or repeats one, nor a copy of each element's text (docs/plan.md, "Bounded output"). The measure is the bytes
// allocated per item, garbage included: the binding's peak is not seen
// from outside, and what it allocates bounds it.
func TestPlanListAllocPerItem(t *testing.T) {
	if testing.Short() {
		t.Skip("parses 6 MB of plans")
	}
	for _, tc := range []struct {
		name, head string
		item       string // one item, %d its number
		most       uint64 // bytes an item may allocate: about 100 are the scanner's and the node's item ranges
	}{
		// Items that are not `Key: value` after a key with a value: each
		// is a bad-metadata-item error, counted past the cap.
		{"bad items", "### `EXECUTE`\n- **Command:** make\n", "- x%d\n", 140}, // 214 with an entry each
		// Items folded into a key without a value: the list's elements.
		{"folded elements", "### `READ`\n- **Resources:**\n", "- src/f%d.py\n", 150}, // 192 with texts copied
		// Keys the action does not have: each an unknown-key error.
		{"unknown keys", "### `EXECUTE`\n- **Command:** make\n", "- k%d: v\n", 140}, // 219 with an entry each
		// One key again and again: each a duplicate-key error.
		{"repeated keys", "### `EXECUTE`\n- **Command:** make\n", "- **Command:** make%d\n", 140}, // 215 with an entry each
		// Nested items: the same elements, one item.
		{"nested elements", "### `READ`\n- **Resources:**\n", "  - src/f%d.py\n", 140}, // 196 with texts copied
	} {
		t.Run(tc.name, func(t *testing.T) {
			plan := func(items int) []byte {
				var b strings.Builder
				b.WriteString("# T\n\n- **Status:** Green\n\n## Rationale\n```text\nr\n```\n\n## Action Plan\n\n")
				b.WriteString(tc.head)
				for i := range items {
					fmt.Fprintf(&b, tc.item, i)
				}
				return []byte(b.String())
			}
			allocated := func(src []byte) uint64 {
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				base := ms.TotalAlloc
				if _, err := Parse(context.Background(), "s.md", src, Options{Dialect: DialectPlan}); err != nil {
					t.Fatal(err)
				}
				runtime.ReadMemStats(&ms)
				return ms.TotalAlloc - base
			}
			const n = 25000
			small, large := allocated(plan(n)), allocated(plan(4*n))
			per := (max(large, small) - small) / (3 * n)
			t.Logf("%d KiB for %d items, %d KiB for %d: %d bytes an item", small>>10, n, large>>10, 4*n, per)
			if per > tc.most {
				t.Errorf("an action's list allocated %d bytes an item (at most %d)", per, tc.most)
			}
		})
	}
}

// TestPlanParticipleFails: when participle fails (here past a lowered
// MaxIterations, 1,000,000 in use), the document is one prose node
// holding the whole input and one parse-error; nothing panics.
func TestPlanParticipleFails(t *testing.T) {
	defer func(n int) { participle.MaxIterations = n }(participle.MaxIterations)
	participle.MaxIterations = 3
	src := []byte("# T\n" + strings.Repeat("## x\ntext\n", 5))
	doc, err := ParsePlan(context.Background(), "p.md", src, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkPlanLossless(t, src, doc)
	if len(doc.Diagnostics) != 1 || doc.Diagnostics[0].Code != CodeParse || len(doc.Prose) != 1 || len(doc.Actions) != 0 {
		t.Fatalf("diagnostics %v, %d prose nodes, %d actions", doc.Diagnostics, len(doc.Prose), len(doc.Actions))
	}
}
