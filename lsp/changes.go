package lsp

import (
	"slices"
	"unicode/utf8"

	"github.com/plangram/plangram/internal/textpos"
)

// applyChanges applies one didChange message's ranged changes to text in
// order, each range in the positions of the text the changes before it
// made, as the protocol says. Positions are 0-based lines (ending at "\n",
// "\r\n" or a lone "\r") and UTF-16 characters, clamped as
// textpos.Text.Offset clamps them; a range whose end comes before its
// start is read the other way round.
//
// Rebuilding the text and its line index per change would make a message
// of k changes to a document of n bytes cost O(k·n), which a hostile
// client could send. Here the text is held in chunks of at most maxChunk bytes,
// each with its line breaks and UTF-16 length, so a change costs a walk
// over the chunks' counts, a scan of at most two chunks, and the rebuild
// of the chunks it touches: O(n/maxChunk + maxChunk + its text's length).
// The text is made once, at the end (TestApplyChangesAgrees checks it
// against the change-by-change reference; FuzzApplyChanges).
type change struct {
	whole                bool // a full-text change: text replaces all
	startLine, startChar int
	endLine, endChar     int
	text                 string
}

func applyChanges(text []byte, changes []change) []byte {
	if len(changes) == 1 || !anyRanged(changes) {
		return applyOneByOne(text, changes) // nothing to gain
	}
	return applyChunked(text, changes, 0)
}

// applyChunked is applyChanges with chunks of at most limit bytes (0:
// maxChunk).
func applyChunked(text []byte, changes []change, limit int) []byte {
	b := chunkBuf{max: limit}
	b.reset(text)
	for _, c := range changes {
		if c.whole {
			b.reset([]byte(c.text))
			continue
		}
		start := b.offset(c.startLine, c.startChar)
		end := b.offset(c.endLine, c.endChar)
		if end < start {
			start, end = end, start
		}
		b.replace(start, end, c.text)
	}
	return b.bytes()
}

func anyRanged(changes []change) bool {
	for _, c := range changes {
		if !c.whole {
			return true
		}
	}
	return false
}

// applyOneByOne is the reference: the text and its index rebuilt per change.
func applyOneByOne(text []byte, changes []change) []byte {
	for _, c := range changes {
		if c.whole {
			text = []byte(c.text)
			continue
		}
		tx := textpos.New(text)
		start := tx.Offset(c.startLine, c.startChar)
		end := tx.Offset(c.endLine, c.endChar)
		if end < start {
			start, end = end, start
		}
		next := make([]byte, 0, len(text)-(end-start)+len(c.text))
		text = append(append(append(next, text[:start]...), c.text...), text[end:]...)
	}
	return text
}

// maxChunk is the largest chunk of a chunkBuf.
const maxChunk = 4096

// chunkBuf is a text as a list of chunks. A chunk never starts inside a
// UTF-8 sequence nor between the "\r" and "\n" of a CRLF (safeSplit), so
// each chunk's counts are its own: its UTF-16 length is its part of the
// text's, and its line breaks ("\n", "\r\n" counted at its "\n", a lone
// "\r") are the text's.
type chunkBuf struct {
	cs   []chunk
	size int
	max  int // the largest chunk; 0 means maxChunk (tests set it small)
	// scratch and fresh are replace's memory, used again for each change.
	scratch []byte
	fresh   []chunk
}

func (b *chunkBuf) limit() int {
	if b.max > 0 {
		return b.max
	}
	return maxChunk
}

type chunk struct {
	b      []byte
	breaks int // line breaks ending in b
	u16    int // UTF-16 length of b
	crs    int // "\r" bytes in b
}

func newChunk(b []byte) chunk {
	c := chunk{b: b, u16: textpos.UTF16Len(b)}
	for i, x := range b {
		switch x {
		case '\n':
			c.breaks++
		case '\r':
			c.crs++
			if i+1 == len(b) || b[i+1] != '\n' {
				c.breaks++ // lone (a CRLF is never split)
			}
		}
	}
	return c
}

func (b *chunkBuf) reset(text []byte) {
	b.cs = b.cs[:0]
	b.size = len(text)
	b.cs = appendChunks(b.cs, text, b.limit())
}

// appendChunks cuts text into chunks of at most limit bytes at safe
// places, of about equal size, and appends them to cs.
func appendChunks(cs []chunk, text []byte, limit int) []chunk {
	for len(text) > 0 {
		k := (len(text) + limit - 1) / limit
		want := (len(text) + k - 1) / k
		cut := len(text)
		if want < len(text) {
			cut = safeSplit(text, want)
		}
		piece := make([]byte, cut)
		copy(piece, text[:cut])
		cs = append(cs, newChunk(piece))
		text = text[cut:]
	}
	return cs
}

// safeSplit returns a place at or before want (but after 0) where text may
// be cut: not before a UTF-8 continuation byte that can belong to the
// sequence before it, not between "\r" and "\n". Within a few bytes of want
// there is one, or else want itself is taken only if safe; as a last
// resort the cut moves forward.
func safeSplit(text []byte, want int) int {
	for p := want; p > 0 && p > want-8; p-- {
		if safeAt(text, p) {
			return p
		}
	}
	for p := want + 1; p < len(text); p++ {
		if safeAt(text, p) {
			return p
		}
	}
	return len(text)
}

