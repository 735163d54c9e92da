package workspace

import (
	"math/bits"
	"slices"
	"strings"
)

// The short index: where a text too short for the substring index
// (substr.go) occurs, without a scan of the file. It serves a FIND text
// within one line of fewer than minSub bytes, and the two ends of a FIND
// text across a line break (the part before its first break ends a line,
// the part after its last one starts a line) when the other indexes
// cannot help.
//
// Each line is filed under a key for every position in it: the shortQ
// bytes from there on (fewer at the line's end, the "\n" included), and
// under a key for its start: "\n" followed by its first bytes (a "\n" is
// only ever the last byte of a line, so a key that starts with one is a
// line's start). A line is filed under each key once. A key holds its bytes
// left-aligned and its length (shortKey), so the keys that begin with a
// text p of k <= shortQ bytes and are at least k long are one range of the
// sorted keys; the lines in that range are exactly the lines holding p,
// and they are candidates only in that their offsets must be looked up.
//
// Like the substring index, the index has a static part built from the
// whole text in one piece (keys sorted, each with its segment of line ids)
// and a delta for the lines filed since, which files a line under every
// prefix of each of its keys so that a range is one lookup there. It is
// rebuilt when the delta costs more memory than the static part or half
// of the static part is dead; a key whose lines have all left is skipped
// in a range by a union-find pointer. A query costs O(log) per key of its
// range that still has lines, plus O(log lines) per candidate line: for a
// text within one line the candidates are the lines holding it, so a text
// on two lines or more is ambiguous (an error that lists the occurrences)
// or replaced everywhere; a text at more places than the question needs
// is looked for by walking the lines from the start instead (shortIndex).
//
// The index holds one 4-byte id per line and key (about one per byte of
// the file) and 24 bytes per distinct key: a few times the file's size
// (TestShortIndexMemory bounds it). It
// exists only for files edited more than once and searched for such a
// text.
const shortQ = 4

// shortIdx is the short index.
type shortIdx struct {
	keys  []uint64 // sorted
	start []uint32 // keys[i]'s ids are ids[start[i] : start[i]+n[i]]
	n     []uint32
	dead  []uint32 // of those n, removed lines
	skip  []uint32 // union-find: skip[i] != i once keys[i] has no line
	ids   []uint32
	fixed uint32 // ids below fixed are in the static part

	lineDelta[uint64]
	staticDead int

	byID []*lnode
}

// shortKey is the key of the bytes b (left-aligned, n of them).
func shortKey(b uint32, n int) uint64 { return uint64(b)<<3 | uint64(n) }

// packShort is the first (at most shortQ) bytes of s, left-aligned.
func packShort(s string) uint32 {
	var b uint32
	for i := 0; i < shortQ; i++ {
		b <<= 8
		if i < len(s) {
			b |= uint32(s[i])
		}
	}
	return b
}

// shortRange is the range of the keys that begin with p (1 to shortQ
// bytes).
func shortRange(p string) (lo, hi uint64) {
	b := packShort(p)
	rest := uint32(1)<<(8*(shortQ-len(p))) - 1
	return shortKey(b, len(p)), shortKey(b|rest, shortQ)
}

// shortKeys appends to out the keys of line l, sorted and without
// duplicates.
func shortKeys(l string, out []uint64) []uint64 {
	out = out[:0]
	if l == "" {
		return out
	}
	var b uint32
	for j := 0; j < len(l)+shortQ-1; j++ {
		b <<= 8
		if j < len(l) {
			b |= uint32(l[j])
		}
		if i := j - (shortQ - 1); i >= 0 {
			out = append(out, shortKey(b, min(shortQ, len(l)-i)))
		}
	}
	out = append(out, shortKey(packShort("\n"+l[:min(len(l), shortQ-1)]), min(shortQ, len(l)+1)))
	slices.Sort(out)
	return slices.Compact(out)
}

