package grammar

import (
	"errors"
	"strings"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/schema"
)

// The edit-format dialects (search-replace, udiff, apply-patch) are
// line-oriented and parsed by hand-written line state machines: each line
// is classified once (a marker, a header, a body line or prose) and the
// state machine that consumes the classes is the grammar, written out in
// EBNF in each dialect's doc comment. A participle grammar over whole-line
// tokens would add nothing these formats need (no nesting, no lookahead
// beyond one line) and would make error recovery — keep going after a bad
// line, report it at its exact position — harder.

// srcLine is one line of the source: [start, end) includes its line ending;
// text is the line without "\n" or "\r\n".
type srcLine struct {
	start, end int
	text       string
}

// proseBuilder collects the source ranges that belong to no action into
// prose nodes, merging adjacent ranges; a stream hears of each range as it
// is added.
type proseBuilder struct {
	b     *editBase
	start int // start of the pending range, -1 when none
	end   int
}

// add marks [start, end) as prose.
func (p *proseBuilder) add(start, end int) {
	if start >= end {
		return
	}
	p.b.onProse(start, end)
	if p.start >= 0 && p.end == start {
		p.end = end
		return
	}
	p.flush()
	p.start, p.end = start, end
}

// flush emits the pending range.
func (p *proseBuilder) flush() {
	if p.start < 0 {
		return
	}
	b := p.b
	if b.lean {
		p.start = -1 // reported, not kept (EditStream.Lean)
		return
	}
	b.doc.Prose = append(b.doc.Prose, &ast.Prose{Kind: "text", Text: b.src[p.start:p.end], Span: b.lines.Span(p.start, p.end)})
	p.start = -1
}

// spanPtr returns a pointer to the span of [start, end).
func spanPtr(l *ast.Lines, start, end int) *ast.Span {
	s := l.Span(start, end)
	return &s
}

// isFenceLine reports whether a line (trimmed) opens or closes a Markdown
// fence: three or more backticks or tildes. It returns the run and the rest.
func isFenceLine(t string) (run, info string, ok bool) {
	t = strings.Trim(t, " \t")
	if len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return "", "", false
	}
	n := len(t) - len(strings.TrimLeft(t, t[:1]))
	if n < 3 {
		return "", "", false
	}
	return t[:n], strings.TrimSpace(t[n:]), true
}

// trimmedSpan returns the offsets of line text without surrounding spaces
// and tabs (for a value's span).
func trimmedSpan(l srcLine, from int) (int, int) {
	t := l.text[from:]
	lead := len(t) - len(strings.TrimLeft(t, " \t"))
	// the same characters go on both sides (strings.TrimSpace would also
	// drop a CR or NBSP that the offsets keep: FuzzFmtEdits "\r0")
	v := strings.Trim(t, " \t")
	s := l.start + from + lead
	return s, s + len(v)
}

// pathSeen remembers the path breaches reported, by offset and code: a
// path line several blocks share is reported once.
// Actions come in source order and the blocks that share a path line
// are consecutive, so the offset of the last breach of each code is all
// there is to remember: a flood of breaches costs no memory per breach.
type pathSeen map[string]int

// noEdits gives a document of an edit format that has no edit at all and
// no error the one no-plan note the acts dialect gives, so that `--dialect udiff` on prose is not a silent exit
// 0 with nothing applied.
func noEdits(doc *ast.Document, srcLen, acts int) {
	if len(doc.Actions) > 0 || acts > 0 {
		return
	}
	for _, d := range doc.Diagnostics {
		if d.Severity == ast.Error {
			return
		}
	}
	kept := "only prose"
	if srcLen == 0 {
		kept = "the input is empty"
	}
	doc.Add(ast.Info, CodeNoPlan, ast.Span{Start: startPos, End: startPos}, "no edits: the document has no %s (%s)", noEditsWhat[doc.Dialect], kept)
}

// noEditsWhat names what each edit format's no-plan note looked for.
var noEditsWhat = map[string]string{
	DialectUdiff:         "file diff (`--- a/path` and `+++ b/path` lines, or `diff --git`)",
	DialectApplyPatch:    "patch (`*** Begin Patch` … `*** End Patch`)",
	DialectSearchReplace: "SEARCH/REPLACE block (a path, then `<<<<<<< SEARCH` … `=======` … `>>>>>>> REPLACE`)",
}

// checkActionPaths applies the path rule every dialect shares
// (schema.CheckPath) to the path and move_to parameters of a, an action of
// b's document that is complete, reporting a breach with the rule's own
// code; the value is kept.
func checkActionPaths(b *editBase, a *ast.Action) {
	seen := b.seen
	for _, p := range a.Params {
		if p.Name != "path" && p.Name != "move_to" {
			continue
		}
		v, _ := p.Value.(string)
		span := a.NameSpan
		if p.Span != nil {
			span = *p.Span
		}
		var pe *schema.PathError
		if err := schema.CheckPath(v); errors.As(err, &pe) {
			if last, ok := seen[pe.Code]; ok && last == span.Start.Offset {
				continue
			}
			seen[pe.Code] = span.Start.Offset
			b.report(ast.Error, pe.Code, span, "%s's %s: %s", a.Name, p.Name, pe.Msg)
		} else if err == nil && schema.NamesDirectory(v) {
			// Every path of an edit format is a file's: one spelled as
			// a directory (`src/`) is an error without a workspace too.
			b.report(ast.Error, schema.CodeNotAFile, span, "%s's %s: the path %q ends with %s, so it names a directory, not a file",
				a.Name, p.Name, v, schema.DirectoryEnding(v))
		}
	}
}
