package workspace

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/internal/number"
)

// The edit formats' workspace rules (docs/check.md, "Workspace rules"): a
// SEARCH text or a hunk's context and removed lines must occur exactly once,
// as whole lines, in the file as it stands after the earlier edits of the
// document; add_file needs a missing file, update_file and delete_file an
// existing one. Each edit that matches is applied to the overlay, so later
// ones (and package apply) see its result.

// CodeHunkDrift is the note on a udiff hunk whose header's line number
// differs from where its context was found; the hunk is placed by its
// context.
const CodeHunkDrift = "hunk-line-drift"

// CodeHunkByLine is the note on a udiff hunk whose context occurs several
// times and which is placed at the occurrence its header's line number
// names (as git apply and GNU patch do).
const CodeHunkByLine = "hunk-placed-by-line-number"

// CodeAnchorWhitespace is the note on an apply-patch `@@ line` found only
// when surrounding white space is ignored (codex's rule for it: the line is
// an anchor, nothing of it is replaced).
const CodeAnchorWhitespace = "anchor-whitespace"

// CodeCRLFKept is the note on an edit written with LF line endings for a
// file that has CRLF ones: it is matched line by line and the file keeps
// its CRLF line endings (codex and aider do the same).
const CodeCRLFKept = "crlf-kept"

// CodeBadReplaceDiff is the error on a replace_in_file diff that is not
// one or more SEARCH/REPLACE blocks (Cline's markers): the file is not
// edited.
const CodeBadReplaceDiff = "bad-replace-diff"

// crlfFile reports whether content ends every line with CRLF (and has at
// least one line ending): such a file is edited with LF-only edit texts by
// matching line by line and writing CRLF back (toLF / fromLF).
func crlfFile(content string) bool {
	n := strings.Count(content, "\n")
	return n > 0 && strings.Count(content, "\r\n") == n
}

func toLF(s string) string   { return strings.ReplaceAll(s, "\r\n", "\n") }
func fromLF(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }

// lfEdit reports whether an edit's texts have no CR at all.
func lfEdit(texts ...string) bool {
	return !slices.ContainsFunc(texts, func(t string) bool { return strings.Contains(t, "\r") })
}

// noteCRLF adds the crlf-kept note.
func (c *checker) noteCRLF(a *ast.Action, span ast.Span, file string) {
	c.add(ast.Info, CodeCRLFKept, span, "%s: %s has CRLF line endings and the edit LF ones: it is matched line by line, and the file keeps CRLF line endings", a.Name, file)
}

// create checks an add_file: the target must not exist.
func (c *checker) create(a *ast.Action, t *pathArg) {
	f := c.file(t.rel)
	switch {
	case f.dir:
		c.add(ast.Error, CodeNotAFile, *t.span, "%s cannot create %s: it is a directory", a.Name, t.value)
		return
	case f.exists && f.known && c.unchanged(f) && f.content == a.Params.String("content"):
		// Created before: the same file again is no change.
		c.applied(a, f, t.value, *t.span, "%s: %s already exists with this content (%s): the file was created before, and is not created again", a.Name, t.value, number.Plural(f.size, "byte"))
		return
	case f.exists:
		why := "the file exists (" + number.Plural(f.size, "byte") + ")"
		if f.by != nil {
			why = describe(f.by) + " " + f.how + " it"
		}
		d := c.add(ast.Error, CodeFileExists, *t.span, "%s cannot create %s: %s; update it instead", a.Name, t.value, why)
		d.Related = related(f, t.value)
		return
	}
	text := a.Params.String("content")
	c.set(t.rel, &vfile{exists: true, known: true, content: text, size: int64(len(text)), by: a, how: "created"})
}

// editable returns the target's vfile when its content can be edited, or
// nil (after reporting why not).
func (c *checker) editable(a *ast.Action, t *pathArg) *vfile {
	f := c.needFile(a, t, "edit")
	if f == nil {
		return nil
	}
	if !f.known {
		if f.problem != "" {
			c.add(ast.Warning, CodeFileUnreadable, *t.span, "%s: %s cannot be checked: %s", a.Name, t.value, f.problem)
		}
		return nil
	}
	return f
}

