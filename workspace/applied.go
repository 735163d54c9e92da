package workspace

import (
	"fmt"
	"strings"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/lexer"
)

// CodeAlreadyApplied: an edit whose result is already in the file — its
// REPLACE text stands where its FIND text would match, a hunk applies in
// reverse, a CREATE's content is the file's — so applying it again would
// change what was already changed (docs/check.md). A warning; package apply
// refuses a plan part of which is already applied, and changes nothing
// when all of it is.
const CodeAlreadyApplied = "already-applied"

// Tally counts the actions of one document by what they do to the files,
// as the workspace rules found them.
type Tally struct {
	// Changing counts the actions that change files (write, append, edit,
	// delete, move, create, patch); AlreadyApplied those of them whose
	// every edit was found already applied (CodeAlreadyApplied) and that
	// change nothing.
	Changing, AlreadyApplied int
	// Commands, Reads and Others count the actions that run a command,
	// that read a file, and that do nothing to the files.
	Commands, Reads, Others int
}

// endAction counts the action that just ended, whose effect was op.
func (c *checker) endAction(op Op) {
	switch op {
	case OpRun:
		c.tally.Commands++
	case OpRead:
		c.tally.Reads++
	case OpNone:
		c.tally.Others++
	default:
		c.tally.Changing++
		if c.aaHit > 0 && c.aaMiss == 0 {
			c.tally.AlreadyApplied++
		}
	}
}

// applied reports one edit of action a whose result is already in the file
// f at rel (CodeAlreadyApplied): the edit is not made again.
func (c *checker) applied(a *ast.Action, f *vfile, rel string, span ast.Span, format string, args ...any) {
	c.aaHit++
	d := c.add(ast.Warning, CodeAlreadyApplied, span, format, args...)
	d.Related = related(f, rel)
}

// unchanged reports whether f, a file's current state, is not the work
// of an earlier action of the document being checked: only then is an
// edit of it looked at for being already applied. A document may insert
// the same text twice in a row on purpose; a document applied again, or
// applied after itself (`apply plan.md plan.md`), finds its edits in the
// file as they stood before it.
func (c *checker) unchanged(f *vfile) bool { return f.by == nil || f.doc != c.doc }

// addsLines reports whether new has a line old does not have: an edit that
// only removes lines (new's lines are among old's) leaves nothing in the
// file to recognise it by.
func addsLines(old, new string) bool {
	have := map[string]bool{}
	for l := range strings.Lines(old) {
		have[strings.TrimRight(l, "\r\n")] = true
	}
	for l := range strings.Lines(new) {
		if !have[strings.TrimRight(l, "\r\n")] {
			return true
		}
	}
	return false
}

// maxAround bounds the occurrences of a FIND text inside its REPLACE text
// that appliedAround tries.
const maxAround = 8

// appliedAround reports whether the REPLACE text repl stands in buf around
// the occurrence at offset at of the FIND text find: repl holds find at
// some offset k, and buf holds repl from at-k. It returns where repl
// starts. With lines, only offsets k at a line start of repl count (the
// edit formats match whole lines). An edit that inserts text next to its
// FIND text leaves the FIND text in the file, so applying it again would
// insert the text twice.
func appliedAround(buf *text, at int, find, repl string, lines bool) (int, bool) {
	if find == "" || len(repl) <= len(find) {
		return 0, false
	}
	for k, n := 0, 0; n < maxAround && k <= len(repl)-len(find); n++ {
		i := strings.Index(repl[k:], find)
		if i < 0 {
			return 0, false
		}
		k += i
		start := at - k
		if (!lines || k == 0 || repl[k-1] == '\n') && start >= 0 && start+len(repl) <= buf.Len() && buf.Slice(start, start+len(repl)) == repl {
			return start, true
		}
		k++
	}
	return 0, false
}

// endLine returns the content of a write (content, of action a) as the
// file gets it: content from a fenced block ends with a line ending, as
// every line of a block does (CommonMark), so one is added when it has
// none; an empty block stays an empty file. The line ending is the one
// that follows the content in the document when the checker has the
// document's source (the content then stays a slice of it), else the
// content's own (its last line ending), else the document's.
func (c *checker) endLine(a *ast.Action, content string) string {
	b := fromBlock(a, content)
	if content == "" || strings.HasSuffix(content, "\n") || b == nil {
		return content
	}
	if src, end := c.src, b.ContentSpan.End.Offset; end >= len(content) && end < len(src) && string(src[end-len(content):end]) == content {
		switch {
		case src[end] == '\n':
			return content + "\n"
		case end+1 < len(src) && src[end] == '\r' && src[end+1] == '\n':
			return content + "\r\n"
		}
	}
	nl := c.nl
	if i := strings.LastIndexByte(content, '\n'); i >= 0 {
		nl = lexer.FirstLineEnding(content[max(i-1, 0):])
	}
	if nl == "" {
		nl = "\n"
	}
	return content + nl
}

