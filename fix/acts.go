package fix

import (
	"fmt"
	"strings"

	"github.com/plangram/plangram/lexer"
)

// actsFences walks the blocks of a fenced-acts document (docs/acts.md:
// only the document's fence character, and only a line of exactly a
// block's run closes it) and repairs each broken one, rescanning a block
// after repairing it:
//
//   - a content line that is the block's run followed by text (the
//     fence-trailing-text error) loses the text and closes the block;
//   - a block closed by the fence meant for a nested block, with a later
//     fence meant to close it (the improperly-nested-fence error), gets
//     that fence and its opening fence one character longer than every
//     fence of its character in between, so the nested block is content.
//
// Two cases are left to the author, since a repair would change which
// actions run: an improperly nested block holding an act block (longer
// fences would make the action content for good; with no fence meant to
// close the block, stripping a remark would make content an action), and
// a run followed by `act` (stripping it would remove an action's opening
// line). A line of the run with text in a block that ran on over no fence
// to its closing line is content as written (grammar reports nothing).
//
// A repair can make an earlier block improperly nested (a stripped line
// becomes the fence meant to close it), so passes repeat until one
// changes nothing, at most maxPasses times. A block left unclosed is read
// to the end of the document, so the passes share the fence repairs' work
// budget (fences): past it they stop with one fix-work-budget warning and
// the text after that line is left as it is.
func (f *fixer) actsFences() {
	c := lexer.Detect([]byte(f.text))
	for pass := 0; pass < maxPasses; pass++ {
		n := len(f.repairs)
		if !f.actsPass(c) || len(f.repairs) == n {
			return
		}
	}
}

// maxPasses bounds the passes of actsFences.
const maxPasses = 64

// actsPass is one pass of actsFences over the document's blocks: the text
// before the block being judged is final (done, of doneLines lines), the
// rest is still to read, and a repaired block is final as soon as it is
// repaired. It reports false when it stopped at the work budget.
func (f *fixer) actsPass(c byte) bool {
	p := actsPasser{f: f, c: c, rest: f.text}
	p.done.Grow(len(f.text))
	defer func() { f.text = p.done.String() }()
	for p.rest != "" {
		// rest is always a suffix of the pass's text.
		base := len(f.text) - len(p.rest)
		typ, end := lexer.CoarseToken(f.text, base, c)
		end -= base
		if !f.charge(end) {
			f.stop(p.lineNo(0))
			p.commit(p.rest, len(p.rest))
			return false
		}
		if typ == lexer.Text || !p.repair(end, typ == lexer.ActBlock) {
			p.commit(p.rest[:end], end)
		}
	}
	return true
}

// actsPasser is the state of one actsPass.
type actsPasser struct {
	f         *fixer
	c         byte
	done      strings.Builder
	doneLines int // line endings in done
	rest      string
}

// commit appends s to the final text and drops the first n bytes of rest.
func (p *actsPasser) commit(s string, n int) {
	p.done.WriteString(s)
	p.doneLines += strings.Count(s, "\n")
	p.rest = p.rest[n:]
}

// lineNo returns the 1-based line number of offset off of rest.
func (p *actsPasser) lineNo(off int) int { return p.doneLines + 1 + strings.Count(p.rest[:off], "\n") }

