package grammar

import (
	"context"
	"fmt"
	"strings"

	"github.com/plangram/plangram/ast"
)

// DialectSearchReplace is aider's SEARCH/REPLACE block format
// (docs/search-replace.md).
const DialectSearchReplace = "search-replace"

// ActionSearchReplace is the one action of the search-replace dialect.
const ActionSearchReplace = "search_replace"

// Diagnostic codes of the search-replace dialect (docs/search-replace.md).
const (
	// CodeMissingPath: a block names no file and no earlier block did.
	CodeMissingPath = "missing-path"
	// CodeMissingDivider: a SEARCH section is not ended by `=======`.
	CodeMissingDivider = "missing-divider"
	// CodeMissingReplaceMarker: a REPLACE section is not ended by
	// `>>>>>>> REPLACE`.
	CodeMissingReplaceMarker = "missing-replace-marker"
	// CodeStrayMarker: a divider or REPLACE marker outside any block.
	CodeStrayMarker = "stray-marker"
	// CodeMalformedMarker: a line that looks like a marker but is not one.
	CodeMalformedMarker = "malformed-marker"
	// CodeDividerEndsReplace: a REPLACE section ended by a second
	// `=======` (accepted, as aider does).
	CodeDividerEndsReplace = "replace-ended-by-divider"
)

// srMarker classifies a line of a search-replace document.
type srMarker int

const (
	srNone srMarker = iota
	srHead
	srDivider
	srUpdated
	srNearHead    // 3+ '<' and the word SEARCH, but not a marker
	srNearUpdated // 3+ '>' and the word REPLACE, but not a marker
)

// classifySR reads a line as aider does: trimmed of white space on both
// sides, a marker is 5 to 9 of its character, then for the SEARCH and
// REPLACE markers one space and the word (SEARCH may be followed by '>').
func classifySR(text string) srMarker {
	t := strings.Trim(text, " \t\r\f\v")
	if t == "" {
		return srNone
	}
	c := t[0]
	if c != '<' && c != '=' && c != '>' {
		return srNone
	}
	n := 0
	for n < len(t) && t[n] == c {
		n++
	}
	rest := t[n:]
	ok := n >= 5 && n <= 9
	switch c {
	case '=':
		if rest == "" && ok {
			return srDivider
		}
	case '<':
		if ok && (rest == " SEARCH" || rest == " SEARCH>") {
			return srHead
		}
		if n >= 3 && strings.Contains(strings.ToUpper(rest), "SEARCH") {
			return srNearHead
		}
	case '>':
		if ok && rest == " REPLACE" {
			return srUpdated
		}
		if n >= 3 && strings.Contains(strings.ToUpper(rest), "REPLACE") {
			return srNearUpdated
		}
	}
	return srNone
}

// ParseSearchReplace parses aider's SEARCH/REPLACE blocks:
//
//	File    = { Prose | Edit } .
//	Edit    = [ PathLine ] [ Fence ] [ PathLine ] Head Search Divider Replace ( Updated | Divider ) .
//	Head    = "<<<<<<< SEARCH" .  (5 to 9 '<'; see docs/search-replace.md)
//	Divider = "=======" .
//	Updated = ">>>>>>> REPLACE" .
//
// Each block is one search_replace action: its path is the nearest path
// line among the three lines before the SEARCH marker (continuing back only
// over fence lines, as aider does), else the previous block's path. The
// SEARCH and REPLACE texts are the exact bytes of the lines between the
// markers, line endings included. Everything else is prose.
func ParseSearchReplace(ctx context.Context, filename string, src []byte) (*ast.Document, error) {
	return parseEdit(ctx, DialectSearchReplace, src, Options{})
}

type srParser struct {
	*editBase

	// the current file: the last path found, with its span
	path     string
	pathSpan *ast.Span
	// proseFrom is the index of the first line after the last block: the
	// path of a block is looked for in lines [proseFrom, head).
	proseFrom int
	inFence   string // the open fence run in prose, "" when none
}

// srBlock is one block being read.
type srBlock struct {
	head                 int // line index of the SEARCH marker
	divider              int // line index of the divider, -1 before it
	nearDivider, nearEnd int // line index of a near-miss line, -1 when none
	action               *ast.Action
}

