// Package fix repairs what LLMs typically break in the documents plangram
// parses, idempotently, and says what it changed (docs/plan.md, "plangram
// fix"). For structured Markdown plans it
//
//   - lengthens the fences of a block whose nested block closed it early
//     (the `improperly-nested-fence` error), so the nested block nests;
//   - strips trailing text after a closing fence run (“``` end of file”),
//     when the block is otherwise unclosed, improperly nested, or closed
//     only by a later, longer fence (the `fence-trailing-text` error);
//   - adds the space in a `#Title` line;
//   - makes an action heading written at another level a heading 3
//     (`## EDIT` becomes `### EDIT`, the `wrong-heading-level` error);
//   - removes whitespace-only lines at the end of the document.
//
// Repairs never add or remove a line except those trailing lines, so line
// numbers are the same before and after; each repair is reported as a
// warning diagnostic whose span is in the fixed text. Block content is
// never changed except the fence lines a repair rewrites. For the
// fenced-acts dialect the two fence repairs follow that dialect's rules
// (fix/acts.go, docs/acts.md "Repairs"), and the last repair applies; for
// other dialects only the last repair applies.
package fix

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/internal/number"
	"github.com/plangram/plangram/lexer"
)

// Repair codes (warnings).
const (
	CodeNestedFence   = "fixed-nested-fence"
	CodeTrailingText  = "fixed-fence-trailing-text"
	CodeTitleSpace    = "fixed-title-space"
	CodeHeadingLevel  = "fixed-heading-level"
	CodeTrailingBlank = "fixed-trailing-blank-lines"
	// CodeFenceBudget reports that the fence repairs stopped at the work
	// bound (fixer.charge): the output keeps the repairs made before it.
	CodeFenceBudget = "fix-work-budget"
)

// searchLimit bounds how many lines the search for a nested block's
// intended closing fence looks at, so adversarial input stays linear.
const searchLimit = 10000

// repair is one change, located by 1-based line numbers (the same in the
// input and the output).
type repair struct {
	code    string
	line    int
	msg     string
	related []relatedLine
}

type relatedLine struct {
	line int
	msg  string
}

// Apply repairs src written in dialect ("plan", "acts", or "auto"/"" to
// detect it) and returns the repaired bytes and one warning per repair. It
// is idempotent: Apply(Apply(x)) changes nothing more. When nothing needs
// repair the returned slice is src itself.
func Apply(src []byte, dialect string) (fixed []byte, repairs []*ast.Diagnostic) {
	if grammar.Rejects(src) {
		// UTF-16, binary or CR-only input: parse rejects it and its lines
		// are not known, so it is left as it is, as fmt leaves it (a
		// "repair" could only make it readable by dropping bytes, such as
		// a NUL after a closing fence taken for trailing text).
		return src, nil
	}
	if dialect == "" || dialect == grammar.DialectAuto {
		dialect = grammar.Detect(src)
	}
	if dialect == grammar.DialectTools {
		// The repairs are of fences, headings and the lines after the
		// last one; in a tools reply such lines may be a call's
		// content, so there is nothing to repair.
		return src, nil
	}
	f := rewrite(src, dialect)
	if len(f.repairs) == 0 {
		return src, nil
	}
	out := []byte(f.text)
	if withheld(src, out, dialect) {
		return src, nil
	}
	lines := ast.NewLines(out)
	span := func(line int) ast.Span {
		start := lines.LineStart(line)
		end := start
		for end < len(out) && out[end] != '\n' && out[end] != '\r' {
			end++
		}
		return lines.Span(start, end)
	}
	for _, r := range f.repairs {
		d := &ast.Diagnostic{Severity: ast.Warning, Code: r.code, Message: r.msg, Span: span(r.line)}
		for _, rl := range r.related {
			d.Related = append(d.Related, ast.Related{Message: rl.msg, Span: span(rl.line)})
		}
		repairs = append(repairs, d)
	}
	ast.SortDiagnostics(repairs)
	return out, repairs
}

