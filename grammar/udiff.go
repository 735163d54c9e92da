package grammar

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/plangram/plangram/ast"
)

// DialectUdiff is the unified diff format (docs/udiff.md).
const DialectUdiff = "udiff"

// Diagnostic codes of the udiff dialect (docs/udiff.md).
const (
	// CodeHunkCount: a hunk header's line counts disagree with its body.
	CodeHunkCount = "hunk-count-mismatch"
	// CodeEmptyHunk: a hunk header with no body lines.
	CodeEmptyHunk = "empty-hunk"
	// CodeStrayHunk: a hunk with no file header before it.
	CodeStrayHunk = "stray-hunk"
	// CodeBadDiffHeader: a file header without a usable path.
	CodeBadDiffHeader = "bad-diff-header"
	// CodeNoLineNumbers: an `@@ ... @@` header without line numbers
	// (aider's form): the hunk is placed by its content alone.
	CodeNoLineNumbers = "hunk-without-line-numbers"
	// CodeNewFileOldLines: a diff from /dev/null whose hunks have context
	// or removed lines; it is read as an edit of the file (as aider does).
	CodeNewFileOldLines = "new-file-with-old-lines"
	// CodeDeleteKeepsLines: a diff to /dev/null whose hunks have context
	// or added lines, which a deleted file cannot keep (git apply refuses
	// it too).
	CodeDeleteKeepsLines = "deleted-file-keeps-lines"
	// CodeUnsupportedDiff: a git extended header or body that plangram does
	// not apply (a copy, a mode change, a new symbolic link or executable, a
	// binary patch). It is an error so that nothing is applied without it.
	CodeUnsupportedDiff = "unsupported-diff"
)

// hunkHeader splits a numbered hunk header, `@@ -OLD[,N] +NEW[,N] @@`
// then an optional space and the section, into its four numbers (the
// counts "" when absent) and its section.
func hunkHeader(s string) (nums [4]string, section string, ok bool) {
	rest, ok := strings.CutPrefix(s, "@@ -")
	for k := 0; ok && k < 4; k += 2 {
		if nums[k], rest = leadDigits(rest); nums[k] == "" {
			return nums, "", false
		}
		if r, comma := strings.CutPrefix(rest, ","); comma {
			if nums[k+1], rest = leadDigits(r); nums[k+1] == "" {
				return nums, "", false
			}
		}
		rest, ok = strings.CutPrefix(rest, [2]string{" +", " @@"}[k/2])
	}
	return nums, strings.TrimPrefix(rest, " "), ok
}

// leadDigits splits s after its leading ASCII digits.
func leadDigits(s string) (digits, rest string) {
	n := 0
	for n < len(s) && '0' <= s[n] && s[n] <= '9' {
		n++
	}
	return s[:n], s[n:]
}

// gitHeaderPrefixes are the extended header lines of `git diff` between
// `diff --git` and `---`.
var gitHeaderPrefixes = []string{"index ", "new file mode ", "deleted file mode ", "old mode ", "new mode ",
	"similarity index ", "dissimilarity index ", "rename from ", "rename to ", "copy from ", "copy to ", "Binary files "}

// ParseUdiff parses unified diffs, bare or in fenced blocks:
//
//	File    = { Prose | FileDiff } .
//	FileDiff = [ "diff --git" Line { GitHeader } ] [ "--- " Path LF "+++ " Path LF ] { Hunk } .
//	Hunk    = "@@" [ " -l[,s] +l[,s] @@" Section ] LF { (" " | "-" | "+") Line | "" LF | "\ No newline at end of file" } .
//
// Each file diff is one action: add_file (`--- /dev/null`), delete_file
// (`+++ /dev/null`) or update_file (with move_to for a rename). Every hunk
// is a block of the action and an element of its hunks parameter. Hunk
// bodies are read by their line kinds, not by the header's counts (models
// often miscount them): a disagreement is a warning.
func ParseUdiff(ctx context.Context, filename string, src []byte) (*ast.Document, error) {
	return parseEdit(ctx, DialectUdiff, src, Options{})
}

