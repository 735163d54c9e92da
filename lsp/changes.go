package lsp

import (
	"fmt"

	"github.com/plangram/plangram/internal/textpos"
	"github.com/plangram/plangram/lsp/internal/protocol"
)

// applyChanges applies one didChange message's changes to text in order:
// a change without a range replaces the whole text, a ranged one the text
// of its range, in the positions of the text the changes before it made,
// as the protocol says. Positions are 0-based lines (ending at "\n",
// "\r\n" or a lone "\r") and UTF-16 characters, clamped as
// textpos.Text.Offset clamps them; a range whose end comes before its
// start is read the other way round.
//
// Each ranged change copies and indexes the whole text, so a message of k
// changes to a text of n bytes costs O(k·n). The bytes the ranged changes
// of one message scan in all are bounded by 1 GiB plus 64 times the text
// and the changes' own text, far above what an editor sends, so that the
// time a message costs grows linearly with its size and the document's; a
// message over it is refused with an error and no text.
func applyChanges(text []byte, changes []protocol.TextDocumentContentChangeEvent) ([]byte, error) {
	limit := 1<<30 + 64*len(text)
	for _, c := range changes {
		limit += 64 * len(c.Text)
	}
	work := 0
	for _, c := range changes {
		if c.Range == nil {
			text = []byte(c.Text)
			continue
		}
		if work += len(text); work > limit {
			return nil, fmt.Errorf("didChange message of %d changes not applied: it would scan more than %d bytes", len(changes), limit)
		}
		tx := textpos.New(text)
		a, b := offset(tx, c.Range.Start), offset(tx, c.Range.End)
		start, end := min(a, b), max(a, b)
		next := make([]byte, 0, len(text)-(end-start)+len(c.Text))
		text = append(append(append(next, text[:start]...), c.Text...), text[end:]...)
	}
	return text, nil
}