// rewrite makes the repairs of dialect on src, before the checks of
// withheld.
func rewrite(src []byte, dialect string) *fixer {
	f := &fixer{text: string(src), budget: 128*len(src) + 256<<20} // the fence passes' work bound (fences)
	switch dialect {
	case grammar.DialectPlan:
		f.fences()
		f.title()
		f.headingLevels()
	case grammar.DialectActs:
		f.actsFences()
	}
	f.trailingBlank(dialect)
	f.summarise()
	return f
}

// withheld reports whether the repaired text out of src must not be
// output, so that the input is returned as it is (docs/acts.md, "Lone
// CRs"): a repair never makes a readable input unreadable, nor a lone CR
// that hid nothing hide a line.
func withheld(src, out []byte, dialect string) bool {
	if grammar.Rejects(out) {
		// Shorter text can raise the share of bytes that are not text past
		// the binary threshold, or bring a lone CR to the first line.
		return true
	}
	// A lone CR (lone-cr): a fence repaired to the run the CR comes before.
	opts := grammar.Options{Dialect: dialect}
	return grammar.LoneCRHidesLine(context.Background(), out, opts) &&
		!grammar.LoneCRHidesLine(context.Background(), src, opts)
}

type fixer struct {
	text    string
	repairs []repair
	cap     grammar.Cap // caps repairs per code (add)
	// base is an offset of text before which no repair is made any more,
	// and baseLines the line endings before it, so that lineNo counts
	// only from there.
	base, baseLines int
	// work counts the bytes the fence passes scanned and copied; budget is
	// its bound (fences, actsFences).
	work, budget int
}

// charge adds n bytes to the fence pass's work and reports whether the
// work is still within its budget.
func (f *fixer) charge(n int) bool {
	f.work += n
	return f.work <= f.budget
}

// add records a repair, unless grammar.MaxPerCode repairs of its code
// were recorded: then it is only counted, and one repair sums up those
// (summarise), so that the list stays short whatever the input repeats.
func (f *fixer) add(r repair) {
	if f.cap.Take(ast.Warning, r.code, ast.Span{Start: ast.Pos{Line: r.line}}, "") {
		f.repairs = append(f.repairs, r)
	}
}

// summarise adds the repair that sums up those of each code past
// grammar.MaxPerCode.
func (f *fixer) summarise() {
	for _, o := range f.cap.Overflows() {
		f.repairs = append(f.repairs, repair{code: o.Code, line: o.First.Start.Line,
			msg: fmt.Sprintf("%s more %s repairs like the %d above were made (lines %d–%d)",
				number.Thousands(o.N), o.Code, grammar.MaxPerCode, o.First.Start.Line, o.LastLine)})
	}
}

// lineNo returns the 1-based line number of offset off of the text.
func (f *fixer) lineNo(off int) int {
	if off >= f.base {
		f.charge(off - f.base)
		return f.baseLines + 1 + strings.Count(f.text[f.base:off], "\n")
	}
	return 1 + strings.Count(f.text[:off], "\n")
}

// body returns a line without its line ending, and the ending.
func body(line string) (string, string) {
	b := strings.TrimSuffix(line, "\n")
	b = strings.TrimSuffix(b, "\r")
	return b, line[len(b):]
}

// setRun rewrites the fence run of the fence line at off to n characters.
func (f *fixer) setRun(off, n int) {
	e := lexer.LineEnd(f.text, off)
	f.charge(len(f.text))
	f.text = f.text[:off] + withRun(f.text[off:e], n) + f.text[e:]
}

