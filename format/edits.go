package format

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
)

// The edit formats' canonical form (docs/fmt.md) rewrites only the lines
// that are markup, never a byte of prose or of a SEARCH, REPLACE or hunk
// body:
//
//   - search-replace: markers are exactly `<<<<<<< SEARCH`, `=======` and
//     `>>>>>>> REPLACE` at column 1 (aider accepts 5 to 9 characters and
//     white space around them); a REPLACE section ended by a second
//     `=======` gets `>>>>>>> REPLACE`.
//   - udiff: hunk headers with line numbers get the counts of their body
//     and the starts the parser read (a start too large for an int reads
//     as 0) (`@@ -l,s +l,s @@`, a count of 1 left out as diff does).
//   - apply-patch: envelope and operation lines lose surrounding white
//     space (`*** Begin Patch`, `*** Add File: path`, `*** End of File`…),
//     a bare `@@` its trailing white space.
//
// Each rewritten line keeps its own line ending.

// lineEdit replaces the text of one line (without its line ending).
type lineEdit struct {
	start, end int
	text       string
}

// lineAt returns the text span [start, end) of the line starting at off,
// without its line ending.
func lineAt(src []byte, off int) (int, int) {
	end := off
	for end < len(src) && src[end] != '\n' {
		end++
	}
	if end > off && src[end-1] == '\r' {
		end--
	}
	return off, end
}

// nextLine returns the start of the line after the one off is in (the
// end of src on the last line).
func nextLine(src []byte, off int) int {
	if i := bytes.IndexByte(src[off:], '\n'); i >= 0 {
		return off + i + 1
	}
	return len(src)
}

// lastLineStart returns the start of the last line of [start, end).
func lastLineStart(src []byte, start, end int) int {
	e := end
	if e > start && src[e-1] == '\n' {
		e--
	}
	for e > start && src[e-1] != '\n' {
		e--
	}
	return e
}

func applyLineEdits(src []byte, edits []lineEdit) []byte {
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].start < edits[j].start })
	var b strings.Builder
	b.Grow(len(src) + 16)
	prev := 0
	for _, e := range edits {
		if e.start < prev {
			continue
		}
		b.Write(src[prev:e.start])
		b.WriteString(e.text)
		prev = e.end
	}
	b.Write(src[prev:])
	return []byte(b.String())
}

// addLine appends the edit that makes the line starting at off read text,
// unless it reads so already: the edits of a document already in
// canonical form take no memory.
func addLine(edits []lineEdit, src []byte, off int, text string) []lineEdit {
	s, e := lineAt(src, off)
	if string(src[s:e]) == text {
		return edits
	}
	return append(edits, lineEdit{s, e, text})
}

// editFormat returns the canonical form of doc, a document of an edit
// format, from its actions and (apply-patch) its prose.
func editFormat(doc *ast.Document, src []byte) []byte {
	var edits []lineEdit
	for _, a := range doc.Actions {
		switch doc.Dialect {
		case grammar.DialectSearchReplace:
			edits = searchReplaceEdits(a, src, edits)
		case grammar.DialectUdiff:
			for i, h := range hunks(a) {
				edits = udiffHunkEdits(a.Blocks[i], h, src, edits)
			}
		case grammar.DialectApplyPatch:
			edits = applyPatchEdits(a, src, edits)
		}
	}
	if doc.Dialect == grammar.DialectApplyPatch {
		edits = envelopeEdits(doc, src, edits)
	}
	return applyLineEdits(src, edits)
}

func searchReplaceEdits(a *ast.Action, src []byte, edits []lineEdit) []lineEdit {
	if len(a.Blocks) == 0 {
		return edits
	}
	edits = addLine(edits, src, a.Blocks[0].Span.Start.Offset, "<<<<<<< SEARCH")
	if len(a.Blocks) < 2 {
		return edits
	}
	r := a.Blocks[1]
	edits = addLine(edits, src, r.Span.Start.Offset, "=======")
	if !r.Unclosed {
		edits = addLine(edits, src, lastLineStart(src, r.Span.Start.Offset, r.Span.End.Offset), ">>>>>>> REPLACE")
	}
	return edits
}

