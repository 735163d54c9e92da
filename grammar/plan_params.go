package grammar

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/internal/jsonw"
	"github.com/plangram/plangram/internal/number"
	"github.com/plangram/plangram/schema"
)

// Parameter sources of the plan dialect (schema Param.From; docs/plan.md).
// They are mechanisms: the schema says which action uses which.
const (
	fromMeta       = "meta"        // the action's metadata list (the default)
	fromBlock      = "block"       // the content of the action's one code block, byte for byte
	fromScript     = "script"      // that content without its POSIX header, trimmed
	fromCwd        = "cwd"         // the header's last `cd DIR`, else the metadata key
	fromEnv        = "env"         // the metadata key's variables, overridden by the header's exports
	fromGroups     = "groups"      // the labelled blocks, grouped in label order
	fromBlockLines = "block_lines" // every non-empty line of the code blocks, trimmed
	fromMarkdown   = "markdown"    // the Markdown of the body without the metadata list
)

// readsMeta reports whether a parameter's source reads the metadata list.
func readsMeta(p *schema.Param) bool {
	switch p.From {
	case "", fromMeta, fromCwd, fromEnv:
		return true
	}
	return false
}

// entry is one item of a metadata list: `- **Key:** value`, with nested
// (or, after a key without a value, following sibling) items as elements.
type entry struct {
	key              string
	norm             string // normKey(key)
	keyStart, keyEnd int
	value            string // the text after the key: first line and continuation lines, each trimmed
	valStart, valEnd int
	elems            []elem
	multi            map[int]string // the texts of elems with continuation lines, by index (elemText)
	src              string         // the document: elems' texts are spans of it
	start, end       int            // the whole item
	bad              bool           // not `Key: value`; value holds the item's text
	ref              keyRef         // what the key names, once an action's binder took it (entry)
}

// elem is an element of an entry: a nested item, or a following sibling
// item folded into a key without a value. Its text is src[start:end],
// unless it has continuation lines (entry.multi): an element is two
// offsets, so a list of many of them holds no more than its item ranges do.
type elem struct{ start, end int }

// elemText is the text of the entry's i-th element: its first line and
// continuation lines, each trimmed, joined with "\n".
func (e *entry) elemText(i int) string {
	if t, ok := e.multi[i]; ok {
		return t
	}
	el := e.elems[i]
	return e.src[el.start:el.end]
}

// elemTexts returns the texts of the entry's elements, in order.
func (e *entry) elemTexts() []string {
	ts := make([]string, len(e.elems))
	for i := range e.elems {
		ts[i] = e.elemText(i)
	}
	return ts
}

// shown is the entry's value for a message, as its preview: its text, or
// its elements separated by ", " when it has no text of its own.
func (e *entry) shown() lazy {
	return func() string {
		if e.value != "" || len(e.elems) == 0 {
			return preview(e.value)
		}
		var sb strings.Builder
		for i := range e.elems {
			if i > 0 {
				sb.WriteString(", ")
			}
			sb.WriteString(e.elemText(i))
			if sb.Len() > 200 { // past what a preview shows
				break
			}
		}
		return preview(sb.String())
	}
}

// setMulti records the text of the i-th element, which has continuation
// lines.
func (e *entry) setMulti(i int, text string) {
	if e.multi == nil {
		e.multi = map[int]string{}
	}
	e.multi[i] = text
}

// fold appends f, an item that is not `Key: value` folded into e's key, to
// e's elements: its text, then its nested elements.
func (e *entry) fold(f *entry) {
	k := len(e.elems)
	e.elems = append(e.elems, elem{f.valStart, f.valEnd})
	if f.value != e.src[f.valStart:f.valEnd] {
		e.setMulti(k, f.value)
	}
	for i, t := range f.multi {
		e.setMulti(k+1+i, t)
	}
	e.elems = append(e.elems, f.elems...)
	e.end = f.end
}

// listEntries reads list n's items, in order. Each `Key: value` item is an
// entry, passed to each once complete: an item that is not `Key: value`
// following a key whose value is empty (`- **Handoff Resources:**` then
// `- [a](a.md)`) is an element of that key, as if nested. Any other item
// that is not `Key: value` (a bad item) is passed to bad. Both get a
// scratch entry, valid during the call: a list of many items holds no
// memory per item but what the callers keep.
func (b *planBuilder) listEntries(n *pnode, each, bad func(*entry)) {
	// The two scratch entries are the builder's, taken for the call (a
	// call from inside each or bad makes its own): passed to callbacks,
	// entries on the stack would escape, one pair per list.
	pair := b.scratch
	if pair == nil {
		pair = new([2]entry)
	}
	b.scratch = nil
	defer func() { b.scratch = pair }()
	cur, tmp := &pair[0], &pair[1]
	*cur = entry{}
	have, collecting := false, false
	items := b.items(n)
	for k, it := range items {
		start, end, ok := b.itemRange(it)
		if !ok {
			continue
		}
		b.item(tmp, start, end)
		if tmp.bad && collecting {
			if cur.elems == nil {
				// Room for the rest of the list, which is usually
				// folded too, so a long list is not grown by copies.
				cur.elems = make([]elem, 0, len(items)-k+len(tmp.elems))
			}
			cur.fold(tmp)
			continue
		}
		if have {
			each(cur)
			have = false
		}
		if tmp.bad {
			collecting = false
			bad(tmp)
			continue
		}
		*cur, have = *tmp, true // item makes tmp afresh: cur owns its elements
		collecting = cur.value == "" && len(cur.elems) == 0
	}
	if have {
		each(cur)
	}
}

