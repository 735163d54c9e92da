package workspace

import (
	"slices"
	"strings"
)

// The substring index: where a FIND text within one line (no line break,
// at least minSub bytes) can occur, without a scan of the file.
//
// Every line (its "\n" left out) is cut into its grams of gramQ bytes, and
// each window of gramW consecutive grams selects its minimizer, the gram
// of least gramRank (a window's content alone decides which gram that is).
// The index maps each gram to the lines that select it at least once. A
// text of minSub = gramQ+gramW-1 bytes or more holds at least one whole
// window; wherever the text occurs, the line holding it has the same
// window and so selects the same gram. The text's candidate lines are thus
// the lines filed under the minimizer of any one of its windows, and the
// rarest of those is used. The candidates are sorted by position and the
// text is looked for in each (a text without a line break cannot span two
// lines, so a scan left to right finds the same occurrences line by line).
//
// The index is built when a file in tree mode is first searched for such
// a text (a file edited more than once) and kept up to date line by line:
// an edit re-files only the lines it removes and inserts. A line selects
// about 2/(gramW+1) of its positions, fewer where grams repeat, and a
// line is filed under each gram once, as a 4-byte id; each gram costs 16
// bytes and each line 8 (subIdx): the index is a few times the file's
// size (TestSubIndexMemory bounds it).
//
// gramW = 2 (texts of 5 bytes or more) keeps the candidates few: with
// wider windows a window's minimizer is more often a gram that most lines
// hold (the start of a call, indentation), and a FIND text whose telling
// part is a short number then had tens of candidates.
const (
	gramQ  = 4
	gramW  = 2
	minSub = gramQ + gramW - 1
)

// subIdx is the substring index: a static part, built from the whole text
// in one piece (grams sorted, each with its segment of line ids), and a
// delta for the lines filed since. Line ids index byID; a removed line's
// entry there is nil, and it is dropped from a segment or list once half
// of that is dead. The index is rebuilt when the delta costs more memory
// than the static part, or half of the static part is dead, so edits cost
// O(1) amortized per byte of the lines they file.
type subIdx struct {
	grams []uint32 // sorted
	start []uint32 // grams[i]'s ids are ids[start[i] : start[i]+n[i]]
	n     []uint32
	dead  []uint32 // of those n, removed lines
	ids   []uint32
	fixed uint32 // ids below fixed are in the static part

	lineDelta[uint32]
	staticDead int

	byID []*lnode
}

// listBit marks a delta value that is a list's index, not a line id.
const listBit = 1 << 31

// gramLines is a delta list: line ids, dead of them removed.
type gramLines struct {
	ids  []uint32
	dead int32
}

func (g gramLines) live() int { return len(g.ids) - int(g.dead) }

// staticBytes is about what the static part holds.
func (s *subIdx) staticBytes() int { return 4*len(s.ids) + 16*len(s.grams) }

// find returns the static index of gram g.
func (s *subIdx) find(g uint32) (int, bool) {
	return slices.BinarySearch(s.grams, g)
}

// gramAt is the gramQ bytes of s at i as a number.
func gramAt(s string, i int) uint32 {
	return uint32(s[i])<<24 | uint32(s[i+1])<<16 | uint32(s[i+2])<<8 | uint32(s[i+3])
}

// gramRank orders grams pseudo-randomly (a bijection: equal ranks are
// equal grams), so that minimizers are spread over the alphabet.
func gramRank(g uint32) uint32 {
	h := g * 0x9E3779B1
	return h ^ h>>15
}

// lineBody is a line without its "\n".
func lineBody(l string) string { return strings.TrimSuffix(l, "\n") }

// minimizers appends to out the minimizer of every window of s, sorted
// and without duplicates.
func minimizers(s string, out []uint32) []uint32 {
	out = out[:0]
	if len(s) < minSub {
		return out
	}
	prev, have := uint32(0), false
	for j := 0; j+minSub <= len(s); j++ {
		best := gramAt(s, j)
		br := gramRank(best)
		for k := j + 1; k < j+gramW; k++ {
			if g := gramAt(s, k); gramRank(g) < br {
				best, br = g, gramRank(g)
			}
		}
		if !have || best != prev {
			out = append(out, best)
			prev, have = best, true
		}
	}
	if len(out) > 1 {
		slices.Sort(out)
		out = slices.Compact(out)
	}
	return out
}