// fences walks the top-level fenced blocks and repairs each broken one,
// rescanning a block after repairing it. A repair rebuilds the text, and
// a block left unclosed is scanned to the end of the document, so the
// work is bounded: past budget bytes scanned and copied (128 per byte of
// the input plus 256 MiB, far above what hundreds of repairs of a 1 MB
// plan cost) the pass stops and reports it (CodeFenceBudget); the text then
// holds the repairs made so far, each of them whole.
func (f *fixer) fences() {
	defer func() { f.base, f.baseLines = 0, 0 }()
	limit := 2*strings.Count(f.text, "\n") + 16
	for off, n := 0, 0; off < len(f.text) && n < limit; n++ {
		typ, end := lexer.ScanMarkdown(f.text, off)
		if !f.charge(end - off) {
			f.stop(f.lineNo(off))
			return
		}
		if typ == lexer.MdFence && f.repairBlock(off, end) {
			continue
		}
		f.baseLines += strings.Count(f.text[off:end], "\n")
		f.base, off = end, end
	}
}

// stop reports that the fence repairs stopped at line at their budget.
func (f *fixer) stop(line int) {
	f.repairs = append(f.repairs, repair{code: CodeFenceBudget, line: line,
		msg: fmt.Sprintf("stopped repairing fences here: the repairs took more than %s bytes of work for %s bytes of input; the fences after this line are left as they are",
			number.Thousands(f.budget), number.Thousands(len(f.text)))})
}

// repairBlock repairs the block token [off, end) if it is improperly nested
// or unclosed, reporting whether it changed anything.
func (f *fixer) repairBlock(off, end int) bool {
	tok := f.text[off:end]
	first := lexer.LineEnd(tok, 0)
	openLine, _ := body(tok[:first])
	bomLen := 0
	if off == 0 && strings.HasPrefix(openLine, "\uFEFF") {
		bomLen = 3
	}
	open, _ := lexer.MdFenceAt(f.text, off) // a line start or the run of a list item's marker line
	last := strings.LastIndexByte(strings.TrimSuffix(tok, "\n"), '\n') + 1
	closed := last >= first && first < len(tok) && open.Closes(tok[last:])
	if closed {
		inner, ok := lexer.MisnestedFence(tok)
		// A line that would close the block but for the text after its
		// run — before the nested opening line, if any, and then only a
		// remark, not an info string: the block ran on to a later fence
		// (the fence-trailing-text error).
		if at, withText := lexer.FenceWithText(tok, open, true); withText && (!ok || at < inner && !lexer.LooksLikeInfo(infoAt(tok, at))) {
			return f.stripTrailing(off, at, lexer.LineEnd(tok, at), open, false)
		}
		if !ok {
			return false
		}
		if f.stripTrailing(off, first, last, open, true) {
			return true
		}
		f.lengthen(off+bomLen, off+inner, off+last, open)
		return true
	}
	return f.stripTrailing(off, first, len(tok), open, false)
}

// infoAt returns the text after the fence run of the line at offset at of
// tok.
func infoAt(tok string, at int) string {
	line, _ := body(tok[at:lexer.LineEnd(tok, at)])
	g, _ := lexer.ParseMdFence(line)
	return g.Info
}

// stripTrailing finds, among the content lines [first, stop) of the block at
// off, the first line holding a run of the block's fence character at least
// as long as its opening run followed by other text, and strips that text,
// making the line the block's closing fence. In a closed (improperly
// nested) block only text that cannot be an info string counts, since
// `bash` after a run is more likely a nested opening fence.
func (f *fixer) stripTrailing(off, first, stop int, open lexer.MdFenceLine, closed bool) bool {
	tok := f.text[off:]
	for p := first; p < stop; p = lexer.LineEnd(tok, p) {
		e := lexer.LineEnd(tok, p)
		line, ending := body(tok[p:e])
		run, rest, ok := runWithText(line, open)
		if !ok || (closed && plausibleInfo(rest)) {
			continue
		}
		r := repair{code: CodeTrailingText, line: f.lineNo(off + p),
			msg: fmt.Sprintf("removed %q after the closing fence of the block opened at line %d", rest, f.lineNo(off))}
		f.charge(len(f.text))
		f.text = f.text[:off+p] + line[:run] + ending + tok[e:]
		f.add(r)
		return true
	}
	return false
}