// edited records the new content buf for the file f at rel (keeping what
// else the overlay knows of it).
func (c *checker) edited(a *ast.Action, rel string, f *vfile, buf *text) {
	nf := *f
	nf.exists, nf.known, nf.content, nf.size, nf.by, nf.how = true, true, buf.String(), int64(buf.Len()), a, "edited"
	c.set(rel, &nf)
}

// lfView is a text's content as the diagnostics show it: with LF line
// endings when the edit is matched in a CRLF file (crlf).
func lfView(buf *text, crlf bool) string {
	if crlf {
		return toLF(buf.String())
	}
	return buf.String()
}

// lineEnding is the line ending edits are matched with, and conv converts
// an edit's LF text to it: a CRLF file edited with LF texts is matched
// with the texts turned to CRLF (the same places as the file turned to LF,
// without converting the file).
func lineEnding(crlf bool) (nl string, conv func(string) string) {
	if crlf {
		return "\r\n", fromLF
	}
	return "\n", func(s string) string { return s }
}

// searchReplace checks a search_replace block.
func (c *checker) searchReplace(ctx context.Context, a *ast.Action, t *pathArg) {
	c.replaceBlock(ctx, a, t, a.Params.String("search"), a.Params.String("replace"), paramSpan(a, "search"), false)
}

// replaceBlock checks one SEARCH/REPLACE block, written at span, and
// reports whether it applies (or is applied already). cline: an empty
// SEARCH on a non-empty file is an error, not an append (Cline's diff
// parser documents a whole-file replacement and refuses it; the reading
// that loses no data is neither).
func (c *checker) replaceBlock(ctx context.Context, a *ast.Action, t *pathArg, search, replace string, span ast.Span, cline bool) bool {
	if strings.TrimSpace(search) == "" {
		// aider: an empty SEARCH starts a new file, or appends to an
		// existing one
		f := c.file(t.rel)
		switch {
		case f.dir:
			c.add(ast.Error, CodeNotAFile, *t.span, "%s cannot create %s: it is a directory", a.Name, t.value)
			return false
		case !f.exists:
			c.set(t.rel, &vfile{exists: true, known: true, content: replace, size: int64(len(replace)), by: a, how: "created"})
		case f.known && replace != "" && c.unchanged(f) && f.content == replace:
			c.applied(a, f, t.value, span, "%s: the SEARCH text is empty and %s already holds the REPLACE text, all of it: the file was created before, and the text is not appended again", a.Name, t.value)
		case !f.known:
			if f.problem != "" {
				c.add(ast.Warning, CodeFileUnreadable, *t.span, "%s: %s cannot be checked: %s", a.Name, t.value, f.problem)
			}
			return false
		case cline && f.size > 0:
			d := c.add(ast.Error, CodeFileExists, span, "%s: the SEARCH text is empty and %s is not (%s): Cline would replace all of it; the file is neither replaced nor appended to: give the lines to replace, or write the whole file with write_to_file", a.Name, t.value, number.Plural(f.size, "byte"))
			d.Related = related(f, t.value)
			return false
		default:
			if !cline { // Cline's on an empty file: a new file's content
				c.add(ast.Info, CodeFileExists, span, "%s: the SEARCH text is empty and %s exists: the REPLACE text is appended to it (as aider does)", a.Name, t.value)
			}
			buf := c.textOf(f)
			if buf.CRLF() && lfEdit(replace) {
				replace = fromLF(replace)
			}
			buf.Replace(buf.Len(), buf.Len(), replace)
			c.edited(a, t.rel, f, buf)
		}
		return true
	}
	f := c.editable(a, t)
	if f == nil || ctx.Err() != nil {
		return false
	}
	buf := c.textOf(f)
	crlf := buf.CRLF() && lfEdit(search, replace)
	nl, conv := lineEnding(crlf)
	find, repl := conv(search), conv(replace)
	virtual := buf.Len() > 0 && !buf.HasSuffix("\n") // aider matches as if it ended in "\n"
	if virtual {
		buf.Replace(buf.Len(), buf.Len(), nl)
	}
	at, n := buf.Match(find, 0)
	if where, ok := srApplied(buf, find, repl, at, n, c.unchanged(f)); ok {
		c.applied(a, f, t.value, span, "%s: the REPLACE text is already in %s (line %d)%s: the block was applied before, and is not applied again", a.Name, t.value, buf.Line(where), appliedHow(n, "SEARCH text"))
		return true
	}
	if n != 1 {
		e := edit{find: search, replace: replace, span: span, name: "SEARCH text"}
		c.matched(a, t, f, e, buf, crlf, find, n, 0)
		return false
	}
	end := at + len(find)
	reachesEnd := end == buf.Len()
	buf.Replace(at, end, repl)
	if virtual && !reachesEnd && buf.HasSuffix("\n") {
		buf.Replace(buf.Len()-len(nl), buf.Len(), "")
	}
	if crlf {
		c.noteCRLF(a, span, t.value)
	}
	c.edited(a, t.rel, f, buf)
	return true
}