// runUdiff parses the lines of b.
func runUdiff(b *editBase) {
	p := &udParser{editBase: b}
	for i := 0; p.has(i); {
		switch {
		case strings.HasPrefix(p.line(i).text, "diff --git "), p.fileHeaderAt(i):
			p.endFile()
			i = p.file(i)
		case strings.HasPrefix(p.line(i).text, "@@"):
			if a := p.lastUpdate(); a != nil && p.onlyBlankSince(a) {
				i = p.hunks(a, i)
				continue
			}
			p.endFile()
			p.report(ast.Error, CodeStrayHunk, p.lineSpan(i), "hunk header with no `--- a/path` and `+++ b/path` file header before it: the hunk belongs to no file")
			p.prose.add(p.line(i).start, p.line(i).end)
			i++
		default:
			// blank lines after an update may still be followed by
			// another of its hunks
			if a := p.lastUpdate(); a == nil || strings.TrimSpace(p.line(i).text) != "" || !p.onlyBlankSince(a) {
				p.endFile()
			}
			p.prose.add(p.line(i).start, p.line(i).end)
			i++
		}
	}
	p.endFile()
	p.prose.flush()
}

type udParser struct {
	*editBase
	// file holds per action its parse state
	cur *udFile
}

// udFile is the action being built.
type udFile struct {
	action *ast.Action
	hunks  []Hunk
	n      int // hunks read
	// withOld and withNew are 1 + the index of the first hunk with
	// context or removed lines (with context or added lines), 0 for none;
	// oldHead and newHead are their header lines' spans.
	withOld, withNew int
	oldHead, newHead ast.Span
	// bodyStart and bodyEnd are the offsets where the first hunk's body
	// starts and the last one's ends.
	bodyStart, bodyEnd int
	// text is the removed lines of a delete_file, the added lines of an
	// add_file, hunk by hunk: its old or content parameter (joined; one
	// hunk's text is the parameter as it is).
	text   []string
	endOff int  // end of the last consumed line
	ended  bool // no more hunks can follow
}

// endFile reports the current action complete: no more of its hunks can
// follow.
func (p *udParser) endFile() {
	if f := p.cur; f != nil && !f.ended {
		f.ended = true
		p.onEnd(f.action)
	}
}

// fileHeaderAt reports a `--- ` line followed by a `+++ ` line.
func (p *udParser) fileHeaderAt(i int) bool {
	return strings.HasPrefix(p.line(i).text, "--- ") && p.has(i+1) && strings.HasPrefix(p.line(i+1).text, "+++ ")
}

func (p *udParser) lastUpdate() *udFile {
	if p.cur != nil && !p.cur.ended && p.cur.action.Name == ActionUpdateFile {
		return p.cur
	}
	return nil
}

// onlyBlankSince reports whether only blank lines lie between the end of
// the file's last hunk and the pending prose.
func (p *udParser) onlyBlankSince(f *udFile) bool {
	if p.prose.start < 0 {
		return true
	}
	return p.prose.start == f.endOff && strings.TrimSpace(p.src[p.prose.start:p.prose.end]) == ""
}

// diffPath reads a path of a `---`/`+++` line: a trailing tab and
// timestamp is dropped, a quoted path unquoted; it returns the value and
// its offsets (for a quoted path, those of the text inside the quotes).
func diffPath(l srcLine, from int) (string, int, int) {
	t := l.text[from:]
	if i := strings.IndexByte(t, '\t'); i >= 0 {
		t = t[:i]
	}
	lead := len(t) - len(strings.TrimLeft(t, " "))
	v := strings.TrimRight(t[lead:], " ")
	s := l.start + from + lead
	e := s + len(v)
	if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
		if u, err := strconv.Unquote(v); err == nil {
			return u, s + 1, e - 1 // the span is inside the quotes
		}
	}
	return v, s, e
}