// firstEntry parses the first line of list n's first item, which decides
// what the list is (metadata or not: its key, or that it has none); ok is
// false when the list has no item.
func (b *planBuilder) firstEntry(n *pnode) (e entry, ok bool) {
	for _, it := range b.items(n) {
		if start, end, ok := b.itemRange(it); ok {
			b.item(&e, start, start+lineEndAt(b.src[start:end], 0))
			return e, true
		}
	}
	return e, false
}

// itemRange is the part of list item it that is an entry: the item ends
// inside a line at the fence run of a marker line (`- ```python`), whose
// block follows the list; that line's markers are not an entry (nor a
// nested element). ok is false when nothing is left.
func (b *planBuilder) itemRange(it [2]int) (start, end int, ok bool) {
	start, end = it[0], it[1]
	if end < len(b.src) && b.src[end-1] != '\n' {
		end = strings.LastIndexByte(b.src[:end], '\n') + 1
		if end <= start {
			return 0, 0, false
		}
	}
	return start, end, true
}

// item parses one list item token [s, e) into ent.
func (b *planBuilder) item(ent *entry, s, e int) {
	*ent = entry{src: b.src}
	v := b.src[s:e]
	fl := lineContentEnd(v, 0)
	line := v[:fl]
	rest := strings.TrimLeft(line, " \t")
	if rest != "" {
		rest = strings.TrimLeft(rest[1:], " \t") // past the bullet
	}
	i := len(line) - len(rest)
	text := strings.TrimRight(line[i:], " \t")
	ent.start, ent.end = s, e
	if key, ks, ke, vs, ok := ParseKV(text); ok {
		ent.key, ent.keyStart, ent.keyEnd, ent.norm = key, s+i+ks, s+i+ke, normKey(key)
		val := text[vs:]
		lead := len(val) - len(strings.TrimLeft(val, " \t"))
		ent.value = strings.TrimSpace(val)
		ent.valStart, ent.valEnd = s+i+vs+lead, s+i+len(text)
	} else {
		ent.bad = true
		ent.value = text
		ent.valStart, ent.valEnd = s+i, s+i+len(text)
	}
	// Continuation lines: each trimmed, joined with "\n", added to the value
	// or, after a nested item, to that item.
	var buf [4]string
	value := buf[:0]
	if ent.value != "" {
		value = append(value, ent.value)
	}
	var cur []string // the lines of the last element, while it has continuation lines
	inElem := false
	flush := func() {
		if len(cur) > 1 {
			ent.setMulti(len(ent.elems)-1, strings.Join(cur, "\n"))
		}
		cur, inElem = cur[:0], false
	}
	for p := lineEndAt(v, 0); p < len(v); p = lineEndAt(v, p) {
		l := v[p:lineContentEnd(v, p)]
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		at := s + p + strings.Index(l, t)
		if m := bulletMarker(t); m > 0 {
			flush()
			et := strings.TrimSpace(t[m:])
			off := at + strings.Index(t, et)
			if et == "" {
				off = at + len(t)
			}
			ent.elems = append(ent.elems, elem{off, off + len(et)})
			cur, inElem = append(cur, et), true
			continue
		}
		switch {
		case inElem:
			cur = append(cur, t)
			ent.elems[len(ent.elems)-1].end = at + len(t)
		case len(value) == 0:
			value = append(value, t)
			ent.valStart, ent.valEnd = at, at+len(t)
		default:
			value = append(value, t)
			ent.valEnd = at + len(t)
		}
	}
	flush()
	ent.value = strings.Join(value, "\n")
}

// bulletMarker returns the length of a list marker starting t (`-`, `*`,
// `+`, `1.`, `1)`) when one is followed by a space or ends t, else 0.
func bulletMarker(t string) int {
	n := 0
	switch {
	case t[0] == '-' || t[0] == '*' || t[0] == '+':
		n = 1
	default:
		for n < len(t) && n < 9 && t[n] >= '0' && t[n] <= '9' {
			n++
		}
		if n == 0 || n >= len(t) || (t[n] != '.' && t[n] != ')') {
			return 0
		}
		n++
	}
	if n < len(t) && t[n] != ' ' && t[n] != '\t' {
		return 0
	}
	return n
}

// ParseKV splits a metadata item's text into key and value: `**Key:** value`,
// `**Key**: value`, `__Key:__ value` or `Key: value` (a plain key, PlainKey,
// whose colon is within the first 60 bytes). ks, ke are the key's byte range
// and vs the value's start in t.
func ParseKV(t string) (key string, ks, ke, vs int, ok bool) {
	for _, m := range []string{"**", "__"} {
		if !strings.HasPrefix(t, m) {
			continue
		}
		end := strings.Index(t[2:], m)
		if end < 0 {
			return "", 0, 0, 0, false
		}
		inner, after := t[2:2+end], 2+end+2
		switch {
		case strings.HasSuffix(inner, ":"):
			inner = strings.TrimSuffix(inner, ":")
		case strings.HasPrefix(t[after:], ":"):
			after++
		default:
			return "", 0, 0, 0, false
		}
		k := strings.TrimSpace(inner)
		if k == "" || len(k) > 60 {
			return "", 0, 0, 0, false
		}
		ks = 2 + strings.Index(inner, k)
		return k, ks, ks + len(k), after, true
	}
	i := strings.IndexByte(t, ':')
	if i <= 0 || i > 60 || (i+1 < len(t) && t[i+1] != ' ' && t[i+1] != '\t') {
		return "", 0, 0, 0, false
	}
	k := strings.TrimSpace(t[:i])
	if !PlainKey(k) {
		return "", 0, 0, 0, false
	}
	return k, 0, len(k), i + 1, true
}

