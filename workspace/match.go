package workspace

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/internal/linediff"
	"github.com/plangram/plangram/internal/number"
)

// edit is one FIND/REPLACE pair of an action.
type edit struct {
	find, replace string
	span          ast.Span // the FIND text in the plan
	name          string   // "FIND text", "FIND text of pair 2", "old text"
}

// editsOf returns the action's FIND/REPLACE pairs, read from parameters by
// name: old/new (acts), find/replace, or edits[{find, replace}] (plan).
func editsOf(a *ast.Action) []edit {
	for _, pair := range [][2]string{{"old", "new"}, {"find", "replace"}} {
		if v, ok := a.Params.Get(pair[0]); ok {
			s, _ := v.(string)
			r, _ := a.Params.Get(pair[1])
			rs, _ := r.(string)
			return []edit{{find: s, replace: rs, span: paramSpan(a, pair[0]), name: pair[0] + " text"}}
		}
	}
	v, ok := a.Params.Get("edits")
	if !ok {
		return nil
	}
	var list []struct {
		Find    string `json:"find"`
		Replace string `json:"replace"`
	}
	if ast.DecodeValue(v, &list) != nil { // exact bytes, not a lossy JSON round trip
		return nil
	}
	var finds []*ast.Block
	for _, b := range a.Blocks {
		if strings.Contains(strings.ToUpper(b.Label), "FIND") {
			finds = append(finds, b)
		}
	}
	out := make([]edit, 0, len(list))
	for i, e := range list {
		ed := edit{find: e.Find, replace: e.Replace, span: paramSpan(a, "edits"), name: "FIND text"}
		if len(list) > 1 {
			ed.name = fmt.Sprintf("FIND text of pair %d", i+1)
		}
		if i < len(finds) {
			ed.span = finds[i].ContentSpan
			if e.Find == "" {
				ed.span = finds[i].Span
			}
		}
		out = append(out, ed)
	}
	return out
}

// paramSpan is where a's parameter name is written, else a's name.
func paramSpan(a *ast.Action, name string) ast.Span {
	for _, p := range a.Params {
		if p.Name == name && p.Span != nil {
			return *p.Span
		}
	}
	return a.NameSpan
}

// edit checks every FIND text of the action against the target's current
// content, in order, applying each edit that matches so later ones (and
// later actions) see the result.
func (c *checker) edit(ctx context.Context, a *ast.Action, t *pathArg, all bool) {
	f := c.needFile(a, t, "edit")
	if f == nil {
		return
	}
	if !f.known {
		sev := ast.Warning
		if c.strict { // the edit cannot be made
			sev = ast.Error
		}
		if f.problem != "" {
			c.add(sev, CodeFileUnreadable, *t.span, "%s: %s cannot be checked: %s", a.Name, t.value, f.problem)
		}
		return
	}
	matchAll := all || flag(a.Params, "match_all")
	buf, changed := c.textOf(f), false
	for _, e := range editsOf(a) {
		if ctx.Err() != nil || c.work.over() {
			return // cancelled, or the work budget is spent (overBudget)
		}
		if e.find == "" {
			c.add(ast.Error, CodeFindEmpty, e.span, "%s: the %s is empty; it would match everywhere in %s", a.Name, e.name, t.value)
			continue
		}
		// The first occurrence and whether there is a second (after the
		// first's end); only an ambiguous FIND is counted and listed.
		occ := buf.Index(e.find, 0, 2)
		if where, ok := editApplied(buf, e, occ, matchAll, c.unchanged(f)); ok {
			c.applied(a, f, t.value, e.span, "%s: the %s's replacement is already in %s (line %d)%s: the edit was applied before, and is not applied again",
				a.Name, e.name, t.value, buf.Line(where), appliedHow(len(occ), e.name))
			continue
		}
		switch n := len(occ); {
		case n == 0:
			d := c.notFound(a, t, e, buf.Len(), buf.String)
			d.Related = related(f, t.value)
		case n > 1 && !matchAll:
			hint := "include more surrounding lines to make it unique"
			if c.hasParam(a, "match_all") {
				hint += ", or set Match All: true to replace every occurrence"
			}
			n, lines := occurrences(buf.String(), e.find, maxListed)
			d := c.add(ast.Error, CodeFindAmbiguous, e.span, "%s: the %s occurs %d times in %s (lines %s); it must occur exactly once: %s",
				a.Name, e.name, n, t.value, lineList(lines, n), hint)
			d.Detail = occurrenceDetail(buf.String(), t.value, lines, n)
			d.Related = related(f, t.value)
		case n > 1: // match all: every occurrence from the first on, in one pass
			content := buf.String()
			buf.Replace(occ[0], buf.Len(), strings.ReplaceAll(content[occ[0]:], e.find, e.replace))
			changed = true
		default:
			buf.Replace(occ[0], occ[0]+len(e.find), e.replace)
			changed = true
		}
	}
	if changed {
		c.set(t.rel, &vfile{exists: true, known: true, content: buf.String(), size: int64(buf.Len()), by: a, how: "edited", origin: f.origin})
	}
}