// replaceInFile checks a replace_in_file (Cline's tools): the SEARCH/REPLACE
// blocks of its `diff`, in order, each as replaceBlock checks it, at the
// block's span inside the parameter. A diff that does not parse, or a
// block that does not apply, leaves the file as it was.
func (c *checker) replaceInFile(ctx context.Context, a *ast.Action, t *pathArg) {
	diff, span := a.Params.String("diff"), paramSpan(a, "diff")
	lines := ast.NewLines([]byte(diff)) // once: a diff may have many blocks
	at := func(start, end int) ast.Span {
		if span.Len() != len(diff) { // not the source's bytes: the parameter
			return span
		}
		return lines.Span(start, end).In(span.Start)
	}
	blocks, start, end, why := diffBlocks(diff)
	if why != "" {
		c.add(ast.Error, CodeBadReplaceDiff, at(start, end), "%s: %s", a.Name, why)
		return
	}
	before, n := c.file(t.rel), len(c.diags)
	for _, b := range blocks {
		if !c.replaceBlock(ctx, a, t, b.search, b.replace, at(b.start, b.end), true) {
			c.set(t.rel, before)
			for _, d := range c.diags[n:] { // the file as this action's earlier blocks left it: as it was
				if len(d.Related) == 1 && d.Related[0].Span == a.NameSpan {
					d.Related = related(before, t.value)
				}
			}
			return
		}
	}
}

// srBlock is one SEARCH/REPLACE block of a replace_in_file diff, at
// [start, end) of it.
type srBlock struct {
	search, replace string
	start, end      int
}

// diffBlocks splits a replace_in_file diff into its blocks by Cline's
// marker lines: 3 or more `-` (or `<`) then ` SEARCH`, 3 or more `=`, 3 or
// more `+` (or `>`) then ` REPLACE`; `>` may follow SEARCH or REPLACE and
// white space may end the line. A diff without a block, a block without
// its separator or end marker, or text outside blocks is a problem: why
// says what, at [start, end) of the diff.
func diffBlocks(diff string) (blocks []srBlock, start, end int, why string) {
	var b srBlock
	state, from, want := 0, 0, "" // state: 0 outside a block, 1 in SEARCH, 2 in REPLACE; want ends it
	for off := 0; off < len(diff); {
		raw, _, _ := strings.Cut(diff[off:], "\n")
		next, line := min(off+len(raw)+1, len(diff)), strings.TrimRight(raw, " \t\r")
		switch m := diffMarker(line); {
		case state == 0 && m == 'S':
			b, state, from, want = srBlock{start: off}, 1, next, "a `=======` line"
		case state == 0 && strings.TrimSpace(line) != "":
			return nil, off, off + len(line), "text outside the SEARCH/REPLACE blocks (a block starts with a `------- SEARCH` line)"
		case state == 1 && m == '=':
			b.search, state, from, want = diff[from:off], 2, next, "a `+++++++ REPLACE` line"
		case state == 2 && m == 'R':
			b.replace, b.end, state = diff[from:off], next, 0
			blocks = append(blocks, b)
		case state != 0 && m != 0:
			return nil, off, off + len(line), fmt.Sprintf("the block at line %d is not ended by %s before this marker line", lineOfOffset(diff, b.start), want)
		}
		off = next
	}
	switch {
	case state != 0:
		return nil, b.start, len(diff), fmt.Sprintf("the block at line %d is not ended by %s", lineOfOffset(diff, b.start), want)
	case len(blocks) == 0:
		return nil, 0, len(diff), "the diff has no SEARCH/REPLACE block (`------- SEARCH`, the lines to find, `=======`, their replacement, `+++++++ REPLACE`)"
	}
	return blocks, 0, 0, ""
}