// PlainKey reports whether k is a metadata key that needs no emphasis
// markers: at most 60 bytes, an ASCII letter, then letters, digits, spaces
// and `_-/.`.
func PlainKey(k string) bool {
	if k == "" || len(k) > 60 || !(k[0] >= 'A' && k[0] <= 'Z' || k[0] >= 'a' && k[0] <= 'z') {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == ' ' || c == '_' || c == '-' || c == '/' || c == '.') {
			return false
		}
	}
	return true
}

// normKey compares metadata keys: case, `_`, `-` and runs of spaces ignored.
func normKey(k string) string {
	k = strings.TrimSuffix(strings.TrimSpace(k), ":")
	var sb strings.Builder
	sb.Grow(len(k))
	space := false
	for i := 0; i < len(k); i++ {
		c := k[i]
		switch {
		case c == ' ' || c == '\t' || c == '_' || c == '-':
			space = true
			continue
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
		}
		if space && sb.Len() > 0 {
			sb.WriteByte(' ')
		}
		space = false
		sb.WriteByte(c)
	}
	return sb.String()
}

// keyRef is what a normalised metadata key names in one action.
type keyRef struct {
	param *schema.Param
	alias bool
}

// keyIndex maps each action's normalised metadata keys and aliases to their
// parameters.
func keyIndex(s *schema.Schema) map[*schema.Action]map[string]keyRef {
	idx := make(map[*schema.Action]map[string]keyRef, len(s.Actions))
	for _, a := range s.Actions {
		m := map[string]keyRef{}
		for _, p := range a.Params {
			if !readsMeta(p) {
				continue
			}
			for _, al := range p.Aliases {
				m[normKey(al)] = keyRef{p, true}
			}
			m[normKey(p.KeyOrName())] = keyRef{p, false}
		}
		idx[a] = m
	}
	return idx
}

// bound is a code block an action took, with the label heading before it.
type bound struct {
	n     *pnode
	label string
	head  *pnode
}

// actionBinder checks one known action's body and fills its params.
type actionBinder struct {
	b        *planBuilder
	a        *ast.Action
	def      *schema.Action
	keys     map[string]keyRef // the action's metadata keys
	head     *pnode
	next     *pnode   // where things missing at the end of the action are reported
	entries  []entry  // the first metadata item of each parameter that has one (entry)
	known    []string // the action's metadata keys, for unknownKey's message, once made
	md       []*pnode
	bound    []bound
	groups   []ast.Params
	hasMD    bool
	blockErr bool                   // a missing or unpaired block was reported
	badValue map[*schema.Param]bool // params whose metadata value was reported as bad
	header   *scriptHead            // the first block's POSIX header, once parsed
}

// entry takes one entry of the action's metadata: the first of a
// parameter's keys is kept for meta; a later one is reported as a
// duplicate, and a key the action does not have as unknown, then let go.
// Only the kept ones hold memory, at most one per parameter, so a list of
// many unknown or repeated keys costs no more than one of a few.
func (x *actionBinder) entry(e *entry) {
	ref, known := x.keys[e.norm]
	if !known {
		x.unknownKey(e)
		return
	}
	for i := range x.entries {
		if f := &x.entries[i]; f.ref.param == ref.param {
			x.duplicate(f, e)
			return
		}
	}
	x.entries = append(x.entries, *e)
	x.entries[len(x.entries)-1].ref = ref
}

// duplicate reports e, a key of the same parameter as found, which is kept.
func (x *actionBinder) duplicate(found, e *entry) {
	key, sp, line := found.ref.param.KeyOrName(), x.b.lines.Span(e.keyStart, e.keyEnd), x.b.lines.Pos(found.start).Line
	if reflect.DeepEqual(found.metaValue(), e.metaValue()) {
		x.b.report(ast.Warning, CodeDuplicateKey, sp, "%s's %s is given twice (line %d) with the same value; the first is kept", x.def.Name, key, line)
		return
	}
	// A second, different value would be lost: an error.
	x.b.report(ast.Error, CodeDuplicateKey, sp,
		"%s's %s is given twice with different values; this one (%s) is ignored and the first (line %d) is kept", x.def.Name, key, e.shown(), line)
}

// badItem reports an item of the action's metadata that is not `Key: value`.
func (x *actionBinder) badItem(e *entry) {
	x.b.report(ast.Error, CodeBadMetadataItem, x.b.lines.Span(e.valStart, e.valEnd),
		"metadata item %s of %s is not `Key: value` (write `- **Key:** value`)", quoted(e.value), x.def.Name)
}