// safeAt reports whether text may be cut before byte p (0 < p < len).
func safeAt(text []byte, p int) bool {
	if text[p-1] == '\r' && text[p] == '\n' {
		return false
	}
	if utf8.RuneStart(text[p]) {
		return true
	}
	// A continuation byte starts no sequence; it can end one only if one
	// of the three bytes before it is not a continuation byte.
	for q := p - 1; q >= 0 && q >= p-3; q-- {
		if utf8.RuneStart(text[q]) {
			return false
		}
	}
	return p >= 3
}

// offset is textpos.Text.Offset of the text.
func (b *chunkBuf) offset(line, char int) int {
	if line < 0 {
		return 0
	}
	// The chunk in which line `line` starts, and where.
	i, off, before := 0, 0, 0 // chunk, its offset, breaks before it
	if line > 0 {
		for ; i < len(b.cs) && before+b.cs[i].breaks < line; i++ {
			before += b.cs[i].breaks
			off += len(b.cs[i].b)
		}
		if i == len(b.cs) {
			return b.size // a line past the end
		}
		// Scan chunk i for the (line-before)-th break.
		need, cb := line-before, b.cs[i].b
		j := 0
		for ; j < len(cb); j++ {
			if cb[j] == '\n' || cb[j] == '\r' && (j+1 == len(cb) || cb[j+1] != '\n') {
				need--
				if need == 0 {
					j++
					break
				}
			}
		}
		off += j
		if j == len(cb) {
			i, j = i+1, 0
		}
		return b.advance(i, j, off, char)
	}
	return b.advance(0, 0, 0, char)
}

// advance returns the offset of char UTF-16 units after the line start at
// byte j of chunk i (text offset off), stopping at the line's end and never
// inside a character: ByteLen's rule, across chunks.
func (b *chunkBuf) advance(i, j, off, char int) int {
	if char <= 0 {
		return off
	}
	n := 0
	for ; i < len(b.cs); i, j = i+1, 0 {
		cb := b.cs[i].b
		if j == 0 && b.cs[i].breaks == 0 && b.cs[i].crs == 0 && n+b.cs[i].u16 <= char {
			n += b.cs[i].u16 // a whole chunk of the line
			off += len(cb)
			continue
		}
		for j < len(cb) {
			if cb[j] == '\n' || cb[j] == '\r' {
				return off
			}
			r, size := utf8.DecodeRune(cb[j:])
			w := 1
			if r >= 0x10000 {
				w = 2
			}
			if n+w > char {
				return off
			}
			n += w
			j += size
			off += size
		}
	}
	return off
}

// replace replaces the bytes [start, end) with s, rebuilding the chunks the
// range touches (and a neighbour whose boundary with them would not be
// safe).
func (b *chunkBuf) replace(start, end int, s string) {
	// First chunk: the one holding start (or the last one).
	i, off := 0, 0
	for i < len(b.cs)-1 && off+len(b.cs[i].b) <= start {
		off += len(b.cs[i].b)
		i++
	}
	k, kOff := i, off // last chunk: the one holding end-1 (or i)
	for k < len(b.cs)-1 && kOff+len(b.cs[k].b) < end {
		kOff += len(b.cs[k].b)
		k++
	}
	region := b.scratch[:0]
	if len(b.cs) > 0 {
		region = append(region, b.cs[i].b[:start-off]...)
	}
	region = append(region, s...)
	if len(b.cs) > 0 {
		region = append(region, b.cs[k].b[end-kOff:]...)
	}
	// A neighbour joins when the new bytes' edge with it is not safe (or,
	// when nothing is left of the range, the neighbours' edge).
	if i > 0 && !safeJoint(b.cs[i-1].b, region, b.nextBytes(k)) {
		i--
		region = append(region, b.cs[i].b...) // grown, then rotated in front
		n := len(b.cs[i].b)
		copy(region[n:], region[:len(region)-n])
		copy(region, b.cs[i].b)
	}
	if k+1 < len(b.cs) && !safeJoint(region, b.cs[k+1].b, nil) {
		k++
		region = append(region, b.cs[k].b...)
	}
	b.scratch = region
	hi := min(k+1, len(b.cs))
	b.fresh = appendChunks(b.fresh[:0], region, b.limit())
	b.cs = slices.Replace(b.cs, i, hi, b.fresh...)
	b.size += len(s) - (end - start)
}

// nextBytes returns the bytes of the chunk after chunk k, or nil.
func (b *chunkBuf) nextBytes(k int) []byte {
	if k+1 < len(b.cs) {
		return b.cs[k+1].b
	}
	return nil
}

// safeJoint reports whether a chunk ending with the bytes of left may be
// followed by one starting with the bytes of right; when right is empty,
// by one starting with after.
func safeJoint(left, right, after []byte) bool {
	if len(right) == 0 {
		right = after
	}
	if len(left) == 0 || len(right) == 0 {
		return true
	}
	var joint [7]byte
	l := copy(joint[:], left[max(0, len(left)-3):])
	n := l + copy(joint[l:], right[:min(4, len(right))])
	return safeAt(joint[:n], l) // with fewer than 3 bytes of left, a continuation byte is not safe
}

// bytes returns the text.
func (b *chunkBuf) bytes() []byte {
	out := make([]byte, 0, b.size)
	for _, c := range b.cs {
		out = append(out, c.b...)
	}
	return out
}