// diffMarker returns what a line (without its line ending and trailing
// white space) marks in a replace_in_file diff: 'S' a SEARCH start, '='
// the separator, 'R' a REPLACE end, 0 nothing.
func diffMarker(line string) byte {
	for _, m := range []string{"- SEARCH", "< SEARCH", "=", "+ REPLACE", "> REPLACE"} {
		rest := strings.TrimLeft(line, m[:1])
		if len(line)-len(rest) >= 3 && (rest == m[1:] || len(m) > 1 && rest == m[1:]+">") {
			return m[min(2, len(m)-1)] // the word's first letter, or '='
		}
	}
	return 0
}

// matched reports a text that does not occur exactly once after offset
// from of buf (n is its number of occurrences there, capped at 2). find is e.find as it is matched in buf (with CRLF line
// endings when crlf: the edit's LF texts matched in a CRLF file). The
// occurrences are found from buf's indexes, not by a pass over the file
// per failing edit; the closest-region search is the check's budgeted one
// (notFound), and so is the CRLF file's LF view it reads.
func (c *checker) matched(a *ast.Action, t *pathArg, f *vfile, e edit, buf *text, crlf bool, find string, n, from int) {
	var d *ast.Diagnostic
	switch {
	case n == 0:
		if at, ok := c.inLine(buf, crlf, e.find, find, from); ok {
			d = c.add(ast.Error, CodeFindNotFound, e.span, "%s: the %s occurs in %s only inside a line (line %d), not as whole lines: it must start at the start of a line and end at the end of one",
				a.Name, e.name, t.value, buf.Line(at))
			break
		}
		d = c.notFound(a, t, e, buf.Len(), func() string { return lfView(buf, crlf) })
		if from > 0 {
			d.Message += fmt.Sprintf(" (it is looked for after line %d, where the previous hunk ends)", buf.Line(from))
		}
	case n > 1:
		lines, total := buf.LineMatches(find, from, maxListed)
		where := "in"
		if from > 0 {
			where = fmt.Sprintf("after line %d of", buf.Line(from))
		}
		d = c.add(ast.Error, CodeFindAmbiguous, e.span, "%s: the %s occurs %d times %s %s (lines %s); it must occur exactly once: include more surrounding lines to make it unique",
			a.Name, e.name, total, where, t.value, lineList(lines, total))
		d.Detail = occurrenceDetail(buf.String(), t.value, lines, total)
	default:
		return
	}
	d.Related = related(f, t.value)
}

// inLine finds lfFind (an edit's text as written) in buf at or after
// offset from, anywhere, not as whole lines; it returns the offset in buf.
// In a CRLF file the text is looked for in the file's LF view (lfView), a
// pass over the file charged to the check's closest-region budget: once
// that is spent the answer is no (the error then says the text is not in
// the file).
func (c *checker) inLine(buf *text, crlf bool, lfFind, find string, from int) (int, bool) {
	if !crlf {
		if occ := buf.Index(find, from, 1); len(occ) > 0 {
			return occ[0], true
		}
		return 0, false
	}
	if !c.closestWithin(buf.Len(), 0) {
		return 0, false
	}
	content := toLF(buf.String())
	c.closestWork += len(content)
	lfFrom := from - (buf.Line(from) - 1) // from is at a line start or the end: one CR fewer a line before it
	i := strings.Index(content[lfFrom:], lfFind)
	if i < 0 {
		return 0, false
	}
	line := lineOfOffset(content, lfFrom+i)
	return buf.LineStart(line), true
}