// body sorts the action's nodes into metadata, Markdown text, bound blocks
// and strays, following the schema's blocks constraints.
func (x *actionBinder) body(body []*pnode) {
	b, def := x.b, x.def
	var labels []string
	maxBlocks, minBlocks := -1, 0
	if def.Blocks != nil {
		labels = def.Blocks.Labels
		if def.Blocks.Max != nil {
			maxBlocks = *def.Blocks.Max
		}
		if def.Blocks.Min != nil {
			minBlocks = *def.Blocks.Min
		}
	}
	x.hasMD = slices.ContainsFunc(def.Params, func(p *schema.Param) bool { return p.From == fromMarkdown })
	// What the action expects, for the message of each stray node, built once.
	expectation := ""
	expect := func() string {
		if expectation == "" {
			expectation = actionExpectation(def)
		}
		return expectation
	}
	asMD := func(n *pnode) bool { // n is part of the action's Markdown text
		if x.hasMD {
			b.ok(n)
			x.md = append(x.md, n)
		}
		return x.hasMD
	}
	var pending *pnode
	pendingLabel := ""
	noBlock := func(at *pnode) { // pending's heading has no code block after it
		x.blockErr = true
		b.failAt(at, b.firstLine(pending), CodeMissingBlock, fmt.Sprintf("expected: Code block after %q (line %d)", pendingLabel, b.line(pending)),
			"the %q heading at line %d has no code block after it", pendingLabel, b.line(pending))
	}
	for _, n := range body {
		switch n.kind {
		case kBlank:
		case kBreak:
			if !asMD(n) {
				b.ok(n)
			}
		case kList:
			first, ok := b.firstEntry(n)
			_, known := x.keys[first.norm]
			switch {
			case ok && !first.bad && (!x.hasMD || known):
				n.meta = true
				b.ok(n)
				b.listEntries(n, x.entry, x.badItem)
			case asMD(n):
			default:
				b.fail(n, CodeStrayList, "items are not `Key: value`; expected: "+expect(),
					"stray list %s in %s: an action's list holds its metadata, `- **Key:** value`", quoted(b.itemText(b.items(n)[0])), def.Name)
			}
		case kPara, kTight:
			if !asMD(n) {
				b.stray(n, expect())
			}
		case kHeading:
			if l := labelIn(b.headingText(n), labels); l != "" {
				if pending != nil {
					noBlock(n)
				} else {
					b.ok(n)
				}
				pending, pendingLabel = n, l
			} else if !asMD(n) {
				b.stray(n, expect())
			}
		case kFence:
			switch {
			case len(labels) > 0 && pending != nil:
				n.block.Label = pendingLabel
				x.bound = append(x.bound, bound{n, pendingLabel, pending})
				pending = nil
				b.ok(n)
			case len(labels) > 0:
				b.note(n, "no label heading before it: ignored")
				b.report(ast.Error, CodeStrayBlock, b.firstLine(n),
					"code block (%s) in %s has no heading containing %s before it and is ignored", b.fenceKind(n), def.Name, strings.Join(quoteAll(labels), " or "))
			case asMD(n):
				x.bound = append(x.bound, bound{n: n})
			case maxBlocks >= 0 && len(x.bound) >= maxBlocks:
				b.note(n, fmt.Sprintf("extra code block: %s takes %s; ignored", def.Name, count(maxBlocks, "code block")))
				b.report(ast.Error, CodeStrayBlock, b.firstLine(n),
					"%s takes %s; this extra code block (%s) is ignored", def.Name, count(maxBlocks, "code block"), b.fenceKind(n))
			default:
				b.ok(n)
				x.bound = append(x.bound, bound{n: n})
			}
		}
	}
	if pending != nil {
		noBlock(x.next)
	}
	if len(x.bound) > 0 {
		x.a.Blocks = make([]*ast.Block, 0, len(x.bound))
	}
	for _, bd := range x.bound {
		bd.n.placed = true
		x.a.Blocks = append(x.a.Blocks, bd.n.block)
	}
	switch {
	case len(labels) > 0:
		x.pairs(labels)
	case !x.hasMD && len(x.bound) < minBlocks:
		x.blockErr = true
		b.failAt(x.next, b.firstLine(x.head), CodeMissingBlock, fmt.Sprintf("expected: Code block for %s (line %d)", def.Name, b.line(x.head)),
			"%s needs %s%s, found %d", def.Name, count(minBlocks, "code block"), x.blockParams(), len(x.bound))
	}
}

// blockParams names the parameters an action takes from its blocks.
func (x *actionBinder) blockParams() string {
	var names []string
	for _, p := range x.def.Params {
		switch p.From {
		case fromBlock, fromScript, fromBlockLines, fromGroups:
			names = append(names, p.Name)
		}
	}
	if len(names) == 0 {
		return ""
	}
	return " (its " + strings.Join(names, ", ") + ")"
}

// pairs groups labelled blocks in label order: FIND:, REPLACE:, FIND:, …
func (x *actionBinder) pairs(labels []string) {
	b := x.b
	k := 0
	var cur ast.Params
	var start *pnode
	unpaired := func(at *pnode, span ast.Span) { // the group from start lacks labels[k]
		x.blockErr = true
		b.failAt(at, span, CodeUnpairedBlock, fmt.Sprintf("expected: Heading %q (for the %q block at line %d)", labels[k], labels[k-1], b.line(start)),
			"the %q block at line %d has no %q block after it", labels[k-1], b.line(start), labels[k])
	}
	for _, bd := range x.bound {
		li := 0
		for li < len(labels) && labels[li] != bd.label {
			li++
		}
		if li != k {
			if k > 0 {
				unpaired(bd.head, b.firstLine(bd.head))
				cur, k = nil, 0
			}
			if li != 0 {
				x.blockErr = true
				b.fail(bd.head, CodeUnpairedBlock, fmt.Sprintf("expected: Heading %q before this one", labels[0]),
					"the %q block at line %d has no %q block before it", bd.label, b.line(bd.head), labels[0])
				continue
			}
		}
		if k == 0 {
			start = bd.head
		}
		sp := bd.n.block.ContentSpan
		cur.Set(snakeCase(bd.label), bd.n.block.Content, &sp)
		k++
		if k == len(labels) {
			x.groups = append(x.groups, cur)
			cur, k = nil, 0
		}
	}
	if k > 0 {
		unpaired(x.next, b.firstLine(start))
	}
	if len(x.bound) == 0 && !x.blockErr {
		x.blockErr = true
		b.failAt(x.next, b.firstLine(x.head), CodeMissingPair, fmt.Sprintf("expected: %s (for %s at line %d)", labelShapes(labels), x.def.Name, b.line(x.head)),
			"%s needs at least one %s pair of code blocks, each after a heading containing its label (#### `%s`)", x.def.Name, strings.Join(labels, " / "), labels[0])
	}
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strconv.Quote(s)
	}
	return out
}

