package render

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strings"

	gast "github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/plangram/plangram/ast"
)

// The inline guard keeps goldmark's time linear in the prose it is given.
//
// goldmark parses the inline Markdown of each paragraph, heading and table
// cell (an inline chunk) by trying a parser at every marker byte (inlineMarker);
// a marker whose construct is not closed soon sends that parser scanning to
// the end of the chunk (`[a](b` repeated, backtick runs, `<!--`, `a_a_a`
// for the e-mail linkify, mismatched emphasis), so a chunk can cost its
// length times its number of markers (quadratic in `[a](` repeated).
//
// Before rendering, plangram parses the block structure alone (linear) and
// prices each inline chunk as the sum, over its markers, of the bytes from
// the marker to the chunk's end: what the scans would cost if each went to
// the end. A chunk whose price exceeds inlineBudget times its length is
// shown as plain text: every ASCII punctuation byte in it is
// backslash-escaped before goldmark sees it, so goldmark reads no Markdown
// in it and its bytes appear as written; the page says which lines.
//
// Two block-level costs are priced too: a paragraph of n link reference
// definitions costs goldmark n times its number of lines (guarded past
// inlineBudget per byte), and each table row is padded to the header's
// number of columns, so a wide header over many short rows makes cells (and
// output) the product of both: a table with more cells than bytes is
// guarded (a table whose rows are written out has at most one cell per two
// bytes).

// maxPageCells is the most table cells one page gives goldmark. A cell
// costs goldmark hundreds of bytes of memory (its node and its text
// segment), over a hundred times the two bytes `b|` it may take in the
// input, and a wide table pads every row to the header's columns. The
// tables past the budget are shown as plain text, their text all there,
// with a note (TestTableCellBudget).
const maxPageCells = 50_000

// inlineBudget is the most a chunk may cost per byte of its length. The
// prose of the documentation, examples and golden plans costs at most about
// 130; a chunk shorter than inlineBudget bytes can never exceed it.
const inlineBudget = 256

// inlineMarker reports whether goldmark (with GFM) tries an inline parser at
// c: code spans, links and images, autolinks and raw HTML, emphasis,
// strikethrough and the linkify extension.
func inlineMarker(c byte) bool {
	switch c {
	case '`', '[', ']', '!', '<', '*', '_', '~', '(':
		return true
	}
	return false
}

// guardKey holds the *guardState of one parse in goldmark's parser context.
var guardKey = parser.NewContextKey()

// guardState collects the regions the guard shows as plain text.
type guardState struct {
	regions []guardRegion
	// cellsLeft is what is left of the page's table-cell budget
	// (maxPageCells): each table blockGuard lets through is charged its
	// header's columns times its rows.
	cellsLeft *int
}

// guardRegion is one guarded chunk: the segments whose punctuation is
// escaped, and why.
type guardRegion struct {
	segs  []text.Segment
	cell  bool // a table cell: `|` and backslash pairs are kept as they are
	table bool // a table past the page's cell budget (maxPageCells)
}

// newBlockParser returns a goldmark parser that reads the block structure
// of prose as plangram's converter does, but no inline Markdown: its time
// is linear in the input. With guard set it also runs the guard's
// block-level checks before goldmark's own paragraph transformers.
func newBlockParser(guard bool) parser.Parser {
	opts := []parser.Option{parser.WithBlockParsers(parser.DefaultBlockParsers()...)}
	if guard {
		opts = append(opts, parser.WithParagraphTransformers(
			util.Prioritized(blockGuard{}, 50),
			util.Prioritized(parser.LinkReferenceParagraphTransformer, 100),
			util.Prioritized(extension.NewTableParagraphTransformer(), 200),
		))
	}
	return parser.NewParser(opts...)
}

