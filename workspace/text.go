package workspace

import (
	"slices"
	"strings"
)

// text is the content of a file being edited by the simulation. The first
// edit of a file works on a flat string (one scan, one copy, all a file
// edited once needs). From the second edit on,
// the content is a sequence of lines held in a treap (an implicit balanced
// tree keyed by position, with line and byte counts per subtree) and an
// index from each line's text to the lines that hold it, so that
//
//   - replacing a range costs the bytes it removes and inserts plus the two
//     lines it cuts, and O(log lines), never a copy of the file;
//   - finding a run of whole lines (a SEARCH text, a hunk's context and
//     removed lines) costs, for each line of the file equal to the run's
//     rarest line, O(log lines) plus the comparison of the run, never a
//     scan of the file;
//   - finding a text within one line (a FIND text without a line break, of
//     minSub bytes or more) costs, for each line that holds the rarest
//     minimizer of its windows in the substring index (substr.go), O(log
//     lines) plus the length of the line, never a scan of the file; so
//     does a text across a line break by its part before the break or
//     after the last one (spanBySub) when the line index cannot help;
//   - finding a text within one line shorter than minSub bytes, or a text
//     across a line break whose ends are short, costs O(log lines) per
//     line that holds it (or one of its ends) in the short index
//     (shortidx.go), never a scan of the file.
//
// k edits of one m-byte file thus cost O(m + the edits' size · log m), not
// O(k·m). Where the indexes cannot help (a text whose lines, windows or
// ends all occur very often in the file) the file is scanned as before;
// the scan never costs more than a copy of the file.
type text struct {
	flat   string // the content while root == nil
	isTree bool
	edits  int // Replace calls so far: the second edit switches to the tree
	// searches counts Index calls: the second switches to the tree too
	// (a file whose edits all failed is looked in again)
	searches int

	root  *lnode
	index map[string]*lineSet // by key(line); nil until needed
	sub   *subIdx             // substring index (substr.go); nil until needed
	short *shortIdx           // short index (shortidx.go); nil until needed
	grams []uint32            // scratch for minimizers
	keys  []uint64            // scratch for short keys
	// subSlack is the bytes of delta or dead ids past which the
	// substring index is rebuilt (tests set 0 to rebuild often).
	subSlack int
	nl       int    // lines ending in "\n"
	crlf     int    // lines ending in "\r\n"
	seed     uint64 // priorities: xorshift state (deterministic)
	cache    string // String() of the tree, valid while cached
	valid    bool

	undo    []undoStep // recorded while logging
	logging bool

	// work counts the bytes copied, scanned or compared and the tree
	// steps taken, so tests can pin that the cost is linear
	// (TestEditsLinear); it has no other use.
	work int
}

// lnode is one line of a text in tree mode.
type lnode struct {
	line                string // with its "\n", except a last line without one
	prio                uint64
	left, right, parent *lnode
	lines, bytes        int      // of the subtree
	same                *lineSet // the index entry holding this node
	sPrev, sNext        *lnode   // the other nodes of the same text
	id                  uint32   // in the substring index
	sid                 uint32   // in the short index
}

// lineSet is the list of a text's lines with one content.
type lineSet struct {
	head *lnode
	n    int
}

type undoStep struct {
	at     int
	old    string
	newLen int
}

func newText(s string) *text { return &text{flat: s, seed: 0x9E3779B97F4A7C15, subSlack: 4096} }

// Len is the content's length in bytes.
func (t *text) Len() int {
	if !t.isTree {
		return len(t.flat)
	}
	return nbytes(t.root)
}

// String returns the content (in tree mode, built once per change).
func (t *text) String() string {
	if !t.isTree {
		return t.flat
	}
	if !t.valid {
		var b strings.Builder
		b.Grow(t.Len())
		for x := first(t.root); x != nil; x = next(x) {
			b.WriteString(x.line)
		}
		t.cache, t.valid = b.String(), true
		t.work += len(t.cache)
	}
	return t.cache
}

// EndsWithNL reports whether the content ends in "\n".
func (t *text) EndsWithNL() bool {
	t.promote()
	if !t.isTree {
		return strings.HasSuffix(t.flat, "\n")
	}
	l := last(t.root)
	return l != nil && strings.HasSuffix(l.line, "\n")
}

