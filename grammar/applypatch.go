package grammar

import (
	"context"
	"strings"

	"github.com/plangram/plangram/ast"
)

// DialectApplyPatch is OpenAI codex's apply_patch format
// (docs/apply-patch.md).
const DialectApplyPatch = "apply-patch"

// Diagnostic codes of the apply-patch dialect (docs/apply-patch.md).
const (
	// CodeMissingEndPatch: `*** Begin Patch` without `*** End Patch`.
	CodeMissingEndPatch = "missing-end-patch"
	// CodeBadHunkHeader: a line inside a patch that is not a file
	// operation header where one is expected.
	CodeBadHunkHeader = "bad-hunk-header"
	// CodeBadHunkLine: an Update File hunk line that starts with none of
	// ' ', '-', '+'.
	CodeBadHunkLine = "bad-hunk-line"
	// CodeEmptyUpdate: an Update File with no hunk.
	CodeEmptyUpdate = "empty-update"
	// CodeEmptyPath: a file operation header with no path.
	CodeEmptyPath = "empty-path"
	// CodeEmptyPatch: a `*** Begin Patch` … `*** End Patch` envelope with
	// no file operation (codex: "No files were modified.").
	CodeEmptyPatch = "empty-patch"
)

const (
	apBegin  = "*** Begin Patch"
	apEnd    = "*** End Patch"
	apAdd    = "*** Add File:"
	apDelete = "*** Delete File:"
	apUpdate = "*** Update File:"
	apMove   = "*** Move to:"
	apEOF    = "*** End of File"
)

// ParseApplyPatch parses codex apply_patch envelopes anywhere in the input
// (bare, in a fenced block, or in a heredoc such as `apply_patch <<'EOF'`):
//
//	Patch  = "*** Begin Patch" LF { Op } "*** End Patch" .
//	Op     = Add | Delete | Update .
//	Add    = "*** Add File: " Path LF { "+" Line } .
//	Delete = "*** Delete File: " Path LF .
//	Update = "*** Update File: " Path LF [ "*** Move to: " Path LF ] Chunk { Chunk } .
//	Chunk  = [ "@@" [ " " Context ] LF ] { (" " | "-" | "+") Line | "" LF } [ "*** End of File" LF ] .
//
// As in codex, markers are recognised with surrounding white space, the
// first chunk of an Update may omit its `@@` line and an empty line in a
// chunk is an empty context line. Each operation is one action (add_file,
// delete_file, update_file); each chunk a block and an element of hunks.
func ParseApplyPatch(ctx context.Context, filename string, src []byte) (*ast.Document, error) {
	return parseEdit(ctx, DialectApplyPatch, src, Options{})
}

// runApplyPatch parses the lines of b.
func runApplyPatch(b *editBase) {
	p := &apParser{editBase: b, lastEnd: map[int]bool{}}
	for i := 0; p.has(i); {
		if strings.TrimSpace(p.line(i).text) == apBegin {
			i = p.patch(i)
			continue
		}
		p.prose.add(p.line(i).start, p.line(i).end)
		i++
	}
	p.prose.flush()
}

type apParser struct {
	*editBase
	// lastEnd caches endsPatch's answers, by line.
	lastEnd map[int]bool
}

// endsPatch reports whether line i, read where a chunk line is expected,
// is the envelope's end marker rather than a context line. codex takes the
// patch's last line as its end whatever white space surrounds it, so an
// indented `*** End Patch` is the end when no other one follows it in the
// envelope (before the next `*** Begin Patch` or the end of the input); an
// earlier one is a context line. The lines up to the next marker are read
// once (a stream waits for them); the answer is kept.
func (p *apParser) endsPatch(i int) bool {
	if strings.TrimSpace(p.line(i).text) != apEnd {
		return false
	}
	if v, ok := p.lastEnd[i]; ok {
		return v
	}
	last := true
	for k := i + 1; p.has(k); k++ {
		t := strings.TrimSpace(p.line(k).text)
		if t == apBegin {
			break
		}
		if t == apEnd {
			last = false
			break
		}
	}
	p.lastEnd[i] = last
	return last
}

func (p *apParser) lineSpan(i int) ast.Span {
	l := p.line(i)
	s, e := trimmedSpan(l, 0)
	if s == e {
		return p.lines.Span(l.start, l.start)
	}
	return p.lines.Span(s, e)
}

