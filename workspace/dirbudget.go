package workspace

import (
	"fmt"

	"github.com/plangram/plangram/ast"
)

// CodeTooManyDirectories: a plan names more distinct directories than the
// path rules keep for its size (dirBudget): hundreds of thousands of
// nested one-letter directories are no real plan, and keeping a state for
// each would make memory grow to many times the plan (docs/check.md,
// "too-many-directories"). With a root it is an error, at the action where
// the limit was passed, and the workspace rules stop there: what they
// would say of the rest is unknown, so the plan must not pass. Without
// one, the case-collision rule keeps comparing the paths that follow with
// the names it kept, and the warning says that directories it did not
// keep are not compared with each other.
const CodeTooManyDirectories = "too-many-directories"

// dirBudget is the number of distinct directories the path rules keep
// for a plan of which n bytes were read: 65,536, and one more per 32
// bytes. Each costs about 40 bytes with a root (the overlay's entry and
// slot, and the count of files below it) and 10 without (the case
// table), so the state stays near the size of the plan at most. A real
// plan names a new directory per hundreds of bytes (corpus.SmallActs
// does), far below the budget.
func dirBudget(n int) int { return 1<<16 + n/32 }

// dirLimitMessage says which limit was passed, for both rules.
func dirLimitMessage(n int, then string) string {
	return fmt.Sprintf("the plan names more than %d distinct directories by here (65536 and one per 32 bytes of the plan, a limit that keeps check's memory near the plan's size): %s", dirBudget(n), then)
}

// overDirBudget stops the workspace rules once the directories the
// overlay counts files below pass the budget for the plan read so far,
// with an error at action a (see CodeTooManyDirectories).
func (c *checker) overDirBudget(a *ast.Action) bool {
	c.seen = max(c.seen, a.Span.End.Offset)
	n := c.base + c.seen
	if c.dirs <= dirBudget(n) {
		return false
	}
	c.stopped = true
	span := a.NameSpan
	if span.End.Offset <= span.Start.Offset {
		span = a.Span
	}
	c.add(ast.Error, CodeTooManyDirectories, span, "%s", dirLimitMessage(n, "the workspace rules stop at this action, so nothing after it is checked against the workspace"))
	return true
}