// maxListed bounds the occurrences listed in a find-ambiguous message.
const maxListed = 10

// occurrences counts the non-overlapping occurrences of find in content (as
// strings.Replace would see them) and returns the 1-based lines at which the
// first limit of them start.
func occurrences(content, find string, limit int) (int, []int) {
	n := strings.Count(content, find)
	if n == 0 {
		return 0, nil
	}
	lines := make([]int, 0, min(n, limit))
	line, counted, off := 1, 0, 0
	for len(lines) < limit {
		i := strings.Index(content[off:], find)
		if i < 0 {
			break
		}
		at := off + i
		line += strings.Count(content[counted:at], "\n")
		counted = at
		lines = append(lines, line)
		off = at + len(find)
	}
	return n, lines
}

func lineList(lines []int, n int) string {
	parts := make([]string, len(lines))
	for i, l := range lines {
		parts[i] = fmt.Sprint(l)
	}
	s := strings.Join(parts, ", ")
	if n > len(lines) {
		s += fmt.Sprintf(", … %d more", n-len(lines))
	}
	return s
}

// occurrenceDetail lists each occurrence's first line.
func occurrenceDetail(content, file string, lines []int, n int) string {
	all := splitLines(content)
	var b strings.Builder
	for _, l := range lines {
		text := ""
		if l-1 < len(all) {
			text = preview(all[l-1], 80)
		}
		fmt.Fprintf(&b, "%s:%d: %s\n", file, l, text)
	}
	if n > len(lines) {
		fmt.Fprintf(&b, "… and %d more\n", n-len(lines))
	}
	return b.String()
}

// notFound reports a FIND text that is not in the file, with the closest
// region and a diff. size is the file's length and content returns its
// text: it is only made when the closest-region search is within the
// check's budget (closestWithin), so that n failing edits of a file of n
// lines cost O(n) in all, not O(n²). Once the budget is spent the
// diagnostic is the same error at the same span, its message ending with
// budgetSpent instead of naming a region.
func (c *checker) notFound(a *ast.Action, t *pathArg, e edit, size int, content func() string) *ast.Diagnostic {
	if size == 0 {
		return c.add(ast.Error, CodeFindNotFound, e.span, "%s: the %s is not in %s: the file is empty", a.Name, e.name, t.value)
	}
	if !c.closestWithin(size, len(e.find)) {
		return c.add(ast.Error, CodeFindNotFound, e.span, "%s: the %s is not in %s %s", a.Name, e.name, t.value, budgetSpent)
	}
	findLines := splitLines(e.find)
	fileLines := splitLines(content())
	if c.grams == nil {
		c.grams = make([]uint64, 1<<18)
	}
	r, ok, work := closest(fileLines, findLines, c.grams)
	c.closestWork += work
	if !ok {
		return c.add(ast.Error, CodeFindNotFound, e.span, "%s: the %s is not in %s, nor anything like it", a.Name, e.name, t.value)
	}
	got := fileLines[r.start:r.end]
	where := lineRange(r.start+1, r.end)
	kind := whitespaceKind(findLines, got)
	var d *ast.Diagnostic
	if kind != "" {
		d = c.add(ast.Error, CodeFindNotFound, e.span, "%s: the %s is not in %s byte for byte; the closest region, %s, differs from it only in %s",
			a.Name, e.name, t.value, where, kind)
	} else {
		d = c.add(ast.Error, CodeFindNotFound, e.span, "%s: the %s is not in %s; the closest region is %s", a.Name, e.name, t.value, where)
	}
	if len(findLines) <= maxDiffLines && len(got) <= maxDiffLines {
		c.closestWork += len(findLines) * len(got)
	}
	d.Detail = diffDetail(findLines, got, r.start, e.name, t.value, where)
	return d
}

// budgetSpent ends the message of a not-found diagnostic whose closest
// region was not searched because the check's search budget is spent.
const budgetSpent = "(closest region not searched: the search budget of this check is spent)"

