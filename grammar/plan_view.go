package grammar

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/plangram/plangram/internal/number"
)

// expectedShape is the first part of every AST diff: the nodes a plan is
// made of, in order.
const expectedShape = `Expected:  [0] Heading 1  [1] List (metadata)  [2] Heading 2 "Rationale"  [3] Code block  [4] Heading 2 "Action Plan" | "Message"  [5…] actions
           (optional before [4]: Heading 2 "Memos" + Code block; each action: Heading 3 naming it, List (metadata), its code blocks)`

// viewContext is how many nodes around each flagged node the AST diff of a
// long document shows.
const (
	viewContext = 3
	viewFull    = 60 // documents with at most this many nodes are shown whole
	// viewMaxRows bounds the rows of the view: past it, one line says how
	// many nodes (and how many of them flagged) are left out.
	viewMaxRows = 60
)

// previewLen is the length, in characters, of node previews.
const previewLen = 60

// preview quotes s shortened to previewLen characters, runs of white space
// (line breaks included) shown as one space.
func preview(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	n := 0
	for i := range s { // rune by rune, an invalid byte counted as one
		if n == previewLen {
			s = s[:i] + "…"
			break
		}
		n++
	}
	return strconv.Quote(s)
}

// quoted is a message argument printed as its preview. The preview is
// made when the message is, so diagnostics past MaxPerCode, which are only
// counted, cost no preview.
type quoted string

// String returns the preview of q.
func (q quoted) String() string { return preview(string(q)) }

// lazy is a message argument made only when the message is (see quoted).
type lazy func() string

// String returns the text.
func (l lazy) String() string { return l() }

// itemText returns a list item's first line without its bullet.
func (b *planBuilder) itemText(it [2]int) string {
	line := b.src[it[0] : it[0]+lineContentEnd(b.src[it[0]:it[1]], 0)]
	t := strings.TrimLeft(line, " \t")
	if len(t) > 0 {
		t = t[1:]
	}
	return strings.TrimSpace(t)
}

// describe renders a node's kind and preview for the AST view.
func (b *planBuilder) describe(n *pnode) string {
	switch n.kind {
	case kHeading:
		return fmt.Sprintf("Heading %d: %s", n.level, preview(b.headingText(n)))
	case kTight:
		return fmt.Sprintf("Heading %d (no space after #): %s", n.level, preview(b.headingText(n)))
	case kList:
		items := b.items(n)
		what := count(len(items), "item")
		if n.meta {
			what = "metadata, " + what
		}
		return "List (" + what + "): " + preview(b.itemText(items[0]))
	case kPara:
		return "Paragraph: " + preview(b.src[n.start:n.end])
	case kFence:
		first := ""
		for _, l := range strings.Split(n.block.Content, "\n") {
			if t := strings.TrimSpace(l); t != "" {
				first = t
				break
			}
		}
		return fmt.Sprintf("Code block (%s): %s", b.fenceKind(n), preview(first))
	case kBreak:
		return "Thematic break: " + preview(b.src[n.start:n.end])
	case kEOF:
		return "End of file"
	case kFolded:
		text := strings.TrimRight(b.src[n.start:n.end], " \t\r\n") // the last heading: its last line not blank
		last := strings.TrimSpace(text[strings.LastIndexByte(text, '\n')+1:])
		return fmt.Sprintf("Headings (%s of unknown sections, folded): %s … %s", number.Thousands(int(n.lines)), preview(b.headingText(n)), preview(last))
	case kOverflow:
		return fmt.Sprintf("Parts past %s, not read: lines %d–%d", number.Thousands(MaxActionParts), b.line(n), b.lastLineNo(n))
	}
	return ""
}

var markChars = [...]string{unchecked: " ", matched: "✓", warned: "!", failed: "✗"}

// view renders the AST diff: the expected shape, then every node of the
// document (blank lines left out) with its mark — ✓ fits, ✗ does not (with
// its own reason), ! accepted with a warning, blank not checked — and the
// end of the file when something is missing there. Long documents show the
// flagged nodes with viewContext nodes around them.
func (b *planBuilder) view() string {
	// A node's index in the view counts the nodes before it, blank lines
	// left out and a folded run counting its headings.
	items := make([]*pnode, 0, len(b.nodes)+1)
	index := make([]int, 0, len(b.nodes)+1)
	at := 0
	for _, n := range b.nodes {
		if n.kind != kBlank {
			items, index = append(items, n), append(index, at)
			at += max(1, int(n.lines))
		}
	}
	if b.eof.mark != unchecked {
		items, index = append(items, b.eof), append(index, at)
	}
	total := len(items)
	show := make([]bool, total)
	for k, n := range items {
		if total <= viewFull {
			show[k] = true
		} else if flagged(n) {
			for j := max(0, k-viewContext); j <= min(total-1, k+viewContext); j++ {
				show[j] = true
			}
		}
	}
	var sb strings.Builder
	sb.WriteString(expectedShape)
	sb.WriteString("\nActual:\n")
	hidden, rows := 0, 0
	flush := func() {
		if hidden > 0 {
			fmt.Fprintf(&sb, "    … %s not shown …\n", count(hidden, "node"))
			hidden = 0
		}
	}
	for k, n := range items {
		if !show[k] {
			hidden++
			continue
		}
		if rows == viewMaxRows {
			left, more := total-k, 0
			for _, m := range items[k:] {
				if flagged(m) {
					more++
				}
			}
			hidden = 0
			fmt.Fprintf(&sb, "    … %s more %s not shown (%s of them flagged) …\n", number.Thousands(left), number.Noun(left, "node"), number.Thousands(more))
			break
		}
		flush()
		rows++
		text := b.describe(n)
		if n.reason != "" {
			text += " (" + n.reason + ")"
		}
		fmt.Fprintf(&sb, "[%s] [%03d] L%-3d %s\n", markChars[n.mark], index[k], b.line(n), text)
	}
	flush()
	return sb.String()
}

// flagged reports whether the view marks n as not fitting or warned.
func flagged(n *pnode) bool { return n.mark == failed || n.mark == warned }