// runSearchReplace parses the lines of b.
func runSearchReplace(b *editBase) {
	p := &srParser{editBase: b}
	var blk *srBlock
	for i := 0; p.has(i); i++ {
		l := p.line(i)
		k := classifySR(l.text)
		if blk == nil {
			switch k {
			case srHead:
				blk = p.open(i)
				continue
			case srUpdated:
				p.report(ast.Error, CodeStrayMarker, p.lineSpan(i),
					"%q outside a SEARCH/REPLACE block: no `<<<<<<< SEARCH` and `=======` before it", strings.TrimSpace(l.text))
			case srDivider:
				if p.inFence != "" {
					p.report(ast.Warning, CodeStrayMarker, p.lineSpan(i),
						"%q outside a SEARCH/REPLACE block: no `<<<<<<< SEARCH` before it", strings.TrimSpace(l.text))
				}
			case srNearHead:
				p.report(ast.Warning, CodeMalformedMarker, p.lineSpan(i),
					"%q looks like a SEARCH marker but is not one (a marker is 5 to 9 '<', one space and SEARCH): the lines after it are not read as an edit", strings.TrimSpace(l.text))
			case srNone:
				p.fence(l)
			}
			p.prose.add(l.start, l.end)
			continue
		}
		if blk.divider < 0 { // in SEARCH
			switch k {
			case srDivider:
				blk.divider = i
				continue
			case srHead, srUpdated:
				what := "a new `<<<<<<< SEARCH`"
				if k == srUpdated {
					what = fmt.Sprintf("%q", strings.TrimSpace(l.text))
				}
				d := p.report(ast.Error, CodeMissingDivider, p.lineSpan(i),
					"%s before the `=======` of the SEARCH block opened at line %d: the divider is missing", what, p.lineOf(blk.head))
				p.near(d, blk.nearDivider, "this line looks like the divider but is not one (a divider is 5 to 9 '=')")
				p.close(blk, i, false)
				blk = nil
				if k == srHead {
					blk = p.open(i)
				} else {
					p.proseFrom = i + 1
					p.prose.add(l.start, l.end)
				}
				continue
			}
			if blk.nearDivider < 0 && isNearDivider(l.text) {
				blk.nearDivider = i
			}
			p.onDelta(blk.action, "search", p.src[l.start:l.end], l.start, l.end)
			continue
		}
		// in REPLACE
		switch k {
		case srUpdated:
			p.close(blk, i+1, true)
			blk = nil
			continue
		case srDivider:
			p.report(ast.Warning, CodeDividerEndsReplace, p.lineSpan(i),
				"a second `=======` ends the REPLACE section of the block opened at line %d (aider accepts it); write `>>>>>>> REPLACE`", p.lineOf(blk.head))
			p.close(blk, i+1, true)
			blk = nil
			continue
		case srHead:
			d := p.report(ast.Error, CodeMissingReplaceMarker, p.lineSpan(i),
				"a new `<<<<<<< SEARCH` before the `>>>>>>> REPLACE` of the block opened at line %d: its end marker is missing", p.lineOf(blk.head))
			p.near(d, blk.nearEnd, "this line looks like the end marker but is not one (a marker is 5 to 9 '>', one space and REPLACE)")
			p.close(blk, i, false)
			blk = p.open(i)
			continue
		case srNearUpdated:
			if blk.nearEnd < 0 {
				blk.nearEnd = i
			}
		}
		p.onDelta(blk.action, "replace", p.src[l.start:l.end], l.start, l.end)
	}
	if blk != nil {
		end := len(p.src)
		endSpan := p.lines.Span(end, end)
		if blk.divider < 0 {
			d := p.report(ast.Error, CodeMissingDivider, endSpan,
				"the SEARCH block opened at line %d never reaches its `=======`: the input ends first", p.lineOf(blk.head))
			p.near(d, blk.nearDivider, "this line looks like the divider but is not one (a divider is 5 to 9 '=')")
		} else {
			d := p.report(ast.Error, CodeMissingReplaceMarker, endSpan,
				"the block opened at line %d never reaches its `>>>>>>> REPLACE`: the input ends first", p.lineOf(blk.head))
			p.near(d, blk.nearEnd, "this line looks like the end marker but is not one (a marker is 5 to 9 '>', one space and REPLACE)")
		}
		p.close(blk, p.n, false)
	}
	p.prose.flush()
}

func (p *srParser) lineOf(i int) int { return p.lines.Pos(p.line(i).start).Line }

// near adds a related note pointing at a near-miss marker line.
func (p *srParser) near(d *ast.Diagnostic, i int, msg string) {
	if i >= 0 {
		d.Related = append(d.Related, ast.Related{Message: msg, Span: p.lineSpan(i)})
	}
}

// isNearDivider reports a line of '=' only that is not a divider (3, 4 or
// more than 9 of them).
func isNearDivider(text string) bool {
	t := strings.Trim(text, " \t\r")
	return len(t) >= 3 && strings.Trim(t, "=") == "" && (len(t) < 5 || len(t) > 9)
}

// fence tracks Markdown fences in prose (for stray-marker warnings).
func (p *srParser) fence(l srcLine) {
	run, info, ok := isFenceLine(l.text)
	if !ok {
		return
	}
	switch {
	case p.inFence == "":
		p.inFence = run
	case run[0] == p.inFence[0] && len(run) >= len(p.inFence) && info == "":
		p.inFence = ""
	}
}

