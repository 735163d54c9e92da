package linediff

import "slices"

// Matching blocks: the comparison plangram uses to say how alike two line
// lists are and to show where a FIND text that is not found differs from
// the closest region of a file. Unlike Diff, it does not look for the
// fewest edits but for long runs of equal lines, as readers line texts
// up: the longest run of equal lines is matched first, then the same is
// done on each side of it (gestalt pattern matching, Ratcliff and
// Obershelp). Its results are the ones Python's difflib.SequenceMatcher
// gives for the same lists, which the messages' goldens pin.

// Block is a run of Size lines equal in a (from A) and b (from B).
type Block struct{ A, B, Size int }

// Blocks returns the matching blocks of a and b in increasing order,
// adjacent blocks merged, ending with the empty block {len(a), len(b), 0}.
// When popular is set and b has 200 lines or more, a line occurring in b
// more than once per hundred lines (plus one) cannot start a match, only
// extend one: the lines of a long region that repeat (blank lines, braces)
// do not pull the match towards them.
func Blocks(a, b []string, popular bool) []Block {
	where := make(map[string][]int, len(b))
	for j, l := range b {
		where[l] = append(where[l], j)
	}
	if popular && len(b) >= 200 {
		limit := len(b)/100 + 1
		for l, js := range where {
			if len(js) > limit {
				delete(where, l)
			}
		}
	}
	var found []Block
	type span struct{ alo, ahi, blo, bhi int }
	todo := []span{{0, len(a), 0, len(b)}}
	for len(todo) > 0 {
		s := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		m := longest(a, b, where, s.alo, s.ahi, s.blo, s.bhi)
		if m.Size == 0 {
			continue
		}
		found = append(found, m)
		if s.alo < m.A && s.blo < m.B {
			todo = append(todo, span{s.alo, m.A, s.blo, m.B})
		}
		if m.A+m.Size < s.ahi && m.B+m.Size < s.bhi {
			todo = append(todo, span{m.A + m.Size, s.ahi, m.B + m.Size, s.bhi})
		}
	}
	// The blocks found are disjoint in a: their starts order them.
	slices.SortFunc(found, func(x, y Block) int { return x.A - y.A })
	var out []Block
	for _, m := range found {
		if n := len(out); n > 0 && out[n-1].A+out[n-1].Size == m.A && out[n-1].B+out[n-1].Size == m.B {
			out[n-1].Size += m.Size
			continue
		}
		out = append(out, m)
	}
	return append(out, Block{len(a), len(b), 0})
}

// longest returns the longest run of equal lines of a[alo:ahi] and
// b[blo:bhi] that starts with a line of where (the earliest in a, then in
// b, among the longest), then extended over equal lines on both sides.
func longest(a, b []string, where map[string][]int, alo, ahi, blo, bhi int) Block {
	best := Block{alo, blo, 0}
	// run[j] is the length of the run of equal lines ending at a[i-1] and
	// b[j], for the previous line i-1 of a.
	run, next := map[int]int{}, map[int]int{}
	for i := alo; i < ahi; i++ {
		clear(next)
		for _, j := range where[a[i]] {
			if j < blo {
				continue
			}
			if j >= bhi {
				break
			}
			k := run[j-1] + 1
			next[j] = k
			if k > best.Size {
				best = Block{i - k + 1, j - k + 1, k}
			}
		}
		run, next = next, run
	}
	for best.A > alo && best.B > blo && a[best.A-1] == b[best.B-1] {
		best.A, best.B, best.Size = best.A-1, best.B-1, best.Size+1
	}
	for best.A+best.Size < ahi && best.B+best.Size < bhi && a[best.A+best.Size] == b[best.B+best.Size] {
		best.Size++
	}
	return best
}

// Ratio returns how alike a and b are, from 0 (nothing in common) to 1
// (equal): twice the lines of their matching blocks (Blocks, popular
// lines of b held back) over the lines of both.
func Ratio(a, b []string) float64 {
	if len(a)+len(b) == 0 {
		return 1
	}
	m := 0
	for _, bl := range Blocks(a, b, true) {
		m += bl.Size
	}
	return 2 * float64(m) / float64(len(a)+len(b))
}

// Change tags.
const (
	Same    = 'e' // a[I1:I2] equals b[J1:J2]
	Replace = 'r' // a[I1:I2] is replaced by b[J1:J2]
	Remove  = 'd' // a[I1:I2] is removed (J1 == J2)
	Add     = 'i' // b[J1:J2] is added (I1 == I2)
)

// Change turns a[I1:I2] into b[J1:J2] as Tag says.
type Change struct {
	Tag            byte
	I1, I2, J1, J2 int
}

// Changes returns the changes that turn a into b, in order, from the
// matching blocks of Blocks (blocks ending with the empty block).
func Changes(blocks []Block) []Change {
	var out []Change
	i, j := 0, 0
	for _, m := range blocks {
		switch {
		case i < m.A && j < m.B:
			out = append(out, Change{Replace, i, m.A, j, m.B})
		case i < m.A:
			out = append(out, Change{Remove, i, m.A, j, m.B})
		case j < m.B:
			out = append(out, Change{Add, i, m.A, j, m.B})
		}
		i, j = m.A+m.Size, m.B+m.Size
		if m.Size > 0 {
			out = append(out, Change{Same, m.A, i, m.B, j})
		}
	}
	return out
}

// Hunks groups changes into the hunks of a unified diff with n lines of
// context: each hunk starts and ends with at most n equal lines, and a
// run of more than 2n equal lines splits two hunks. Equal texts give no
// hunk.
func Hunks(changes []Change, n int) [][]Change {
	cs := append([]Change(nil), changes...)
	if len(cs) == 0 {
		cs = []Change{{Same, 0, 1, 0, 1}}
	}
	if c := &cs[0]; c.Tag == Same {
		c.I1, c.J1 = max(c.I1, c.I2-n), max(c.J1, c.J2-n)
	}
	if c := &cs[len(cs)-1]; c.Tag == Same {
		c.I2, c.J2 = min(c.I2, c.I1+n), min(c.J2, c.J1+n)
	}
	var hunks [][]Change
	var h []Change
	for _, c := range cs {
		if c.Tag == Same && c.I2-c.I1 > 2*n {
			h = append(h, Change{Same, c.I1, min(c.I2, c.I1+n), c.J1, min(c.J2, c.J1+n)})
			hunks = append(hunks, h)
			h = nil
			c.I1, c.J1 = max(c.I1, c.I2-n), max(c.J1, c.J2-n)
		}
		h = append(h, c)
	}
	if len(h) > 0 && !(len(h) == 1 && h[0].Tag == Same) {
		hunks = append(hunks, h)
	}
	return hunks
}
