package grammar

import (
	"fmt"
	"github.com/plangram/plangram/internal/number"
	"strconv"
	"strings"
	"unicode/utf8"
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
	if utf8.RuneCountInString(s) > previewLen {
		i, n := 0, 0
		for i < len(s) && n < previewLen {
			_, w := utf8.DecodeRuneInString(s[i:])
			i += w
			n++
		}
		s = s[:i] + "…"
	}
	return strconv.Quote(s)
}

// quoted is a message argument printed as its preview. The preview is
// made when the message is, so diagnostics past maxPerCode, which are only
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

// lastLine returns the last line of a node that is not blank.
func (b *planBuilder) lastLine(n *pnode) string {
	text := strings.TrimRight(b.src[n.start:n.end], " \t\r\n")
	return strings.TrimSpace(text[strings.LastIndexByte(text, '\n')+1:])
}

// describe renders a node's kind and preview for the AST view.
func (b *planBuilder) describe(n *pnode) string {
	switch n.kind {
	case kHeading:
		return fmt.Sprintf("Heading %d: %s", n.level, preview(b.headingText(n)))
	case kTight:
		return fmt.Sprintf("Heading %d (no space after #): %s", n.level, preview(b.headingText(n)))
	case kList:
		what := "List"
		items := count(len(n.items), "item")
		if n.meta {
			what += " (metadata, " + items + ")"
		} else {
			what += " (" + items + ")"
		}
		return what + ": " + preview(b.itemText(n.items[0]))
	case kPara:
		return "Paragraph: " + preview(b.paraText(n))
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
		return fmt.Sprintf("Headings (%s of unknown sections, folded): %s … %s", number.Thousands(n.lines), preview(b.headingText(n)), preview(b.lastLine(n)))
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
// flagged nodes with viewContext nodes around them. The nodes of actions a
// streaming parse let go (see viewRegion) are shown from the rows it kept
// of them, which are all the view can show.
func (b *planBuilder) view() string {
	r := &b.region
	items := make([]vitem, 0, len(b.nodes)+len(r.rows)+1)
	pos := 0
	for i := 0; i <= len(b.nodes); i++ {
		if i == r.at && r.n > 0 {
			for k := range r.rows {
				row := &r.rows[k]
				items = append(items, vitem{row: row, pos: pos + row.pos, view: r.view + row.pos, mark: row.mark})
			}
			pos += r.n
		}
		if i == len(b.nodes) {
			break
		}
		if n := b.nodes[i]; n.kind != kBlank {
			items = append(items, vitem{n: n, pos: pos, view: n.view, mark: n.mark})
			pos++
		}
	}
	if b.eof.mark != unchecked {
		items = append(items, vitem{n: b.eof, pos: pos, view: b.eof.view, mark: b.eof.mark})
		pos++
	}
	total := pos
	show := make([]bool, len(items))
	for k, it := range items {
		if total <= viewFull {
			show[k] = true
			continue
		}
		if !it.flagged() {
			continue
		}
		for j := k; j >= 0 && items[j].pos >= it.pos-viewContext; j-- {
			show[j] = true
		}
		for j := k; j < len(items) && items[j].pos <= it.pos+viewContext; j++ {
			show[j] = true
		}
	}
	var sb strings.Builder
	sb.WriteString(expectedShape)
	sb.WriteString("\nActual:\n")
	hidden, rows, prev := 0, 0, -1
	flush := func() {
		if hidden > 0 {
			fmt.Fprintf(&sb, "    … %s not shown …\n", count(hidden, "node"))
			hidden = 0
		}
	}
	for k, it := range items {
		hidden += it.pos - prev - 1 // nodes let go without a row: not shown
		prev = it.pos
		if !show[k] {
			hidden++
			continue
		}
		if rows == viewMaxRows {
			left, flagged := total-it.pos, r.unrecorded
			for _, m := range items[k:] {
				if m.flagged() {
					flagged++
				}
			}
			hidden = 0
			fmt.Fprintf(&sb, "    … %s more %s not shown (%s of them flagged) …\n", number.Thousands(left), plural(left, "node"), number.Thousands(flagged))
			prev = total - 1
			break
		}
		flush()
		rows++
		if it.row != nil {
			fmt.Fprintf(&sb, "[%s] [%03d] L%-3d %s\n", markChars[it.mark], it.view, it.row.line, it.row.text)
			continue
		}
		sb.WriteString(b.rowText(it.n, it.view))
	}
	hidden += total - prev - 1
	flush()
	return sb.String()
}

// vitem is one visible node of the AST view: a node the builder holds, or
// the row kept of a node it let go.
type vitem struct {
	n    *pnode
	row  *viewRow
	pos  int // index among the visible nodes
	view int
	mark mark
}

func (it vitem) flagged() bool { return it.mark == failed || it.mark == warned }

// rowText renders the row of node n, whose index in the view is view.
func (b *planBuilder) rowText(n *pnode, view int) string {
	line := b.lines.Pos(n.start).Line
	return fmt.Sprintf("[%s] [%03d] L%-3d %s\n", markChars[n.mark], view, line, b.nodeText(n))
}

// nodeText is a row's description of node n, with the reason of its mark.
func (b *planBuilder) nodeText(n *pnode) string {
	if n.reason != "" {
		return b.describe(n) + " (" + n.reason + ")"
	}
	return b.describe(n)
}

// viewRow is what the AST view keeps of a node the streaming parse let go
// (see viewRegion): its mark, line and description.
type viewRow struct {
	pos  int // index among the visible nodes of the region
	mark mark
	line int
	text string
}

// viewRegion stands in the AST view for the nodes of the Action Plan's
// actions that a streaming parse (Options.OnAction) let go once each
// action was bound. Of them it keeps the count, how many were flagged, and
// the rows the view may show: the first viewFull (a short document is
// shown whole; the first viewContext are context for a flagged node before
// the region), each flagged node with viewContext nodes on either side,
// and the last viewContext (context for a flagged node after the region).
// Past viewRowCap rows, which hold more shown rows than the view prints,
// it only counts the flagged nodes. So the view reads as if every node
// were held, while the region costs at most viewRowCap rows.
type viewRegion struct {
	at         int // index of planBuilder.nodes before which the region lies
	view       int // the view index of its first node (set by number)
	n          int // visible nodes
	rows       []viewRow
	ring       [viewContext]regionNode // the latest nodes without a row (oldest first)
	ringN      int
	after      int // nodes after a flagged one still to keep a row of
	unrecorded int // flagged nodes past viewRowCap, without a row
}

// regionNode is a node of the region not (yet) given a row; counted: a
// flagged node past viewRowCap, counted in unrecorded until it gets a row.
type regionNode struct {
	n       *pnode
	pos     int
	counted bool
}

// viewRowCap bounds the rows of a viewRegion: past the first viewFull
// rows every row is shown, but for the last viewContext, so the view's
// viewMaxRows rows end before the rows do.
const viewRowCap = viewFull + viewMaxRows + 4*viewContext

// regionAdd adds a visible node whose mark is final to the region, and
// reports whether the region holds the node itself (as one of the latest
// nodes without a row), which is then dropped when it leaves the ring;
// else the node is the caller's to drop.
func (b *planBuilder) regionAdd(n *pnode) bool {
	r := &b.region
	pos := r.n
	r.n++
	flagged := n.mark == failed || n.mark == warned
	if len(r.rows) >= viewRowCap {
		if flagged {
			r.unrecorded++
		}
		r.push(regionNode{n, pos, flagged})
		return true
	}
	switch {
	case flagged:
		b.flushRing()
		r.after = viewContext
	case r.after > 0:
		r.after--
	case pos < viewFull:
	default:
		r.push(regionNode{n: n, pos: pos})
		return true
	}
	b.keepRow(n, pos)
	return false
}

// push keeps e as one of the latest viewContext nodes without a row; the
// oldest leaves the ring, and is dropped.
func (r *viewRegion) push(e regionNode) {
	if r.ringN == viewContext {
		r.ring[0].n.drop()
		copy(r.ring[:], r.ring[1:])
		r.ringN--
	}
	r.ring[r.ringN] = e
	r.ringN++
}

// flushRing gives the latest nodes without a row their rows (the context
// before a flagged node, or the end of the region), and drops them.
func (b *planBuilder) flushRing() {
	r := &b.region
	for _, e := range r.ring[:r.ringN] {
		if e.counted {
			r.unrecorded-- // a row of its own now: not counted twice
		}
		b.keepRow(e.n, e.pos)
		e.n.drop()
	}
	r.ring, r.ringN = [viewContext]regionNode{}, 0
}

// keepRow keeps the row of node n at index pos of the region.
func (b *planBuilder) keepRow(n *pnode, pos int) {
	b.region.rows = append(b.region.rows, viewRow{pos: pos, mark: n.mark, line: b.lines.Pos(n.start).Line, text: b.nodeText(n)})
}

// plural returns what, with an s unless n is 1.
func plural(n int, what string) string {
	if n == 1 {
		return what
	}
	return what + "s"
}