// file reads one file diff starting at line i and returns the next line.
func (p *udParser) file(i int) int {
	p.prose.flush()
	start := i
	var oldPath, newPath string
	var oldSpan, newSpan *ast.Span
	var renameFrom, renameTo string
	var renameFromSpan, renameToSpan *ast.Span
	newMode, deletedMode := false, false
	git := strings.HasPrefix(p.line(i).text, "diff --git ")
	nameSpan := p.lineSpan(i)
	if git {
		i++
		// The extended header lines that plangram does not apply are
		// errors: a copy (read like a rename it would delete the source),
		// a mode change, a new file that is not a plain 100644 file (an
		// executable, a symbolic link whose "content" is its target), a
		// binary file.
		oldMode, sawOldMode := "", false
		for p.has(i) && slices.ContainsFunc(gitHeaderPrefixes, func(h string) bool { return strings.HasPrefix(p.line(i).text, h) }) {
			t, msg := p.line(i).text, ""
			switch {
			case strings.HasPrefix(t, "rename from "), strings.HasPrefix(t, "copy from "):
				v, s, e := diffPath(p.line(i), strings.Index(t, "from ")+5)
				renameFrom, renameFromSpan = v, spanPtr(p.lines, s, e)
				if t[0] == 'c' { // one diagnostic per copy, at its `copy from`
					msg = "git copies are not applied (read as a rename, the source would be deleted): write the new file as a diff from /dev/null"
				}
			case strings.HasPrefix(t, "rename to "), strings.HasPrefix(t, "copy to "):
				v, s, e := diffPath(p.line(i), strings.Index(t, "to ")+3)
				renameTo, renameToSpan = v, spanPtr(p.lines, s, e)
			case strings.HasPrefix(t, "new file mode "):
				newMode = true
				switch v := strings.TrimSpace(t[len("new file mode "):]); v {
				case "100644", "644":
				case "120000":
					msg = "new symbolic links are not applied: apply would write the link's target as the content of a regular file"
				default:
					msg = fmt.Sprintf("new files with mode %s are not applied: apply creates plain files (100644); create it with a 100644 header and change the mode yourself", v)
				}
			case strings.HasPrefix(t, "deleted file mode "):
				deletedMode = true
			case strings.HasPrefix(t, "old mode "):
				oldMode, sawOldMode = strings.TrimSpace(t[len("old mode "):]), true
			case strings.HasPrefix(t, "new mode "):
				if v := strings.TrimSpace(t[len("new mode "):]); v != oldMode || !sawOldMode {
					msg = fmt.Sprintf("mode changes are not applied (%s to %s): apply keeps a file's mode; change it yourself (chmod)", cmp.Or(oldMode, "an unknown mode"), v)
				}
			case strings.HasPrefix(t, "Binary files "):
				msg = "binary files are not applied: plangram edits text files only"
			}
			if msg != "" {
				p.report(ast.Error, CodeUnsupportedDiff, p.lineSpan(i), "%s", msg)
			}
			i++
		}
		if p.has(i) && strings.HasPrefix(p.line(i).text, "GIT binary patch") {
			p.report(ast.Error, CodeUnsupportedDiff, p.lineSpan(i),
				"binary patches are not applied: plangram edits text files only; nothing of this file diff is applied (its lines are kept as prose)")
		}
	}
	hasHeader := p.has(i) && p.fileHeaderAt(i)
	var o, n string
	var os, oe, ns, ne int
	if hasHeader {
		o, os, oe = diffPath(p.line(i), 4)
		n, ns, ne = diffPath(p.line(i+1), 4)
		// a/ and b/ prefixes (git's) go when the sides agree on them.
		oa, nb := strings.HasPrefix(o, "a/"), strings.HasPrefix(n, "b/")
		if (oa || o == "/dev/null") && (nb || n == "/dev/null") && (oa || nb) {
			if oa {
				o, os = o[2:], os+2
			}
			if nb {
				n, ns = n[2:], ns+2
			}
		}
		// A `---`/`+++` pair whose paths contradict the `diff --git` line
		// is the next file diff: this one has no hunks (an empty new file,
		// a deletion, a rename or mode change written by git alone).
		if gOld, gNew, ok := gitLinePaths(p.line(start).text); git && ok &&
			(o != "/dev/null" && o != gOld || n != "/dev/null" && n != gNew) {
			hasHeader = false
		}
	}
	if hasHeader {
		if !git {
			nameSpan = p.lineSpan(i)
		}
		oldPath, oldSpan = o, spanPtr(p.lines, os, oe)
		newPath, newSpan = n, spanPtr(p.lines, ns, ne)
		i += 2
	} else if git {
		// `diff --git a/x b/x` alone (mode change, rename, empty new file)
		l := p.line(start)
		if o, n, ok := gitLinePaths(l.text); ok && o == n {
			s := l.start + len("diff --git a/")
			oldPath, oldSpan = o, spanPtr(p.lines, s, s+len(o))
			newPath, newSpan = n, spanPtr(p.lines, s+len(o)+len(" b/"), s+2*len(o)+len(" b/"))
		}
		if newMode {
			oldPath = "/dev/null"
		}
		if deletedMode {
			newPath = "/dev/null"
		}
	}
	if renameFrom != "" {
		oldPath, oldSpan = renameFrom, renameFromSpan
	}
	if renameTo != "" {
		newPath, newSpan = renameTo, renameToSpan
	}
	a := &ast.Action{NameSpan: nameSpan}
	f := &udFile{action: a}
	switch {
	case oldPath == "" && newPath == "", oldPath == "/dev/null" && newPath == "/dev/null":
		a.Name = ActionUpdateFile
		p.report(ast.Error, CodeBadDiffHeader, nameSpan, "this file diff names no file: `--- a/path` and `+++ b/path` must name it")
	case oldPath == "/dev/null":
		a.Name = ActionAddFile
		a.Params.Set("path", newPath, newSpan)
	case newPath == "/dev/null":
		a.Name = ActionDeleteFile
		a.Params.Set("path", oldPath, oldSpan)
	default:
		a.Name = ActionUpdateFile
		a.Params.Set("path", oldPath, oldSpan)
		if newPath != oldPath {
			a.Params.Set("move_to", newPath, newSpan)
		}
	}
	headEnd := p.line(i - 1).end
	a.Head = headBlock(p.lines, p.src, "header", p.line(start).start, headEnd)
	f.endOff = headEnd
	p.cur = f
	p.doc.Actions = append(p.doc.Actions, a)
	a.Span = a.Head.Span
	p.onBegin(a)
	i = p.hunks(f, i)
	return i
}