// guardInline returns src with the punctuation of every over-budget chunk
// escaped, how many chunks it guarded and their line ranges; src itself
// when none. *cellsLeft is what is left of the page's table-cell budget
// (maxPageCells), charged with the tables src holds.
func guardInline(p parser.Parser, src []byte, cellsLeft *int) ([]byte, []lineRange) {
	st := &guardState{cellsLeft: cellsLeft}
	pc := parser.NewContext()
	pc.Set(guardKey, st)
	doc := p.Parse(text.NewReader(src), parser.WithContext(pc))
	_ = gast.Walk(doc, func(n gast.Node, entering bool) (gast.WalkStatus, error) {
		if !entering || n.Type() != gast.TypeBlock || n.IsRaw() || n.Lines().Len() == 0 {
			return gast.WalkContinue, nil
		}
		segs := n.Lines().Sliced(0, n.Lines().Len())
		if cost, size := inlineCost(src, segs); cost > inlineBudget*size {
			_, cell := n.(*extast.TableCell)
			st.regions = append(st.regions, guardRegion{segs: segs, cell: cell})
		}
		return gast.WalkContinue, nil
	})
	if len(st.regions) == 0 {
		return src, nil
	}
	return escapeRegions(src, st.regions)
}

// inlineCost returns the price of a chunk, for each marker the bytes from
// it to the chunk's end (a backslash-escaped marker is none, as for
// goldmark), and the chunk's length.
func inlineCost(src []byte, segs []text.Segment) (cost, n int) {
	markers, at := 0, 0 // at: the sum of the markers' offsets in the chunk
	for _, s := range segs {
		escaped := false
		for _, c := range src[s.Start:s.Stop] {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case inlineMarker(c):
				markers++
				at += n
			}
			n++
		}
	}
	return markers*n - at, n
}

// blockGuard is the paragraph transformer that runs before goldmark's own:
// a paragraph whose link reference definitions or table padding would
// cost more than inlineBudget per byte, or a table past the page's cell
// budget (maxPageCells), is guarded whole and taken out of the tree, so
// no later transformer sees it.
type blockGuard struct{}

// Transform implements parser.ParagraphTransformer.
func (blockGuard) Transform(node *gast.Paragraph, reader text.Reader, pc parser.Context) {
	st, _ := pc.Get(guardKey).(*guardState)
	if st == nil {
		return
	}
	src := reader.Source()
	lines := node.Lines()
	size, defs, leading := 0, 0, true
	cells, cols := 0, 0
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		l := seg.Value(src)
		size += len(l)
		t := bytes.TrimLeft(l, " \t")
		if leading && len(t) > 0 && t[0] == '[' {
			defs++
		} else {
			leading = false
		}
		if cols > 0 {
			cells += cols // each row is padded to the header's columns
		} else if i > 0 {
			cols = delimiterColumns(t)
		}
	}
	cells += cols // the header row (none when the paragraph is no table)
	cheap := defs*lines.Len() <= inlineBudget*size && cells <= size
	if cheap && cells <= *st.cellsLeft {
		*st.cellsLeft -= cells
		return
	}
	st.regions = append(st.regions, guardRegion{segs: lines.Sliced(0, lines.Len()), table: cheap})
	node.Parent().RemoveChild(node.Parent(), node)
}

// delimiterColumns returns the number of columns of a table delimiter row
// (`| --- | :-: |`), 0 when line is not one. It may count a line goldmark
// rejects, never the other way round.
func delimiterColumns(line []byte) int {
	line = bytes.TrimSpace(line)
	if len(line) == 0 || len(bytes.Trim(line, "|-: \t")) > 0 || bytes.IndexByte(line, '-') < 0 {
		return 0
	}
	return len(bytes.FieldsFunc(line, func(r rune) bool { return r == '|' }))
}

// lineRange is a range of 1-based lines, and whether it is a table past
// the page's cell budget.
type lineRange struct {
	first, last int
	table       bool
}