// The closest-region search of one check may do at most closestFloor plus
// closestPerByte times the bytes it was given (files read from disk and
// FIND texts not found) work units: bytes of file and FIND text scanned,
// plus line pairs compared by diff.
const (
	closestFloor   = 16 << 20
	closestPerByte = 8
)

// closestWithin says whether a closest-region search of a file of size
// bytes for a FIND text of find bytes fits in what is left of the budget;
// the FIND text's bytes add to the budget. The search's work is added to
// closestWork afterwards: a search that began within the budget may
// overrun it by at most one search's bounded refinement and diff.
func (c *checker) closestWithin(size, find int) bool {
	c.closestAllow += find
	floor := c.closestFloor
	if floor == 0 {
		floor = closestFloor
	} else if floor < 0 {
		floor = 0
	}
	return c.closestWork+size+find <= floor+closestPerByte*c.closestAllow
}

func lineRange(from, to int) string {
	if from == to {
		return fmt.Sprintf("line %d", from)
	}
	return fmt.Sprintf("lines %d-%d", from, to)
}

// splitLines splits text into lines without their "\n" (a "\r" before it
// stays, so CRLF differences show). A final line ending does not start
// another line.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.Split(s, "\n")
	if strings.HasSuffix(s, "\n") {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// region is a range of file lines [start, end), 0-based.
type region struct{ start, end int }

// Bounds of the closest-region search. Every line is scored once, in time
// linear in its length (capped), and windows are compared with prefix sums,
// so the search is linear in the file size; only a few windows around the
// best one are compared line by line.
const (
	maxLineScan   = 512 // bytes of a line whose trigrams are scored
	maxFindScan   = 256 << 10
	maxRefineSize = 400 // FIND lines up to which windows are refined by diff ratio
	maxDiffLines  = 2000
)

// closest finds the region of the file most like the FIND text: each file
// line scores 1 when it equals a FIND line up to surrounding white space,
// else the share of its character trigrams that occur in the FIND text; the
// window of as many lines as the FIND text with the highest total wins, and
// windows a few lines longer, shorter or shifted are then compared by their
// diff ratio.
//
// grams is a zeroed bit set of 1<<24 bits, one per trigram, left zeroed on
// return. work is the work done: bytes scanned plus line pairs compared.
func closest(file, find []string, grams []uint64) (_ region, _ bool, work int) {
	n, k := len(file), len(find)
	if n == 0 || k == 0 {
		return region{}, false, 0
	}
	exact := make(map[string]bool, k)
	mark := func(set bool) {
		scanned := 0
		for _, l := range find {
			t := strings.TrimSpace(l)
			if t == "" || scanned >= maxFindScan {
				continue
			}
			scanned += len(t)
			for i := 0; i+3 <= len(t) && i < maxLineScan; i++ {
				g := trigram(t[i:])
				if set {
					grams[g>>6] |= 1 << (g & 63)
				} else {
					grams[g>>6] = 0
				}
			}
		}
	}
	for _, l := range find {
		work += len(l) + 1
		if t := strings.TrimSpace(l); t != "" {
			exact[t] = true
		}
	}
	mark(true)
	defer mark(false)
	score := make([]float64, n)
	for j, l := range file {
		work += len(l) + 1
		t := strings.TrimSpace(l)
		switch {
		case t == "":
		case exact[t]:
			score[j] = 1
		case len(t) >= 3:
			hit, total := 0, 0
			for i := 0; i+3 <= len(t) && i < maxLineScan; i++ {
				total++
				if g := trigram(t[i:]); grams[g>>6]&(1<<(g&63)) != 0 {
					hit++
				}
			}
			score[j] = 0.8 * float64(hit) / float64(total)
		}
	}
	w := min(k, n)
	sum := 0.0
	for j := 0; j < w; j++ {
		sum += score[j]
	}
	best, bestSum := 0, sum
	for s := 1; s+w <= n; s++ {
		sum += score[s+w-1] - score[s-1]
		if sum > bestSum+1e-9 {
			best, bestSum = s, sum
		}
	}
	if bestSum < 0.3 {
		return region{}, false, work
	}
	r := region{best, best + w}
	if k > maxRefineSize {
		return r, true, work
	}
	norm := func(ls []string) []string {
		out := make([]string, len(ls))
		for i, l := range ls {
			out[i] = strings.Join(strings.Fields(l), " ")
		}
		return out
	}
	findNorm := norm(find)
	lo, hi := max(0, best-2), min(n, best+w+4)
	fileNorm := norm(file[lo:hi])
	// A window's score: the diff ratio of its lines to the FIND lines (white
	// space normalised) plus its mean line score, less a little for each line
	// it is longer or shorter than the FIND text. The first window wins ties.
	scoreOf := func(s, l int) float64 {
		sum := 0.0
		for _, x := range score[s : s+l] {
			sum += x
		}
		work += k * l
		return linediff.Ratio(findNorm, fileNorm[s-lo:s-lo+l]) + sum/float64(max(k, l)) - 0.01*float64(max(l-k, k-l))
	}
	bestScore := scoreOf(r.start, r.end-r.start)
	for s := lo; s <= min(n-1, best+2); s++ {
		for l := max(1, w-2); l <= w+2 && s+l <= hi; l++ {
			if sc := scoreOf(s, l); sc > bestScore+1e-9 {
				bestScore, r = sc, region{s, s + l}
			}
		}
	}
	return r, true, work
}

func trigram(s string) uint32 { return uint32(s[0])<<16 | uint32(s[1])<<8 | uint32(s[2]) }

// whitespaceKind says how two line lists differ when they differ only in
// white space: "line endings (CRLF against LF)", "trailing white space",
// "indentation", "indentation (tabs against spaces)", "white space" or
// "the final line ending"; "" when they differ in other characters.
func whitespaceKind(a, b []string) string {
	same := func(f func(string) string) bool {
		return slices.EqualFunc(a, b, func(x, y string) bool { return f(x) == f(y) })
	}
	switch {
	case same(func(s string) string { return s }):
		return "the final line ending"
	case same(func(s string) string { return strings.TrimSuffix(s, "\r") }):
		return "line endings (CRLF against LF)"
	case same(func(s string) string { return strings.TrimRight(s, " \t\r") }):
		return "trailing white space"
	case same(func(s string) string { return strings.TrimLeft(strings.TrimRight(s, " \t\r"), " \t") }):
		if tabsVsSpaces(a, b) {
			return "indentation (tabs against spaces)"
		}
		return "indentation"
	}
	squash := func(ls []string) string {
		return strings.Map(func(r rune) rune {
			if r == ' ' || r == '\t' || r == '\r' || r == '\f' || r == '\v' || r == '\n' {
				return -1
			}
			return r
		}, strings.Join(ls, "\n")) // each line on its own, as the lines hold no "\n"
	}
	if squash(a) == squash(b) {
		return "white space"
	}
	if same(asciiPunct) {
		return typographicDiff(a, b)
	}
	return ""
}

// asciiPunct maps the typographic dashes, quotes and spaces models type as
// ASCII ones (the set codex's apply_patch treats as equal) to ASCII.
func asciiPunct(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2015', '\u2212':
			return '-'
		case '\u2018', '\u2019', '\u201A', '\u201B':
			return '\''
		case '\u201C', '\u201D', '\u201E', '\u201F':
			return '"'
		case '\u00A0', '\u2002', '\u2003', '\u2004', '\u2005', '\u2006', '\u2007', '\u2008', '\u2009', '\u200A', '\u202F', '\u205F', '\u3000':
			return ' '
		}
		return r
	}, s)
}

