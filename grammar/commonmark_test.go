package grammar_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"

	gast "github.com/yuin/goldmark/ast"
	gparser "github.com/yuin/goldmark/parser"
	gtext "github.com/yuin/goldmark/text"
	gutil "github.com/yuin/goldmark/util"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/lexer"
)

// The CommonMark conformance suite for fences: every example of the
// CommonMark 0.31.2 spec (the copy goldmark ships, which goldmark passes)
// in the sections "Fenced code blocks", "Indented code blocks" and "Tabs",
// and every other example holding "```" or "~~~", is read by the plan
// dialect, by the acts dialect and by goldmark, and the fenced blocks each
// finds are compared: opening line, closing line (the last line of an
// unclosed block), info string and content. testdata/commonmark/
// spec_fences.json holds those examples (spec text CC-BY-SA 4.0, John
// MacFarlane); goldmark_extra_fences.json holds goldmark's own extra cases
// (goldmark's _test/extra.txt, MIT) that hold a fence, mostly fences in
// list items, as models write them. The GFM spec adds no fence rules (its
// extensions are tables, strikethrough, task lists, autolinks and raw HTML
// filtering), so its fence examples are these.
//
// Content is compared the way each side promises it: plangram keeps the
// exact bytes between the opening and the closing line minus the line
// ending before the closing line; goldmark's content lines are joined and
// the last line ending dropped. An example where a dialect finds other
// blocks than goldmark must be listed in cmDifferences with the rule of
// docs/acts.md or docs/plan.md that explains it; a listed example that
// agrees is stale. Independently of the comparison, every byte of every
// example must belong to exactly one block or prose node of each dialect's
// document: nothing CommonMark reads as something else is lost.

// cmExample is one spec example.
type cmExample struct {
	Example  int    `json:"example"`
	Section  string `json:"section"`
	Markdown string `json:"markdown"`
}

// cmBlock is a fenced block as one reader sees it.
type cmBlock struct {
	Open, Close int // 1-based line numbers; Close is the last line of an unclosed block
	Closed      bool
	Char        byte
	Info        string
	Content     string
}

func (b cmBlock) String() string {
	c := "closed"
	if !b.Closed {
		c = "unclosed"
	}
	return fmt.Sprintf("L%d-L%d %s %c info=%q content=%q", b.Open, b.Close, c, b.Char, b.Info, b.Content)
}

// lineOf returns the 1-based line of byte offset off in src.
func lineOf(src []byte, off int) int { return bytes.Count(src[:min(off, len(src))], []byte("\n")) + 1 }

// closeRecorder wraps goldmark's fenced code block parser and records the
// offset of the line that closes each block (goldmark's AST does not keep
// it).
type closeRecorder struct {
	gparser.BlockParser
	closed map[gast.Node]int
}

func (r *closeRecorder) Continue(node gast.Node, reader gtext.Reader, pc gparser.Context) gparser.State {
	_, seg := reader.PeekLine()
	st := r.BlockParser.Continue(node, reader, pc)
	if st == gparser.Close {
		r.closed[node] = seg.Start
	}
	return st
}

// goldmarkBlocks returns the fenced code blocks goldmark (CommonMark
// 0.31.2) finds in src, in source order.
func goldmarkBlocks(src []byte) []cmBlock {
	rec := &closeRecorder{BlockParser: gparser.NewFencedCodeBlockParser(), closed: map[gast.Node]int{}}
	var bps []gutil.PrioritizedValue
	for _, v := range gparser.DefaultBlockParsers() {
		if _, ok := v.Value.(gparser.BlockParser); ok && fmt.Sprintf("%T", v.Value) == fmt.Sprintf("%T", gparser.NewFencedCodeBlockParser()) {
			v.Value = rec
		}
		bps = append(bps, v)
	}
	p := gparser.NewParser(gparser.WithBlockParsers(bps...), gparser.WithInlineParsers(gparser.DefaultInlineParsers()...),
		gparser.WithParagraphTransformers(gparser.DefaultParagraphTransformers()...))
	doc := p.Parse(gtext.NewReader(src))
	var out []cmBlock
	_ = gast.Walk(doc, func(n gast.Node, entering bool) (gast.WalkStatus, error) {
		fc, ok := n.(*gast.FencedCodeBlock)
		if !entering || !ok {
			return gast.WalkContinue, nil
		}
		b := cmBlock{Open: lineOf(src, n.Pos()), Char: src[n.Pos()]}
		if fc.Info != nil {
			b.Info = string(fc.Info.Segment.Value(src))
		}
		var content strings.Builder
		lines := fc.Lines()
		for i := 0; i < lines.Len(); i++ {
			seg := lines.At(i)
			content.Write(seg.Value(src))
			if !strings.HasSuffix(content.String(), "\n") {
				content.WriteByte('\n') // the last line of the input
			}
		}
		b.Content = strings.TrimSuffix(content.String(), "\n")
		b.Close = b.Open
		if lines.Len() > 0 {
			b.Close = lineOf(src, lines.At(lines.Len()-1).Start)
		}
		if at, ok := rec.closed[n]; ok {
			b.Closed, b.Close = true, lineOf(src, at)
		}
		out = append(out, b)
		return gast.WalkContinue, nil
	})
	return out
}

