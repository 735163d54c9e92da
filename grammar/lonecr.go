package grammar

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/internal/view"
	"github.com/plangram/plangram/lexer"
)

// CodeLoneCR: a lone CR (a carriage return not followed by LF) in the
// middle of the input hides a structural line. plangram ends lines at LF
// only, so the text after such a CR is part of the line before it, while
// CommonMark (and every Markdown tool that follows it) ends the line at
// the CR: when the text on one side of the CR would be a structural line
// of the dialect at that place — an opening fence, the closing fence of
// the open block, in the plan dialect also a heading or a list item — the
// two readings differ, and the CR is an error at its exact byte. A lone CR
// that hides nothing (a progress bar's `\r` in block content, `a\rb` in
// prose) is content and is not reported (docs/acts.md, "Lone CRs").
const CodeLoneCR = "lone-cr"

// crKind is what a line (or the text between two line endings, reading
// lone CRs as line endings) is to the dialect at its place.
type crKind uint8

const (
	crNone      crKind = iota
	crOpen             // an opening fence (the block opens)
	crOpenOther        // acts: an act block's opening fence in the other fence character
	crClose            // the closing fence of the open block
	crHeading          // plan: an ATX heading (`#` to `######`, also without the space)
	crItem             // plan: a list item's marker line
)

// crLine is how the dialect reads one line.
type crLine struct {
	kind  crKind
	level int    // headings: 1–6
	char  byte   // fences: the fence character
	run   int    // fences: the run's length
	info  string // opening fences: the info string
}

// crState is the state a line is read in: outside any block, or inside
// one (in), opened by the run of char (acts) or the fence line f (plan).
// real says the block is the one the parser reads (not one opened by a
// fence only the CR-as-line-ending reading sees).
type crState struct {
	in   bool
	real bool
	char byte
	run  int
	f    lexer.MdFenceLine
}

// crRules are one dialect's rules for what is a structural line: the acts
// dialect with fence character fence, or the plan dialect.
type crRules struct {
	plan  bool
	fence byte
}

// crHit is a lone CR that hides a structural line: at offset cr of its
// line, the text seg on one side of it (after it, or before it when
// before is set) reads as what.
type crHit struct {
	cr     int
	what   crLine
	seg    string
	before bool
}

// classify returns how the dialect reads line in state st, and the state
// after it.
func (r crRules) classify(line string, st crState) (crLine, crState) {
	if r.plan {
		return r.classifyPlan(line, st)
	}
	if st.in {
		if lexer.ClosesRun(line, st.char, st.run) {
			return crLine{kind: crClose}, crState{}
		}
		return crLine{}, st
	}
	if run, info, ok := lexer.OpenFenceString(line, r.fence); ok {
		return crLine{kind: crOpen, char: r.fence, run: len(run), info: info}, crState{in: true, char: r.fence, run: len(run)}
	}
	other := otherFence(r.fence)
	if run, info, ok := lexer.OpenFenceString(line, other); ok && lexer.IsAct(info) {
		return crLine{kind: crOpenOther, char: other, run: len(run), info: info}, st
	}
	return crLine{}, st
}

// classifyPlan is classify for the plan dialect (CommonMark's fence rules:
// a longer run closes too; list item fences open).
func (r crRules) classifyPlan(line string, st crState) (crLine, crState) {
	if st.in {
		if st.f.Closes(line) {
			return crLine{kind: crClose}, crState{}
		}
		return crLine{}, st
	}
	typ := lexer.ClassifyLine(line)
	switch typ {
	case lexer.MdBlank, lexer.MdBreak:
		return crLine{}, st
	case lexer.MdFence, lexer.MdItem, lexer.MdLine:
		if f, ok := lexer.ParseMdFence(line); ok {
			return crLine{kind: crOpen, char: f.Char, run: f.Run, info: f.Info}, crState{in: true, f: f}
		}
		if typ == lexer.MdItem {
			return crLine{kind: crItem}, st
		}
		return crLine{}, st
	case lexer.MdTight:
		return crLine{kind: crHeading, level: len(headingMarks(line))}, st
	}
	if n := lexer.HeadingLevel(typ); n > 0 {
		return crLine{kind: crHeading, level: n}, st
	}
	return crLine{}, st
}