// HasSuffix reports whether the content ends with s.
func (t *text) HasSuffix(s string) bool {
	t.promote()
	if !t.isTree {
		return strings.HasSuffix(t.flat, s)
	}
	n := t.Len()
	return len(s) <= n && t.Slice(n-len(s), n) == s
}

// CRLF reports whether every line ending is CRLF (and there is one):
// crlfFile of the content.
func (t *text) CRLF() bool {
	t.promote()
	if !t.isTree {
		return crlfFile(t.flat)
	}
	return t.nl > 0 && t.crlf == t.nl
}

// Slice returns the bytes [from, to).
func (t *text) Slice(from, to int) string {
	if !t.isTree {
		return t.flat[from:to]
	}
	if from >= to {
		return ""
	}
	x, start := t.lineAt(from)
	if start+len(x.line) >= to {
		return x.line[from-start : to-start]
	}
	var b strings.Builder
	b.Grow(to - from)
	for ; x != nil && start < to; x = next(x) {
		lo, hi := max(0, from-start), min(len(x.line), to-start)
		b.WriteString(x.line[lo:hi])
		start += len(x.line)
	}
	t.work += to - from
	return b.String()
}

// LineStart returns the offset at which the 1-based line starts (the
// length for a line after the end): lineStartOffset of the content.
func (t *text) LineStart(line int) int {
	t.promote()
	if !t.isTree {
		return lineStartOffset(t.flat, line)
	}
	i := line - 1
	if i <= 0 {
		return 0
	}
	if i >= nlines(t.root) {
		return t.Len()
	}
	return t.offsetOf(i)
}

// Line returns the 1-based line of a byte offset: lineOfOffset of the
// content (the number of "\n" before off, plus one).
func (t *text) Line(off int) int {
	t.promote()
	if !t.isTree {
		return lineOfOffset(t.flat, off)
	}
	off = min(off, t.Len())
	if off == t.Len() {
		n := nlines(t.root)
		if n > 0 && !t.EndsWithNL() {
			n--
		}
		return n + 1
	}
	_, i := t.lineIndexAt(off)
	return i + 1
}

// Match finds find (whole lines) at or after offset from: lineMatch of
// the content. It returns the first match and the number of matches that
// do not overlap it (as a scan left to right finds them), capped at 2.
func (t *text) Match(find string, from int) (at, n int) {
	t.searches++ // a text matched more than once is indexed
	t.promote()
	if !t.isTree || find == "" {
		t.work += t.Len()
		return lineMatch(t.String(), find, from)
	}
	fl := splitKeep(find)
	fromLine := t.lineCeil(from)
	starts, ok := t.lineCandidates(fl, fromLine)
	if !ok {
		return t.scanMatch(fl, fromLine)
	}
	at, next := -1, 0
	for _, s := range starts {
		if s < next || !t.linesEqual(s, fl) {
			continue
		}
		if at < 0 {
			at = t.offsetOf(s)
		}
		n++
		if n == 2 {
			break
		}
		next = s + len(fl)
	}
	return at, n
}

// scanMatch is Match by a walk over the lines from the 0-based line
// fromLine on, for a FIND text whose every line is too common for the
// line index to pay (lineCandidates): the first two whole-line matches, as
// lineMatch finds them in the text from a line start, without building the
// text. A chain of edits whose texts are such lines (a diff of one file
// with thousands of one-line hunks) finds each near where the previous one
// ended: it costs the lines it walks, where building the text would cost
// the whole file per edit (quadratic in the hunks).
func (t *text) scanMatch(fl []string, fromLine int) (at, n int) {
	at = -1
	s := fromLine
	for x := t.nodeAt(fromLine); x != nil; {
		t.work += len(x.line)
		if x.line != fl[0] || !t.linesEqual(s, fl) {
			x, s = next(x), s+1
			continue
		}
		if at < 0 {
			at = t.offsetOf(s)
		}
		if n++; n == 2 {
			break
		}
		for k := 0; k < len(fl) && x != nil; k++ { // matches do not overlap
			x, s = next(x), s+1
		}
	}
	return at, n
}