// count renders "no code block", "1 code block", "2 code blocks".
func count(n int, what string) string {
	if n == 0 {
		return "no " + what
	}
	return fmt.Sprintf("%d %s", n, number.Noun(n, what))
}

// value is a parameter's value with the source it came from.
type value struct {
	v    any
	span *ast.Span
}

// params fills the action's params from their sources, in schema order.
func (x *actionBinder) params() {
	b, def := x.b, x.def
	// index for index with def.Params, in the builder's scratch space
	vals, set := b.vals[:0], b.set[:0]
	for _, p := range def.Params {
		v, ok := x.source(p)
		vals, set = append(vals, v), append(set, ok)
	}
	defer func() { clear(vals); b.vals, b.set = vals, set }()
	n := 0 // the params that get a value, to size the list once
	for i, p := range def.Params {
		if !set[i] && p.Fallback != "" {
			for j, q := range def.Params {
				if q.Name == p.Fallback && set[j] {
					vals[i], set[i] = vals[j], true
				}
			}
		}
		if set[i] || p.Default != nil {
			n++
		}
	}
	x.a.Params = make(ast.Params, 0, n)
	for i, p := range def.Params {
		v, ok := vals[i], set[i]
		if !ok && p.Default != nil {
			v, ok = value{DefaultValue(p), nil}, true
		}
		if !ok {
			if p.Required && !x.badValue[p] {
				x.missing(p)
			}
			continue
		}
		if p.Required && p.From != fromBlock && isEmpty(v.v) {
			sp := x.a.NameSpan
			if v.span != nil {
				sp = *v.span
			}
			b.report(ast.Error, CodeEmptyParam, sp, "%s's %s is empty", def.Name, p.Name)
		}
		x.a.Params = append(x.a.Params, ast.Param{Name: p.Name, Value: v.v, Span: v.span})
	}
}

// source reads one parameter's value from where its From says.
func (x *actionBinder) source(p *schema.Param) (value, bool) {
	switch p.From {
	case "", fromMeta:
		return x.meta(p)
	case fromBlock:
		if len(x.bound) > 0 {
			blk := x.bound[0].n.block
			sp := blk.ContentSpan
			return value{blk.Content, &sp}, true
		}
	case fromScript:
		if h := x.script(); h != nil {
			sp := h.cmdSpan
			return value{h.command, &sp}, true
		}
	case fromCwd:
		if h := x.script(); h != nil && h.hasCwd {
			sp := h.cwdSpan
			x.checkPath(p.KeyOrName(), h.cwd, sp)
			return value{h.cwd, &sp}, true
		}
		return x.meta(p)
	case fromEnv:
		env := map[string]string{}
		var sp *ast.Span
		if mv, ok := x.meta(p); ok {
			if m, isMap := mv.v.(map[string]string); isMap {
				env, sp = m, mv.span
			}
		}
		if h := x.script(); h != nil && len(h.env) > 0 {
			for _, kv := range h.env {
				env[kv[0]] = kv[1]
			}
			s := h.envSpan
			sp = &s
		}
		if sp != nil {
			return value{env, sp}, true
		}
	case fromGroups:
		if len(x.groups) > 0 {
			return value{x.groups, x.groups[0][0].Span}, true
		}
	case fromBlockLines:
		var lines []string
		for _, bd := range x.bound {
			for _, l := range strings.Split(bd.n.block.Content, "\n") {
				if t := strings.TrimSpace(l); t != "" {
					lines = append(lines, t)
				}
			}
		}
		if len(lines) > 0 {
			sp := x.bound[0].n.block.ContentSpan
			return value{lines, &sp}, true
		}
	case fromMarkdown:
		return x.markdown()
	}
	return value{}, false
}

// script returns the POSIX header of the action's first block (nil without
// a block), parsed once.
func (x *actionBinder) script() *scriptHead {
	if x.header == nil && len(x.bound) > 0 {
		x.header = parseScriptHead(x.bound[0].n.block, x.b.lines)
	}
	return x.header
}

