package grammar

import (
	"context"
	"strings"
	"testing"
)

// TestUncappedListsAll: with Options.Uncapped both dialects list every
// diagnostic one by one (fmt and fix act on each), and without it the
// same documents list MaxPerCode of a code and one that sums up the rest.
func TestUncappedListsAll(t *testing.T) {
	const n = 3 * MaxPerCode / 2
	plan := "# T\n\n- **Status:** draft\n- **Agent:** a\n- **Goal:** g\n\n## Rationale\n\n```text\nwhy\n```\n\n## Action Plan\n\n### `READ`\n\n- **Resource:** a.md\n- **Description:** d\n" +
		strings.Repeat("\n`````\nx\n`````\n", n)
	for _, c := range []struct{ dialect, code, src string }{
		{DialectActs, CodeBlockBeforeAct, strings.Repeat("```\nx\n```\n", n) + "```act\nrun_command ls\n```\n"},
		{DialectActs, CodeNearAct, strings.Repeat("```act x\n```\n", n)},
		{DialectActs, CodeLoneCR, "```act\nwrite_file a\n```\n```\n" + strings.Repeat("x\r```\n", n) + "```\n"},
		{DialectPlan, CodeStrayBlock, plan},
	} {
		for _, uncapped := range []bool{false, true} {
			doc, err := Parse(context.Background(), "t.md", []byte(c.src), Options{Dialect: c.dialect, Uncapped: uncapped})
			if err != nil {
				t.Fatal(err)
			}
			got, summed := 0, false
			for _, d := range doc.Diagnostics {
				if d.Code == c.code {
					got++
					summed = summed || strings.Contains(d.Message, "not listed one by one")
				}
			}
			want, wantSummed := MaxPerCode+1, true
			if uncapped {
				want, wantSummed = n, false
			}
			if got != want || summed != wantSummed {
				t.Errorf("%s %s (uncapped %v): %d diagnostics (summed up: %v), want %d (%v)", c.dialect, c.code, uncapped, got, summed, want, wantSummed)
			}
		}
	}
}