// LineMatches lists the 1-based lines of the first limit whole-line
// matches of find at or after from (a line start) and counts all of them,
// as a scan left to right finds them: lineMatches of the content, from the
// line index where it applies (the places of find's rarest line), so that
// it costs those places rather than a pass over the file.
func (t *text) LineMatches(find string, from, limit int) ([]int, int) {
	t.searches++
	t.promote()
	if !t.isTree || find == "" {
		t.work += t.Len()
		return lineMatches(t.String(), find, from, limit)
	}
	fl := splitKeep(find)
	starts, ok := t.lineCandidates(fl, t.lineCeil(from))
	if !ok {
		t.work += t.Len()
		return lineMatches(t.String(), find, from, limit)
	}
	var lines []int
	total, next := 0, 0
	for _, s := range starts {
		if s < next || !t.linesEqual(s, fl) {
			continue
		}
		total++
		if len(lines) < limit {
			lines = append(lines, s+1)
		}
		next = s + len(fl)
	}
	return lines, total
}

// Index lists the occurrences of find (any text, not empty) at or after
// from that a scan left to right finds (each after the end of the one
// before), at most limit of them (limit < 0: all).
func (t *text) Index(find string, from, limit int) []int {
	t.searches++
	t.promote()
	if t.isTree && !strings.Contains(find, "\n") {
		if len(find) < minSub {
			return t.shortIndex(find, from, limit)
		}
		if out, ok := t.subIndex(find, from, limit); ok {
			return out
		}
	}
	if t.isTree && strings.Contains(find, "\n") {
		starts, ok := t.spanCandidates(find, from)
		if !ok {
			starts, ok = t.spanBySub(find, from)
		}
		if !ok {
			starts, ok = t.spanByShort(find, from)
		}
		if ok {
			var out []int
			next := from
			for _, s := range starts {
				if limit >= 0 && len(out) == limit {
					break
				}
				if s >= next {
					out = append(out, s)
					next = s + len(find)
				}
			}
			return out
		}
	}
	s := t.String()
	var out []int
	for off := from; limit < 0 || len(out) < limit; {
		i := strings.Index(s[off:], find)
		if i < 0 {
			t.work += len(s) - off
			break
		}
		t.work += i + len(find)
		out = append(out, off+i)
		off += i + len(find)
	}
	return out
}

// release lets go of the content String built for a text in tree mode:
// a text kept in the overlay between actions holds its tree alone, not a
// copy of the whole file besides (a failing edit's diagnostic builds one
// to show the closest region, and a patch series can fail many edits).
// The next String builds it again, once.
func (t *text) release() { t.cache, t.valid = "", false }

// Replace replaces the bytes [at, end) by s.
func (t *text) Replace(at, end int, s string) {
	if t.logging {
		t.undo = append(t.undo, undoStep{at: at, old: t.Slice(at, end), newLen: len(s)})
	}
	t.promote()
	t.edits++
	t.valid = false
	if !t.isTree {
		t.work += len(t.flat) - (end - at) + len(s)
		t.flat = t.flat[:at] + s + t.flat[end:]
		return
	}
	t.replaceTree(at, end, s)
}

// Mark starts recording edits so that Rollback can undo them.
func (t *text) Mark() { t.logging, t.undo = true, t.undo[:0] }

// Commit stops recording.
func (t *text) Commit() { t.logging, t.undo = false, t.undo[:0] }

// Rollback undoes the edits since Mark.
func (t *text) Rollback() {
	steps := t.undo
	t.logging, t.undo = false, nil
	for i := len(steps) - 1; i >= 0; i-- {
		u := steps[i]
		t.Replace(u.at, u.at+u.newLen, u.old)
	}
}

// promote switches a text edited or searched before to tree mode.
func (t *text) promote() {
	if t.isTree || (t.edits == 0 && t.searches < 2) {
		return
	}
	lines := splitKeep(t.flat)
	t.work += len(t.flat)
	t.flat = ""
	t.isTree = true
	t.root = t.build(lines)
	for _, l := range lines {
		t.count(l, 1)
	}
}

// count adds d to the line-ending counts for line l.
func (t *text) count(l string, d int) {
	if strings.HasSuffix(l, "\n") {
		t.nl += d
		if strings.HasSuffix(l, "\r\n") {
			t.crlf += d
		}
	}
}