// gitLinePaths reads the two paths of a `diff --git a/OLD b/NEW` line when
// they can be told apart: the same path twice, or exactly one " b/" in it.
func gitLinePaths(line string) (oldPath, newPath string, ok bool) {
	rest, found := strings.CutPrefix(line, "diff --git ")
	if !found || !strings.HasPrefix(rest, "a/") {
		return "", "", false
	}
	if h := len(rest) / 2; len(rest)%2 == 1 && rest[h] == ' ' && strings.HasPrefix(rest[h+1:], "b/") && rest[2:h] == rest[h+3:] {
		return rest[2:h], rest[h+3:], true
	}
	if strings.Count(rest, " b/") != 1 {
		return "", "", false
	}
	a, b, _ := strings.Cut(rest, " b/")
	return a[2:], b, true
}

// hunks reads the hunks starting at line i (each must start with "@@")
// into f and returns the next line.
func (p *udParser) hunks(f *udFile, i int) int {
	a := f.action
	for p.has(i) && strings.HasPrefix(p.line(i).text, "@@") {
		if p.prose.start >= 0 && p.onlyBlankSince(f) {
			p.prose.flush() // blank lines between two hunks: prose between two blocks
		}
		h, blk, next := p.readHunk(i)
		f.add(p, h, blk)
		f.endOff = blk.Span.End.Offset
		a.Span = p.lines.Span(a.Head.Span.Start.Offset, f.endOff)
		p.onHunk(a, h, blk)
		i = next
	}
	switch a.Name {
	case ActionUpdateFile:
		if f.n > 0 || a.Params.String("move_to") == "" {
			p.setHunks(a, f.hunks)
		}
	case ActionDeleteFile:
		if f.n == 0 {
			break
		}
		// the removed lines: check --root verifies they are the whole file
		a.Params.Set("old", strings.Join(f.text, ""), spanPtr(p.lines, f.bodyStart, f.bodyEnd))
		if f.withNew > 0 {
			path := a.Params.String("path")
			p.report(ast.Error, CodeDeleteKeepsLines, f.newHead,
				"`+++ /dev/null` deletes %s, but hunk %d has context or added lines, which a deleted file cannot keep (git apply refuses it too): a deletion has only `-` lines; write `+++ b/%s` to change the file instead",
				path, f.withNew, path)
		}
	case ActionAddFile:
		if f.withOld > 0 {
			// `--- /dev/null` yet lines to find: read, as aider does, as
			// an edit of the file, so no line of the hunk is dropped;
			// check --root then needs the file and its lines.
			path := a.Params.String("path")
			a.Name = ActionUpdateFile
			p.report(ast.Warning, CodeNewFileOldLines, f.oldHead,
				"`--- /dev/null` makes %s a new file, but hunk %d has context or removed lines: it is read as an edit of %s (as aider does); write `--- a/%s` for an edit, or only `+` lines for a new file",
				path, f.withOld, path, path)
			p.setHunks(a, f.hunks)
			break
		}
		var span *ast.Span
		if f.n > 0 {
			span = spanPtr(p.lines, f.bodyStart, f.bodyEnd)
		}
		a.Params.Set("content", strings.Join(f.text, ""), span)
	}
	return i
}