// buildSub makes the substring index of the text (tree mode), in two
// passes over the lines: count each gram's lines, then place their ids.
func (t *text) buildSub() {
	if t.sub != nil {
		return
	}
	s := &subIdx{lineDelta: newLineDelta[uint32](16)}
	count := map[uint32]uint32{}
	total := 0
	for x := first(t.root); x != nil; x = next(x) {
		t.grams = minimizers(lineBody(x.line), t.grams)
		for _, g := range t.grams {
			count[g]++
		}
		total += len(t.grams)
		t.work += len(x.line)
	}
	s.grams = make([]uint32, 0, len(count))
	for g := range count {
		s.grams = append(s.grams, g)
	}
	slices.Sort(s.grams)
	s.start = make([]uint32, len(s.grams))
	s.n = make([]uint32, len(s.grams))
	s.dead = make([]uint32, len(s.grams))
	at := uint32(0)
	for i, g := range s.grams {
		s.start[i] = at
		at += count[g]
		count[g] = uint32(i)
	}
	s.ids = make([]uint32, total)
	s.byID = make([]*lnode, 0, nlines(t.root)+nlines(t.root)/4+16)
	for x := first(t.root); x != nil; x = next(x) {
		t.grams = minimizers(lineBody(x.line), t.grams)
		if len(t.grams) == 0 {
			continue
		}
		x.id = uint32(len(s.byID))
		s.byID = append(s.byID, x)
		for _, g := range t.grams {
			i := count[g]
			s.ids[s.start[i]+s.n[i]] = x.id
			s.n[i]++
		}
		t.work += len(x.line)
	}
	s.fixed = uint32(len(s.byID))
	t.sub = s
}

// subAdd files line x, new in the text, under its minimizers (in the
// delta).
func (t *text) subAdd(x *lnode) {
	s := t.sub
	if s == nil {
		return
	}
	t.grams = minimizers(lineBody(x.line), t.grams)
	t.work += len(x.line)
	if len(t.grams) == 0 {
		return
	}
	x.id = uint32(len(s.byID))
	s.byID = append(s.byID, x)
	for _, g := range t.grams {
		s.file(g, x.id)
	}
	if s.deltaBytes > s.staticBytes()+t.subSlack || len(s.byID) >= listBit-1 {
		t.sub = nil // rebuilt when next needed
	}
}

// subRemove marks line x, which has left the text, as dead in its
// minimizers' segments or lists, compacting one once half of it is dead.
func (t *text) subRemove(x *lnode) {
	s := t.sub
	if s == nil {
		return
	}
	t.grams = minimizers(lineBody(x.line), t.grams)
	t.work += len(x.line)
	if len(t.grams) == 0 {
		return
	}
	s.byID[x.id] = nil
	gone := func(id uint32) bool { return s.byID[id] == nil }
	for _, g := range t.grams {
		if x.id < s.fixed {
			i, ok := s.find(g)
			if !ok {
				continue
			}
			s.dead[i]++
			s.staticDead++
			if 2*s.dead[i] > s.n[i] {
				seg := s.ids[s.start[i] : s.start[i]+s.n[i]]
				t.work += len(seg)
				s.n[i] = uint32(len(slices.DeleteFunc(seg, gone)))
				s.dead[i] = 0
			}
			continue
		}
		t.work += s.unfile(g, x.id, gone)
	}
	if 2*s.staticDead > len(s.ids)+t.subSlack {
		t.sub = nil // rebuilt when next needed
	}
}