// missing reports a required parameter without a value.
func (x *actionBinder) missing(p *schema.Param) {
	b, def := x.b, x.def
	switch {
	case readsMeta(p):
		b.report(ast.Error, CodeMissingParam, x.a.NameSpan, "%s needs %q: `- **%s:** …` in its metadata list", def.Name, p.KeyOrName(), p.KeyOrName())
	case p.From == fromMarkdown:
		alt := ""
		if p.Fallback != "" {
			if fp := def.Param(p.Fallback); fp != nil {
				alt = fmt.Sprintf(", or a %q metadata item", fp.KeyOrName())
			}
		}
		b.report(ast.Error, CodeMissingParam, x.a.NameSpan, "%s needs its %s: text after its heading%s", def.Name, p.Name, alt)
	default:
		if !x.blockErr {
			b.report(ast.Error, CodeMissingParam, x.a.NameSpan, "%s needs its %s", def.Name, p.Name)
		}
	}
}

// unknownKey reports a metadata key the action does not declare: an
// error, or a warning when the schema allows unknown keys.
func (x *actionBinder) unknownKey(e *entry) {
	sev, sp, tail := ast.Error, x.b.lines.Span(e.keyStart, e.keyEnd), ": the item would be lost; correct the key, or remove the item"
	if x.b.schema.AllowsUnknownKeys() {
		sev, tail = ast.Warning, "; it is ignored (the schema allows unknown keys)"
	}
	if x.b.cap.Full(CodeUnknownKey) {
		// Only counted: no message to build.
		x.b.report(sev, CodeUnknownKey, sp, "")
		return
	}
	if x.known == nil {
		for _, p := range x.def.Params {
			if readsMeta(p) {
				x.known = append(x.known, p.KeyOrName())
				x.known = append(x.known, p.Aliases...)
			}
		}
	}
	msg := fmt.Sprintf("%s has no metadata key %q", x.def.Name, e.key)
	best, bestD := "", len(e.key)/3+2
	for _, k := range x.known {
		if d := schema.Distance(normKey(e.key), normKey(k)); d < bestD {
			best, bestD = k, d
		}
	}
	if best != "" {
		msg += fmt.Sprintf("; did you mean %q?", best)
	}
	if len(x.known) > 0 {
		msg += " (keys: " + strings.Join(x.known, ", ") + ")"
	}
	x.b.report(sev, CodeUnknownKey, sp, "%s%s", msg, tail)
}

// meta finds a parameter's metadata item (by key or alias) and converts it.
func (x *actionBinder) meta(p *schema.Param) (value, bool) {
	var found *entry // the first of p's keys: entry reported the others
	for i := range x.entries {
		if e := &x.entries[i]; e.ref.param == p {
			found = e
			break
		}
	}
	if found == nil {
		return value{}, false
	}
	alias := found.ref.alias
	typ := p.TypeOrDefault()
	if alias && p.AliasType != "" {
		typ = p.AliasType
	}
	v, ok := x.convert(p, typ, found)
	if !ok {
		if x.badValue == nil {
			x.badValue = map[*schema.Param]bool{}
		}
		x.badValue[p] = true
	}
	return v, ok
}

// checkPath reports a path value that breaks the path rule (schema.CheckPath,
// the rule every dialect shares) with the rule's own code; the value is kept.
func (x *actionBinder) checkPath(key, v string, sp ast.Span) {
	var pe *schema.PathError
	if err := schema.CheckPath(v); errors.As(err, &pe) {
		x.b.report(ast.Error, pe.Code, sp, "%s's %s: %s", x.def.Name, key, pe.Msg)
	}
}

// convert turns a metadata item into a value of type typ, reporting values
// that do not fit.
func (x *actionBinder) convert(p *schema.Param, typ schema.Type, e *entry) (value, bool) {
	b := x.b
	sp := b.lines.Span(e.valStart, e.valEnd)
	bad := func(format string, args ...any) (value, bool) {
		b.report(ast.Error, CodeBadValue, sp, "%s's %s: %s", x.def.Name, e.key, fmt.Sprintf(format, args...))
		return value{}, false
	}
	raw := e.value
	if raw == "" && len(e.elems) > 0 && typ != schema.List && typ != schema.JSON {
		raw = strings.Join(e.elemTexts(), "\n")
		sp = b.lines.Span(e.elems[0].start, e.elems[len(e.elems)-1].end)
	}
	switch typ {
	case schema.Path, schema.Resource:
		v, url := pathValue(raw)
		if url && typ == schema.Path {
			hint := "" // the key that accepts URLs, when an alias did not
			if p.AliasType != "" && p.TypeOrDefault() == schema.Resource {
				hint = fmt.Sprintf("; write a URL as `- **%s:** …`", p.KeyOrName())
			}
			b.report(ast.Error, CodeURLNotAllowed, sp, "%s's %s must be a project path, not a URL (%s)%s", x.def.Name, e.key, v, hint)
			return value{}, false
		}
		if !url || !schema.IsURL(v) {
			x.checkPath(e.key, v, sp)
		}
		return value{v, &sp}, true
	case schema.Bool, schema.Int, schema.Number, schema.Enum:
		q := *p // the schema's conversion, for the type the key gives
		q.Type = typ
		v, err := q.Value(codeSpan(raw))
		if err != nil {
			return bad("%v", err)
		}
		return value{v, &sp}, true
	case schema.List:
		if raw == "" && len(e.elems) > 0 {
			sp = b.lines.Span(e.elems[0].start, e.elems[len(e.elems)-1].end)
		} else if len(e.elems) > 0 {
			sp.End = b.lines.Pos(e.elems[len(e.elems)-1].end)
		}
		// Each item is converted as it is read: a list of many items
		// holds its values, not a copy of its texts as well.
		var notPath string // the first URL where a project path is wanted
		out := make([]string, 0, len(e.elems)+1)
		add := func(text string, link bool) {
			if notPath != "" {
				return
			}
			if !link {
				text = codeSpan(text)
			}
			switch p.Items {
			case schema.Path, schema.Resource:
				v, url := normPath(text, link)
				if url && p.Items == schema.Path {
					notPath = v
					return
				}
				if !url || !schema.IsURL(v) {
					x.checkPath(e.key, v, sp)
				}
				out = append(out, v)
			default:
				out = append(out, text)
			}
		}
		if raw != "" {
			if ds := linkDests(raw); len(ds) > 0 {
				for _, d := range ds {
					add(d, true)
				}
			} else {
				for it := range strings.SplitSeq(raw, ",") {
					if t := strings.TrimSpace(it); t != "" {
						add(t, false)
					}
				}
			}
		}
		for i := 0; i < len(e.elems) && notPath == ""; i++ {
			t := e.elemText(i)
			if ds := linkDests(t); len(ds) > 0 {
				add(ds[0], true)
			} else {
				add(t, false)
			}
		}
		if notPath != "" {
			return bad("%s must be a project path, not a URL", quoted(notPath))
		}
		return value{out, &sp}, true
	case schema.JSON:
		t := strings.TrimSpace(raw)
		if strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") {
			var v any
			if err := jsonw.Unmarshal([]byte(t), &v); err != nil { // exact bytes (docs/acts.md)
				return bad("invalid JSON: %v", err)
			}
			if m, ok := v.(map[string]any); ok {
				sm := make(map[string]string, len(m))
				for k, mv := range m {
					if s, isStr := mv.(string); isStr {
						sm[k] = s
					} else {
						sm[k] = fmt.Sprint(mv)
					}
				}
				return value{sm, &sp}, true
			}
			return value{v, &sp}, true
		}
		m, ok := kvMap(t, e)
		if !ok {
			return bad("want `NAME=value` items or a JSON object, got %s", quoted(raw))
		}
		if len(e.elems) > 0 {
			sp.End = b.lines.Pos(e.elems[len(e.elems)-1].end)
		}
		return value{m, &sp}, true
	}
	return value{raw, &sp}, true
}

