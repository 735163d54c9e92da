package grammar

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/lexer"
	"github.com/plangram/plangram/schema"
	"github.com/plangram/plangram/validate"
)

// Section kinds of a plan, by their heading 2 text.
type secKind int

const (
	secUnknown secKind = iota
	secRationale
	secMemos
	secPlan
	secMessage
)

// sectionKind classifies a heading 2: its text (any case) contains
// "Rationale", "Memo" or "Action Plan", or is "Message" (a trailing colon
// allowed).
func sectionKind(text string) secKind {
	t := strings.TrimSpace(text)
	switch {
	case containsFold(t, "rationale"):
		return secRationale
	case containsFold(t, "memo"):
		return secMemos
	case containsFold(t, "action plan"):
		return secPlan
	case strings.EqualFold(strings.TrimSuffix(t, ":"), "message"):
		return secMessage
	}
	return secUnknown
}

// containsFold reports whether s contains sub, ignoring case, without
// allocating.
func containsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(sub)], sub) {
			return true
		}
	}
	return false
}

// messageAction is the schema action a `## Message` section becomes.
const messageAction = "MESSAGE"

const (
	expectTitle     = "Heading 1 (the title)"
	expectMeta      = "List (metadata)"
	expectRationale = `Heading 2 "Rationale"`
	expectPlan      = `Heading 2 "Action Plan" | "Message"`
	expectAction    = "Heading 3 action, e.g. ### `CREATE`"
)

// mark records that a node fits the expected shape (never downgrading a
// warning or an error).
func (b *planBuilder) ok(n *pnode) {
	n.mark = max(n.mark, matched)
}

// note marks a node with a warning reason.
func (b *planBuilder) note(n *pnode, reason string) {
	n.mark = max(n.mark, warned)
	n.because(reason)
}

// fail reports a structural error at node n: the node is marked ✗ with
// reason in the AST view, and the diagnostic carries the view.
func (b *planBuilder) fail(n *pnode, code, reason, format string, args ...any) *ast.Diagnostic {
	return b.failAt(n, b.firstLine(n), code, reason, format, args...)
}

// failAt is fail with the diagnostic at span: things missing at the end of
// an action are marked in the view where they were expected (the next node)
// but reported at the action or heading that lacks them.
func (b *planBuilder) failAt(n *pnode, span ast.Span, code, reason, format string, args ...any) *ast.Diagnostic {
	n.mark = failed
	n.because(reason)
	d := b.report(ast.Error, code, span, format, args...)
	if d != nil {
		b.structural = append(b.structural, d)
	}
	return d
}

// firstLine is the span of a node's first line without its line ending (the
// end of the input for the EOF node).
func (b *planBuilder) firstLine(n *pnode) ast.Span {
	if n.kind == kEOF {
		return b.lines.Span(len(b.src), len(b.src))
	}
	return b.lines.Span(n.start, n.start+lineContentEnd(b.src[n.start:n.end], 0))
}

// after returns the first non-blank node after n, or the EOF node.
func (b *planBuilder) after(n *pnode) *pnode {
	for i := n.idx + 1; i < len(b.nodes); i++ {
		if b.nodes[i].kind != kBlank {
			return b.nodes[i]
		}
	}
	return b.eof
}

// line returns the 1-based line of a node.
func (b *planBuilder) line(n *pnode) int { return b.lines.Pos(n.start).Line }

// nonBlank returns the nodes of ns but blank lines.
func nonBlank(ns []*pnode) []*pnode {
	return slices.DeleteFunc(slices.Clone(ns), func(n *pnode) bool { return n.kind == kBlank })
}