// hasLoneCR reports whether text holds a CR not followed by LF (a CR at
// the very end included). One pass, no allocation.
func hasLoneCR(text string) bool {
	for p := 0; p < len(text); {
		i := strings.IndexByte(text[p:], '\r')
		if i < 0 {
			return false
		}
		p += i + 1
		if p == len(text) || text[p] != '\n' {
			return true
		}
	}
	return false
}

// scanLine appends to hits the lone CRs of line (one line, with or without
// its LF) that hide a structural line when line is read in state st; bom
// says line starts the input (a byte-order mark there is skipped).
//
// The line is split at its lone CRs (a CR before the LF is the CRLF line
// ending) and the parts are read one after the other as lines, from st,
// as CommonMark would read them. Each part that is a structural line
// hides one: the CR before it, or for the first part the CR after it —
// but for the first structural part when the parts before it are blank
// and the dialect reads the whole line as the same structure (a CR at
// either end of a fence line, or inside a heading's text, hides nothing),
// and for the closing fence of a block opened by a part of the same line
// (the opening part's CR says it).
// Offsets in hits are relative to line.
func (r crRules) scanLine(line string, st crState, bom bool, hits []crHit) []crHit {
	base := 0
	if bom && strings.HasPrefix(line, "\uFEFF") {
		base = len("\uFEFF")
	}
	ce := len(line)
	if ce > 0 && line[ce-1] == '\n' {
		ce--
		if ce > base && line[ce-1] == '\r' {
			ce-- // the CRLF line ending
		}
	}
	whole, _ := r.classify(line[base:], st)
	n0 := len(hits) // hits before this line's: their offsets are another line's
	cur := st
	first, blank := true, true
	prev := -1 // the CR before the part
	for p := base; ; {
		end, next := ce, -1
		if i := strings.IndexByte(line[p:ce], '\r'); i >= 0 {
			end, next = p+i, p+i
		}
		seg := line[p:end]
		what, nst := r.classify(seg, cur)
		if what.kind != crNone {
			// The closing fence of a block that only this reading opened,
			// in this line, is said by the opening fence's error.
			hidden := !(first && blank && what == whole) && (what.kind != crClose || cur.real)
			if hidden {
				cr, before := prev, false
				if cr < 0 {
					cr, before = next, true
				}
				if cr >= 0 && (len(hits) == n0 || hits[len(hits)-1].cr != cr) {
					hits = append(hits, crHit{cr: cr, what: what, seg: seg, before: before})
				}
			}
			first = false
			cur = nst
		}
		blank = blank && strings.Trim(seg, " \t") == ""
		if next < 0 {
			return hits
		}
		prev, p = next, next+1
	}
}

// tokenHits appends to hits the lone CRs of the lines of the token
// text[start:end) that hide a structural line, with offsets in text. The
// token's first line is read in state first, its other lines in state
// rest. A line is read once: *done is the end of the last line read (a
// plan's fence token may start in the middle of a list item's line).
func (r crRules) tokenHits(text string, start, end int, first, rest crState, done *int, hits []crHit) []crHit {
	for p := max(start, *done); p < end; {
		i := strings.IndexByte(text[p:end], '\r')
		if i < 0 {
			break
		}
		c := p + i
		if c+1 < len(text) && text[c+1] == '\n' {
			p = c + 1
			continue
		}
		ls := strings.LastIndexByte(text[:c], '\n') + 1
		le := lineEndAt(text, c)
		st := rest
		if ls <= start {
			st = first
		}
		n := len(hits)
		hits = r.scanLine(text[ls:le], st, ls == 0, hits)
		for k := n; k < len(hits); k++ {
			hits[k].cr += ls
		}
		*done, p = le, le
	}
	return hits
}

