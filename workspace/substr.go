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
// line is filed under each gram once, as a 4-byte id: the index is about
// 3.4 times the size of a file of 80-byte code lines (TestSubIndexMemory).
// Removed lines are dropped from a gram's list lazily, when half of it is
// gone.
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

// gramLines is the list of the lines (by id) that select one gram; dead
// of them are no longer in the text.
type gramLines struct {
	ids  []uint32
	dead int32
}

func (g gramLines) live() int { return len(g.ids) - int(g.dead) }

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

// buildSub makes the substring index of the text (tree mode).
func (t *text) buildSub() {
	if t.sub != nil {
		return
	}
	t.sub = make(map[uint32]gramLines)
	t.byID = make([]*lnode, 0, nlines(t.root)+nlines(t.root)/4)
	for x := first(t.root); x != nil; x = next(x) {
		t.subAdd(x)
	}
}

// subAdd files line x under its minimizers.
func (t *text) subAdd(x *lnode) {
	if t.sub == nil {
		return
	}
	t.grams = minimizers(lineBody(x.line), t.grams)
	t.work += len(x.line)
	if len(t.grams) == 0 {
		return
	}
	x.id = uint32(len(t.byID))
	t.byID = append(t.byID, x)
	for _, g := range t.grams {
		s := t.sub[g]
		s.ids = append(s.ids, x.id)
		t.sub[g] = s
	}
}

// subRemove marks line x, which has left the text, as dead in its
// minimizers' lists, compacting a list once half of it is dead.
func (t *text) subRemove(x *lnode) {
	if t.sub == nil {
		return
	}
	t.grams = minimizers(lineBody(x.line), t.grams)
	t.work += len(x.line)
	if len(t.grams) == 0 {
		return
	}
	t.byID[x.id] = nil
	for _, g := range t.grams {
		s, ok := t.sub[g]
		if !ok {
			continue
		}
		s.dead++
		switch {
		case s.live() == 0:
			delete(t.sub, g)
			continue
		case 2*int(s.dead) > len(s.ids):
			t.work += len(s.ids)
			s.ids = slices.DeleteFunc(s.ids, func(id uint32) bool { return t.byID[id] == nil })
			s.dead = 0
		}
		t.sub[g] = s
	}
}

// subIndex lists the occurrences of find (no line break, at least minSub
// bytes) at or after from, as Index does, from the substring index. ok is
// false when the candidates are so many lines that a scan is cheaper.
func (t *text) subIndex(find string, from, limit int) (out []int, ok bool) {
	t.buildSub()
	best, found := gramLines{}, false
	for j := 0; j+minSub <= len(find); j++ {
		g := gramAt(find, j)
		for k := j + 1; k < j+gramW; k++ {
			if h := gramAt(find, k); gramRank(h) < gramRank(g) {
				g = h
			}
		}
		s, ok := t.sub[g]
		if !ok {
			t.work += j + minSub
			return nil, true // no line holds this window
		}
		if !found || s.live() < best.live() {
			best, found = s, true
		}
	}
	t.work += len(find)
	if 2*best.live() > nlines(t.root) {
		return nil, false
	}
	type cand struct {
		x   *lnode
		off int
	}
	cands := make([]cand, 0, best.live())
	for _, id := range best.ids {
		x := t.byID[id]
		if x == nil {
			continue
		}
		off := t.startOf(x)
		if off+len(x.line) > from {
			cands = append(cands, cand{x, off})
		}
	}
	slices.SortFunc(cands, func(a, b cand) int { return a.off - b.off })
	t.work += len(cands)
	for _, c := range cands {
		body := lineBody(c.x.line)
		i := max(0, from-c.off)
		for limit < 0 || len(out) < limit {
			j := strings.Index(body[min(i, len(body)):], find)
			if j < 0 {
				t.work += len(body) - min(i, len(body))
				break
			}
			t.work += j + len(find)
			out = append(out, c.off+i+j)
			i += j + len(find)
		}
		if limit >= 0 && len(out) == limit {
			break
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