// stray reports a node that has no place where it stands; expected says
// what the plan expects there.
func (b *planBuilder) stray(n *pnode, expected string) {
	switch n.kind {
	case kBlank:
	case kBreak:
		b.ok(n)
	case kFence:
		b.note(n, "stray code block: ignored")
		b.report(ast.Error, CodeStrayBlock, b.firstLine(n),
			"stray code block (%s) is not part of the plan and is ignored; the plan expects %s here", b.fenceKind(n), expected)
	case kPara, kTight:
		reason := "stray paragraph; expected: " + expected
		hint := ""
		if n.kind == kTight {
			hint = fmt.Sprintf(" (a heading needs a space after its #s: %q)", b.tightFixed(n))
			reason = "not a heading: no space after #; expected: " + expected
		}
		b.fail(n, CodeStrayParagraph, reason, "stray paragraph %s where the plan expects %s%s", quoted(b.src[n.start:n.end]), expected, hint)
	case kList:
		b.fail(n, CodeStrayList, "stray list; expected: "+expected, "stray list %s where the plan expects %s", quoted(b.itemText(b.items(n)[0])), expected)
	case kHeading:
		b.fail(n, CodeStrayHeading, "stray heading; expected: "+expected, "stray heading %d %s where the plan expects %s", n.level, quoted(b.headingText(n)), expected)
	}
}

// tightFixed returns a heading line without the space, with the space.
func (b *planBuilder) tightFixed(n *pnode) string {
	line := strings.TrimSpace(b.src[n.start:n.end])
	marks := headingMarks(line)
	return marks + " " + line[len(marks):]
}

// check checks the outline against the plan's shape and binds its
// actions: the intro (title and metadata), the sections up to a Message
// section, then what needs the whole outline (the sections missing, the
// unknown ones, the actions outside the Action Plan).
func (b *planBuilder) check(t *ptree) error {
	next := b.eof // the first node after the document's intro
	if len(t.parts) > 0 {
		next = t.parts[0].head
	} else if len(t.sections) > 0 {
		next = t.sections[0].head
	}
	b.titleAndMetadata(nonBlank(t.intro), next)
	var planSec, msgSec *psection
	outside := slices.Clone(t.parts) // actions outside an Action Plan section
	unknown := make([]*psection, 0, len(t.sections))
	var seen [secMessage + 1]bool
	stage := secUnknown
	for i, sec := range t.sections {
		if err := b.ctx.Err(); err != nil {
			return err
		}
		k := sectionKind(b.headingText(sec.head))
		if k == secMessage {
			msgSec = sec
			if planSec != nil {
				b.fail(sec.head, CodePlanAndMessage, "both present; expected: Heading 2 \"Action Plan\" or \"Message\", not both",
					"the plan has both `## Action Plan` (line %d) and `## Message`: write one of them", b.line(planSec.head))
			}
			b.ok(sec.head)
			b.message(sec, t.sections[i+1:])
			break
		}
		if k == secUnknown {
			if b.levelAction(sec.head) {
				// `## EDIT`: an action at the wrong level, read as one.
				ps := b.split(nil, &ppart{head: sec.head, body: sec.intro, level: sec.head.level})
				for _, p := range sec.parts {
					ps = b.split(ps, p)
				}
				if planSec == nil {
					outside = append(outside, ps...)
					continue
				}
				for _, p := range ps {
					b.part(p)
				}
				continue
			}
			unknown = append(unknown, sec)
			continue
		}
		switch {
		case seen[k]:
			b.fail(sec.head, CodeDuplicateSection, "duplicate section", "the plan has a second %s section", quoted(b.headingText(sec.head)))
		case k < stage:
			b.fail(sec.head, CodeWrongOrder, fmt.Sprintf("wrong order; expected: %s", stageExpectation(stage)),
				"section %s comes too late: the order is `# Title`, metadata list, `## Rationale`, `## Memos` (optional), `## Action Plan`", quoted(b.headingText(sec.head)))
		default:
			b.ok(sec.head)
		}
		first := !seen[k]
		seen[k] = true
		stage = max(stage, k)
		switch k {
		case secRationale, secMemos:
			b.blockSection(sec, first, k == secMemos)
			outside = append(outside, sec.parts...)
		case secPlan:
			if planSec == nil {
				planSec = sec
			}
			b.actionPlan(sec, b.actionFollows(t.sections[i+1:]))
		}
	}
	if !seen[secRationale] {
		at := next
		if at.kind == kEOF && len(t.sections) > 0 {
			at = t.sections[0].head
		}
		b.fail(at, CodeMissingRationale, "expected: "+expectRationale,
			"the plan has no `## Rationale` section: after the metadata list comes a heading 2 containing \"Rationale\" and one code block")
	}
	if planSec == nil && msgSec == nil {
		var planAt *pnode // where the missing Action Plan is reported
		switch {
		case len(outside) > 0:
			planAt = outside[0].head
		case len(unknown) > 0:
			planAt = unknown[0].head
			for _, p := range unknown[0].parts {
				b.part(p)
			}
			unknown = unknown[1:]
		default:
			planAt = b.eof
		}
		b.fail(planAt, CodeMissingPlan, "expected: "+expectPlan,
			"the plan has no `## Action Plan` section (or `## Message` instead of one)")
	}
	for _, sec := range unknown {
		if sec.head.kind == kFolded {
			b.checkFolded(sec.head)
			continue
		}
		b.unknownSection(sec.head)
	}
	for i, p := range outside {
		switch {
		case i > 0:
		case planSec != nil:
			b.fail(p.head, CodeWrongOrder, "action outside the Action Plan; expected: "+expectPlan,
				"actions belong under `## Action Plan` (line %d), after the Rationale and the Memos", b.line(planSec.head))
		case msgSec != nil:
			b.fail(p.head, CodePlanAndMessage, "action and Message both present",
				"the plan has actions and a `## Message` (line %d): write one of them", b.line(msgSec.head))
		}
		b.part(p)
	}
	return nil
}