// readHunk reads the hunk whose header is line i and returns it, its
// block and the line after it; it reports what is wrong with it.
func (p *udParser) readHunk(i int) (Hunk, *ast.Block, int) {
	hl := p.line(i)
	var h Hunk
	m, section, numbered := hunkHeader(hl.text)
	if numbered {
		num := func(s string, def int) *int {
			n, err := strconv.Atoi(s) // "" too: the default
			if err != nil {
				n = def
			}
			return &n
		}
		h.OldStart, h.OldLines = num(m[0], 0), num(m[1], 1)
		h.NewStart, h.NewLines = num(m[2], 0), num(m[3], 1)
		h.Section = section
	} else {
		p.report(ast.Info, CodeNoLineNumbers, p.lineSpan(i),
			"hunk header without line numbers: the hunk is placed by its context and removed lines alone")
	}
	// The body ends at its last body line: empty lines are context only
	// when more body follows.
	// oldLen and newLen are the sizes of the old and new text so far,
	// oldAt and newAt at lastBody: both are allocated at once.
	lastBody, oldLen, newLen, oldAt, newAt := i, 0, 0, 0, 0
	for j := i + 1; p.has(j); j++ {
		l := p.line(j)
		t := l.text
		if strings.HasPrefix(t, "@@") || strings.HasPrefix(t, "diff --git ") || strings.HasPrefix(t, "--- ") && p.fileHeaderAt(j) {
			break
		}
		if t == "" {
			oldLen, newLen = oldLen+l.end-l.start, newLen+l.end-l.start
			continue
		}
		c := t[0]
		if c != ' ' && c != '-' && c != '+' && c != '\\' {
			break
		}
		if c != '+' && c != '\\' {
			oldLen += l.end - l.start - 1
		}
		if c != '-' && c != '\\' {
			newLen += l.end - l.start - 1
		}
		lastBody, oldAt, newAt = j, oldLen, newLen
	}
	end := p.line(lastBody).end
	bodyStart := hl.end
	body := sizedHunkLines(oldAt, newAt)
	for j := i + 1; j <= lastBody; j++ {
		l := p.line(j)
		switch {
		case l.text == "":
			body.add(' ', "", eolOf(p.src, l))
		case l.text[0] == '\\':
			body.noNewline()
		default:
			body.add(l.text[0], l.text[1:], eolOf(p.src, l))
		}
	}
	blk := &ast.Block{Fence: "@@", Label: strings.TrimSpace(hl.text), Info: h.Section, Content: p.src[bodyStart:end],
		Span: p.lines.Span(hl.start, end), ContentSpan: p.lines.Span(bodyStart, end)}
	h.Old, h.New = body.texts()
	switch {
	case lastBody == i:
		p.report(ast.Error, CodeEmptyHunk, p.lineSpan(i), "hunk with no lines: a hunk needs context, removed or added lines after its header")
	case numbered && (body.nOld != *h.OldLines || body.nNew != *h.NewLines):
		p.report(ast.Warning, CodeHunkCount, p.lineSpan(i),
			"hunk header says %d old and %d new lines, but its body has %d old (context and -) and %d new (context and +) lines; the body is used",
			*h.OldLines, *h.NewLines, body.nOld, body.nNew)
	}
	return h, blk, lastBody + 1
}

// add records hunk h of the file, whose source is blk: its block and the
// hunk are kept (the action's Blocks and hunks parameter), and what the
// end of the file diff needs of it (the text of a delete_file or add_file,
// the first hunk with context on either side) is noted.
func (f *udFile) add(p *udParser, h Hunk, blk *ast.Block) {
	f.n++
	f.action.Blocks = append(f.action.Blocks, blk)
	f.hunks = append(f.hunks, h)
	// the header line's span, made only for the hunk a diagnostic may name
	head := func() ast.Span { return p.lines.Span(blk.Span.Start.Offset, blk.ContentSpan.Start.Offset) }
	if h.Old != "" && f.withOld == 0 {
		f.withOld, f.oldHead = f.n, head()
		if f.action.Name == ActionAddFile {
			f.text = nil // an update_file, which has no content
		}
	}
	if h.New != "" && f.withNew == 0 {
		f.withNew, f.newHead = f.n, head()
	}
	if f.n == 1 {
		f.bodyStart = blk.ContentSpan.Start.Offset
	}
	f.bodyEnd = blk.ContentSpan.End.Offset
	switch f.action.Name {
	case ActionDeleteFile:
		f.text = append(f.text, h.Old)
	case ActionAddFile:
		if f.withOld == 0 {
			f.text = append(f.text, h.New)
		}
	}
}
