package render

import (
	"fmt"
	"sort"
	"strings"

	"github.com/plangram/plangram/ast"
)

// nodeKey names a node of the document a page shows, by its place rather
// than by its pointer: an action (i: its index in source order), a block
// of an action (i, j: the block's index in the action), a block of no
// action (i: its index in the document's Blocks), a prose node (i: its
// index in the document's Prose), or the document.
type nodeKey struct {
	kind byte
	i, j int
}

const (
	keyDoc      = 'd'
	keyAction   = 'a'
	keyActBlock = 'b'
	keyStray    = 's'
	keyProse    = 'p'
)

// target is a node a diagnostic can be shown at: its byte range and key.
type target struct {
	start, end int
	key        nodeKey
}

// layout holds where the nodes of a document are, which is all attach
// needs: blocks (action heads, whose key is their action's, action blocks
// and the blocks of no action that are shown), prose that is shown, and
// actions, each sorted by start (stable).
type layout struct {
	blocks, prose, acts []target
}

// treeLayout is the layout of a whole document. The blocks of no action
// come first, then each action's head and blocks, as attach has always
// listed them.
func treeLayout(doc *ast.Document, hidden map[any]bool) *layout {
	l := &layout{}
	span := func(sp ast.Span, key nodeKey) target { return target{sp.Start.Offset, sp.End.Offset, key} }
	for i, b := range doc.Blocks {
		if !hidden[b] {
			l.blocks = append(l.blocks, span(b.Span, nodeKey{kind: keyStray, i: i}))
		}
	}
	for i, a := range doc.Actions {
		if a.Head != nil {
			l.blocks = append(l.blocks, span(a.Head.Span, nodeKey{kind: keyAction, i: i}))
		}
		for j, b := range a.Blocks {
			l.blocks = append(l.blocks, span(b.Span, nodeKey{kind: keyActBlock, i: i, j: j}))
		}
		l.acts = append(l.acts, span(a.Span, nodeKey{kind: keyAction, i: i}))
	}
	for i, p := range doc.Prose {
		if !hidden[p] {
			l.prose = append(l.prose, span(p.Span, nodeKey{kind: keyProse, i: i}))
		}
	}
	for _, ts := range [][]target{l.blocks, l.prose, l.acts} {
		sort.SliceStable(ts, func(i, j int) bool { return ts[i].start < ts[j].start })
	}
	return l
}

// find returns the key of the target of ts (sorted by start) that
// contains off.
func find(ts []target, off int) (nodeKey, bool) {
	i := sort.Search(len(ts), func(i int) bool { return ts[i].start > off }) - 1
	// Spans of one kind do not overlap in the dialects plangram has; a
	// few steps back cover nesting should a dialect add it.
	for j := i; j >= 0 && j > i-8; j-- {
		if ts[j].start <= off && off < ts[j].end {
			return ts[j].key, true
		}
	}
	return nodeKey{}, false
}

// attach decides where each diagnostic is shown: at the block containing
// its start (an action's act block means the card itself), else at the
// prose containing it, else at the action containing it, else at the top.
// Hidden nodes (shown elsewhere) are not in the layout.
func attach(diags []*ast.Diagnostic, l *layout) *diagIndex {
	idx := &diagIndex{views: make([]diagView, len(diags)), byNode: map[nodeKey][]int{}, shown: make([]bool, len(diags))}
	for i, d := range diags {
		v := &idx.views[i]
		*v = diagView{ID: fmt.Sprintf("diag-%d", i+1), Severity: d.Severity.String(), Code: d.Code, Message: d.Message,
			Pos: d.Span.Start.String(), Detail: strings.TrimRight(d.Detail, "\n")}
		for _, rel := range d.Related {
			v.Related = append(v.Related, relatedView{Pos: rel.Span.Start.String(), Message: rel.Message})
		}
		off := d.Span.Start.Offset
		key := nodeKey{kind: keyDoc}
		if k, ok := find(l.blocks, off); ok {
			key = k
		} else if k, ok := find(l.prose, off); ok {
			key = k
		} else if k, ok := find(l.acts, off); ok {
			key = k
		}
		idx.byNode[key] = append(idx.byNode[key], i)
	}
	return idx
}

// diagIndex holds the view of every diagnostic, in the document's order,
// and the node each is shown at.
type diagIndex struct {
	views  []diagView
	byNode map[nodeKey][]int // indices in views
	shown  []bool            // shown at a node (diags)
}

// diags returns the views of the diagnostics attached to node.
func (idx *diagIndex) diags(node nodeKey) []diagView {
	var out []diagView
	for _, i := range idx.byNode[node] {
		out = append(out, idx.views[i])
		idx.shown[i] = true
	}
	return out
}
