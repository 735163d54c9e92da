package grammar

import (
	"strings"

	"github.com/plangram/plangram/ast"
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

// hunkLines accumulates a hunk body's old and new text.
type hunkLines struct {
	old, new strings.Builder
	nOld     int
	nNew     int
	last     byte // the kind of the last body line: ' ', '-', '+'
}

// add adds a body line: kind ' ', '-' or '+', text after the kind
// character, with its line ending eol.
func (h *hunkLines) add(kind byte, text, eol string) {
	if kind != '+' {
		h.old.WriteString(text)
		h.old.WriteString(eol)
		h.nOld++
	}
	if kind != '-' {
		h.new.WriteString(text)
		h.new.WriteString(eol)
		h.nNew++
	}
	h.last = kind
}

// noNewline applies `\ No newline at end of file` to the last line.
func (h *hunkLines) noNewline() {
	trim := func(b *strings.Builder) {
		s := b.String()
		s = strings.TrimSuffix(s, "\n")
		s = strings.TrimSuffix(s, "\r")
		b.Reset()
		b.WriteString(s)
	}
	if h.last != '+' {
		trim(&h.old)
	}
	if h.last != '-' {
		trim(&h.new)
	}
}

// eolOf returns the line ending of a source line.
func eolOf(src string, l srcLine) string {
	return src[l.start+len(l.text) : l.end]
}

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