// kvMap reads `NAME=value` (or `NAME: value`) pairs: nested items, or inline
// pairs separated by commas; matching quotes around values are removed.
func kvMap(inline string, e *entry) (map[string]string, bool) {
	pairs := e.elemTexts()
	if inline != "" {
		pairs = append(strings.Split(inline, ","), pairs...)
	}
	m := map[string]string{}
	for _, pr := range pairs {
		pr = codeSpan(pr)
		if pr == "" {
			continue
		}
		var k, v string
		if key, _, _, vs, ok := ParseKV(pr); ok && !strings.Contains(key, "=") {
			k, v = key, pr[vs:]
		} else if i := strings.IndexByte(pr, '='); i > 0 {
			k, v = pr[:i], pr[i+1:]
		} else {
			return nil, false
		}
		m[strings.TrimSpace(k)] = unquote(codeSpan(v))
	}
	return m, len(m) > 0
}

// unquote removes one pair of matching quotes.
func unquote(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

// DefaultValue returns a parameter's declared default as its Go type, as
// every parser fills an absent parameter: a whole number of an int
// parameter is an int64.
func DefaultValue(p *schema.Param) any {
	if f, ok := p.Default.(float64); ok && p.TypeOrDefault() == schema.Int {
		return int64(f)
	}
	return p.Default
}

func isEmpty(v any) bool {
	switch t := v.(type) {
	case string:
		return strings.TrimSpace(t) == ""
	case []string:
		return len(t) == 0
	case []ast.Params:
		return len(t) == 0
	}
	return false
}

// codeSpan removes one code span around the whole value (`x`, “x“).
func codeSpan(s string) string {
	s = strings.TrimSpace(s)
	n := 0
	for n < len(s) && s[n] == '`' {
		n++
	}
	if n == 0 || len(s) <= 2*n || !strings.HasSuffix(s, s[:n]) || strings.Contains(s[n:len(s)-n], s[:n]) {
		return s
	}
	return strings.TrimSpace(s[n : len(s)-n])
}

// pathValue normalises a path value: a Markdown link's destination is the
// value; backslashes become slashes; a leading slash of a link destination
// (a project-root-relative link) is removed; URLs are returned untouched
// with url true.
func pathValue(raw string) (v string, url bool) {
	s := strings.TrimSpace(raw)
	if ds := linkDests(s); len(ds) > 0 {
		return normPath(ds[0], true)
	}
	return normPath(codeSpan(s), false)
}

// normPath normalises a path written as text or, with link, as a link
// destination.
func normPath(s string, link bool) (v string, url bool) {
	if isURL(s) {
		return s, true
	}
	s = strings.ReplaceAll(s, `\`, "/")
	if link && strings.HasPrefix(s, "/") && !strings.HasPrefix(s, "//") {
		s = s[1:]
	}
	return s, false
}

// isURL reports whether s starts with a URL scheme (`https://`, `mailto:`)
// or is protocol-relative (`//host/…`).
func isURL(s string) bool {
	if strings.HasPrefix(s, "//") || strings.HasPrefix(strings.ToLower(s), "mailto:") {
		return true
	}
	i := 0
	for i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z' || i > 0 && (s[i] >= '0' && s[i] <= '9' || s[i] == '+' || s[i] == '.' || s[i] == '-')) {
		i++
	}
	return i >= 2 && strings.HasPrefix(s[i:], "://")
}

// linkDests returns the destinations of the Markdown links in s, in order:
// `[text](dest "title")`, `[text](<dest>)` and autolinks `<https://…>`.
func linkDests(s string) []string {
	var out []string
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == ']' && i+1 < len(s) && s[i+1] == '(' && strings.LastIndexByte(s[:i], '[') >= 0:
			j := i + 2
			for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
				j++
			}
			if j < len(s) && s[j] == '<' {
				if k := strings.IndexByte(s[j+1:], '>'); k >= 0 {
					out = append(out, s[j+1:j+1+k])
					i = j + 1 + k
				}
				continue
			}
			k, depth := j, 0
			for k < len(s) && s[k] != ' ' && s[k] != '\t' && (s[k] != ')' || depth > 0) {
				switch s[k] {
				case '(':
					depth++
				case ')':
					depth--
				}
				k++
			}
			if k < len(s) && k > j {
				out = append(out, s[j:k])
			}
			i = k
		case s[i] == '<':
			if k := strings.IndexByte(s[i+1:], '>'); k > 0 {
				if inner := s[i+1 : i+1+k]; isURL(inner) && !strings.ContainsAny(inner, " \t") {
					out = append(out, inner)
					i += k + 1
				}
			}
		}
	}
	return out
}

