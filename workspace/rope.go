package workspace

import "strings"

// rope is the content of a file an action created, kept as the offsets in
// the document (Options.Source) of its lines rather than as a copy: the
// new file of a unified diff or of an apply_patch envelope is its lines
// after a '+', so its content is no one slice of the document, and a
// Checker (which keeps no action) would otherwise hold a copy of every
// file a patch series creates (a `git log -p` checked against an empty
// root). A rope costs 4 bytes a line. Each
// line runs to the first '\n' after its offset; the last is cut at size.
type rope struct {
	src  string
	offs []uint32
	size int
}

// ropeMin is the smallest content kept as a rope: below it a copy costs
// about what the offsets do.
const ropeMin = 64

// ropeOf returns content as a rope of src's lines that follow a '+',
// found in order from the offset from on, or nil when they are not there
// within a scan of twice the content plus 1 KiB (then the caller keeps
// the copy). Every line of the rope is checked against content, so the
// rope's text is content whatever src holds.
func ropeOf(src string, from int, content string) *rope {
	if from < 0 || from >= len(src) || len(src) >= 1<<32 {
		return nil
	}
	r := &rope{src: src, size: len(content)}
	budget := 2*len(content) + 1024
	pos := from
	for rest := content; rest != ""; {
		line := rest
		if j := strings.IndexByte(rest, '\n'); j >= 0 {
			line = rest[:j+1]
		}
		for {
			if pos >= len(src) || budget <= 0 {
				return nil
			}
			end := len(src)
			if j := strings.IndexByte(src[pos:], '\n'); j >= 0 {
				end = pos + j + 1
			}
			budget -= end - pos
			body := src[pos:end]
			pos = end
			if body[0] != '+' {
				continue
			}
			body = body[1:]
			// A line that ends the content without a newline is the
			// start of its source line, which ends there.
			if body == line || line[len(line)-1] != '\n' && len(body) == len(line)+1 && body[len(line)] == '\n' && body[:len(line)] == line {
				r.offs = append(r.offs, uint32(end-len(body)))
				break
			}
		}
		rest = rest[len(line):]
	}
	return r
}

// String returns the rope's text.
func (r *rope) String() string {
	var b strings.Builder
	b.Grow(r.size)
	for _, off := range r.offs {
		line := r.src[off:]
		if j := strings.IndexByte(line, '\n'); j >= 0 {
			line = line[:j+1]
		}
		if left := r.size - b.Len(); len(line) > left {
			line = line[:left]
		}
		b.WriteString(line)
	}
	return b.String()
}