// plangramBlocks parses src in dialect (with fence character fence for
// acts) and returns every fenced block of the document, in source order,
// checking that blocks and prose cover every byte exactly once.
func plangramBlocks(t *testing.T, name string, src []byte, dialect string, fence byte) []cmBlock {
	t.Helper()
	doc, err := grammar.Parse(context.Background(), name, src, grammar.Options{Dialect: dialect, Fence: fence})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var blocks []*ast.Block
	blocks = append(blocks, doc.Blocks...)
	for _, a := range doc.Actions {
		if a.Head != nil {
			blocks = append(blocks, a.Head)
		}
		blocks = append(blocks, a.Blocks...)
	}
	type piece struct{ start, end int }
	var cover []piece
	var out []cmBlock
	for _, b := range blocks {
		cover = append(cover, piece{b.Span.Start.Offset, b.Span.End.Offset})
		close := lineOf(src, max(b.Span.Start.Offset, b.Span.End.Offset-1))
		c := b.Fence[0]
		out = append(out, cmBlock{Open: b.Span.Start.Line, Close: close, Closed: !b.Unclosed, Char: c, Info: b.Info, Content: b.Content})
		if b.Unclosed && !slices.ContainsFunc(doc.Diagnostics, func(d *ast.Diagnostic) bool {
			return d.Code == "unclosed-fence" && d.Span.Start.Line == b.Span.Start.Line && d.Severity == ast.Error
		}) {
			t.Errorf("%s: the block opened at line %d is unclosed without an unclosed-fence error", name, b.Span.Start.Line)
		}
	}
	for _, p := range doc.Prose {
		cover = append(cover, piece{p.Span.Start.Offset, p.Span.End.Offset})
		if p.Text != string(src[p.Span.Start.Offset:p.Span.End.Offset]) {
			t.Errorf("%s: prose %q does not hold the bytes of its span %q", name, p.Text, src[p.Span.Start.Offset:p.Span.End.Offset])
		}
	}
	sort.Slice(cover, func(i, j int) bool { return cover[i].start < cover[j].start })
	at := 0
	for _, p := range cover {
		if p.start != at {
			t.Errorf("%s: bytes %d..%d (%q) are in no block or prose node, or in two", name, min(at, p.start), max(at, p.start), src[min(at, p.start):max(at, p.start)])
		}
		at = max(at, p.end)
	}
	if at != len(src) {
		t.Errorf("%s: bytes %d..%d (%q) are in no block or prose node", name, at, len(src), src[min(at, len(src)):])
	}
	slices.SortFunc(out, func(a, b cmBlock) int { return a.Open - b.Open })
	return out
}

func loadCommonMark(t *testing.T, file string) []cmExample {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var exs []cmExample
	if err := json.Unmarshal(data, &exs); err != nil {
		t.Fatal(err)
	}
	return exs
}

// actsFence is the fence character the acts dialect reads an example
// with: the character of goldmark's first block (what `--fence` would be
// set to), else detection.
func actsFence(gm []cmBlock, src []byte) byte {
	if len(gm) > 0 {
		return gm[0].Char
	}
	return lexer.Detect(src)
}

func TestCommonMarkFences(t *testing.T) {
	var run, agree, differ int
	seen := map[string]bool{}
	spec := loadCommonMark(t, "testdata/commonmark/spec_fences.json")
	extra := loadCommonMark(t, "testdata/commonmark/goldmark_extra_fences.json")
	for i, ex := range slices.Concat(spec, extra) {
		prefix := ""
		if i >= len(spec) {
			prefix = "gm"
		}
		src := []byte(strings.ReplaceAll(ex.Markdown, "→", "\t"))
		gm := goldmarkBlocks(src)
		for _, dialect := range []string{grammar.DialectPlan, grammar.DialectActs} {
			var fence byte
			if dialect == grammar.DialectActs {
				fence = actsFence(gm, src)
			}
			key := fmt.Sprintf("%s/%s%d", dialect, prefix, ex.Example)
			pg := plangramBlocks(t, key, src, dialect, fence)
			run++
			same := slices.Equal(pg, gm)
			reason, listed := cmDifferences[key]
			seen[key] = true
			switch {
			case same && listed:
				t.Errorf("%s (%s) now agrees with CommonMark: remove it from cmDifferences (%s)", key, ex.Section, reason)
			case same:
				agree++
			case !listed:
				t.Errorf("%s (%s) differs from CommonMark and is not a documented difference\ninput:\n%s\ngoldmark: %v\nplangram: %v", key, ex.Section, src, gm, pg)
			case reason == cmNoReindent && !sameButIndent(pg, gm):
				t.Errorf("%s (%s) differs from CommonMark by more than the indentation of its content (%s)\ninput:\n%s\ngoldmark: %v\nplangram: %v", key, ex.Section, reason, src, gm, pg)
			default:
				differ++
				if testing.Verbose() {
					t.Logf("%s: %s\n  goldmark: %v\n  plangram: %v", key, reason, gm, pg)
				}
			}
		}
	}
	for key := range cmDifferences {
		if !seen[key] {
			t.Errorf("cmDifferences lists %s, which is not an example of the suite", key)
		}
	}
	t.Logf("%d example readings (%d spec and %d goldmark examples × 2 dialects): %d agree with CommonMark, %d documented differences", run, len(spec), len(extra), agree, differ)
}