// deltaKeys replaces keys by every prefix of each (the delta's keys),
// sorted and without duplicates.
func deltaKeys(keys []uint64) []uint64 {
	n := len(keys)
	for _, k := range keys[:n] {
		b, l := uint32(k>>3), int(k&7)
		for p := 1; p < l; p++ {
			mask := ^(uint32(1)<<(8*(shortQ-p)) - 1)
			keys = append(keys, shortKey(b&mask, p))
		}
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}

// staticBytes is about what the static part holds.
func (s *shortIdx) staticBytes() int { return 4*len(s.ids) + 24*len(s.keys) }

// live returns the first key index at or after i that has lines (or
// len(keys)).
func (s *shortIdx) live(i int) int {
	for int(s.skip[i]) != i {
		s.skip[i] = s.skip[s.skip[i]]
		i = int(s.skip[i])
	}
	return i
}

// buildShort makes the short index of the text (tree mode), in two passes
// over the lines: count each key's lines, then place their ids.
func (t *text) buildShort() {
	if t.short != nil {
		return
	}
	s := &shortIdx{lineDelta: newLineDelta[uint64](20)}
	count := map[uint64]uint32{}
	total := 0
	for x := first(t.root); x != nil; x = next(x) {
		t.keys = shortKeys(x.line, t.keys)
		for _, k := range t.keys {
			count[k]++
		}
		total += len(t.keys)
		t.work += len(x.line)
	}
	s.keys = make([]uint64, 0, len(count))
	for k := range count {
		s.keys = append(s.keys, k)
	}
	slices.Sort(s.keys)
	s.start = make([]uint32, len(s.keys))
	s.n = make([]uint32, len(s.keys))
	s.dead = make([]uint32, len(s.keys))
	s.skip = make([]uint32, len(s.keys)+1)
	at := uint32(0)
	for i, k := range s.keys {
		s.start[i] = at
		s.skip[i] = uint32(i)
		at += count[k]
		count[k] = uint32(i)
	}
	s.skip[len(s.keys)] = uint32(len(s.keys))
	s.ids = make([]uint32, total)
	s.byID = make([]*lnode, 0, nlines(t.root)+nlines(t.root)/4+16)
	for x := first(t.root); x != nil; x = next(x) {
		t.keys = shortKeys(x.line, t.keys)
		x.sid = uint32(len(s.byID))
		s.byID = append(s.byID, x)
		for _, k := range t.keys {
			i := count[k]
			s.ids[s.start[i]+s.n[i]] = x.sid
			s.n[i]++
		}
		t.work += len(x.line)
	}
	s.fixed = uint32(len(s.byID))
	t.short = s
}

// shortAdd files line x, new in the text, under the prefixes of its keys
// (in the delta).
func (t *text) shortAdd(x *lnode) {
	s := t.short
	if s == nil {
		return
	}
	t.keys = deltaKeys(shortKeys(x.line, t.keys))
	t.work += len(x.line)
	x.sid = uint32(len(s.byID))
	s.byID = append(s.byID, x)
	for _, k := range t.keys {
		s.file(k, x.sid)
	}
	if s.deltaBytes > s.staticBytes()+t.subSlack || len(s.byID) >= listBit-1 {
		t.short = nil // rebuilt when next needed
	}
}

// shortRemove marks line x, which has left the text, as dead under its
// keys, compacting a segment or list once half of it is dead.
func (t *text) shortRemove(x *lnode) {
	s := t.short
	if s == nil {
		return
	}
	t.keys = shortKeys(x.line, t.keys)
	t.work += len(x.line)
	s.byID[x.sid] = nil
	gone := func(id uint32) bool { return s.byID[id] == nil }
	if x.sid < s.fixed {
		for _, k := range t.keys {
			i, ok := slices.BinarySearch(s.keys, k)
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
				if s.n[i] == 0 {
					s.skip[i] = uint32(i + 1)
				}
			}
		}
	} else {
		t.keys = deltaKeys(t.keys)
		for _, k := range t.keys {
			t.work += s.unfile(k, x.sid, gone)
		}
	}
	if 2*s.staticDead > len(s.ids)+t.subSlack {
		t.short = nil // rebuilt when next needed
	}
}

// lines returns the number of (line, key) entries of the lines holding p
// (1 to shortQ bytes), counting no further than limit (< 0: all), and calls
// each (if not nil) with their lines, a line once per key.
func (s *shortIdx) lines(t *text, p string, limit int, each func(*lnode)) int {
	lo, hi := shortRange(p)
	n := 0
	i, _ := slices.BinarySearch(s.keys, lo)
	t.work += bits.Len(uint(len(s.keys)))
	for {
		i = s.live(i)
		if i >= len(s.keys) || s.keys[i] > hi || (limit >= 0 && n > limit) {
			break
		}
		t.work++
		n += int(s.n[i] - s.dead[i])
		if each != nil {
			for _, id := range s.ids[s.start[i] : s.start[i]+s.n[i]] {
				if x := s.byID[id]; x != nil {
					each(x)
				}
			}
		}
		i++
	}
	return n + s.deltaLines(lo, s.byID, each)
}

