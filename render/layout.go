package render

import (
	"fmt"
	"sort"

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

func (t target) contains(off int) bool { return off >= t.start && off < t.end }

// layout holds where the nodes of a document are, which is all attach
// needs: blocks (action heads, whose key is their action's, action blocks
// and the blocks of no action that are shown), prose that is shown, and
// actions, each sorted by start (stable).
type layout struct {
	blocks, prose, acts []target
}

// addAction adds action i: its head, its blocks and its span.
func (l *layout) addAction(a *ast.Action, i int) {
	if a.Head != nil {
		l.blocks = append(l.blocks, target{a.Head.Span.Start.Offset, a.Head.Span.End.Offset, nodeKey{kind: keyAction, i: i}})
	}
	for j, b := range a.Blocks {
		l.blocks = append(l.blocks, target{b.Span.Start.Offset, b.Span.End.Offset, nodeKey{kind: keyActBlock, i: i, j: j}})
	}
	l.acts = append(l.acts, target{a.Span.Start.Offset, a.Span.End.Offset, nodeKey{kind: keyAction, i: i}})
}

// addStray adds block i of no action.
func (l *layout) addStray(b *ast.Block, i int) {
	l.blocks = append(l.blocks, target{b.Span.Start.Offset, b.Span.End.Offset, nodeKey{kind: keyStray, i: i}})
}

// addProse adds the prose of doc that is not hidden.
func (l *layout) addProse(doc *ast.Document, hidden map[any]bool) {
	for i, p := range doc.Prose {
		if !hidden[p] {
			l.prose = append(l.prose, target{p.Span.Start.Offset, p.Span.End.Offset, nodeKey{kind: keyProse, i: i}})
		}
	}
}

// sort sorts each list by start, keeping the order of equal starts.
func (l *layout) sort() {
	for _, ts := range [][]target{l.blocks, l.prose, l.acts} {
		sort.SliceStable(ts, func(i, j int) bool { return ts[i].start < ts[j].start })
	}
}

// treeLayout is the layout of a whole document. The blocks of no action
// come first, then each action's head and blocks, as attach has always
// listed them.
func treeLayout(doc *ast.Document, hidden map[any]bool) *layout {
	l := &layout{}
	for i, b := range doc.Blocks {
		if !hidden[b] {
			l.addStray(b, i)
		}
	}
	for i, a := range doc.Actions {
		l.addAction(a, i)
	}
	l.addProse(doc, hidden)
	l.sort()
	return l
}

// find returns the key of the target of ts (sorted by start) that
// contains off.
func find(ts []target, off int) (nodeKey, bool) {
	i := sort.Search(len(ts), func(i int) bool { return ts[i].start > off }) - 1
	// Spans of one kind do not overlap in the dialects plangram has; a
	// few steps back cover nesting should a dialect add it.
	for j := i; j >= 0 && j > i-8; j-- {
		if ts[j].contains(off) {
			return ts[j].key, true
		}
	}
	return nodeKey{}, false
}

// containing returns the key of the action whose span contains offset
// (actions sorted by start, not overlapping).
func (l *layout) containing(off int) (nodeKey, bool) {
	i := sort.Search(len(l.acts), func(i int) bool { return l.acts[i].start > off }) - 1
	if i >= 0 && l.acts[i].contains(off) {
		return l.acts[i].key, true
	}
	return nodeKey{}, false
}

// attach decides where each diagnostic is shown: at the block containing
// its start (an action's act block means the card itself), else at the
// prose containing it, else at the action containing it, else at the top.
// Hidden nodes (shown elsewhere) are not in the layout.
func attach(diags []*ast.Diagnostic, l *layout) *diagIndex {
	idx := &diagIndex{byNode: map[nodeKey][]*ast.Diagnostic{}, ids: map[*ast.Diagnostic]string{}, views: map[*ast.Diagnostic]*diagView{}, shown: map[*ast.Diagnostic]bool{}}
	for i, d := range diags {
		idx.ids[d] = fmt.Sprintf("diag-%d", i+1)
		idx.order = append(idx.order, d)
		off := d.Span.Start.Offset
		key := nodeKey{kind: keyDoc}
		if k, ok := find(l.blocks, off); ok {
			key = k
		} else if k, ok := find(l.prose, off); ok {
			key = k
		} else if k, ok := l.containing(off); ok {
			key = k
		}
		idx.byNode[key] = append(idx.byNode[key], d)
	}
	return idx
}
