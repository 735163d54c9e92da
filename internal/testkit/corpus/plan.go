package corpus

import (
	"fmt"
	"strings"
)

// Plan returns a structured Markdown plan of at least size bytes: title,
// metadata, rationale, memos, then an action plan cycling through every
// action kind with realistic metadata lists, code blocks (nested fences
// inside longer ones, indentation, trailing spaces), prose and breaks.
func Plan(size int) []byte {
	var b strings.Builder
	b.Grow(size + 4096)
	b.WriteString("# Refactor the parser package\n\n- **Status:** Green 🟢\n- **Agent:** Developer\n- **Goal:** Split the parser into a lexer and a grammar.\n\n")
	b.WriteString("## Rationale\n````text\nThe parser mixes line classification and structure.\nSplitting it makes both testable.\n````\n\n")
	b.WriteString("## Memos\n```text\n[+] The project uses Go 1.26.\n[-] The old regexp lexer.\n```\n\n## Action Plan\n\n")
	for i := 0; b.Len() < size; i++ {
		switch i % 8 {
		case 0:
			fmt.Fprintf(&b, "### `CREATE`\n- **File Path:** [src/pkg%d/file%d.py](/src/pkg%d/file%d.py)\n- **Description:** Module %d of the new lexer.\n- **Overwrite:** `false`\n\n```python\n", i%50, i, i%50, i, i)
			for j := 0; j < 30; j++ {
				fmt.Fprintf(&b, "    def func_%d_%d(self, value):  \n        return value * %d\t# keep tabs and trailing spaces\n", i, j, j)
			}
			b.WriteString("```\n\n")
		case 1:
			fmt.Fprintf(&b, "### `EDIT`\n- **File Path:** src/pkg%d/file%d.py\n- **Description:** Rename the helpers.\n- **Match All:** true\n\n", i%50, i-1)
			for k := 0; k < 2; k++ {
				b.WriteString("#### `FIND:`\n```python\n")
				for j := 0; j < 8; j++ {
					fmt.Fprintf(&b, "        return value * %d\n", j+k*8)
				}
				b.WriteString("```\n#### `REPLACE:`\n```python\n")
				for j := 0; j < 8; j++ {
					fmt.Fprintf(&b, "        return value * %d + 1\n", j+k*8)
				}
				b.WriteString("```\n\n")
			}
		case 2:
			fmt.Fprintf(&b, "### `CREATE`\n- **File Path:** docs/page%d.md\n- **Description:** Page %d of the docs, with a nested example.\n\n````markdown\n# Page %d\n\nRun it:\n\n```bash\ngo test ./pkg%d/...\n```\n\n~~~\nliteral tildes\n~~~\n````\n\n---\n\n", i, i, i, i%50)
		case 3:
			fmt.Fprintf(&b, "### `EXECUTE`\n- **Description:** Run the tests of package %d.\n- **Expected Outcome:** All tests pass.\n- **Timeout:** 120\n\n```bash\ncd src/pkg%d\nexport GOFLAGS=\"-count=1\"\ngo test ./...\n```\n\n", i%50, i%50)
		case 4:
			fmt.Fprintf(&b, "### `READ`\n- **Resource:** [src/pkg%d/file%d.py](/src/pkg%d/file%d.py)\n- **Description:** Check the current code.\n\n", i%50, i-4, i%50, i-4)
		case 5:
			b.WriteString("### `RESEARCH`\n- **Description:** Prior art.\n\n```text\ncommonmark fenced code closing rule\nparticiple lexer performance\n```\n\n")
		case 6:
			fmt.Fprintf(&b, "### `CHAT_WITH_USER`\nShould module %d keep its old name for compatibility?\n\n1. Keep it as an alias.\n2. Remove it.\n\n- **Reference Files:**\n  - [src/pkg%d/file%d.py](/src/pkg%d/file%d.py)\n\n", i, i%50, i-6, i%50, i-6)
		case 7:
			fmt.Fprintf(&b, "### `INVOKE`\n- **Agent:** Reviewer\n- **Description:** Review package %d.\n- **Handoff Resources:**\n  - [src/pkg%d/file%d.py](/src/pkg%d/file%d.py)\n\nPlease check the naming.\n\n", i%50, i%50, i-7, i%50, i-7)
		}
	}
	return []byte(b.String())
}
