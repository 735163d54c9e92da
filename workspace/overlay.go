package workspace

import (
	"hash/maphash"
	"math/bits"
	"strings"
	"unsafe"

	"github.com/plangram/plangram/ast"
)

// overlay is the checker's state of every path it looked at: what was on
// disk and what the actions so far made of it. It is kept compact because
// `check --root` keeps one state per file a plan touches, and a plan of
// many small write_file actions touches a file every few dozen bytes of
// input:
//
//   - one entry of 16 bytes per path, with no pointer in it, in chunks
//     that are never copied, found through an open-addressing table of
//     entry numbers (4 bytes a slot, 7/12 to 7/8 of the slots in use; the
//     bits an entry number does not need hold a tag of the path's hash,
//     so a lookup reads the path of about one entry, not of every entry
//     it probes); the
//     chunks, the table and the arena are outside the garbage-collected
//     heap where the system allows (offHeap);
//   - the path, the content and the name of the action that made the state
//     are offsets into the document (Options.Source) when they are slices
//     of it, as the parser's strings are: the name's offset, and the
//     content's as a distance from it; other paths are copied once into
//     an arena; the line and column of the action's name are computed from
//     its offset when a diagnostic needs them (posIndex);
//   - a state that does not fit an entry (a file read from disk, a file
//     being edited, a problem to report, another document's action) is a
//     *vfile in heavy, the entry holding its number;
//   - the count of files the plan created below a directory is kept only
//     for directories (below).
//
// c.file decodes an entry into a *vfile and c.set encodes one, so the rules
// read and write vfiles as before.
type overlay struct {
	src  string // Options.Source, "" without one (or one of 4 GiB or more)
	pos  posIndex
	mem  *offHeap  // holds ents, slots and arena
	ents [][]entry // chunks of entChunk entries
	n    int       // entries in use
	// slots is the hash table: entry number + 1 in the low idxBits bits
	// (0 for an empty slot), the path's hash in the bits above them (a
	// tag: a lookup reads only the entries whose tag matches); at most
	// 7/8 of the slots are in use.
	slots   []uint32
	idxBits uint
	seed    maphash.Seed
	arena   [][]byte // paths that are not slices of src, in chunks
	strs    []string // paths too long for the arena
	heavy   []*vfile // states that do not fit an entry
	// diskHeavy holds what was on disk at an entry that a missing path or
	// a directory does not say (a file, a problem), by entry number.
	diskHeavy map[uint32]*vfile
	// byTab holds the actions (or stubs of them) of states whose action
	// is not named inline (by offset into src).
	byTab []*ast.Action
	// below counts, per directory entry, the files below it that exist
	// because of an earlier action.
	below map[uint32]int32
	// work counts the slots the table's lookups and growths visited and
	// the entries whose path was read (key), for TestOverlayLinear; it
	// has no other use.
	work int
}

// entry is one path's state, both its current state and what the disk
// holds. Its fields are offsets and counts, never pointers, so the garbage
// collector does not look into the chunks that hold them.
type entry struct {
	path uint32 // the path: an offset into src or the arena, or a strs index (bits)
	// by is the action of the current state: its name's offset into src
	// (eByInline) or a byTab index (eByTab); with eHeavy, a heavy index.
	by uint32
	// The content (eKnown): its offset into src less by, and its length.
	cdel, clen uint16
	// plen is the path's length (src, arena; at most maxKeyLen) in its low
	// bits and what os.Lstat said of the path in the top two (lstatBits).
	plen uint16
	bits uint16
}

// maxKeyLen is the longest path kept in src or the arena (longer ones are
// in strs); the two bits above it in entry.plen hold what walk learned
// from os.Lstat.
const (
	maxKeyLen  = 1<<14 - 1
	lstatShift = 14
	lstatNone  = 1 // os.Lstat failed: nothing there (for walk's purpose)
	lstatPlain = 2 // os.Lstat found a file or directory, not a symbolic link
)

// Entry bits.
const (
	ePathArena = 1 << iota // path is an offset into the arena (else src)
	ePathStr               // path is an index into strs
	eLooked                // the disk was looked at: the states are set
	eDiskDir               // on disk: a directory (else missing, unless eDiskHeavy)
	eDiskHeavy             // on disk: diskHeavy holds it
	eHeavy                 // the current state is heavy[data]
	eExists
	eDir
	eKnown
	eOriginSelf        // the content descends from this path's disk file
	eByInline          // by is the offset of the action's name in src
	eByTab             // by is an index into byTab
	eHowShift   = iota // how: 3 bits (hows)
)