// open starts a block at its SEARCH marker line i, finding its path.
func (p *srParser) open(i int) *srBlock {
	p.prose.flush()
	l := p.line(i)
	ms, me := trimmedSpan(l, 0)
	a := &ast.Action{Name: ActionSearchReplace, NameSpan: p.lines.Span(ms, me)}
	if v, span, ok := p.findPath(i); ok {
		p.path, p.pathSpan = v, span
	}
	if p.path != "" {
		a.Params.Set("path", p.path, p.pathSpan)
	}
	a.Span = p.lines.Span(l.start, l.end)
	p.onBegin(a)
	if p.path == "" {
		p.report(ast.Error, CodeMissingPath, a.NameSpan,
			"this SEARCH/REPLACE block names no file: put the file path alone on the line before the opening fence (or before `<<<<<<< SEARCH`)")
	}
	return &srBlock{head: i, divider: -1, nearDivider: -1, nearEnd: -1, action: a}
}

// findPath looks for the block's path as aider does: among the up to three
// lines before the SEARCH marker (not before the end of the previous
// block), nearest first, going further back only while the lines are fence
// lines; the first candidate with a '.' wins, else the nearest.
func (p *srParser) findPath(head int) (string, *ast.Span, bool) {
	v, at, found := "", 0, false
	for j := head - 1; j >= max(p.proseFrom, head-3); j-- {
		l := p.line(j)
		if c, s, ok := pathCandidate(l); ok && (!found || !strings.Contains(v, ".") && strings.Contains(c, ".")) {
			v, at, found = c, s, true
		}
		if _, _, fence := isFenceLine(l.text); !fence {
			break
		}
	}
	if !found {
		return "", nil, false
	}
	return v, spanPtr(p.lines, at, at+len(v)), true
}

// pathCandidate reads a line as aider's strip_filename does: a fence line's
// info string is a path when it is one word holding '.' or '/'; another
// line loses a trailing ':', leading '#', surrounding '`' and '*'. Unlike
// aider, a candidate holding white space is prose, not a path
// (docs/search-replace.md). It returns the value and its start offset.
func pathCandidate(l srcLine) (string, int, bool) {
	t := strings.TrimSpace(l.text)
	if t == "" || t == "..." {
		return "", 0, false
	}
	if _, info, ok := isFenceLine(t); ok {
		if info == "" || strings.ContainsAny(info, " \t") || !strings.ContainsAny(info, "./") {
			return "", 0, false
		}
		t = info
	} else {
		t = strings.TrimRight(t, ":")
		t = strings.TrimLeft(t, "#")
		t = strings.TrimSpace(t)
		t = strings.Trim(t, "`")
		t = strings.Trim(t, "*")
	}
	if t == "" || strings.ContainsAny(t, " \t") || classifySR(t) != srNone {
		return "", 0, false
	}
	at := strings.Index(l.text, t)
	if at < 0 {
		return "", 0, false
	}
	return t, l.start + at, true
}

// close ends the block before line end (exclusive) and records its action.
// complete says the block reached its end marker.
func (p *srParser) close(b *srBlock, end int, complete bool) {
	a := b.action
	headLine := p.line(b.head)
	endOff := p.line(end - 1).end // end > b.head
	searchEnd := endOff
	if b.divider >= 0 {
		searchEnd = p.line(b.divider).start
	}
	searchStart := min(headLine.end, searchEnd)
	search := &ast.Block{Fence: strings.TrimSpace(headLine.text), Label: "SEARCH",
		Content: p.src[searchStart:searchEnd], Span: p.lines.Span(headLine.start, searchEnd),
		ContentSpan: p.lines.Span(searchStart, searchEnd), Unclosed: b.divider < 0}
	a.Blocks = append(a.Blocks, search)
	a.Params.Set("search", search.Content, &search.ContentSpan)
	if b.divider >= 0 {
		dl := p.line(b.divider)
		rs := min(dl.end, endOff)
		re := endOff
		if complete {
			re = p.line(end - 1).start
		}
		replace := &ast.Block{Fence: strings.TrimSpace(dl.text), Label: "REPLACE",
			Content: p.src[rs:re], Span: p.lines.Span(dl.start, endOff),
			ContentSpan: p.lines.Span(rs, re), Unclosed: !complete}
		a.Blocks = append(a.Blocks, replace)
		a.Params.Set("replace", replace.Content, &replace.ContentSpan)
	}
	a.Span = p.lines.Span(headLine.start, endOff)
	p.doc.Actions = append(p.doc.Actions, a)
	p.proseFrom = end
	p.onEnd(a)
}