// fromBlock returns the fenced block of a whose content is content, nil
// when it is none's (an inline argument or a string of a tool call).
func fromBlock(a *ast.Action, content string) *ast.Block {
	for _, b := range a.Blocks {
		if b != nil && b.Content == content {
			return b
		}
	}
	return nil
}

// docNewline returns the line ending of doc: the first one of its prose
// or of its blocks' contents, "" when there is none.
func docNewline(doc *ast.Document) string {
	for _, p := range doc.Prose {
		if nl := lexer.FirstLineEnding(p.Text); nl != "" {
			return nl
		}
	}
	for _, b := range doc.Blocks {
		if nl := lexer.FirstLineEnding(b.Content); nl != "" {
			return nl
		}
	}
	for _, a := range doc.Actions {
		for _, b := range a.Blocks {
			if nl := lexer.FirstLineEnding(b.Content); nl != "" {
				return nl
			}
		}
	}
	return ""
}

// srApplied reports, when detect is set, whether a whole-lines edit (a SEARCH/REPLACE block)
// whose FIND text find occurs n times in buf (the first at at) is already
// applied: its REPLACE text stands around the one occurrence of find, or
// find is not there and repl is. It returns where repl starts.
func srApplied(buf *text, find, repl string, at, n int, detect bool) (int, bool) {
	switch {
	case !detect:
		return 0, false
	case n == 1:
		return appliedAround(buf, at, find, repl, true)
	case n == 0 && strings.TrimSpace(repl) != "" && addsLines(find, repl):
		if where, m := buf.Match(repl, 0); m > 0 {
			return where, true
		}
	}
	return 0, false
}

// appliedHow says why an edit whose FIND text (named name) occurs n
// times is found already applied.
func appliedHow(n int, name string) string {
	if n == 0 {
		return fmt.Sprintf(" and the %s is not", name)
	}
	return fmt.Sprintf(" around the place the %s matches", name)
}

// editApplied reports, when detect is set, whether the FIND/REPLACE pair e (acts patch_file
// and replace, plan EDIT) is already applied to buf, where e.find occurs
// at occ (the first two occurrences): the REPLACE text stands around the
// one occurrence (around every one, up to maxReplaced, with matchAll), or
// the FIND text is not there and the REPLACE text is. It returns where the
// REPLACE text starts.
func editApplied(buf *text, e edit, occ []int, matchAll, detect bool) (int, bool) {
	switch {
	case !detect || e.find == "":
		return 0, false
	case len(occ) == 0:
		if strings.TrimSpace(e.replace) == "" || !addsLines(e.find, e.replace) {
			return 0, false // a deletion leaves nothing to recognise
		}
		if at := buf.Index(e.replace, 0, 1); len(at) > 0 {
			return at[0], true
		}
		return 0, false
	case len(occ) == 1:
		return appliedAround(buf, occ[0], e.find, e.replace, false)
	case !matchAll:
		return 0, false
	}
	all := buf.Index(e.find, 0, maxReplaced+1)
	if len(all) > maxReplaced {
		return 0, false
	}
	first := 0
	for i, at := range all {
		start, ok := appliedAround(buf, at, e.find, e.replace, false)
		if !ok {
			return 0, false
		}
		if i == 0 {
			first = start
		}
	}
	return first, true
}

// maxReplaced bounds the occurrences of a match-all edit's FIND text
// that are looked at for being already applied.
const maxReplaced = 16

// applied reports hunk i (from 0; -1: the pure additions that end the
// file) of the update_file as already applied: its new lines are in the
// file from offset at, as the reason says.
func (p *patcher) applied(i int, span ast.Span, at int, reason string) {
	c, t := p.c, &p.paths[0]
	if i < 0 {
		c.applied(p.a, p.f, t.value, span, "%s: the lines its hunks add at the end of %s already end it (from line %d) — a reversed or previously applied patch; they are not added again",
			p.a.Name, t.value, p.buf.Line(at))
		return
	}
	c.applied(p.a, p.f, t.value, span, "%s: hunk %d is already applied to %s (line %d): %s — a reversed or previously applied patch; it is not applied again",
		p.a.Name, i+1, t.value, p.buf.Line(at), reason)
}

// reversed reports hunk i, h, whose old lines are not in the file after
// the previous hunk (at its end, for an End of File hunk), as already
// applied when it applies in reverse: its new lines are there. It then
// moves past them.
func (p *patcher) reversed(i int, h grammar.Hunk, span ast.Span) bool {
	nw := p.conv(h.New)
	if !p.detect || strings.TrimSpace(h.New) == "" || !addsLines(h.Old, h.New) {
		return false
	}
	buf := p.buf
	if h.EndOfFile {
		if !buf.HasSuffix(nw) {
			return false
		}
		p.applied(i, span, buf.Len()-len(nw), "its new lines end the file and its old lines do not")
		p.from = buf.Len()
		return true
	}
	at, n := buf.Match(nw, p.from)
	if n == 0 {
		return false
	}
	p.applied(i, span, at, "its new lines are there and its old lines are not")
	p.from = at + len(nw)
	p.delta += strings.Count(h.New, "\n") - strings.Count(h.Old, "\n")
	return true
}