// hows are the values of vfile.how an entry can hold (index 0: none).
var hows = [...]string{"", "created", "edited", "appended to", "moved", "moved away", "deleted", "edited and moved"}

const (
	entChunk   = 4096    // entries per chunk (64 KiB)
	arenaChunk = 1 << 16 // bytes per arena chunk
)

func newOverlay(src []byte) overlay {
	o := overlay{seed: maphash.MakeSeed(), mem: &offHeap{}, diskHeavy: map[uint32]*vfile{}, below: map[uint32]int32{}}
	if n := len(src); n > 0 && uint64(n) < 1<<32-1 {
		o.src = unsafe.String(unsafe.SliceData(src), n)
	}
	return o
}

func (o *overlay) at(i uint32) *entry { return &o.ents[i/entChunk][i%entChunk] }

// inSrc returns the offset of s in src when s is a slice of it.
func (o *overlay) inSrc(s string) (uint32, bool) {
	if len(s) == 0 {
		return 0, true
	}
	if len(s) > len(o.src) {
		return 0, false
	}
	p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
	b := uintptr(unsafe.Pointer(unsafe.StringData(o.src)))
	if p < b || p-b > uintptr(len(o.src)-len(s)) {
		return 0, false
	}
	return uint32(p - b), true
}

// key returns entry e's path.
func (o *overlay) key(e *entry) string {
	o.work++
	switch {
	case e.bits&ePathStr != 0:
		return o.strs[e.path]
	case e.bits&ePathArena != 0:
		c := o.arena[e.path/arenaChunk]
		off := e.path % arenaChunk
		return unsafe.String(&c[off], int(e.plen&maxKeyLen))
	}
	return o.src[e.path : e.path+uint32(e.plen&maxKeyLen)]
}

// keyString returns entry e's path as a string that outlives the overlay
// (a copy when it is in the arena, which is freed with it).
func (o *overlay) keyString(e *entry) string {
	if e.bits&ePathArena != 0 {
		return strings.Clone(o.key(e))
	}
	return o.key(e)
}

// find returns the entry number of path rel.
func (o *overlay) find(rel string) (uint32, bool) {
	return o.findSum(rel, maphash.String(o.seed, rel))
}

// findSum is find for a path whose hash is known (prefixHashes).
func (o *overlay) findSum(rel string, sum uint64) (uint32, bool) {
	if len(o.slots) == 0 {
		return 0, false
	}
	h, tag := o.slotSum(sum)
	mask := o.idxMask()
	for ; ; h = o.nextSlot(h) {
		o.work++
		s := o.slots[h]
		if s == 0 {
			return 0, false
		}
		if s&^mask == tag && o.key(o.at(s&mask-1)) == rel {
			return s&mask - 1, true
		}
	}
}

// slotSum is the first slot to look at for a path whose hash is sum
// (the hash scaled to the table's size) and its tag (the hash's low bits
// above idxBits).
func (o *overlay) slotSum(sum uint64) (int, uint32) {
	hi, _ := bits.Mul64(sum, uint64(len(o.slots)))
	return int(hi), uint32(sum) &^ o.idxMask()
}

// idxMask selects a slot's entry number (+ 1).
func (o *overlay) idxMask() uint32 { return uint32(1)<<o.idxBits - 1 }

// nextSlot is the slot after h (linear probing).
func (o *overlay) nextSlot(h int) int {
	if h++; h == len(o.slots) {
		return 0
	}
	return h
}

// intern returns the entry number of rel, adding an entry (not looked at)
// when there is none.
func (o *overlay) intern(rel string) uint32 {
	return o.internSum(rel, maphash.String(o.seed, rel))
}

// internSum is intern for a path whose hash is known (prefixHashes).
func (o *overlay) internSum(rel string, sum uint64) uint32 {
	if i, ok := o.findSum(rel, sum); ok {
		return i
	}
	if (o.n+1)*8 > len(o.slots)*7 {
		o.grow()
	}
	i := uint32(o.n)
	if o.n%entChunk == 0 {
		b := o.mem.alloc(entChunk * int(unsafe.Sizeof(entry{})))
		o.ents = append(o.ents, unsafe.Slice((*entry)(unsafe.Pointer(unsafe.SliceData(b))), entChunk))
	}
	o.n++
	e := o.at(i)
	*e = entry{}
	o.storeKey(e, rel)
	o.placeSum(i, sum)
	return i
}

// place puts entry i, whose path is rel, into the table.
func (o *overlay) place(i uint32, rel string) {
	o.placeSum(i, maphash.String(o.seed, rel))
}

