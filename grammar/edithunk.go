package grammar

import (
	"bytes"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/internal/view"
)

// Action names of the udiff and apply-patch dialects (one action per file
// edit; schema/builtin/udiff.json and apply-patch.json describe them).
const (
	ActionAddFile    = "add_file"
	ActionDeleteFile = "delete_file"
	ActionUpdateFile = "update_file"
)

// Hunk is one element of the hunks parameter of an update_file action: the
// lines it expects (Old: context and removed lines) and the lines that
// replace them (New: context and added lines), each line with its own line
// ending, byte for byte. The hunk's source span is the matching element of
// the action's Blocks.
type Hunk struct {
	// OldStart, OldLines, NewStart and NewLines are a unified diff hunk
	// header's numbers (udiff); absent for `@@ ... @@` without numbers.
	OldStart *int `json:"old_start,omitempty"`
	OldLines *int `json:"old_lines,omitempty"`
	NewStart *int `json:"new_start,omitempty"`
	NewLines *int `json:"new_lines,omitempty"`
	// Section is the text after a udiff header's closing `@@`.
	Section string `json:"section,omitempty"`
	// Context is an apply-patch `@@ line` header: a line the hunk must come
	// after.
	Context string `json:"context,omitempty"`
	Old     string `json:"old"`
	New     string `json:"new"`
	// EndOfFile is apply-patch's `*** End of File`: Old ends the file.
	EndOfFile bool `json:"end_of_file,omitempty"`
}

// hunkLines accumulates a hunk body's old and new text; texts returns
// them as strings over the bytes, which are then never written again.
type hunkLines struct {
	old, new []byte
	nOld     int
	nNew     int
	last     byte // the kind of the last body line: ' ', '-', '+'
}

// sizedHunkLines returns hunkLines whose old and new texts, of at most
// oldLen and newLen bytes as added (before a trim), share one allocation.
func sizedHunkLines(oldLen, newLen int) hunkLines {
	b := make([]byte, oldLen+newLen)
	return hunkLines{old: b[:0:oldLen], new: b[oldLen:oldLen]}
}

// add adds a body line: kind ' ', '-' or '+', text after the kind
// character, with its line ending eol.
func (h *hunkLines) add(kind byte, text, eol string) {
	if kind != '+' {
		h.old = append(append(h.old, text...), eol...)
		h.nOld++
	}
	if kind != '-' {
		h.new = append(append(h.new, text...), eol...)
		h.nNew++
	}
	h.last = kind
}

// noNewline applies `\ No newline at end of file` to the last line.
func (h *hunkLines) noNewline() {
	trim := func(b []byte) []byte { return bytes.TrimSuffix(bytes.TrimSuffix(b, []byte("\n")), []byte("\r")) }
	if h.last != '+' {
		h.old = trim(h.old)
	}
	if h.last != '-' {
		h.new = trim(h.new)
	}
}

func (h *hunkLines) texts() (old, new string) { return view.String(h.old), view.String(h.new) }

// eolOf returns the line ending of a source line.
func eolOf(src string, l srcLine) string { return src[l.start+len(l.text) : l.end] }

// setHunks sets the hunks parameter of update_file a to hs, as a list of
// JSON objects.
func (p *editBase) setHunks(a *ast.Action, hs []Hunk) {
	v := make([]any, len(hs))
	for i := range hs {
		v[i] = hs[i]
	}
	a.Params.Set("hunks", v, nil)
}

// headBlock returns a block for an action's header lines [start, end).
func headBlock(l *ast.Lines, src string, label string, start, end int) *ast.Block {
	return &ast.Block{Label: label, Content: src[start:end], Span: l.Span(start, end), ContentSpan: l.Span(start, end)}
}