// sameButIndent reports whether plangram found the blocks goldmark found
// but for the indentation CommonMark strips from their content lines: the
// content lines of pg and gm differ only in their leading white space.
func sameButIndent(pg, gm []cmBlock) bool {
	if len(pg) != len(gm) {
		return false
	}
	for i := range pg {
		p, g := pg[i], gm[i]
		pc, gc := p.Content, g.Content
		p.Content, g.Content = "", ""
		if p != g {
			return false
		}
		pl, gl := strings.Split(pc, "\n"), strings.Split(gc, "\n")
		if len(pl) != len(gl) {
			return false
		}
		for j := range pl {
			// goldmark turns a tab it splits into spaces: only the text
			// after the leading white space must be the same.
			if strings.TrimLeft(pl[j], " \t") != strings.TrimLeft(gl[j], " \t") {
				return false
			}
		}
	}
	return true
}

// The deliberate differences from CommonMark (docs/acts.md and
// docs/plan.md, "Differences from CommonMark").
const (
	cmNoReindent   = "content is never re-indented: the bytes the model wrote reach the executor"
	cmUnclosedEOL  = "an unclosed block's content runs to the end of the input, its last line ending included (an unclosed-fence error)"
	cmBlockQuote   = "block quotes are not containers: a line starting with > is text (prose), never a fence"
	cmIndented     = "a fence line at any indentation is a fence (CommonMark: four spaces make it an indented code block)"
	cmHTMLBlock    = "HTML blocks are not recognised: a fence after an HTML line is a fence"
	cmActsExact    = "acts: only exactly the opening run closes a block; a longer run is content"
	cmActsAnyClose = "acts: a closing fence closes at any indentation"
)

// cmDifferences lists the examples where a dialect deliberately finds other
// fenced blocks than CommonMark, with the rules that say why. Keys are
// dialect/example number of the CommonMark 0.31.2 spec, or dialect/gm and
// the number of a goldmark extra case.
var cmDifferences = map[string]string{
	"acts/124": cmActsExact,
	"plan/127": cmUnclosedEOL,
	"acts/127": cmUnclosedEOL,
	"plan/128": cmBlockQuote,
	"acts/128": cmBlockQuote,
	"plan/131": cmNoReindent,
	"acts/131": cmNoReindent,
	"plan/132": cmNoReindent,
	"acts/132": cmNoReindent,
	"plan/133": cmNoReindent,
	"acts/133": cmNoReindent,
	"plan/134": cmIndented,
	"acts/134": cmIndented,
	"plan/137": cmUnclosedEOL,
	"acts/137": cmActsAnyClose,
	"plan/139": cmUnclosedEOL,
	"acts/139": cmUnclosedEOL,
	"acts/143": cmActsExact,
	"plan/161": cmHTMLBlock,
	"acts/161": cmHTMLBlock,
	"plan/237": cmBlockQuote,
	"acts/237": cmBlockQuote,
	"plan/263": cmNoReindent,
	"acts/263": cmNoReindent,
	"plan/278": cmNoReindent,
	"acts/278": cmNoReindent,
	"plan/318": cmNoReindent,
	"acts/318": cmNoReindent,
	"plan/321": cmNoReindent,
	"acts/321": cmNoReindent,
	"plan/324": cmNoReindent,
	"acts/324": cmNoReindent,
	// goldmark's own extra cases (its _test/extra.txt, MIT) that hold a fence.
	"plan/gm10": cmNoReindent,
	"acts/gm10": cmNoReindent,
	"plan/gm13": cmNoReindent,
	"acts/gm13": cmNoReindent,
	"plan/gm14": cmNoReindent,
	"acts/gm14": cmNoReindent,
	"plan/gm15": cmNoReindent,
	"acts/gm15": cmNoReindent,
	"plan/gm17": cmNoReindent,
	"acts/gm17": cmNoReindent,
	"plan/gm18": cmNoReindent,
	"acts/gm18": cmNoReindent,
	"plan/gm19": cmNoReindent,
	"acts/gm19": cmNoReindent,
	"plan/gm20": cmNoReindent,
	"acts/gm20": cmNoReindent,
	"plan/gm21": cmNoReindent,
	"acts/gm21": cmNoReindent,
	"plan/gm51": cmNoReindent,
	"acts/gm51": cmNoReindent,
	"plan/gm65": cmBlockQuote,
	"acts/gm65": cmBlockQuote,
	"plan/gm66": cmBlockQuote,
	"acts/gm66": cmBlockQuote,
	"plan/gm67": cmBlockQuote,
	"acts/gm67": cmBlockQuote,
}