// runWithText reports whether line is indented no more than a closing fence
// of open may be and holds a run of open's character at least as long as
// open's run followed by other text; run is the end of the run in line.
func runWithText(line string, open lexer.MdFenceLine) (run int, rest string, ok bool) {
	w, i := lexer.Indent(line)
	j := i
	for j < len(line) && line[j] == open.Char {
		j++
	}
	// Only the blanks the lexer trims around an info string (lexer.trim):
	// a form feed, a vertical tab or U+2028 after the run is text to the
	// parser (fence-trailing-text), so it is text to strip here too.
	rest = strings.Trim(line[j:], " \t\r")
	if j-i < open.Run || w > open.Indent+3 || rest == "" {
		return 0, "", false
	}
	return j, rest, true
}

// plausibleInfo reports whether text after a fence run reads like an info
// string: a language word (python, c++, objective-c, python.old) or an
// attribute block.
func plausibleInfo(s string) bool {
	c := s[0]
	return c == '{' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// lengthen repairs an improperly nested block: the block opened at open
// (offset openOff) was closed at closeOff by a fence meant for the nested
// block opened at innerOff. Its intended closing fence is found by reading
// the following lines with nesting (opening lines with an info string push,
// bare fences at least as long pop, the first bare fence with nothing open
// closes). Both fences become one character longer than every fence of the
// same character inside. Without an intended closing fence, the block keeps
// its extent and only gets longer fences, which makes the nested-looking
// line plain content.
func (f *fixer) lengthen(openOff, innerOff, closeOff int, open lexer.MdFenceLine) {
	start := lexer.LineEnd(f.text, openOff)
	closeAt, maxRun, intended := lexer.IntendedClose(f.text, start, open, false, searchLimit)
	if intended {
		f.charge(closeAt - start)
	} else {
		f.charge(len(f.text) - start)
		closeAt, maxRun = closeOff, 0
		for p := start; p < closeOff; p = lexer.LineEnd(f.text, p) {
			line, _ := body(f.text[p:lexer.LineEnd(f.text, p)])
			if g, ok := lexer.ParseMdFence(line); ok && g.Char == open.Char {
				maxRun = max(maxRun, g.Run)
			}
		}
	}
	n := max(open.Run, maxRun) + 1
	openLine, innerLine, closeLine := f.lineNo(openOff), f.lineNo(innerOff), f.lineNo(closeAt)
	f.setRun(closeAt, n) // the later line first: offsets before it stay valid
	f.setRun(openOff, n)
	fence := strings.Repeat(string(open.Char), n)
	r := repair{code: CodeNestedFence, line: openLine, related: []relatedLine{{closeLine, "its closing fence, lengthened"}}}
	if intended {
		r.msg = fmt.Sprintf("lengthened the fences of the block opened here to %s, so the block opened at line %d nests inside it and the block ends at line %d", fence, innerLine, closeLine)
	} else {
		r.msg = fmt.Sprintf("lengthened the fences of the block opened here to %s; no closing fence for it follows the nested block opened at line %d, so that line stays content and the block still ends at line %d", fence, innerLine, closeLine)
	}
	f.add(r)
}

// headingLevels makes each action heading the plan parser finds at a level
// other than 3 (wrong-heading-level, built-in plan schema) a heading 3:
// only its run of #s changes.
func (f *fixer) headingLevels() {
	// Every wrong-level heading, not the first grammar.MaxPerCode: fix
	// repairs them all in one pass (it is idempotent).
	p, err := grammar.NewPlanParser(nil)
	if err != nil {
		return
	}
	p.Uncapped = true
	doc, err := p.Parse(context.Background(), "", []byte(f.text))
	if err != nil {
		return
	}
	// One pass in document order: each repaired line's run of #s is
	// rewritten as the text is copied (never the whole text per repair).
	heads := slices.DeleteFunc(doc.Diagnostics, func(d *ast.Diagnostic) bool { return d.Code != grammar.CodeHeadingLevel })
	slices.SortStableFunc(heads, func(a, b *ast.Diagnostic) int { return a.Span.Start.Offset - b.Span.Start.Offset })
	var out strings.Builder
	done := 0
	for _, d := range heads {
		off := d.Span.Start.Offset
		if off < done {
			continue
		}
		line, _ := body(f.text[off:lexer.LineEnd(f.text, off)])
		j := strings.IndexByte(line, '#')
		k := j
		for k < len(line) && line[k] == '#' {
			k++
		}
		if j < 0 || k-j == 3 {
			continue
		}
		if out.Len() == 0 {
			out.Grow(len(f.text) + 64)
		}
		out.WriteString(f.text[done : off+j])
		out.WriteString("###")
		done = off + k
		f.add(repair{code: CodeHeadingLevel, line: d.Span.Start.Line,
			msg: fmt.Sprintf("made the action heading %q a level-3 heading", strings.TrimSpace(line))})
	}
	if done > 0 {
		out.WriteString(f.text[done:])
		f.text = out.String()
	}
}

// title adds the space in a `#Title` line: the first level-1 heading before
// the first section, as the plan grammar reads the title.
func (f *fixer) title() {
	for off := 0; off < len(f.text); {
		typ, end := lexer.ScanMarkdown(f.text, off)
		switch typ {
		case lexer.MdH1, lexer.MdH2, lexer.MdH3:
			return
		case lexer.MdTight:
			line := f.text[off:end]
			i := strings.IndexByte(line, '#')
			if i+1 < len(line) && line[i+1] != '#' {
				f.text = f.text[:off+i+1] + " " + f.text[off+i+1:]
				f.add(repair{code: CodeTitleSpace, line: f.lineNo(off), msg: "added the space after # in the title"})
				return
			}
		}
		off = end
	}
}

// trailingBlank removes whitespace-only lines at the end of the document,
// unless they are content of a block left unclosed there.
func (f *fixer) trailingBlank(dialect string) {
	t := f.text
	i := len(strings.TrimRight(t, " \t\r\n"))
	cut := 0
	if i > 0 {
		cut = lexer.LineEnd(t, i-1) // the last line with text, with its line ending
	}
	if cut >= len(t) || f.endsInsideBlock(dialect) {
		return
	}
	n := strings.Count(t[cut:], "\n")
	if !strings.HasSuffix(t, "\n") {
		n++
	}
	f.text = t[:cut]
	f.add(repair{code: CodeTrailingBlank, line: f.lineNo(cut), msg: fmt.Sprintf("removed %s at the end of the document", number.Plural(n, "whitespace-only line"))})
}

// endsInsideBlock reports whether the document ends inside an unclosed
// fenced block (whose trailing lines are content).
func (f *fixer) endsInsideBlock(dialect string) bool {
	t := f.text
	if dialect == grammar.DialectPlan {
		var typ, start, end = lexer.MdBlank, 0, 0
		for off := 0; off < len(t); off = end {
			start = off
			typ, end = lexer.ScanMarkdown(t, off)
		}
		if typ != lexer.MdFence {
			return false
		}
		tok := t[start:]
		first := lexer.LineEnd(tok, 0)
		open, _ := lexer.MdFenceAt(t, start)
		last := strings.LastIndexByte(strings.TrimSuffix(tok, "\n"), '\n') + 1
		return !(last >= first && first < len(tok) && open.Closes(tok[last:]))
	}
	sc := lexer.NewScanner("", t, 0)
	var last string
	var typ = lexer.Text
	for {
		tk, _ := sc.Next()
		if tk.EOF() {
			break
		}
		last, typ = tk.Value, tk.Type
	}
	if typ != lexer.Block && typ != lexer.ActBlock {
		return false
	}
	first := lexer.LineEnd(last, 0)
	run, _, _ := lexer.OpenFence([]byte(last[:first]), sc.Fence())
	lastLine := strings.LastIndexByte(strings.TrimSuffix(last, "\n"), '\n') + 1
	return !(lastLine >= first && first < len(last) && lexer.ClosesFence([]byte(last[lastLine:]), run))
}