// lineOfOffset returns the 1-based line of a byte offset.
func lineOfOffset(s string, off int) int {
	return strings.Count(s[:min(off, len(s))], "\n") + 1
}

// hasHunks reports whether update_file a carries at least one hunk.
func hasHunks(a *ast.Action) bool { return len(hunksOf(a)) > 0 }

// hunksOf decodes an action's hunks parameter: the parser's grammar.Hunk
// values as they are, else (read back from JSON) decoded.
func hunksOf(a *ast.Action) []grammar.Hunk {
	v, ok := a.Params.Get("hunks")
	if !ok || v == nil {
		return nil
	}
	if vs, ok := v.([]any); ok {
		hs := make([]grammar.Hunk, len(vs))
		for i, x := range vs {
			if hs[i], ok = x.(grammar.Hunk); !ok {
				break
			}
		}
		if ok {
			return hs
		}
	}
	var hs []grammar.Hunk
	if ast.DecodeValue(v, &hs) != nil { // exact bytes, not a lossy JSON round trip
		return nil
	}
	return hs
}

// patch checks an update_file: each hunk in order against the target's
// content, then the move.
func (c *checker) patch(ctx context.Context, a *ast.Action, paths []pathArg) {
	if len(paths) > 0 && paths[0].ok && paths[0].param == "path" && !hasHunks(a) {
		if f := c.file(paths[0].rel); f.exists && f.link != "" {
			// A rename of a symbolic link moves the link itself.
			if len(paths) > 1 && paths[1].param == "move_to" && paths[1].ok && paths[1].rel != paths[0].rel {
				c.move(a, paths[:2])
			}
			return
		}
	}
	p := c.newPatcher(a, paths)
	if p == nil {
		return
	}
	hunks := hunksOf(a)
	p.start(hunks)
	for i, h := range hunks {
		if p.cancelled || !p.ok {
			break
		}
		span := a.NameSpan
		if i < len(a.Blocks) {
			span = a.Blocks[i].Span
		}
		p.place(ctx, h, span)
	}
	p.finish()
}

// patcher checks an update_file's hunks one at a time, in order, against
// the target's content.
type patcher struct {
	c     *checker
	a     *ast.Action
	paths []pathArg // the target, then the move_to of a move
	f     *vfile
	buf   *text
	// crlf says the hunks are matched with CRLF line endings: the target
	// has them and no hunk has a CR.
	crlf        bool
	nl          string
	conv        func(string) string
	virtual     bool
	n           int  // hunks seen
	ok          bool // every hunk so far is placed
	cancelled   bool
	touchedEnd  bool
	from, delta int
	// Pure additions placed by no line number go at the end of the file
	// once every other hunk is placed (codex: at the end of the original
	// file, not moving the place later hunks are looked for from);
	// tailSpan is the source of the first of them.
	tail     strings.Builder
	tailSpan ast.Span
	// changed says a hunk changed the text (one found already applied
	// does not); detect says hunks are looked at for being already
	// applied (checker.unchanged).
	changed, detect bool
}

// newPatcher starts the check of update_file a, whose path arguments are
// paths; nil when there is nothing to check (no usable target, a file not
// known).
func (c *checker) newPatcher(a *ast.Action, paths []pathArg) *patcher {
	if len(paths) == 0 || !paths[0].ok || paths[0].param != "path" {
		return nil
	}
	p := &patcher{c: c, a: a, paths: paths, ok: true}
	p.f = c.editable(a, &p.paths[0])
	if p.f == nil {
		return nil
	}
	p.buf = c.textOf(p.f)
	p.detect = c.unchanged(p.f)
	return p
}

