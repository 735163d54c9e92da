package workspace

import (
	"math/bits"
	"unsafe"
)

// caseTable is CaseCollisions' set of the names (paths and the
// directories on them) a plan has named: one 8-byte word per name, with no
// pointer in it, in 64 open-addressing tables (linear probing, at most 7/8
// of the slots in use) chosen by the top 6 bits of the name's folded hash,
// each grown by a quarter when it fills, so that growing copies 1/64 of the
// names at a time. A word holds 40 further bits of the folded hash (0 is an
// empty slot) and 24 bits of the exact hash: a plan of many small
// write_file actions names a path every few dozen bytes of input, and 8
// bytes a name keeps the table a fraction of the input
// (docs/check.md, "case-collision"). Slots of 4 KiB and more are outside
// the garbage-collected heap (offHeap).
type caseTable struct {
	mem    *offHeap
	shards [caseShards]caseShard
}

type caseShard struct {
	slots []uint64
	n     int
}

const (
	caseShardBits = 6
	caseShards    = 1 << caseShardBits
	caseFoldBits  = 40
	caseExactBits = 64 - caseFoldBits
	caseMinSlots  = 16
)

// caseWord packs a name's folded hash h and exact hash e into a slot word.
func caseWord(h, e uint64) uint64 {
	w := (h>>(64-caseShardBits-caseFoldBits))<<caseExactBits | e&(1<<caseExactBits-1)
	if w == 0 {
		w = 1
	}
	return w
}

// home is the first slot of word w in a table of n slots: its folded bits
// scaled to n, so it can be computed again when the table grows.
func home(w uint64, n int) int {
	hi, _ := bits.Mul64(w, uint64(n))
	return int(hi)
}

// add records the name of folded hash h and exact hash e. It returns
// whether the folded form was met before and, if so, whether with the
// same exact form.
func (t *caseTable) add(h, e uint64) (found, same bool) {
	s := &t.shards[h>>(64-caseShardBits)]
	w := caseWord(h, e)
	if (s.n+1)*8 > len(s.slots)*7 {
		t.grow(s)
	}
	const foldMask = ^uint64(1<<caseExactBits - 1)
	n := len(s.slots)
	for i := home(w, n); ; {
		x := s.slots[i]
		switch {
		case x == 0:
			s.slots[i] = w
			s.n++
			return false, false
		case x&foldMask == w&foldMask:
			return true, x == w
		}
		if i++; i == n {
			i = 0
		}
	}
}

// lookup is add without the recording: whether the folded form was met
// before and, if so, whether with the same exact form.
func (t *caseTable) lookup(h, e uint64) (found, same bool) {
	s := &t.shards[h>>(64-caseShardBits)]
	n := len(s.slots)
	if n == 0 {
		return false, false
	}
	w := caseWord(h, e)
	const foldMask = ^uint64(1<<caseExactBits - 1)
	for i := home(w, n); ; {
		x := s.slots[i]
		switch {
		case x == 0:
			return false, false
		case x&foldMask == w&foldMask:
			return true, x == w
		}
		if i++; i == n {
			i = 0
		}
	}
}

// grow makes room in s: a quarter more slots (at least caseMinSlots), so
// that 7/10 to 7/8 of them are in use; each name is copied about four
// times in all.
func (t *caseTable) grow(s *caseShard) {
	old := s.slots
	n := max(caseMinSlots, len(old)+len(old)/4)
	s.slots = t.alloc(n)
	for _, w := range old {
		if w == 0 {
			continue
		}
		for i := home(w, n); ; {
			if s.slots[i] == 0 {
				s.slots[i] = w
				break
			}
			if i++; i == n {
				i = 0
			}
		}
	}
	t.release(old)
}

// offHeapMin is the smallest slot array taken outside the heap (a page).
const offHeapMin = 4096

func (t *caseTable) alloc(n int) []uint64 {
	if n*8 < offHeapMin {
		return make([]uint64, n)
	}
	if t.mem == nil {
		t.mem = &offHeap{}
	}
	b := t.mem.alloc((n*8 + offHeapMin - 1) &^ (offHeapMin - 1)) // whole pages
	return unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/8)
}

func (t *caseTable) release(s []uint64) {
	if t.mem == nil || len(s)*8 < offHeapMin {
		return
	}
	t.mem.release(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*8))
}

// free gives back the memory outside the heap; t is empty after it.
func (t *caseTable) free() {
	if t.mem != nil {
		t.mem.free()
	}
	*t = caseTable{mem: t.mem}
}