// message says what the lone CR of h hides and how to fix it.
func (h crHit) message() string {
	var what string
	switch h.what.kind {
	case crOpen:
		what = "an opening fence"
		if lexer.IsAct(h.what.info) {
			what = "an act block's opening fence (an action plangram does not see)"
		} else if h.what.info != "" {
			what = "an opening fence with the info string " + quoteShort(h.what.info)
		}
	case crOpenOther:
		what = "an act block's opening fence in the other fence character"
	case crClose:
		what = "the closing fence of the open block (plangram's block does not close there and runs on)"
	case crHeading:
		what = "a heading (level " + strconv.Itoa(h.what.level) + ")"
	case crItem:
		what = "a list item"
	}
	const fix = "; convert the line endings (each lone CR to LF, or to CRLF) or remove the CR"
	if h.before {
		return "lone CR (carriage return without LF) hides a line ending: plangram ends lines at LF only and reads the text after it as part of the line " +
			quoteShort(h.seg) + ", but CommonMark ends that line at the CR and reads it as " + what + fix
	}
	return "lone CR (carriage return without LF) hides a line: plangram ends lines at LF only and reads the text after it, " + quoteShort(h.seg) +
		", as part of this line, but CommonMark ends the line at the CR and reads that text as " + what + fix
}

// quoteShort quotes s, cut to 40 bytes (at a character boundary) with an
// ellipsis.
func quoteShort(s string) string {
	const n = 40
	if len(s) <= n {
		return "\"" + s + "\""
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return "\"" + s[:i] + "…\""
}

// ActsLineLoneCRs appends to ds the lone-cr errors of one line of a
// fenced-acts document whose fence character is fence (docs/acts.md, "Lone
// CRs"): lineBytes is the whole line, with its LF unless it is the input's last
// line, at position at (a line start), read inside a block opened by a
// fence run of run characters when run > 0, else outside any block. A
// streaming reader (package stream) uses it for the lines it reads as text;
// Parse reports the same errors for a whole document.
func ActsLineLoneCRs(ds []*ast.Diagnostic, lineBytes []byte, at ast.Pos, fence byte, run int) []*ast.Diagnostic {
	line := view.String(lineBytes) // read only; the messages copy what they quote
	if !hasLoneCR(line) {
		return ds
	}
	st := crState{}
	if run > 0 {
		st = crState{in: true, real: true, char: fence, run: run}
	}
	var scratch [4]crHit
	for _, h := range (crRules{fence: fence}).scanLine(line, st, at.Offset == 0, scratch[:0]) {
		p := ast.Pos{Offset: at.Offset + h.cr, Line: at.Line, Col: at.Col + h.cr}
		q := ast.Pos{Offset: p.Offset + 1, Line: p.Line, Col: p.Col + 1}
		ds = append(ds, &ast.Diagnostic{Severity: ast.Error, Code: CodeLoneCR, Span: ast.Span{Start: p, End: q}, Message: h.message()})
	}
	return ds
}

// HasLoneCRError reports whether doc holds a lone-cr error: a lone CR that
// hides a structural line, so that plangram and CommonMark read the
// document's lines differently. A printer (fmt) leaves such a document as
// it is: rewriting it by plangram's reading would fix one reading of an
// ambiguous input.
//
// A lone-cr error inside the block of an improperly nested fence is one of
// that error's follow-on notes ("follow-on: MSG [lone-cr]"): it counts
// too, or fmt would rewrite such a document by plangram's reading.
func HasLoneCRError(doc *ast.Document) bool {
	return slices.ContainsFunc(doc.Diagnostics, func(d *ast.Diagnostic) bool {
		return d.Code == CodeLoneCR || slices.ContainsFunc(d.Related, func(r ast.Related) bool { return isFollowOn(r, CodeLoneCR) })
	})
}

// LoneCRHidesLine reports whether Parse, with opts, reports a lone CR of
// src that hides a structural line (CodeLoneCR). Input without a lone CR
// is answered at once, without parsing. A rewriter (fmt, fix) checks its
// output with it, so that it never turns an input whose lines read the
// same in plangram and CommonMark into one whose lines do not.
func LoneCRHidesLine(ctx context.Context, src []byte, opts Options) bool {
	if !hasLoneCR(view.String(src)) {
		return false
	}
	doc, err := Parse(ctx, "", src, opts)
	return err == nil && HasLoneCRError(doc)
}