// start fixes the line endings the hunks are matched with and marks the
// text, to be rolled back if a hunk is not placed.
func (p *patcher) start(hunks []grammar.Hunk) {
	c := p.c
	p.crlf = p.buf.CRLF()
	buf := p.buf
	for _, h := range hunks {
		p.crlf = p.crlf && lfEdit(h.Old, h.New, h.Context)
		buf.grow += max(len(h.New)-len(h.Old), 0)
	}
	p.nl, p.conv = lineEnding(p.crlf)
	// codex matches lines, so a file without a final line ending matches
	// as if it had one (aider's search-replace too); a unified diff says
	// so with `\ No newline at end of file`.
	p.virtual = c.schema != nil && c.schema.Dialect == grammar.DialectApplyPatch && buf.Len() > 0 && !buf.HasSuffix("\n")
	if p.virtual {
		buf.Replace(buf.Len(), buf.Len(), p.nl)
	}
}

// appendNL ends the text with a line ending unless it is empty or has one.
func (p *patcher) appendNL() {
	if buf := p.buf; buf.Len() > 0 && !buf.HasSuffix("\n") {
		buf.Replace(buf.Len(), buf.Len(), p.nl)
	}
}

// place places hunk h, whose source is span, after the hunks before it.
func (p *patcher) place(ctx context.Context, h grammar.Hunk, span ast.Span) {
	c, a, t, f, buf, conv := p.c, p.a, &p.paths[0], p.f, p.buf, p.conv
	i := p.n
	p.n++
	if ctx.Err() != nil || c.work.over() {
		// Cancelled, or the work budget is spent: the action stops here
		// (overBudget reports it).
		p.cancelled = true
		return
	}
	if h.Context != "" {
		ctxLine := conv(h.Context + "\n")
		at, n := buf.Match(ctxLine, p.from)
		if n == 0 && !buf.HasSuffix("\n") {
			// the last line, as if it ended in a line break
			at, n = buf.Match(strings.TrimSuffix(ctxLine, p.nl), p.from)
		}
		if n == 0 && c.closestWithin(buf.Len()-p.from, 0) {
			// codex then ignores white space around the line: it is
			// an anchor only, nothing of it is replaced. The line by
			// line pass is charged to the check's search budget (a
			// pass per failing hunk would be quadratic).
			w := c.work.spent
			l, ok := buf.TrimmedLine(h.Context, p.from)
			c.closestWork += c.work.spent - w
			if ok {
				at, n = l, 1
				c.add(ast.Info, CodeAnchorWhitespace, span, "%s: hunk %d's @@ line is at line %d of %s only when white space around it is ignored; the hunk is looked for after it",
					a.Name, i+1, buf.Line(at), t.value)
				ctxLine = buf.Slice(at, min(buf.Len(), buf.LineStart(buf.Line(at)+1)))
			}
		}
		if n == 0 {
			e := edit{find: h.Context + "\n", span: span, name: fmt.Sprintf("@@ context line of hunk %d", i+1)}
			c.matched(a, t, f, e, buf, p.crlf, conv(e.find), 0, p.from)
			p.ok = false
			return
		}
		p.from = at + len(ctxLine) // codex: the first such line after the previous hunk
		p.from = min(p.from, buf.Len())
	}
	if h.Old == "" && h.OldStart == nil {
		// a pure addition: codex appends it at the end of the file
		// (an `@@ line` followed by another is an anchor, no text)
		if p.tail.Len() == 0 {
			p.tailSpan = span
		}
		p.tail.WriteString(conv(h.New))
		return
	}
	if h.Old == "" {
		// a numbered udiff hunk goes after line old_start
		pos := buf.LineStart(*h.OldStart + p.delta + 1)
		nw := conv(h.New)
		if p.detect && strings.TrimSpace(nw) != "" && pos+len(nw) <= buf.Len() && buf.Slice(pos, pos+len(nw)) == nw {
			p.applied(i, span, pos, "its added lines are already there")
			p.from = pos + len(nw)
			p.delta += strings.Count(h.New, "\n")
			return
		}
		if pos == buf.Len() {
			p.appendNL()
			pos = buf.Len()
		}
		p.touchedEnd = p.touchedEnd || pos == buf.Len()
		buf.Replace(pos, pos, nw)
		p.changed = true
		p.from = pos + len(nw)
		return
	}
	find := conv(h.Old)
	if h.EndOfFile && !buf.HasSuffix(find) {
		if p.reversed(i, h, span) {
			return
		}
		e := edit{find: h.Old, span: span, name: fmt.Sprintf("text of hunk %d", i+1)}
		d := c.notFound(a, t, e, buf.Len(), func() string { return lfView(buf, p.crlf) })
		d.Message += " (the hunk ends with *** End of File: it must be the end of the file)"
		d.Related = related(f, t.value)
		p.ok = false
		return
	}
	var at, n int
	if h.EndOfFile {
		at, n = buf.Len()-len(find), 1
	} else {
		at, n = buf.Match(find, p.from)
	}
	if n > 1 && h.OldStart != nil && *h.OldLines > 0 {
		// git apply and patch: of several places, the one the
		// header's line number names
		line := *h.OldStart + p.delta
		if off := buf.LineStart(line); off >= p.from && off < buf.Len() && off+len(find) <= buf.Len() && buf.Slice(off, off+len(find)) == find && buf.Line(off) == line {
			at, n = off, 1
			c.add(ast.Info, CodeHunkByLine, span, "%s: hunk %d's lines occur several times in %s; it is placed at line %d, the one its header names", a.Name, i+1, t.value, line)
		}
	}
	if n == 0 && p.reversed(i, h, span) {
		return
	}
	if n != 1 {
		e := edit{find: h.Old, replace: h.New, span: span, name: fmt.Sprintf("text of hunk %d", i+1)}
		c.matched(a, t, f, e, buf, p.crlf, find, n, p.from)
		p.ok = false
		return
	}
	if h.OldStart != nil {
		if got, want := buf.Line(at), *h.OldStart+p.delta; got != want && *h.OldLines > 0 {
			c.add(ast.Info, CodeHunkDrift, span, "%s: hunk %d's header says line %d, but its context is at line %d of %s (%s); the hunk is placed by its context",
				a.Name, i+1, want, got, t.value, drift(got-want))
		}
	}
	nw := conv(h.New)
	if p.detect {
		if start, ok := appliedAround(buf, at, find, nw, true); ok {
			p.applied(i, span, start, "its new lines stand around the place its old lines match")
			p.from = start + len(nw)
			p.delta += strings.Count(h.New, "\n") - strings.Count(h.Old, "\n")
			return
		}
	}
	p.touchedEnd = p.touchedEnd || at+len(find) == buf.Len()
	buf.Replace(at, at+len(find), nw)
	p.changed = true
	p.from = at + len(nw)
	p.delta += strings.Count(h.New, "\n") - strings.Count(h.Old, "\n")
}