// checkFolded reports each heading 2 of a folded run of unknown sections
// (see outliner) as an unknown section, as if it were a section
// of its own. Past MaxPerCode of them, each costs a count, not a
// diagnostic or its message (quoted is made only with the message).
func (b *planBuilder) checkFolded(n *pnode) {
	n.mark = failed
	n.because(fmt.Sprintf("%s folded: unknown sections holding only headings; expected: %s", count(int(n.lines), "heading"), expectPlan))
	sc := lexer.NewRunScanner(b.src, n.start)
	for {
		typ, start, end := sc.Next()
		if start >= n.end {
			return
		}
		if typ != lexer.MdH2 {
			continue
		}
		b.unknownSection(&pnode{kind: kHeading, level: 2, start: start, end: end})
	}
}

// unknownSection reports the heading 2 n of an unknown section.
func (b *planBuilder) unknownSection(n *pnode) {
	b.fail(n, CodeUnknownSection, "unknown section; expected: "+expectPlan,
		"unknown section %s: a plan has the sections `## Rationale`, `## Memos`, `## Action Plan` or `## Message`", quoted(b.headingText(n)))
}

// stageExpectation says what the plan expects once it has reached stage k.
func stageExpectation(k secKind) string {
	if k == secRationale {
		return `Heading 2 "Memos" or "Action Plan" | "Message"`
	}
	return "actions (Heading 3)"
}

// titleAndMetadata checks the nodes before the first section: an optional
// preamble (a warning), the `# Title` and the metadata list.
func (b *planBuilder) titleAndMetadata(intro []*pnode, next *pnode) {
	rest := intro
	title := slices.IndexFunc(intro, func(n *pnode) bool { return (n.kind == kHeading || n.kind == kTight) && n.level == 1 })
	if title >= 0 {
		if pre := intro[:title]; len(pre) > 0 {
			for _, n := range pre {
				b.note(n, "preamble: ignored")
			}
			last := pre[len(pre)-1]
			b.report(ast.Warning, CodePreamble, b.lines.Span(pre[0].start, b.firstLine(last).End.Offset),
				"text before the title is ignored (%d node(s) from line %d); a plan starts with its `# Title` line", len(pre), b.line(pre[0]))
		}
		tn := intro[title]
		b.doc.Title = b.headingText(tn)
		if tn.kind == kTight {
			b.note(tn, "accepted; write \"# Title\" with a space")
			b.report(ast.Warning, CodeTitleSpace, b.firstLine(tn), "the title line has no space after the #: accepted, but write %q", b.tightFixed(tn))
		} else {
			b.ok(tn)
		}
		rest = intro[title+1:]
	} else {
		at := next
		if len(intro) > 0 {
			at = intro[0]
			if at.kind != kList {
				rest = intro[1:]
			}
		}
		b.fail(at, CodeMissingTitle, "expected: "+expectTitle, "the plan has no title: it starts with a `# Title` line")
	}

	meta := slices.IndexFunc(rest, func(n *pnode) bool { return n.kind == kList })
	if meta < 0 {
		at := next
		if i := slices.IndexFunc(rest, func(n *pnode) bool { return n.kind != kBreak }); i >= 0 {
			at, rest = rest[i], slices.Delete(slices.Clone(rest), i, i+1)
		}
		b.fail(at, CodeMissingMetadata, "expected: "+expectMeta,
			"the plan has no metadata list after its title (`- **Status:** …`, `- **Agent:** …`, `- **Goal:** …`)")
		for _, n := range rest {
			b.stray(n, expectRationale)
		}
		return
	}
	for _, n := range rest[:meta] {
		b.stray(n, expectMeta)
	}
	b.documentMetadata(rest[meta])
	for _, n := range rest[meta+1:] {
		b.stray(n, expectRationale)
	}
}