// placeSum puts entry i, whose path hashes to sum, into the table.
func (o *overlay) placeSum(i uint32, sum uint64) {
	h, tag := o.slotSum(sum)
	for o.slots[h] != 0 {
		o.work++
		h = o.nextSlot(h)
	}
	o.slots[h] = tag | (i + 1)
}

// grow makes the table half as large again, so that after it 7/12 of the
// slots are in use at most. The entries hold their paths, so the old table
// is freed first and the entries are entered again from them: the old and
// the new table are never held at once.
func (o *overlay) grow() {
	if old := o.slots; len(old) > 0 {
		o.mem.release(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(old))), len(old)*4))
	}
	n := max(64, len(o.slots)*3/2)
	b := o.mem.alloc(n * 4)
	o.slots = unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(b))), n)
	// entry numbers + 1 are at most 7/8 of n: the bits above are a tag
	o.idxBits = uint(bits.Len(uint(n)))
	for i := 0; i < o.n; i++ {
		o.place(uint32(i), o.key(o.at(uint32(i))))
	}
}

// storeKey records rel as e's path: as an offset into src when it is a
// slice of it, else copied into the arena (or strs).
func (o *overlay) storeKey(e *entry, rel string) {
	if off, ok := o.inSrc(rel); ok && len(rel) <= maxKeyLen {
		e.path, e.plen = off, uint16(len(rel))
		return
	}
	if len(rel) > maxKeyLen || len(o.arena) >= 1<<16 {
		e.bits |= ePathStr
		e.path = uint32(len(o.strs))
		o.strs = append(o.strs, rel)
		return
	}
	last := len(o.arena) - 1
	if last < 0 || len(o.arena[last])+len(rel) > arenaChunk {
		o.arena = append(o.arena, o.mem.alloc(arenaChunk)[:0])
		last++
	}
	c := o.arena[last]
	e.bits |= ePathArena
	e.path, e.plen = uint32(last)*arenaChunk+uint32(len(c)), uint16(len(rel))
	o.arena[last] = append(c, rel...)
}

// cur decodes entry i's current state (nil when the disk was not looked at).
func (c *checker) cur(i uint32) *vfile {
	e := c.o.at(i)
	if e.bits&eLooked == 0 {
		return nil
	}
	if e.bits&eHeavy != 0 {
		return c.o.heavy[e.by]
	}
	f := &vfile{exists: e.bits&eExists != 0, dir: e.bits&eDir != 0, known: e.bits&eKnown != 0,
		how: hows[e.bits>>eHowShift&7]}
	if f.known && e.clen > 0 {
		off := e.by + uint32(e.cdel)
		f.content = c.o.src[off : off+uint32(e.clen)]
		f.size = int64(e.clen)
	}
	if e.bits&eOriginSelf != 0 {
		f.origin = c.o.keyString(e)
	}
	f.by = c.byOf(e)
	return f
}

// createdAt reports whether entry i's current state is a file an action
// made (what set counts in below).
func (c *checker) createdAt(i uint32) bool {
	e := c.o.at(i)
	switch {
	case e.bits&eLooked == 0:
		return false
	case e.bits&eHeavy != 0:
		f := c.o.heavy[e.by]
		return f.exists && f.by != nil && !f.dir
	}
	return e.bits&eExists != 0 && e.bits&eDir == 0 && e.bits&(eByInline|eByTab) != 0
}

// diskAt decodes what was on disk at entry i (nil when not looked at).
func (c *checker) diskAt(i uint32) *vfile {
	e := c.o.at(i)
	switch {
	case e.bits&eLooked == 0:
		return nil
	case e.bits&eDiskHeavy != 0:
		return c.o.diskHeavy[i]
	case e.bits&eDiskDir != 0:
		return &vfile{exists: true, dir: true}
	}
	return &vfile{}
}

// byOf returns the action of an entry's state.
func (c *checker) byOf(e *entry) *ast.Action {
	switch {
	case e.bits&eByTab != 0:
		return c.o.byTab[e.by]
	case e.bits&eByInline != 0:
		off := int(e.by)
		name := c.o.src[off : off+nameLen(c.o.src, off)]
		line, col := c.o.pos.at(c.o.src, off)
		return &ast.Action{Name: name, NameSpan: ast.Span{
			Start: ast.Pos{Offset: off, Line: line, Col: col},
			End:   ast.Pos{Offset: off + len(name), Line: line, Col: col + len(name)}}}
	}
	return nil
}