// finish ends the check of the update_file once its last hunk is checked:
// the file's new content, or, when a hunk was not placed, the file as it
// was; then the move.
func (p *patcher) finish() {
	if p.cancelled {
		return
	}
	c, a, t, f, buf := p.c, p.a, &p.paths[0], p.f, p.buf
	if !p.ok {
		return // the file is left as it was: later edits see it unchanged
	}
	if tail := p.tail.String(); tail != "" {
		if p.detect && strings.TrimSpace(tail) != "" && buf.HasSuffix(tail) {
			p.applied(-1, p.tailSpan, buf.Len()-len(tail), "")
		} else {
			p.appendNL()
			buf.Replace(buf.Len(), buf.Len(), tail)
			p.touchedEnd, p.changed = true, true
		}
	}
	if !p.changed {
		// Every hunk is already applied: the file stays as it is.
		p.move()
		return
	}
	if p.virtual && !p.touchedEnd && buf.HasSuffix("\n") {
		buf.Replace(buf.Len()-len(p.nl), buf.Len(), "")
	}
	if p.crlf {
		c.noteCRLF(a, a.NameSpan, t.value)
	}
	c.edited(a, t.rel, f, buf)
	p.move()
}

// move carries out the move_to of the update_file once its hunks are
// placed.
func (p *patcher) move() {
	c, a, t, paths := p.c, p.a, &p.paths[0], p.paths
	if len(paths) > 1 && paths[1].param == "move_to" && paths[1].ok && paths[1].rel != t.rel {
		c.move(a, paths[:2])
		if e := c.find(paths[1].rel); e != nil {
			if nf := e.cur; nf != nil && nf.by != nil && nf.by.NameSpan == a.NameSpan && nf.how == "moved" {
				moved := *nf
				moved.how = "edited and moved"
				e.cur = &moved
			}
		}
	}
}