// documentMetadata reads the plan's metadata list into doc.Metadata, keys in
// snake_case, values as written.
func (b *planBuilder) documentMetadata(n *pnode) {
	n.meta = true
	b.ok(n)
	// The keys so far, by name: Params.Get scans the list, which would
	// make a metadata list of many keys quadratic.
	seen := make(map[string]any, len(b.doc.Metadata))
	for _, p := range b.doc.Metadata {
		if _, ok := seen[p.Name]; !ok {
			seen[p.Name] = p.Value
		}
	}
	b.listEntries(n, func(e *entry) {
		key := snakeCase(e.key)
		v := e.metaValue()
		if first, dup := seen[key]; dup {
			if reflect.DeepEqual(first, v) {
				b.report(ast.Warning, CodeDuplicateKey, b.lines.Span(e.keyStart, e.keyEnd), "metadata key %q given twice with the same value; the first is kept", e.key)
			} else {
				// A second, different value would be lost: an error.
				b.report(ast.Error, CodeDuplicateKey, b.lines.Span(e.keyStart, e.keyEnd), "metadata key %q given twice with different values; this one (%s) is ignored and the first is kept", e.key, e.shown())
			}
			return
		}
		sp := b.lines.Span(e.valStart, e.valEnd)
		b.doc.Metadata = append(b.doc.Metadata, ast.Param{Name: key, Value: v, Span: &sp})
		seen[key] = v
	}, func(e *entry) {
		b.report(ast.Error, CodeBadMetadataItem, b.lines.Span(e.start, e.start+lineContentEnd(b.src[e.start:e.end], 0)),
			"metadata item %s is not `Key: value` (write `- **Key:** value`)", quoted(e.value))
	})
}

// blockSection checks a Rationale or (memos) Memos section: one code block
// and nothing else but breaks.
func (b *planBuilder) blockSection(sec *psection, first, memos bool) {
	what, code, msg := "rationale", CodeMissingRationale, "the `## Rationale` section has no code block: write the rationale in one fenced block"
	if memos {
		what, code, msg = "memos", CodeMissingMemos, "the `## Memos` section has no code block: write `[+] fact` / `[-] fact` lines in one fenced block"
	}
	expect := "Code block (the " + what + ")"
	body := nonBlank(sec.intro)
	fence := slices.IndexFunc(body, func(n *pnode) bool { return n.kind == kFence })
	if fence < 0 {
		at := b.after(sec.head)
		if len(body) > 0 {
			at, body = body[0], body[1:]
		}
		b.fail(at, code, "expected: "+expect, "%s", msg)
		fence = len(body)
	}
	for _, n := range body[:fence] {
		b.stray(n, expect)
	}
	if fence == len(body) {
		return
	}
	n := body[fence]
	b.ok(n)
	if first {
		n.placed = true
		n.block.Label = strings.ToUpper(what[:1]) + what[1:]
		b.doc.Blocks = append(b.doc.Blocks, n.block)
		if memos {
			b.memos(n.block)
		} else {
			r := n.block.Content
			b.doc.Rationale = &r
		}
	}
	for _, n := range body[fence+1:] {
		b.stray(n, expectPlan)
	}
}