// splitKeep splits s into lines that keep their "\n".
func splitKeep(s string) []string {
	if s == "" {
		return nil
	}
	out := make([]string, 0, strings.Count(s, "\n")+1)
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// The index. A line is filed under its last keyLen bytes (the whole line
// when it is shorter), so that the index finds both a whole line and a
// text that ends a line (the part of a FIND text before its first line
// break) when that is at least keyLen bytes long.

const keyLen = 8

func key(l string) string {
	if len(l) > keyLen {
		return l[len(l)-keyLen:]
	}
	return l
}

func (t *text) buildIndex() {
	if t.index != nil {
		return
	}
	t.index = make(map[string]*lineSet, nlines(t.root))
	for x := first(t.root); x != nil; x = next(x) {
		t.indexAdd(x)
	}
	t.work += t.Len()
}

func (t *text) indexAdd(x *lnode) {
	if t.index == nil {
		return
	}
	k := key(x.line)
	s := t.index[k]
	if s == nil {
		s = &lineSet{}
		t.index[k] = s
	}
	x.same, x.sPrev, x.sNext = s, nil, s.head
	if s.head != nil {
		s.head.sPrev = x
	}
	s.head = x
	s.n++
}

func (t *text) indexRemove(x *lnode) {
	s := x.same
	if s == nil {
		return
	}
	if x.sPrev != nil {
		x.sPrev.sNext = x.sNext
	} else {
		s.head = x.sNext
	}
	if x.sNext != nil {
		x.sNext.sPrev = x.sPrev
	}
	s.n--
	if s.n == 0 {
		delete(t.index, key(x.line))
	}
	x.same, x.sPrev, x.sNext = nil, nil, nil
}

// scanCheaper reports whether checking f candidates of a text of k bytes
// would cost more than scanning the size bytes a search looks at (the
// text from where it starts: a chain of edits searches ever shorter
// tails, and the candidates before the start cost their rank too).
func (t *text) scanCheaper(f, k, size int) bool {
	return f*(k+64) > 4*size+4096
}

// lineCandidates lists, sorted, the 0-based lines at or after fromLine at
// which the lines fl could start: the places of fl's rarest line. ok is
// false when a scan is cheaper.
func (t *text) lineCandidates(fl []string, fromLine int) ([]int, bool) {
	t.buildIndex()
	var best *lineSet
	bestJ, k := 0, 0
	for j, l := range fl {
		k += len(l)
		s := t.index[key(l)]
		if s == nil {
			return nil, true
		}
		if best == nil || s.n < best.n {
			best, bestJ = s, j
		}
	}
	if t.scanCheaper(best.n, k, t.Len()-t.offsetOf(fromLine)) {
		return nil, false
	}
	total := nlines(t.root)
	starts := make([]int, 0, best.n)
	for x := best.head; x != nil; x = x.sNext {
		s := t.rank(x) - bestJ
		if s >= fromLine && s+len(fl) <= total {
			starts = append(starts, s)
		}
	}
	slices.Sort(starts)
	return starts, true
}

// linesEqual reports whether the lines from 0-based line s on are fl.
func (t *text) linesEqual(s int, fl []string) bool {
	x := t.nodeAt(s)
	for _, l := range fl {
		if x == nil {
			return false
		}
		t.work += len(l)
		if x.line != l {
			return false
		}
		x = next(x)
	}
	return true
}

// spanCandidates lists, sorted, the offsets at or after from at which find
// (a text with a line break) occurs, by the places of its rarest key: the
// key of each whole line inside it, and of the text before its first line
// break when that is at least keyLen bytes long. ok is false when neither
// exists or a scan is cheaper.
func (t *text) spanCandidates(find string, from int) ([]int, bool) {
	parts := splitKeep(find)
	// parts[0] ends a file line; parts[1:len-1] (and the last one when it
	// ends in "\n") are whole file lines.
	inner := parts[1:]
	if !strings.HasSuffix(find, "\n") {
		inner = parts[1 : len(parts)-1]
	}
	if len(inner) == 0 && len(parts[0]) < keyLen {
		return nil, false
	}
	t.buildIndex()
	var best *lineSet
	bestOff := 0 // the offset in find of the end of the line found by key
	usable := func(k string, end int) bool {
		s := t.index[key(k)]
		if s == nil {
			return false
		}
		if best == nil || s.n < best.n {
			best, bestOff = s, end
		}
		return true
	}
	if len(parts[0]) >= keyLen && !usable(parts[0], len(parts[0])) {
		return nil, true
	}
	off := len(parts[0])
	for _, l := range inner {
		off += len(l)
		if !usable(l, off) {
			return nil, true
		}
	}
	if t.scanCheaper(best.n, len(find), t.Len()-max(from, 0)) {
		return nil, false
	}
	var out []int
	for x := best.head; x != nil; x = x.sNext {
		s := t.offsetOf(t.rank(x)+1) - bestOff
		if s >= from && s >= 0 && s+len(find) <= t.Len() {
			t.work += len(find)
			if t.Slice(s, s+len(find)) == find {
				out = append(out, s)
			}
		}
	}
	slices.Sort(out)
	return out, true
}

// The tree.

// nlines and nbytes are a subtree's line and byte counts (0 for nil).
func nlines(x *lnode) int {
	if x == nil {
		return 0
	}
	return x.lines
}

func nbytes(x *lnode) int {
	if x == nil {
		return 0
	}
	return x.bytes
}

func (x *lnode) update() {
	x.lines, x.bytes = 1, len(x.line)
	if x.left != nil {
		x.lines += x.left.lines
		x.bytes += x.left.bytes
		x.left.parent = x
	}
	if x.right != nil {
		x.lines += x.right.lines
		x.bytes += x.right.bytes
		x.right.parent = x
	}
}

func (t *text) prio() uint64 {
	t.seed ^= t.seed << 13
	t.seed ^= t.seed >> 7
	t.seed ^= t.seed << 17
	return t.seed
}

// build makes a tree of the lines in O(len(lines)) (a Cartesian tree of
// random priorities).
func (t *text) build(lines []string) *lnode {
	if len(lines) == 0 {
		return nil
	}
	nodes := make([]lnode, len(lines))
	stack := make([]*lnode, 0, 64)
	for i := range lines {
		x := &nodes[i]
		x.line, x.prio = lines[i], t.prio()
		var lastPopped *lnode
		for len(stack) > 0 && stack[len(stack)-1].prio < x.prio {
			lastPopped = stack[len(stack)-1]
			stack = stack[:len(stack)-1]
		}
		x.left = lastPopped
		if len(stack) > 0 {
			stack[len(stack)-1].right = x
		}
		stack = append(stack, x)
	}
	root := stack[0]
	root.parent = nil
	fix(root)
	return root
}

// fix computes the sizes and parents of a freshly built tree (post-order,
// without recursion: a Cartesian tree can be deep before it is balanced).
func fix(root *lnode) {
	type frame struct {
		x    *lnode
		done bool
	}
	st := []frame{{root, false}}
	for len(st) > 0 {
		f := st[len(st)-1]
		st = st[:len(st)-1]
		if f.done {
			f.x.update()
			continue
		}
		st = append(st, frame{f.x, true})
		if f.x.left != nil {
			st = append(st, frame{f.x.left, false})
		}
		if f.x.right != nil {
			st = append(st, frame{f.x.right, false})
		}
	}
}

// split cuts x into its first k lines and the rest.
func split(x *lnode, k int) (*lnode, *lnode) {
	if x == nil {
		return nil, nil
	}
	if nlines(x.left) >= k {
		l, r := split(x.left, k)
		x.left = r
		x.update()
		if l != nil {
			l.parent = nil
		}
		x.parent = nil
		return l, x
	}
	l, r := split(x.right, k-nlines(x.left)-1)
	x.right = l
	x.update()
	if r != nil {
		r.parent = nil
	}
	x.parent = nil
	return x, r
}

// merge joins a and b (all of a before b).
func merge(a, b *lnode) *lnode {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	if a.prio > b.prio {
		a.right = merge(a.right, b)
		a.update()
		a.parent = nil
		return a
	}
	b.left = merge(a, b.left)
	b.update()
	b.parent = nil
	return b
}

func first(x *lnode) *lnode {
	for x != nil && x.left != nil {
		x = x.left
	}
	return x
}

func last(x *lnode) *lnode {
	for x != nil && x.right != nil {
		x = x.right
	}
	return x
}

// next returns the line after x.
func next(x *lnode) *lnode {
	if x.right != nil {
		return first(x.right)
	}
	for x.parent != nil && x.parent.right == x {
		x = x.parent
	}
	return x.parent
}

// rank returns x's 0-based line index.
func (t *text) rank(x *lnode) int {
	r := nlines(x.left)
	for ; x.parent != nil; x = x.parent {
		t.work++
		if x.parent.right == x {
			r += nlines(x.parent.left) + 1
		}
	}
	return r
}

// nodeAt returns the 0-based line i (nil past the end).
func (t *text) nodeAt(i int) *lnode {
	x := t.root
	for x != nil {
		t.work++
		l := nlines(x.left)
		switch {
		case i < l:
			x = x.left
		case i == l:
			return x
		default:
			i -= l + 1
			x = x.right
		}
	}
	return nil
}

// offsetOf returns the offset at which the 0-based line i starts.
func (t *text) offsetOf(i int) int {
	off := 0
	x := t.root
	for x != nil {
		t.work++
		l := nlines(x.left)
		switch {
		case i < l:
			x = x.left
		case i == l:
			return off + nbytes(x.left)
		default:
			i -= l + 1
			off += nbytes(x.left) + len(x.line)
			x = x.right
		}
	}
	return off
}

// lineIndexAt returns the line holding offset off (< Len) and its 0-based
// index.
func (t *text) lineIndexAt(off int) (*lnode, int) {
	x, i := t.root, 0
	for x != nil {
		t.work++
		lb := nbytes(x.left)
		switch {
		case off < lb:
			x = x.left
		case off < lb+len(x.line):
			return x, i + nlines(x.left)
		default:
			off -= lb + len(x.line)
			i += nlines(x.left) + 1
			x = x.right
		}
	}
	return nil, i
}

// lineAt returns the line holding offset off (< Len) and its start.
func (t *text) lineAt(off int) (*lnode, int) {
	x, i := t.lineIndexAt(off)
	return x, t.offsetOf(i)
}

// lineCeil returns the 0-based index of the first line starting at or
// after off.
func (t *text) lineCeil(off int) int {
	if off <= 0 {
		return 0
	}
	if off >= t.Len() {
		return nlines(t.root)
	}
	_, i := t.lineIndexAt(off)
	if t.offsetOf(i) == off {
		return i
	}
	return i + 1
}

// replaceTree replaces [at, end) by s: the lines the range touches are
// cut out, joined with s, split again and put back.
func (t *text) replaceTree(at, end int, s string) {
	n := t.Len()
	total := nlines(t.root)
	// lo: the first line touched; hi: the first line after those touched.
	lo, prefixStart := total, n
	if at < n {
		_, lo = t.lineIndexAt(at)
		prefixStart = t.offsetOf(lo)
	} else if total > 0 && !t.EndsWithNL() {
		lo = total - 1 // appending to a last line without "\n"
		prefixStart = t.offsetOf(lo)
	}
	hi, suffixEnd := total, n
	if end < n {
		var i int
		_, i = t.lineIndexAt(end)
		hi, suffixEnd = i, t.offsetOf(i)
		if suffixEnd < end {
			hi++
			suffixEnd = t.offsetOf(hi)
		} else if head := t.Slice(prefixStart, at) + s; head != "" && !strings.HasSuffix(head, "\n") {
			// s does not end its line: it joins the line at end
			hi++
			suffixEnd = t.offsetOf(hi)
		}
	}
	hi = max(hi, lo)
	joined := t.Slice(prefixStart, at) + s + t.Slice(end, max(end, suffixEnd))
	t.work += len(joined) + (end - at)
	a, rest := split(t.root, lo)
	mid, b := split(rest, hi-lo)
	for x := first(mid); x != nil; x = next(x) {
		t.indexRemove(x)
		t.subRemove(x)
		t.shortRemove(x)
		t.count(x.line, -1)
	}
	lines := splitKeep(joined)
	nm := t.build(lines)
	for x := first(nm); x != nil; x = next(x) {
		t.indexAdd(x)
		t.subAdd(x)
		t.shortAdd(x)
		t.count(x.line, 1)
	}
	t.root = merge(merge(a, nm), b)
	if t.root != nil {
		t.root.parent = nil
	}
}

// TrimmedLine finds the first line starting at or after from whose text,
// white space around it ignored, is s's: trimmedLineMatch of the content.
// It scans the lines (the fallback after an exact match failed).
func (t *text) TrimmedLine(s string, from int) (int, bool) {
	t.promote()
	if !t.isTree {
		return trimmedLineMatch(t.flat, s, from)
	}
	want := strings.TrimSpace(s)
	if want == "" {
		return 0, false
	}
	i := t.lineCeil(from)
	off := t.offsetOf(i)
	for x := t.nodeAt(i); x != nil; x = next(x) {
		t.work += len(x.line)
		if strings.TrimSpace(x.line) == want {
			return off, true
		}
		off += len(x.line)
	}
	return 0, false
}