func hunkRange(start, n int) string {
	if n == 1 {
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}

// udiffHunkEdits appends the edit of a numbered hunk's header line (its
// counts made those of its body), b being the hunk's block and h the hunk
// the parser read from it.
func udiffHunkEdits(b *ast.Block, h grammar.Hunk, src []byte, edits []lineEdit) []lineEdit {
	if h.OldStart == nil {
		return edits
	}
	nOld, nNew := 0, 0
	for l := range strings.Lines(b.Content) {
		switch l[0] {
		case '-':
			nOld++
		case '+':
			nNew++
		case '\\':
		default: // ' ', or an empty context line
			nOld++
			nNew++
		}
	}
	text := fmt.Sprintf("@@ -%s +%s @@", hunkRange(*h.OldStart, nOld), hunkRange(*h.NewStart, nNew))
	if h.Section != "" {
		text += " " + h.Section
	}
	return addLine(edits, src, b.Span.Start.Offset, text)
}

// hunks returns the hunks the parser read from a's blocks, one per block.
func hunks(a *ast.Action) []grammar.Hunk {
	v, _ := a.Params.Get("hunks")
	hs, _ := v.([]any)
	out := make([]grammar.Hunk, 0, len(hs))
	for _, h := range hs[:min(len(hs), len(a.Blocks))] {
		hk, _ := h.(grammar.Hunk)
		out = append(out, hk)
	}
	return out
}

// envelopeEdits appends the edits of apply-patch's envelope lines
// (`*** Begin Patch`, `*** End Patch`), which are prose.
func envelopeEdits(doc *ast.Document, src []byte, edits []lineEdit) []lineEdit {
	markers := []string{"*** Begin Patch", "*** End Patch"}
	for _, p := range doc.Prose {
		for off := p.Span.Start.Offset; off < p.Span.End.Offset; {
			s, e := lineAt(src, off)
			t := strings.TrimSpace(string(src[s:e]))
			for _, m := range markers {
				if t == m && string(src[s:e]) != m {
					edits = append(edits, lineEdit{s, e, m})
				}
			}
			off = nextLine(src, e)
		}
	}
	return edits
}

var patchHeader = map[string]string{grammar.ActionAddFile: "*** Add File: ", grammar.ActionDeleteFile: "*** Delete File: ", grammar.ActionUpdateFile: "*** Update File: "}

func applyPatchEdits(a *ast.Action, src []byte, edits []lineEdit) []lineEdit {
	if a.Head == nil {
		return edits
	}
	if p := a.Params.String("path"); p != "" {
		edits = addLine(edits, src, a.Head.Span.Start.Offset, patchHeader[a.Name]+p)
	}
	if m := a.Params.String("move_to"); m != "" {
		edits = addLine(edits, src, nextLine(src, a.Head.Span.Start.Offset), "*** Move to: "+m)
	}
	if a.Name != grammar.ActionUpdateFile {
		return edits
	}
	for i, h := range hunks(a) {
		edits = applyPatchChunkEdits(a.Blocks[i], h.EndOfFile, src, edits)
	}
	return edits
}

// applyPatchChunkEdits appends the edits of an update's chunk, b being its
// block: a bare `@@` line without the white space after it, and the
// `*** End of File` marker (eof) as written.
func applyPatchChunkEdits(b *ast.Block, eof bool, src []byte, edits []lineEdit) []lineEdit {
	s, e := lineAt(src, b.Span.Start.Offset)
	if line := string(src[s:e]); strings.HasPrefix(line, "@@") && strings.TrimRight(line, " \t") == "@@" && line != "@@" {
		edits = append(edits, lineEdit{s, e, "@@"})
	}
	if eof {
		edits = addLine(edits, src, lastLineStart(src, b.Span.Start.Offset, b.Span.End.Offset), "*** End of File")
	}
	return edits
}