// shortCount is the number of (line, key) entries of the lines holding p,
// counted no further than limit (< 0: all): more than limit when there
// are more.
func (t *text) shortCount(p string, limit int) int {
	t.buildShort()
	return t.short.lines(t, p, limit, nil)
}

// shortLines lists, sorted by offset and each once, the lines holding p
// (1 to shortQ bytes) that end after offset from.
func (t *text) shortLines(p string, from int) []subCand {
	var cands []subCand
	t.short.lines(t, p, -1, func(x *lnode) {
		if off := t.startOf(x); off+len(x.line) > from {
			cands = append(cands, subCand{x, off})
		}
	})
	slices.SortFunc(cands, func(a, b subCand) int { return a.off - b.off })
	t.work += len(cands)
	return slices.CompactFunc(cands, func(a, b subCand) bool { return a.x == b.x })
}

// shortIndex lists the occurrences of find (no line break, 1 to shortQ
// bytes) at or after from, as Index does, from the short index. Where find
// is at more places than a limit needs (each place is a different position
// in a line, so more than shortQ·limit of them hold more than limit
// occurrences that do not overlap: an ambiguous text, or more than a
// match-all edit replaces in place), or on more than about half the lines,
// it walks the lines from the one holding from to the limit-th occurrence
// instead; the places are counted no further than that.
func (t *text) shortIndex(find string, from, limit int) []int {
	most := nlines(t.root)/2 + 8
	if limit >= 0 {
		most = min(most, shortQ*(limit+1))
	}
	if n := t.shortCount(find, most); n <= most {
		return t.inLines(t.shortLines(find, from), find, from, limit)
	}
	var out []int
	if from >= t.Len() {
		return nil
	}
	x, off := t.lineAt(from)
	for ; x != nil && (limit < 0 || len(out) < limit); x = next(x) {
		out = t.inLine(x, off, find, from, limit, out)
		off += len(x.line)
	}
	return out
}

// inLines lists the occurrences of find (no line break) at or after from
// in the candidate lines (sorted by offset), at most limit of them.
func (t *text) inLines(cands []subCand, find string, from, limit int) []int {
	var out []int
	for _, c := range cands {
		if limit >= 0 && len(out) == limit {
			break
		}
		out = t.inLine(c.x, c.off, find, from, limit, out)
	}
	return out
}

// inLine appends to out the occurrences of find (no line break) in line x,
// which starts at off, at or after from, until out holds limit of them.
func (t *text) inLine(x *lnode, off int, find string, from, limit int, out []int) []int {
	body := lineBody(x.line)
	i := min(max(0, from-off), len(body))
	for limit < 0 || len(out) < limit {
		j := strings.Index(body[i:], find)
		if j < 0 {
			t.work += len(body) - i
			break
		}
		t.work += j + len(find)
		out = append(out, off+i+j)
		i += j + len(find)
	}
	return out
}

// spanByShort lists, sorted, the offsets at or after from at which find (a
// text with a line break) occurs, from the short index: by the lines that
// end in the part before its first break (its last shortQ bytes with the
// "\n") or that start with the part after its last one (its first bytes),
// whichever are fewer; each is compared whole. ok is false when neither
// end can be used or their lines are so many that a scan is cheaper.
func (t *text) spanByShort(find string, from int) ([]int, bool) {
	nl := strings.IndexByte(find, '\n')
	head := find[:nl+1] // ends a line
	tail := find[strings.LastIndexByte(find, '\n')+1:]
	t.buildShort()
	var p string
	best := -1
	if nl > 0 {
		p = head[max(0, len(head)-shortQ):]
		best = t.shortCount(p, -1)
	}
	if tail != "" {
		q := "\n" + tail[:min(len(tail), shortQ-1)]
		if n := t.shortCount(q, best); best < 0 || n < best {
			p, best = q, n
		}
	}
	if best < 0 || t.scanCheaper(best, len(find), t.Len()) {
		return nil, false
	}
	var out []int
	for _, c := range t.shortLines(p, 0) {
		var s int
		if p[0] != '\n' {
			if !strings.HasSuffix(c.x.line, head) {
				continue
			}
			s = c.off + len(c.x.line) - len(head)
		} else {
			if !strings.HasPrefix(c.x.line, tail) {
				continue
			}
			s = c.off - (len(find) - len(tail))
		}
		if s < from || s < 0 || s+len(find) > t.Len() {
			continue
		}
		t.work += len(find)
		if t.Slice(s, s+len(find)) == find {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return out, true
}