// repair repairs the block token rest[:end] (an act block when act is
// set), reporting whether it did; a repaired block is committed. It
// judges the block as grammar's acts parser does.
func (p *actsPasser) repair(end int, act bool) bool {
	f, c, src := p.f, p.c, p.rest
	first := lexer.LineEnd(src[:end], 0)
	off := 0
	if pre := lexer.MarkerPrefix(src[:first]); pre > 0 {
		off, first = pre, first-pre
	}
	v := src[off:end]
	openLine, _ := body(v[:first])
	run, _, _ := lexer.OpenFenceString(openLine, c)
	last := strings.LastIndexByte(strings.TrimSuffix(v, "\n"), '\n') + 1
	closed := last >= first && first < len(v) && lexer.ClosesFenceString(v[last:], run)
	if !closed {
		at, ts, te, ok := lexer.ExactFenceWithText(v, run, false)
		return ok && p.strip(off, at, ts, te, run)
	}
	if !strings.Contains(v[first:last], run) {
		return false
	}
	at, ts, te, withText := lexer.ExactFenceWithText(v, run, true)
	bomLen := 0
	if p.done.Len() == 0 && strings.HasPrefix(v, "\uFEFF") {
		bomLen = 3
	}
	open, ok := lexer.ActsFenceLine(openLine[bomLen:])
	inner, nested := 0, false
	if !act && ok {
		inner, nested = lexer.MisnestedFence(v)
		// The parser's judgement (grammar's misnested): the info string
		// of the line as a Markdown fence line reads, which a line that
		// does not read as one (a lone CR before its run) has none of.
		if withText && nested && at <= inner && !lexer.LooksLikeInfo(infoAt(v, at)) {
			nested = false
		}
	}
	if !nested {
		return withText && lexer.FenceBetween(v, lexer.LineEnd(v, at), last, c) && p.strip(off, at, ts, te, run)
	}
	intended, maxRun, ok := lexer.IntendedClose(src, off+first, open, true, searchLimit)
	if !ok || intended < off+len(v) || hasAct(src[off+first:intended], c) {
		return false // not reported, or an act block taken in: left to the author
	}
	// Longer than every fence inside, and never shorter than the intended
	// closing fence already is (it becomes exactly the opening run).
	closeEnd := lexer.LineEnd(src, intended)
	closeLine, _ := body(src[intended:closeEnd])
	g, _ := lexer.ParseMdFence(closeLine)
	n := max(max(open.Run, maxRun)+1, g.Run)
	openNo, innerNo, closeNo := p.lineNo(off), p.lineNo(off+inner), p.lineNo(intended)
	f.add(repair{code: CodeNestedFence, line: openNo, related: []relatedLine{{closeNo, "its closing fence, lengthened"}},
		msg: fmt.Sprintf("lengthened the fences of the block opened here to %s, so the block opened at line %d nests inside it and the block ends at line %d",
			strings.Repeat(string(open.Char), n), innerNo, closeNo)})
	openEnd := off + first
	p.commit(src[:off+bomLen]+withRun(src[off+bomLen:openEnd], n)+src[openEnd:intended]+withRun(src[intended:closeEnd], n), closeEnd)
	return true
}

// withRun returns the fence line line (with its line ending) with its
// fence run made n characters long.
func withRun(line string, n int) string {
	b, ending := body(line)
	g, _ := lexer.ParseMdFence(b)
	return b[:g.At] + strings.Repeat(string(g.Char), n) + b[g.At+g.Run:] + ending
}

// strip removes the text [ts, te) and what follows it on its line, the
// line at offset at of the block at off of rest being the block's run
// then that text, so that the line closes the block, and commits the
// block. A text `act` is kept: the line may open an action.
func (p *actsPasser) strip(off, at, ts, te int, run string) bool {
	src := p.rest
	text := src[off+ts : off+te]
	if lexer.IsAct(text) {
		return false
	}
	e := lexer.LineEnd(src, off+at)
	line, ending := body(src[off+at : e])
	i := strings.Index(line, run)
	p.f.add(repair{code: CodeTrailingText, line: p.lineNo(off + at),
		msg: fmt.Sprintf("removed %q after the closing fence of the block opened at line %d", text, p.lineNo(off))})
	p.commit(src[:off+at]+line[:i+len(run)]+ending, e)
	return true
}

// hasAct reports whether a line of s opens an act block of character c.
func hasAct(s string, c byte) bool {
	for p := 0; p < len(s); p = lexer.LineEnd(s, p) {
		i := strings.Index(s[p:], strings.Repeat(string(c), 3))
		if i < 0 {
			return false
		}
		p = strings.LastIndexByte(s[:p+i], '\n') + 1
		line, _ := body(s[p:lexer.LineEnd(s, p)])
		if _, info, ok := lexer.OpenFenceString(line, c); ok && lexer.IsAct(info) {
			return true
		}
	}
	return false
}