func drift(d int) string {
	dir := "further down"
	if d < 0 {
		d, dir = -d, "further up"
	}
	return fmt.Sprintf("%s %s", number.Plural(int64(d), "line"), dir)
}

// deleteFile checks a delete_file: the file must exist and, when the
// action says what it removes (a udiff's `-` lines, param old), hold
// exactly that, as git apply requires; then it is gone.
func (c *checker) deleteFile(a *ast.Action, t *pathArg) {
	f := c.needFile(a, t, "delete")
	if f == nil {
		return
	}
	if v, ok := a.Params.Get("old"); ok && f.known {
		old, _ := v.(string)
		if !c.removesAll(a, t, f, old, paramSpan(a, "old")) {
			return
		}
	}
	c.set(t.rel, &vfile{by: a, how: "deleted"})
}

// removesAll reports whether the removed lines old are the file's whole
// content, and reports the first difference when they are not.
func (c *checker) removesAll(a *ast.Action, t *pathArg, f *vfile, old string, span ast.Span) bool {
	content := f.content
	if content == old {
		return true
	}
	if crlfFile(content) && lfEdit(old) && toLF(content) == old {
		c.add(ast.Info, CodeCRLFKept, span, "%s: %s has CRLF line endings and the diff LF ones: the removed lines are compared line by line", a.Name, t.value)
		return true
	}
	want, got := splitLines(old), splitLines(content)
	i := 0
	for i < len(want) && i < len(got) && want[i] == got[i] {
		i++
	}
	var what string
	switch {
	case i == len(want) && i == len(got):
		what = "only the final line ending differs: the file ends in a line break and the removed lines do not (`\\ No newline at end of file`)"
		if strings.HasSuffix(old, "\n") {
			what = "only the final line ending differs: the removed lines end in a line break and the file does not (add `\\ No newline at end of file`)"
		}
	case i == len(want):
		what = fmt.Sprintf("the file goes on after line %d, the last one the diff removes (%s more)", i, number.Plural(int64(len(got)-i), "line"))
	case i == len(got):
		what = fmt.Sprintf("the file ends at line %d, but the diff removes %s more", i, number.Plural(int64(len(want)-i), "line"))
	default:
		what = fmt.Sprintf("line %d differs", i+1)
		if note := lineNote(want[i], got[i], "removed lines", i+1, i+1); note != "" {
			what += " (" + note + ")"
		} else {
			what += fmt.Sprintf(" (the diff removes %q, the file has %q)", preview(want[i], 60), preview(got[i], 60))
		}
	}
	msg := fmt.Sprintf("%s: %s is not what the diff removes (a deleted file's `-` lines must be all of it): %s", a.Name, t.value, what)
	if kind := whitespaceKind(want, got); kind != "" && i < len(want) && i < len(got) {
		msg += "; the file differs from them only in " + kind
	}
	d := c.add(ast.Error, CodeDeleteMismatch, span, "%s", msg)
	if i < len(want) || i < len(got) {
		d.Detail = diffDetail(want, got, 0, "removed lines", t.value, "the whole file")
	}
	d.Related = related(f, t.value)
	return false
}