// setDisk records what was on disk at entry i (f, never changed after).
func (c *checker) setDisk(i uint32, f *vfile) {
	e := c.o.at(i)
	e.bits |= eLooked
	switch {
	case *f == vfile{}:
	case *f == vfile{exists: true, dir: true}:
		e.bits |= eDiskDir
	default:
		e.bits |= eDiskHeavy
		c.o.diskHeavy[i] = f
	}
}

// setCur records f as entry i's current state: in the entry when it fits,
// else in heavy (the slot of the state it replaces when that was heavy).
func (c *checker) setCur(i uint32, f *vfile) {
	delete(c.kept, i)
	e := c.o.at(i)
	keep := e.bits & (ePathArena | ePathStr | eLooked | eDiskDir | eDiskHeavy)
	wasHeavy, slot := e.bits&eHeavy != 0, e.by
	bits, by, cdel, clen, ok := c.encode(e, f)
	if !ok {
		f = c.roped(f)
		if !wasHeavy {
			slot = uint32(len(c.o.heavy))
			c.o.heavy = append(c.o.heavy, nil)
		}
		c.o.heavy[slot] = f
		e.bits, e.by, e.cdel, e.clen = keep|eHeavy, slot, 0, 0
		return
	}
	if wasHeavy { // the slot is free: no pointer is kept in it
		c.o.heavy[slot] = nil
	}
	e.bits, e.by, e.cdel, e.clen = keep|bits, by, cdel, clen
}

// roped returns f, or a copy of it whose content is a rope (rope.go) when
// f is a state a Checker's action made, with a content of at least
// ropeMin bytes that is no slice of the document but its lines after a
// '+' from the action's name on.
func (c *checker) roped(f *vfile) *vfile {
	if !c.light || !f.known || f.buf != nil || f.rope != nil || f.by == nil || len(f.content) < ropeMin || c.o.src == "" {
		return f
	}
	if _, in := c.o.inSrc(f.content); in {
		return f // a slice of the document already
	}
	r := ropeOf(c.o.src, f.by.NameSpan.Start.Offset, f.content)
	if r == nil {
		return f
	}
	nf := *f
	nf.content, nf.rope = "", r
	return &nf
}

// encode returns f as an entry's bits, by and content fields, or ok=false
// when f does not fit an entry.
func (c *checker) encode(e *entry, f *vfile) (bits uint16, by uint32, cdel, clen uint16, ok bool) {
	if f.buf != nil || f.link != "" || f.problem != "" || f.large || f.unstat || f.unusable != "" || (f.by != nil && f.doc != 0) {
		return 0, 0, 0, 0, false
	}
	how := -1
	for j, h := range hows {
		if h == f.how {
			how = j
		}
	}
	if how < 0 {
		return 0, 0, 0, 0, false
	}
	bits = uint16(how) << eHowShift
	if f.exists {
		bits |= eExists
	}
	if f.dir {
		bits |= eDir
	}
	switch f.origin {
	case "":
	case c.o.key(e):
		bits |= eOriginSelf
	default:
		return 0, 0, 0, 0, false
	}
	switch {
	case f.by == nil:
	case c.inlineBy(f.by):
		bits |= eByInline
		by = uint32(f.by.NameSpan.Start.Offset)
	default:
		bits |= eByTab
		if n := len(c.o.byTab); n == 0 || c.o.byTab[n-1] != f.by {
			c.o.byTab = append(c.o.byTab, f.by)
		}
		by = uint32(len(c.o.byTab) - 1)
	}
	switch {
	case f.known && f.content == "" && f.size == 0:
		bits |= eKnown
	case f.known:
		// A content in src near the name of the action that wrote it
		// (what an entry holds), else heavy.
		off, in := c.o.inSrc(f.content)
		d := int64(off) - int64(by)
		if !in || bits&eByInline == 0 || d < 0 || d > 1<<16-1 || len(f.content) > 1<<16-1 || f.size != int64(len(f.content)) {
			return 0, 0, 0, 0, false
		}
		bits |= eKnown
		cdel, clen = uint16(d), uint16(len(f.content))
	case f.size != 0 || f.content != "":
		return 0, 0, 0, 0, false
	}
	return bits, by, cdel, clen, true
}