// memos reads `[+] fact` and `[-] fact` lines.
func (b *planBuilder) memos(blk *ast.Block) {
	base := blk.ContentSpan.Start.Offset
	c := blk.Content
	for p := 0; p < len(c); p = lineEndAt(c, p) {
		line := c[p:lineEndAt(c, p)]
		t := strings.TrimSpace(line)
		if t == "" {
			continue
		}
		at := base + p + strings.Index(line, t)
		if strings.HasPrefix(t, "[+]") || strings.HasPrefix(t, "[-]") {
			b.doc.Memos = append(b.doc.Memos, &ast.Memo{Add: t[1] == '+', Text: strings.TrimSpace(t[3:]), Span: b.lines.Span(at, at+len(t))})
		} else {
			b.report(ast.Warning, CodeBadMemo, b.lines.Span(at, at+len(t)), "memo line %s does not start with [+] or [-]; it is not a memo", quoted(t))
		}
	}
}

// splitIntro splits the text of section sec before its first heading 3
// where an action heading at another level starts an action: it returns
// the text before that heading (stray) and the action(s) it starts, or
// sec.intro and nil.
func (b *planBuilder) splitIntro(sec *psection) (intro []*pnode, parts []*ppart) {
	intro = sec.intro
	for i, n := range intro {
		if b.levelAction(n) {
			return intro[:i], b.split(nil, &ppart{head: n, body: sec.intro[i+1:], level: n.level})
		}
	}
	return intro, nil
}

// actionPlan checks the `## Action Plan` section: breaks and blank lines
// before the first action, then one or more actions. later tells whether
// an action heading at the wrong level (`## EDIT`) follows the section:
// that action is the plan's, so the plan is not empty and the heading's
// one wrong-heading-level error says all there is to say.
func (b *planBuilder) actionPlan(sec *psection, later bool) {
	intro, parts := b.splitIntro(sec)
	if parts == nil {
		parts = make([]*ppart, 0, len(sec.parts))
	}
	for _, p := range sec.parts {
		parts = b.split(parts, p)
	}
	sec.parts = parts
	for _, n := range intro {
		b.stray(n, expectAction)
	}
	if len(sec.parts) == 0 && !later {
		last := sec.head
		if len(sec.intro) > 0 {
			last = sec.intro[len(sec.intro)-1]
		}
		b.fail(b.after(last), CodeEmptyPlan, "expected: "+expectAction,
			"the `## Action Plan` section has no actions: each action is a heading 3 naming it (### `CREATE`) followed by its metadata list and blocks")
	}
	for i, p := range sec.parts {
		if i%256 == 255 && b.ctx.Err() != nil {
			return
		}
		b.part(p)
	}
}

// actionFollows reports whether one of the sections after the Action Plan,
// up to a `## Message` (which ends the section loop), is an action heading
// at the wrong level: the section loop binds such actions to the plan.
func (b *planBuilder) actionFollows(later []*psection) bool {
	for _, s := range later {
		k := sectionKind(b.headingText(s.head))
		if k == secMessage {
			return false
		}
		if k == secUnknown && b.levelAction(s.head) {
			return true
		}
	}
	return false
}

// message makes the `## Message` section, with everything after it, the
// MESSAGE action. A `## Action Plan` heading inside it is reported.
func (b *planBuilder) message(sec *psection, later []*psection) {
	for _, s := range later {
		if sectionKind(b.headingText(s.head)) == secPlan {
			b.fail(s.head, CodePlanAndMessage, "both present; the message runs to the end of the file",
				"the plan has both `## Message` (line %d) and `## Action Plan`: the message runs to the end of the file, so write one of them", b.line(sec.head))
		}
	}
	body := b.nodes[sec.head.idx+1:]
	_, start, end := b.headingSpan(sec.head)
	b.bind(sec.head, body, messageAction, b.lines.Span(start, end), true)
}

