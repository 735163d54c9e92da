package render

import (
	"io"
	"unicode/utf8"
)

// validUTF8Writer writes what it is given to w with each run of invalid
// UTF-8 replaced by one U+FFFD, as bytes.ToValidUTF8 does to the whole
// text, however the text is cut into writes: a rune cut at the end of a
// write is held back until the next one (or Close), and a run of invalid
// bytes that goes on in the next write still makes one U+FFFD.
type validUTF8Writer struct {
	w       io.Writer
	pending [utf8.UTFMax]byte // the start of a rune cut at the end of a write
	n       int               // bytes in pending
	invalid bool              // the last byte written was in an invalid run
	out     []byte            // the valid text of a write
	join    []byte            // pending and the next write
}

// Write writes p, made valid. It reports len(p) written unless w fails.
func (v *validUTF8Writer) Write(p []byte) (int, error) {
	if err := v.write(p, false); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Close writes a rune held back as cut (then invalid: the text ended in
// it). It does not close w.
func (v *validUTF8Writer) Close() error { return v.write(nil, true) }

func (v *validUTF8Writer) write(p []byte, final bool) error {
	if v.n == 0 && utf8.Valid(p) {
		if len(p) == 0 {
			return nil
		}
		v.invalid = false
		_, err := v.w.Write(p)
		return err
	}
	data := p
	if v.n > 0 {
		v.join = append(append(v.join[:0], v.pending[:v.n]...), p...)
		data = v.join
	}
	v.out = v.out[:0]
	v.n = copy(v.pending[:], v.scan(data, final))
	if len(v.out) == 0 {
		return nil
	}
	_, err := v.w.Write(v.out)
	if cap(v.out) > 1<<20 {
		v.out, v.join = nil, nil // one large write does not pin its copy
	}
	return err
}

// scan appends s, made valid, to v.out and returns its tail that is the
// start of a rune cut short (nothing when final).
func (v *validUTF8Writer) scan(s []byte, final bool) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			v.invalid = false
			v.out = append(v.out, c)
			i++
			continue
		}
		if !final && !utf8.FullRune(s[i:]) {
			return s[i:]
		}
		_, wid := utf8.DecodeRune(s[i:])
		if wid == 1 {
			if !v.invalid {
				v.invalid = true
				v.out = append(v.out, "\uFFFD"...)
			}
			i++
			continue
		}
		v.invalid = false
		v.out = append(v.out, s[i:i+wid]...)
		i += wid
	}
	return nil
}