// scriptHead is the POSIX header of a script: its leading `cd DIR` and
// `export K=V` lines, and the command that remains.
type scriptHead struct {
	cwd     string
	cwdSpan ast.Span
	hasCwd  bool
	env     [][2]string
	envSpan ast.Span
	command string
	cmdSpan ast.Span
}

// parseScriptHead reads the leading `cd DIR` lines (the last one wins) and
// `export NAME=value …` lines (matching quotes removed) of a block; blank
// lines among them are skipped; the first other line ends the header. A line
// with shell syntax beyond plain words (`;`, `&`, `|`, `<`, `>`, `$`, `(`,
// `)`, a backquote) is not a header line. The rest, trimmed, is the command.
func parseScriptHead(blk *ast.Block, lines *ast.Lines) *scriptHead {
	c := blk.Content
	base := blk.ContentSpan.Start.Offset
	h := &scriptHead{}
	p := 0
	envStart := -1
header:
	for p < len(c) {
		next := lineEndAt(c, p)
		line := c[p:next]
		t := strings.TrimSpace(line)
		if t == "" {
			p = next
			continue
		}
		if strings.ContainsAny(t, ";&|<>$()`") {
			break
		}
		words, open, _ := shellSplit(nil, t, -1)
		if open || len(words) < 2 {
			break
		}
		lead := strings.Index(line, t)
		switch words[0].text {
		case "cd":
			if len(words) != 2 {
				break header
			}
			h.cwd, h.hasCwd = strings.ReplaceAll(words[1].text, `\`, "/"), true
			h.cwdSpan = lines.Span(base+p+lead+words[1].start, base+p+lead+words[1].end)
		case "export":
			var kvs [][2]string
			for _, w := range words[1:] {
				i := strings.IndexByte(w.text, '=')
				if i <= 0 || !envName(w.text[:i]) {
					break header
				}
				kvs = append(kvs, [2]string{w.text[:i], w.text[i+1:]})
			}
			h.env = append(h.env, kvs...)
			if envStart < 0 {
				envStart = base + p + lead
			}
			h.envSpan = lines.Span(envStart, base+p+lead+len(t))
		default:
			break header
		}
		p = next
	}
	rest := c[p:]
	t := strings.TrimSpace(rest)
	start := base + p + strings.Index(rest, t)
	h.command, h.cmdSpan = t, lines.Span(start, start+len(t))
	return h
}

// envName reports whether s is a shell variable name.
func envName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}

// markdown returns the Markdown of the action's body without its metadata
// lists: from its first text node to its last (trailing thematic breaks are
// not text), minus the final line ending.
func (x *actionBinder) markdown() (value, bool) {
	md := x.md
	for len(md) > 0 && md[len(md)-1].kind == kBreak {
		md = md[:len(md)-1]
	}
	if len(md) == 0 {
		return value{}, false
	}
	b := x.b
	// The text is the nodes of md (in source order) and the blank lines
	// after each: one run of the source when nothing else lies between
	// them, else a copy.
	first, lastIdx := md[0].idx, md[len(md)-1].idx
	read := func(write func(n *pnode)) (whole bool) {
		whole = true
		prev, j := false, 0
		for i := first; i <= lastIdx; i++ {
			n := b.nodes[i]
			switch {
			case j < len(md) && md[j] == n:
				j++
				write(n)
				prev = true
			case n.kind == kBlank:
				if prev {
					write(n)
				} else {
					whole = false
				}
			default:
				prev, whole = false, false
			}
		}
		return whole
	}
	text := b.src[b.nodes[first].start:b.nodes[lastIdx].end]
	if !read(func(*pnode) {}) {
		var sb strings.Builder
		read(func(n *pnode) { sb.WriteString(b.src[n.start:n.end]) })
		text = sb.String()
	}
	text = strings.TrimSuffix(text, "\n")
	text = strings.TrimSuffix(text, "\r")
	last := md[len(md)-1]
	end := last.start + len(strings.TrimSuffix(strings.TrimSuffix(b.src[last.start:last.end], "\n"), "\r"))
	sp := b.lines.Span(md[0].start, end)
	return value{text, &sp}, true
}