// part binds one `### ACTION` section. An action heading at another level
// is reported once, saying which heading to write, and bound all the same.
func (b *planBuilder) part(p *ppart) {
	name, ns, ne := b.actionNameAt(p.head)
	nameSpan := b.lines.Span(ns, ne)
	if p.level != 0 {
		text := b.headingText(p.head)
		b.fail(p.head, CodeHeadingLevel, fmt.Sprintf("action heading at level %d; write ### %s", p.level, text),
			"the heading %q names the action %s at level %d; an action is a level-3 heading: write %q", strings.Repeat("#", int(p.level))+" "+text, name, p.level, "### "+text)
	}
	b.bind(p.head, p.body, name, nameSpan, false)
}

// levelAction reports whether n is a heading at a level other than 3 whose
// whole text names an action of the schema (`## EDIT`, #### `READ`): an
// action heading written at the wrong level. Headings with more text (a
// `#### READ THIS` inside a prompt) are not taken for one.
func (b *planBuilder) levelAction(n *pnode) bool {
	if n.kind != kHeading || n.level == 3 {
		return false
	}
	name, ns, ne := b.actionNameAt(n)
	if name == "" || b.schema.Lookup(name) == nil {
		return false
	}
	_, start, end := b.headingSpan(n)
	return strings.Trim(b.src[start:ns], "0123456789.) \t`*") == "" && strings.Trim(b.src[ne:end], " \t`*:") == ""
}

// split cuts p where its body holds an action heading at a level other
// than 3 that is not one of p's block labels, so that each becomes an
// action of its own, and appends the parts to out.
func (b *planBuilder) split(out []*ppart, p *ppart) []*ppart {
	labelsOf := func(head *pnode) []string {
		name, _, _ := b.actionNameAt(head)
		if def := b.schema.Lookup(name); def != nil && def.Blocks != nil {
			return def.Blocks.Labels
		}
		return nil
	}
	labels := labelsOf(p.head)
	out = append(out, p)
	body := p.body
	for i := 0; i < len(body); i++ {
		n := body[i]
		if b.levelAction(n) && labelIn(b.headingText(n), labels) == "" {
			cur := out[len(out)-1]
			cur.body = cur.body[:len(cur.body)-(len(body)-i)]
			out = append(out, &ppart{head: n, body: body[i+1:], level: n.level})
			labels = labelsOf(n)
		}
	}
	return out
}

// actionNameAt reads an action heading: `### CREATE`, ### `CREATE` or
// `### 1. CREATE`; the name is the code span's text, else the first word (a
// trailing colon removed), and its byte range.
func (b *planBuilder) actionNameAt(n *pnode) (string, int, int) {
	text, start, _ := b.headingSpan(n)
	rest := text
	if d := strings.TrimLeft(text, "0123456789"); len(d) < len(text) && d != "" && (d[0] == '.' || d[0] == ')') {
		rest = strings.TrimLeft(d[1:], " \t") // past a number: `### 1. CREATE`
	}
	i := len(text) - len(rest)
	var ns, ne int
	switch {
	case strings.HasPrefix(rest, "`") && strings.IndexByte(rest[1:], '`') >= 0:
		ns, ne = 1, 1+strings.IndexByte(rest[1:], '`')
	case strings.HasPrefix(rest, "**") && strings.Index(rest[2:], "**") >= 0:
		ns, ne = 2, 2+strings.Index(rest[2:], "**")
	default:
		ne = strings.IndexAny(rest, " \t")
		if ne < 0 {
			ne = len(rest)
		}
		if ne > 0 && rest[ne-1] == ':' {
			ne--
		}
	}
	name := rest[ns:ne]
	trimmed := strings.TrimSpace(name)
	ns += strings.Index(name, trimmed)
	ne = ns + len(trimmed)
	return trimmed, start + i + ns, start + i + ne
}

// headingText returns a heading's text: without indentation, the #s, the
// closing sequence and surrounding space.
func (b *planBuilder) headingText(n *pnode) string {
	t, _, _ := b.headingSpan(n)
	return t
}