// patch reads one envelope from its Begin line and returns the next line.
func (p *apParser) patch(begin int) int {
	p.prose.add(p.line(begin).start, p.line(begin).end)
	i := begin + 1
	empty := true // no line but blank ones so far
	for p.has(i) {
		t := strings.TrimSpace(p.line(i).text)
		empty = empty && (t == "" || t == apEnd)
		switch {
		case t == apEnd:
			if empty {
				p.report(ast.Error, CodeEmptyPatch, p.lineSpan(begin),
					"this patch has no file operation: nothing to apply (codex refuses it with \"No files were modified\"); add `*** Add File:`, `*** Delete File:` or `*** Update File:` sections")
			}
			p.prose.add(p.line(i).start, p.line(i).end)
			return i + 1
		case t == apBegin:
			p.report(ast.Error, CodeMissingEndPatch, p.lineSpan(i),
				"a new `*** Begin Patch` before the `*** End Patch` of the patch opened at line %d", p.lines.Pos(p.line(begin).start).Line)
			return i
		case strings.HasPrefix(t, apAdd):
			i = p.add(i)
		case strings.HasPrefix(t, apDelete):
			i = p.del(i)
		case strings.HasPrefix(t, apUpdate):
			i = p.update(i)
		case t == "":
			p.prose.add(p.line(i).start, p.line(i).end)
			i++
		default:
			p.report(ast.Error, CodeBadHunkHeader, p.lineSpan(i),
				"%q is not a valid file operation: expected `*** Add File: path`, `*** Delete File: path`, `*** Update File: path` or `*** End Patch`", t)
			// the lines up to the next marker line belong to the bad one
			p.prose.add(p.line(i).start, p.line(i).end)
			for i++; p.has(i) && !strings.HasPrefix(strings.TrimSpace(p.line(i).text), "***"); i++ {
				p.prose.add(p.line(i).start, p.line(i).end)
			}
		}
	}
	end := len(p.src)
	p.report(ast.Error, CodeMissingEndPatch, p.lines.Span(end, end),
		"the patch opened at line %d has no `*** End Patch`: the input ends first", p.lines.Pos(p.line(begin).start).Line)
	return i
}

// header starts an action at header line i with the path after marker.
func (p *apParser) header(i int, name, marker string) *ast.Action {
	p.prose.flush()
	l := p.line(i)
	lead := len(l.text) - len(strings.TrimLeft(l.text, " \t"))
	s, e := trimmedSpan(l, lead+len(marker))
	a := &ast.Action{Name: name, NameSpan: p.lines.Span(l.start+lead, l.start+lead+len(marker)-1)}
	a.Head = headBlock(p.lines, p.src, strings.TrimSuffix(marker, ":"), l.start, l.end)
	a.Span = p.lines.Span(l.start, l.end)
	path := p.src[s:e]
	if path == "" {
		p.report(ast.Error, CodeEmptyPath, p.lineSpan(i), "%s names no file", strings.TrimSuffix(marker, ":"))
	} else {
		a.Params.Set("path", path, spanPtr(p.lines, s, e))
	}
	p.doc.Actions = append(p.doc.Actions, a)
	return a
}

func (p *apParser) add(i int) int {
	a := p.header(i, ActionAddFile, apAdd)
	p.onBegin(a)
	j := i + 1
	var b strings.Builder // the lines without their '+'
	for p.has(j) && strings.HasPrefix(p.line(j).text, "+") {
		l := p.line(j)
		p.onDelta(a, "content", p.src[l.start+1:l.end], l.start+1, l.end)
		b.WriteString(p.src[l.start+1 : l.end])
		j++
	}
	if j > i+1 {
		start, end := p.line(i+1).start, p.line(j-1).end
		blk := &ast.Block{Fence: "+", Label: "content", Content: p.src[start:end], Span: p.lines.Span(start, end), ContentSpan: p.lines.Span(start, end)}
		a.Blocks = append(a.Blocks, blk)
		a.Params.Set("content", b.String(), &blk.ContentSpan)
		a.Span.End = blk.Span.End
	} else {
		a.Params.Set("content", "", nil)
	}
	p.onEnd(a)
	return j
}

func (p *apParser) del(i int) int {
	a := p.header(i, ActionDeleteFile, apDelete)
	p.onBegin(a)
	p.onEnd(a)
	return i + 1
}