// inlineBy reports whether byOf can give back a (its name and name span)
// from the offset of its name in src: the name is there, on one line, and
// its position is the one counted from the start of src.
func (c *checker) inlineBy(a *ast.Action) bool {
	if !c.light || c.o.src == "" {
		return false
	}
	if a == c.stub && c.stubInline != 0 {
		return c.stubInline > 0
	}
	ok := func() bool {
		s, src := a.NameSpan, c.o.src
		off := s.Start.Offset
		if off < 0 || off >= len(src) || a.Name == "" || nameLen(src, off) != len(a.Name) || src[off:off+len(a.Name)] != a.Name {
			return false
		}
		line, col := c.o.pos.at(src, off)
		return s.Start == ast.Pos{Offset: off, Line: line, Col: col} &&
			s.End == ast.Pos{Offset: off + len(a.Name), Line: line, Col: col + len(a.Name)}
	}()
	if a == c.stub {
		c.stubInline = -1
		if ok {
			c.stubInline = 1
		}
	}
	return ok
}

// nameLen is the length of the action name at src[off:]: the run of
// letters, digits, '_', '-' and '.' (inlineBy checks it is the name).
func nameLen(src string, off int) int {
	n := 0
	for off+n < len(src) {
		b := src[off+n]
		if !('a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' || b == '_' || b == '-' || b == '.') {
			break
		}
		n++
	}
	return n
}

// posIndex gives the line and column of an offset in src: it holds, every
// posStep bytes, the line there and where that line starts, and counts the
// rest (at most posStep bytes). It is built on first use, in one pass.
type posIndex struct {
	lines, starts []uint32
}

const posStep = 1 << 10

// at returns the 1-based line and byte column of offset off of src.
func (p *posIndex) at(src string, off int) (line, col int) {
	if p.lines == nil {
		p.build(src)
	}
	k := off / posStep
	base := k * posStep
	seg := src[base:off]
	line, start := int(p.lines[k])+strings.Count(seg, "\n"), int(p.starts[k])
	if j := strings.LastIndexByte(seg, '\n'); j >= 0 {
		start = base + j + 1
	}
	return line, off - start + 1
}

func (p *posIndex) build(src string) {
	n := len(src)/posStep + 1
	p.lines, p.starts = make([]uint32, n), make([]uint32, n)
	line, start := 1, 0
	for k := 0; k < n; k++ {
		if k > 0 {
			from := (k - 1) * posStep
			seg := src[from : from+posStep]
			line += strings.Count(seg, "\n")
			if j := strings.LastIndexByte(seg, '\n'); j >= 0 {
				start = from + j + 1
			}
		}
		p.lines[k], p.starts[k] = uint32(line), uint32(start)
	}
}

// state returns the current state of path rel, nil when it was not looked
// at.
func (c *checker) state(rel string) *vfile {
	i, ok := c.o.find(rel)
	return c.lookedAt(i, ok)
}

// lstat returns what walk recorded of os.Lstat at path rel (0: nothing).
func (o *overlay) lstat(rel string) int {
	i, ok := o.find(rel)
	if !ok {
		return 0
	}
	return int(o.at(i).plen >> lstatShift)
}

// setLstat records what os.Lstat said of path rel (lstatNone, lstatPlain):
// the disk does not change while the checker runs.
func (o *overlay) setLstat(rel string, v int) {
	e := o.at(o.intern(rel))
	e.plen = e.plen&maxKeyLen | uint16(v)<<lstatShift
}

// isDirSum reports, without decoding a state, whether rel (whose hash is
// sum: prefixHashes) is known to be a directory now (what c.file(rel).dir
// says).
func (c *checker) isDirSum(rel string, sum uint64) bool {
	i, ok := c.o.findSum(rel, sum)
	if !ok {
		return false
	}
	e := c.o.at(i)
	if e.bits&eLooked == 0 || e.bits&eHeavy != 0 {
		return false // c.file decides
	}
	return e.bits&eDir != 0 || e.bits&eExists == 0 && c.o.below[i] > 0
}

// prefixHashes hashes the directories on a path one after the other, each
// from the one before: sum(j) is the overlay's hash of path[:j], for j
// growing. Hashing each directory on its own would cost the path's length
// per directory, its square per path (a path of 2,000 one-letter
// directories is 2 million bytes to hash); the hashes are the same
// (maphash hashes a sequence of writes as one).
type prefixHashes struct {
	h    maphash.Hash
	path string
	done int
}

// prefixes starts the hashes of path's directories. The value lives on
// the caller's stack: no allocation per path.
func (o *overlay) prefixes(path string) (p prefixHashes) {
	p.path = path
	p.h.SetSeed(o.seed)
	return p
}

func (p *prefixHashes) sum(j int) uint64 {
	p.h.WriteString(p.path[p.done:j])
	p.done = j
	return p.h.Sum64()
}