// headingSpan returns a heading's text and its byte range in the source.
func (b *planBuilder) headingSpan(n *pnode) (string, int, int) {
	line := b.src[n.start : n.start+lineContentEnd(b.src[n.start:n.end], 0)]
	rest := strings.TrimLeft(strings.TrimLeft(strings.TrimLeft(strings.TrimPrefix(line, "\uFEFF"), " \t"), "#"), " \t")
	t := strings.TrimRight(rest, " \t")
	// A closing sequence of #s counts when it is the whole text or white
	// space comes before it.
	if c := strings.TrimRight(t, "#"); len(c) < len(t) && (c == "" || c[len(c)-1] == ' ' || c[len(c)-1] == '\t') {
		t = strings.TrimRight(c, " \t")
	}
	i := n.start + len(line) - len(rest)
	return t, i, i + len(t)
}

// fenceKind describes a code block: "6 tildes", "3 backticks, python".
func (b *planBuilder) fenceKind(n *pnode) string {
	blk := n.block
	c := "backticks"
	if strings.HasPrefix(blk.Fence, "~") {
		c = "tildes"
	}
	s := fmt.Sprintf("%d %s", len(blk.Fence), c)
	if blk.Info != "" {
		if utf8.ValidString(blk.Info) {
			s += ", " + blk.Info
		} else {
			s += ", " + strconv.Quote(blk.Info) // escaped: diagnostic text is valid UTF-8
		}
	}
	if blk.Unclosed {
		s += ", unclosed"
	}
	return s
}

// bind checks an action's body against its schema and fills its params.
// raw marks the `## Message` section, whose body runs to the end of the file.
func (b *planBuilder) bind(head *pnode, body []*pnode, name string, nameSpan ast.Span, raw bool) {
	a := &ast.Action{Name: name, NameSpan: nameSpan}
	last := head
	for _, n := range body {
		if n.kind != kBlank {
			last = n
		}
	}
	a.Span = b.lines.Span(head.start, b.firstLine(last).End.Offset)
	if last != head {
		a.Span.End = b.lines.Pos(last.end)
	}
	b.doc.Actions = append(b.doc.Actions, a)
	next := b.after(last)
	if raw {
		next = b.eof
	}

	def := b.resolve(head, a, name, raw)
	if def == nil { // an unbound action keeps its blocks
		for _, n := range body {
			if n.kind == kFence {
				n.placed = true
				a.Blocks = append(a.Blocks, n.block)
			}
		}
		return
	}
	b.ok(head)
	a.Name = def.Name // an alias (PROMPT) is reported under the action's name
	// The entries' list is the builder's, reused from action to action.
	bb := &actionBinder{b: b, a: a, def: def, keys: b.keys[def], head: head, next: next, entries: b.entryList[:0]}
	bb.body(body)
	bb.params()
	clear(bb.entries)
	b.entryList = bb.entries[:0]
}