func (p *apParser) update(i int) int {
	a := p.header(i, ActionUpdateFile, apUpdate)
	j := i + 1
	if p.has(j) {
		l := p.line(j)
		t := strings.TrimLeft(l.text, " \t")
		if strings.HasPrefix(t, apMove) {
			lead := len(l.text) - len(t)
			s, e := trimmedSpan(l, lead+len(apMove))
			if s < e {
				a.Params.Set("move_to", p.src[s:e], spanPtr(p.lines, s, e))
			} else {
				p.report(ast.Error, CodeEmptyPath, p.lineSpan(j), "*** Move to names no file")
			}
			a.Head = headBlock(p.lines, p.src, "Update File", p.line(i).start, l.end)
			a.Span.End = a.Head.Span.End
			j++
		}
	}
	p.onBegin(a)
	var hunks []Hunk // kept unless the parse is for paths only
	n := 0
	for p.has(j) {
		t := p.line(j).text
		if strings.TrimSpace(t) == "" {
			// blank lines between chunks
			k := j
			for p.has(k) && strings.TrimSpace(p.line(k).text) == "" {
				k++
			}
			if !p.has(k) || strings.HasPrefix(strings.TrimSpace(p.line(k).text), "***") {
				break
			}
			p.prose.add(p.line(j).start, p.line(k-1).end)
			j = k
			continue
		}
		if strings.HasPrefix(strings.TrimSpace(t), "***") {
			break
		}
		h, blk, next, ok, stop := p.chunk(j, n == 0)
		if !ok {
			// the line is reported; it is kept as prose and the update ends
			p.prose.add(p.line(j).start, p.line(j).end)
			j++
			break
		}
		n++
		hunks = append(hunks, h)
		a.Blocks = append(a.Blocks, blk)
		a.Span.End = blk.Span.End
		p.onHunk(a, h, blk)
		if stop { // a bad line after an empty chunk: reported, kept as prose
			p.prose.add(p.line(next).start, p.line(next).end)
			j = next + 1
			break
		}
		j = next
	}
	if n == 0 && a.Params.String("move_to") == "" {
		p.report(ast.Error, CodeEmptyUpdate, a.NameSpan, "this Update File has no hunk: add `@@` and the lines to change")
	}
	p.setHunks(a, hunks)
	p.onEnd(a)
	return j
}

// chunk reads one update chunk at line i. first says it is the update's
// first chunk, which may omit its `@@` line. It returns the hunk, its
// block and the next line; ok is false when line i starts no chunk (it is
// reported); stop says the next line is a bad line, reported, that ends the
// update.
func (p *apParser) chunk(i int, first bool) (h Hunk, blk *ast.Block, next int, ok, stop bool) {
	l := p.line(i)
	t := l.text
	j := i
	label := "@@" // also of a first chunk without its `@@` line
	switch {
	case strings.TrimRight(t, " \t") == "@@":
		j++
	case strings.HasPrefix(t, "@@ "):
		h.Context = t[3:]
		j++
		label = strings.TrimRight(t, " \t")
	case !first:
		p.report(ast.Error, CodeBadHunkLine, p.lineSpan(i),
			"expected a hunk to start with `@@` or `@@ context line`, got %q", t)
		return h, nil, i, false, false
	}
	k := j // the first body line
	eof, anchor := false, false
	for p.has(j) {
		t := p.line(j).text
		if strings.TrimSpace(t) == apEOF {
			eof = true
			break
		}
		if p.endsPatch(j) {
			break
		}
		if t == "" || t[0] == ' ' || t[0] == '-' || t[0] == '+' {
			j++
			continue
		}
		if j == k && h.Context != "" && strings.HasPrefix(t, "@@") {
			// `@@ class A` then `@@ def m():`: codex's instructions
			// chain @@ lines to narrow the place; this one is an
			// anchor, the next chunk is looked for after it.
			anchor = true
			break
		}
		if j == k {
			p.report(ast.Error, CodeBadHunkLine, p.lineSpan(j),
				"%q starts with none of ' ' (context), '-' (removed) or '+' (added)", t)
			if j == i {
				return h, nil, i, false, false
			}
			stop = true
		}
		break
	}
	bodyEnd := j
	if !eof { // trailing blank lines separate chunks; they are not context
		for bodyEnd > k && p.line(bodyEnd-1).text == "" {
			bodyEnd--
		}
	}
	var body hunkLines
	for x := k; x < bodyEnd; x++ {
		t := p.line(x).text
		if t == "" {
			body.add(' ', "", eolOf(p.src, p.line(x)))
		} else {
			body.add(t[0], t[1:], eolOf(p.src, p.line(x)))
		}
	}
	n := bodyEnd - k
	next, endLine := bodyEnd, bodyEnd-1
	if eof {
		h.EndOfFile = true
		next, endLine = j+1, j
	}
	end := p.line(i).end
	if endLine >= i {
		end = p.line(endLine).end
	}
	bodyStart := end
	if p.has(k) && p.line(k).start < end {
		bodyStart = p.line(k).start
	}
	bodyStop := end
	if eof {
		bodyStop = p.line(j).start
	}
	h.Old, h.New = body.texts()
	blk = &ast.Block{Fence: "@@", Label: label, Info: h.Context, Content: p.src[bodyStart:bodyStop],
		Span: p.lines.Span(l.start, end), ContentSpan: p.lines.Span(bodyStart, bodyStop)}
	if n == 0 && !stop && !anchor {
		p.report(ast.Error, CodeEmptyHunk, p.lineSpan(i), "hunk with no lines: a hunk needs context, removed or added lines")
	}
	return h, blk, next, true, stop
}
