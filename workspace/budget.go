package workspace

import (
	"github.com/plangram/plangram/ast"
)

// CodeWorkBudget: the simulation scanned or copied more bytes than the
// plan and the files it read pay for (docs/check.md, "work-budget"); the
// workspace rules stop at that action.
const CodeWorkBudget = "work-budget"

// The work budget of a check is budgetFactor bytes scanned or copied per
// byte of the documents and of the files read, plus budgetFloor. Editing a
// file copies it and matching an edit scans it, so k edits of an m-byte
// file cost about 2·k·m: hundreds of edits of a 1 MB file stay below the
// floor, while hundreds of thousands of hunks editing one 10 MB file (a
// plan whose time would grow with the square of its size) reach the
// budget after a second or two and stop with one error.
//
// Each path or directory the checker keeps a state for costs entryCost
// more: a plan of paths thousands of directories deep keeps a state per
// directory.
const (
	budgetFactor = 128
	budgetFloor  = 1 << 30
	entryCost    = 1 << 10
)

// budget counts the bytes the simulation scanned or copied (spent) and
// the bytes of input that pay for them (paid).
type budget struct {
	spent, paid int
	floor       int // budgetFloor (tests set less)
}

func (b *budget) spend(n int) {
	if b != nil && n > 0 {
		b.spent += n
	}
}

func (b *budget) pay(n int) { b.paid += n }

func (b *budget) limit() int { return budgetFactor*b.paid + b.floor }

func (b *budget) over() bool { return b != nil && b.spent > b.limit() }

// overBudget stops the workspace rules once the work spent passed the
// budget, with one error at action a (see CodeWorkBudget).
func (c *checker) overBudget(a *ast.Action) {
	if c.stopped || !c.work.over() {
		return
	}
	c.stopped = true
	span := a.NameSpan
	if span.End.Offset <= span.Start.Offset {
		span = a.Span
	}
	c.add(ast.Error, CodeWorkBudget, span,
		"%s: the workspace check scanned or copied more than %d bytes (%d per byte of the plan and of the files it read, plus 1 GiB): no real plan needs that much; the workspace rules stop at this action, so nothing after it is checked against the workspace",
		a.Name, c.work.limit(), budgetFactor)
}