// resolve returns the schema action an action heading names, or nil when
// the action stays unbound: no name, an unknown action (reported unless a
// plug-in) or a `### MESSAGE` heading.
func (b *planBuilder) resolve(head *pnode, a *ast.Action, name string, raw bool) *schema.Action {
	if name == "" {
		b.fail(head, CodeEmptyActionName, "expected: an action name, e.g. ### `CREATE`",
			"action heading names no action: write the action's name, e.g. ### `CREATE` (known: %s)", lazy(func() string { return strings.Join(b.schema.Names(), ", ") }))
		return nil
	}
	def := b.schema.Lookup(name)
	if def == nil && !raw && strings.EqualFold(name, messageAction) {
		def = b.schema.Lookup(messageAction) // `### Message`: reported as MESSAGE below
	}
	if def == nil {
		reason := fmt.Sprintf("unknown action %q", name)
		if sug := b.schema.Suggest(name); sug != "" {
			reason += fmt.Sprintf("; did you mean %q?", sug)
		}
		owner, label := b.labelOwner(name)
		base := reason
		msg := lazy(func() string {
			msg := base
			if !strings.HasSuffix(msg, "?") {
				msg += "."
			}
			msg += " Known actions: " + strings.Join(b.schema.Names(), ", ") + "."
			if owner != "" {
				msg += fmt.Sprintf(" A heading containing %q belongs inside the %s action, below its heading 3: #### `%s`", label, owner, label)
			}
			return msg
		})
		if owner == "" && b.schema.AllowsUnknownActions() {
			// A plug-in action (docs/schema.md, "Unknown actions"): kept
			// unbound; only a name close to a declared one is reported.
			b.ok(head)
			if d := validate.UnknownAction(b.schema, name, b.firstLine(head)); d != nil {
				b.note(head, reason)
				b.report(d.Severity, CodeUnknownPlanAction, d.Span, "%s", d.Message)
			}
			return nil
		}
		if owner != "" {
			reason += fmt.Sprintf("; write it as #### `%s` inside %s", label, owner)
		}
		b.fail(head, CodeUnknownPlanAction, reason, "%s", msg)
		return nil
	}
	if def.Name == messageAction && !raw {
		// MESSAGE is the `## Message` section: as an action heading it
		// would put a message inside (or beside) an action plan.
		a.Name = def.Name
		b.fail(head, CodePlanAndMessage, "a message is the `## Message` section, not an action",
			"a `### %s` heading is not an action: a message and an action plan are mutually exclusive; write the message as the `## Message` section in place of `## Action Plan`, or leave it out", name)
		return nil
	}
	return def
}

// labelOwner returns the action whose block labels include a label the
// text contains.
func (b *planBuilder) labelOwner(text string) (string, string) {
	for _, a := range b.schema.Actions {
		if a.Blocks == nil {
			continue
		}
		if l := labelIn(text, a.Blocks.Labels); l != "" {
			return a.Name, l
		}
	}
	return "", ""
}

// labelIn returns the first label that text contains, ignoring case.
func labelIn(text string, labels []string) string {
	t := strings.ToLower(text)
	for _, l := range labels {
		if strings.Contains(t, strings.ToLower(l)) {
			return l
		}
	}
	return ""
}

// snakeCase turns a metadata key into a JSON name: "File Path" -> "file_path".
// A byte that is not part of valid UTF-8 is kept as it is (a word byte), so
// the name keeps the key's exact bytes (docs/acts.md, "Exact bytes in JSON").
func snakeCase(key string) string {
	var sb strings.Builder
	under := false
	for i := 0; i < len(key); {
		r, n := utf8.DecodeRuneInString(key[i:])
		word := key[i : i+n]
		if r != utf8.RuneError || n != 1 {
			r = unicode.ToLower(r)
			word = string(r)
		}
		i += n
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127 {
			if under && sb.Len() > 0 {
				sb.WriteByte('_')
			}
			under = false
			sb.WriteString(word)
		} else {
			under = true
		}
	}
	return sb.String()
}

// actionExpectation describes an action's body for the AST view.
func actionExpectation(def *schema.Action) string {
	parts := []string{}
	if slices.ContainsFunc(def.Params, func(p *schema.Param) bool { return p.From == "" || p.From == fromMeta }) {
		parts = append(parts, "List (metadata)")
	}
	if def.Blocks != nil && len(def.Blocks.Labels) > 0 {
		parts = append(parts, "("+labelShapes(def.Blocks.Labels)+")+")
	} else if def.Blocks != nil && def.Blocks.Min != nil && *def.Blocks.Min > 0 {
		parts = append(parts, "Code block")
	}
	return def.Name + ": " + strings.Join(parts, ", ")
}

// labelShapes describes the labelled blocks of labels for the AST view.
func labelShapes(labels []string) string {
	ls := make([]string, len(labels))
	for i, l := range labels {
		ls[i] = fmt.Sprintf("Heading %q + Code block", l)
	}
	return strings.Join(ls, ", ")
}

// metaValue returns the value an entry gives a document metadata key: its
// text, or the texts of its nested list when it has no text of its own.
func (e *entry) metaValue() any {
	if e.value == "" && len(e.elems) > 0 {
		return e.elemTexts()
	}
	return e.value
}