// escapeRegions returns src with a backslash before every ASCII punctuation
// byte of the regions (in a table cell, `|` and backslash pairs stay as they
// are, so the cell keeps its place), and the line ranges of the regions.
// Regions do not interleave: each is a block's lines or a table cell.
func escapeRegions(src []byte, regions []guardRegion) ([]byte, []lineRange) {
	sort.Slice(regions, func(i, j int) bool { return regions[i].segs[0].Start < regions[j].segs[0].Start })
	lines := ast.NewLines(src)
	ranges := make([]lineRange, 0, len(regions))
	out := make([]byte, 0, len(src)+len(src)/4)
	at := 0
	for _, r := range regions {
		last := r.segs[len(r.segs)-1].Stop
		if last > r.segs[0].Start {
			last--
		}
		ranges = append(ranges, lineRange{lines.Pos(r.segs[0].Start).Line, lines.Pos(last).Line, r.table})
		for _, seg := range r.segs {
			if seg.Start < at {
				continue // overlapping segments cannot happen; be safe
			}
			out = append(out, src[at:seg.Start]...)
			b := src[seg.Start:seg.Stop]
			for i := 0; i < len(b); i++ {
				c := b[i]
				switch {
				case r.cell && c == '\\' && i+1 < len(b) && util.IsPunct(b[i+1]):
					out = append(out, c, b[i+1])
					i++
				case r.cell && c == '|':
					out = append(out, c)
				case util.IsPunct(c):
					out = append(out, '\\', c)
				default:
					out = append(out, c)
				}
			}
			at = seg.Stop
		}
	}
	return append(out, src[at:]...), ranges
}

// guardNote is the note above prose with guarded chunks: one for the
// chunks whose Markdown would cost more time than their length, one for
// the tables past the page's cell budget.
func guardNote(ranges []lineRange) string {
	slow := slices.DeleteFunc(slices.Clone(ranges), func(r lineRange) bool { return r.table })
	tables := slices.DeleteFunc(slices.Clone(ranges), func(r lineRange) bool { return !r.table })
	note := ""
	if len(slow) == 1 {
		note = fmt.Sprintf("<p class=\"note\">The paragraph, heading or table cell at %s holds so many Markdown markers (links, code, raw HTML, emphasis, link reference definitions or table columns) that the Markdown renderer's time would grow faster than its length: it is shown as plain text; all of its text is there.</p>\n", linesOf(slow))
	} else if len(slow) > 1 {
		note = fmt.Sprintf("<p class=\"note\">%d paragraphs, headings or table cells (%s) hold so many Markdown markers (links, code, raw HTML, emphasis, link reference definitions or table columns) that the Markdown renderer's time would grow faster than their length: they are shown as plain text; all of their text is there.</p>\n", len(slow), linesOf(slow))
	}
	if len(tables) == 1 {
		note += fmt.Sprintf("<p class=\"note\">The table at %s would take this page past %d table cells, more than the Markdown renderer can hold in proportion to its size: it is shown as plain text; all of its text is there.</p>\n", linesOf(tables), maxPageCells)
	} else if len(tables) > 1 {
		note += fmt.Sprintf("<p class=\"note\">%d tables (%s) would take this page past %d table cells, more than the Markdown renderer can hold in proportion to their size: they are shown as plain text; all of their text is there.</p>\n", len(tables), linesOf(tables), maxPageCells)
	}
	return note
}

// linesOf says where ranges are: "line 3", "lines 3–5", "lines 3, 7–9",
// the first eight and how many more.
func linesOf(ranges []lineRange) string {
	var b strings.Builder
	if len(ranges) == 1 && ranges[0].first == ranges[0].last {
		b.WriteString("line ")
	} else {
		b.WriteString("lines ")
	}
	const most = 8
	for i, r := range ranges {
		if i == most {
			fmt.Fprintf(&b, " and %d more", len(ranges)-most)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		if r.first == r.last {
			fmt.Fprintf(&b, "%d", r.first)
		} else {
			fmt.Fprintf(&b, "%d–%d", r.first, r.last)
		}
	}
	return b.String()
}