// lines returns the number of live lines filed under g and calls each
// (if not nil) with their ids' lines.
func (s *subIdx) lines(g uint32, each func(*lnode)) int {
	n := 0
	if i, ok := s.find(g); ok {
		n += int(s.n[i] - s.dead[i])
		if each != nil {
			for _, id := range s.ids[s.start[i] : s.start[i]+s.n[i]] {
				if x := s.byID[id]; x != nil {
					each(x)
				}
			}
		}
	}
	return n + s.deltaLines(g, s.byID, each)
}

// subCand is a candidate line and its offset.
type subCand struct {
	x   *lnode
	off int
}

// subLines lists, sorted by offset, the lines that may hold piece (no
// line break, at least minSub bytes) and end after offset from: the
// lines filed under the rarest minimizer of its windows. ok is false when
// they are so many that a scan is cheaper.
func (t *text) subLines(piece string, from int) (cands []subCand, ok bool) {
	t.buildSub()
	best, bestN := uint32(0), -1
	for j := 0; j+minSub <= len(piece); j++ {
		g := gramAt(piece, j)
		for k := j + 1; k < j+gramW; k++ {
			if h := gramAt(piece, k); gramRank(h) < gramRank(g) {
				g = h
			}
		}
		n := t.sub.lines(g, nil)
		if n == 0 {
			t.work += j + minSub
			return nil, true // no line holds this window
		}
		if bestN < 0 || n < bestN {
			best, bestN = g, n
		}
	}
	t.work += len(piece)
	if 2*bestN > nlines(t.root) {
		return nil, false
	}
	cands = make([]subCand, 0, bestN)
	t.sub.lines(best, func(x *lnode) {
		if off := t.startOf(x); off+len(x.line) > from {
			cands = append(cands, subCand{x, off})
		}
	})
	slices.SortFunc(cands, func(a, b subCand) int { return a.off - b.off })
	t.work += len(cands)
	return cands, true
}

// subIndex lists the occurrences of find (no line break, at least minSub
// bytes) at or after from, as Index does, from the substring index. ok is
// false when a scan is cheaper.
func (t *text) subIndex(find string, from, limit int) ([]int, bool) {
	cands, ok := t.subLines(find, from)
	if !ok {
		return nil, false
	}
	return t.inLines(cands, find, from, limit), true
}

// spanBySub lists, sorted, the offsets at or after from at which find (a
// text with a line break) occurs, from the substring index: the part
// before its first line break ends a line, and the part after its last
// one (when it does not end in a line break) starts a line; the longer of
// the two, when it has minSub bytes, gives the candidates, and each is
// compared whole. ok is false when neither is long enough or a scan is
// cheaper.
func (t *text) spanBySub(find string, from int) ([]int, bool) {
	nl := strings.IndexByte(find, '\n')
	head := find[:nl]
	tail := ""
	if l := strings.LastIndexByte(find, '\n'); l < len(find)-1 {
		tail = find[l+1:]
	}
	piece, back := head, 0 // back: from a candidate line's start to find's
	if len(tail) > len(head) {
		piece, back = tail, len(find)-len(tail)
	}
	if len(piece) < minSub {
		return nil, false
	}
	cands, ok := t.subLines(piece, from+back)
	if !ok {
		return nil, false
	}
	var out []int
	for _, c := range cands {
		body := lineBody(c.x.line)
		var s int
		if back == 0 {
			if !strings.HasSuffix(body, head) || len(body) == len(c.x.line) {
				continue // not a line ending in head and "\n"
			}
			s = c.off + len(body) - len(head)
		} else {
			if !strings.HasPrefix(body, tail) {
				continue
			}
			s = c.off - back
		}
		t.work += len(piece)
		if s < from || s < 0 || s+len(find) > t.Len() {
			continue
		}
		t.work += len(find)
		if t.Slice(s, s+len(find)) == find {
			out = append(out, s)
		}
	}
	return out, true
}

// startOf returns the offset at which line x starts.
func (t *text) startOf(x *lnode) int {
	off := nbytes(x.left)
	for ; x.parent != nil; x = x.parent {
		t.work++
		if x.parent.right == x {
			off += nbytes(x.parent.left) + len(x.parent.line)
		}
	}
	return off
}