// typographicDiff names the first pair of characters that differ between
// lines equal under asciiPunct.
func typographicDiff(a, b []string) string {
	for i := range a {
		ra, rb := []rune(a[i]), []rune(b[i])
		for j := 0; j < len(ra) && j < len(rb); j++ {
			if ra[j] != rb[j] {
				return fmt.Sprintf("typographic punctuation (the file has %q U+%04X where the text has %q)", rb[j], rb[j], ra[j])
			}
		}
	}
	return "typographic punctuation"
}

// tabsVsSpaces reports whether one side indents with tabs where the other
// uses spaces.
func tabsVsSpaces(a, b []string) bool {
	for i := range a {
		ia, ib := indent(a[i]), indent(b[i])
		if ia != ib && (strings.Contains(ia, "\t") != strings.Contains(ib, "\t")) {
			return true
		}
	}
	return false
}

func indent(s string) string { return s[:len(s)-len(strings.TrimLeft(s, " \t"))] }

// diffDetail renders a unified diff from the FIND lines to the file's
// region (file line numbers on the + side), then one note per line pair
// that differs only in white space.
func diffDetail(find, got []string, start int, name, file, where string) string {
	if len(find) > maxDiffLines || len(got) > maxDiffLines {
		return fmt.Sprintf("(no diff: the %s has %d lines)\n", name, len(find))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "--- %s\n+++ %s (%s)\n", name, file, where)
	var notes []string
	for _, group := range linediff.Hunks(linediff.Changes(linediff.Blocks(find, got, false)), 3) {
		first, last := group[0], group[len(group)-1]
		fmt.Fprintf(&b, "@@ -%s +%s @@\n", unifiedRange(first.I1, last.I2, 0), unifiedRange(first.J1, last.J2, start))
		for _, op := range group {
			if op.Tag == 'e' {
				for _, l := range find[op.I1:op.I2] {
					b.WriteString(" " + visible(l) + "\n")
				}
				continue
			}
			if op.Tag == 'r' || op.Tag == 'd' {
				for _, l := range find[op.I1:op.I2] {
					b.WriteString("-" + visible(l) + "\n")
				}
			}
			if op.Tag == 'r' || op.Tag == 'i' {
				for _, l := range got[op.J1:op.J2] {
					b.WriteString("+" + visible(l) + "\n")
				}
			}
			if op.Tag == 'r' {
				for x := 0; x < op.I2-op.I1 && x < op.J2-op.J1; x++ {
					if note := lineNote(find[op.I1+x], got[op.J1+x], name, op.I1+x+1, start+op.J1+x+1); note != "" {
						notes = append(notes, note)
					}
				}
			}
		}
	}
	const maxNotes = 8
	for i, n := range notes {
		if i == maxNotes {
			fmt.Fprintf(&b, "… %d more lines differ only in white space\n", len(notes)-maxNotes)
			break
		}
		b.WriteString(n + "\n")
	}
	return b.String()
}

