package workspace

import (
	"context"
	"slices"

	"github.com/plangram/plangram/ast"
)

// Step checks action a as Action does and returns what a itself did to
// the files: one Change for each file a created, edited, deleted, moved
// away or moved to (in the order of its path parameters), with Old as
// Simulate's Changes give it (what the workspace held before the first action that
// changed the file) and New what a left there. A file a did not change
// (a failed edit, a read, a command's directory) is not listed, and
// neither is any file once the Checker stopped (its work budget).
// Unlike Simulate's Changes, a file a brought back to what was on disk,
// or deleted after an earlier action created it, is listed: it is a's
// step. `plangram render --root` shows each action's step (docs/render.md).
func (k *Checker) Step(ctx context.Context, a *ast.Action) []Change {
	if k.err != nil || ctx.Err() != nil {
		return nil
	}
	c := k.c
	if k.Action(ctx, a); c.stopped {
		return nil
	}
	switch c.effects[a.Name] {
	case OpRun, OpNone, OpRead:
		return nil
	}
	// The path arguments the effect used are still in pathBuf
	// (actionPaths): the target first, then, for a move or a patch, the
	// rest.
	var out []Change
	for j, p := range c.pathBuf {
		if !p.ok || p.param == "cwd" || p.rel == "" ||
			slices.ContainsFunc(c.pathBuf[:j], func(q pathArg) bool { return q.ok && q.rel == p.rel }) {
			continue
		}
		e := c.find(p.rel)
		if e == nil {
			continue
		}
		f := e.cur
		if f == nil || f.by == nil || f.dir || f.by.NameSpan != a.NameSpan {
			continue // not changed by a
		}
		ch := Change{Path: e.rel, Exists: f.exists, Action: f.by, Doc: c.doc}
		ch.setOld(e.disk)
		ch.setNew(f)
		out = append(out, ch)
	}
	return out
}