// unifiedRange formats a hunk range as unified diffs do.
func unifiedRange(i1, i2, base int) string {
	start, length := i1+1+base, i2-i1
	switch length {
	case 1:
		return fmt.Sprint(start)
	case 0:
		return fmt.Sprintf("%d,0", start-1)
	}
	return fmt.Sprintf("%d,%d", start, length)
}

// lineNote explains a pair of lines that differ only in white space.
func lineNote(a, b, name string, la, lb int) string {
	if a == b {
		return ""
	}
	what := fmt.Sprintf("white space: %s line %d", name, la)
	file := fmt.Sprintf("file line %d", lb)
	switch {
	case strings.TrimSuffix(a, "\r") == strings.TrimSuffix(b, "\r"):
		if strings.HasSuffix(a, "\r") {
			return fmt.Sprintf("%s ends in CRLF, %s in LF", what, file)
		}
		return fmt.Sprintf("%s ends in LF, %s in CRLF", what, file)
	case strings.TrimRight(a, " \t\r") == strings.TrimRight(b, " \t\r"):
		return fmt.Sprintf("%s has %s, %s has %s", what, trailingPhrase(a), file, trailingPhrase(b))
	case strings.TrimLeft(a, " \t") == strings.TrimLeft(b, " \t"):
		return fmt.Sprintf("%s is indented with %s, %s with %s", what, describeWS(indent(a)), file, describeWS(indent(b)))
	case strings.Join(strings.Fields(a), "") == strings.Join(strings.Fields(b), ""):
		return fmt.Sprintf("%s and %s differ in the spaces inside the line", what, file)
	}
	return ""
}

// trailingPhrase describes a line's trailing white space: "no trailing
// white space", "2 trailing spaces".
func trailingPhrase(s string) string {
	s = strings.TrimSuffix(s, "\r")
	t := s[len(strings.TrimRight(s, " \t")):]
	if t == "" {
		return "no trailing white space"
	}
	return "trailing " + describeWS(t)
}

// describeWS names a run of white space: "4 spaces", "1 tab", "1 tab + 2
// spaces", "nothing".
func describeWS(s string) string {
	if s == "" {
		return "nothing"
	}
	var parts []string
	for len(s) > 0 {
		c := s[0]
		n := len(s) - len(strings.TrimLeft(s, string(c)))
		noun := "space"
		if c == '\t' {
			noun = "tab"
		}
		parts = append(parts, number.Plural(int64(n), noun))
		s = s[n:]
	}
	return strings.Join(parts, " + ")
}

// visible shows a carriage return, which a terminal would act on.
func visible(s string) string { return strings.ReplaceAll(s, "\r", "␍") }

// preview trims a line for a one-line listing.
func preview(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) > n {
		cut := n
		for cut > 0 && s[cut]&0xC0 == 0x80 { // do not split a UTF-8 sequence
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}
