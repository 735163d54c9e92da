package render

import (
	"cmp"
	"context"
	"fmt"
	"html/template"
	"strings"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/internal/linediff"
	"github.com/plangram/plangram/workspace"
)

// Workspace is the directory a page's plan would be applied to
// (Options.Workspace): the card of each action that changes files shows
// the unified diff of what that action does to each of them.
type Workspace struct {
	// Root is the directory.
	Root string
	// Context, when set, stops the simulation once it is cancelled: the
	// cards written after that show no diff.
	Context context.Context
}

// steps simulates the actions of one page against a workspace, one at a
// time as their cards are written, in source order, as apply simulates
// them (workspace.Checker): each action's step is the change from the
// state the actions before it left each file in to the state it leaves
// it in.
type steps struct {
	ctx     context.Context
	k       *workspace.Checker
	effects workspace.Effects
	// last holds, by path, the state the latest step that changed the
	// file left it in: where the next step of the file starts. A file no
	// step changed yet starts from what is on disk.
	last map[string]fileState
	// left is what is left of the page's diff budget (maxStepBytes):
	// the bytes of file content, before and after, its steps may still
	// diff. Once a step does not fit, no step after it is diffed either.
	left int
}

// maxStepBytes bounds the file content a page diffs, before and after
// each step: a plan of many edits of one large file would otherwise diff
// the whole file once per edit, its size times the number of edits. The
// budget is counted, not timed, so the page depends on the plan and the
// workspace only.
const maxStepBytes = 64 << 20

// fileState is a file's state at one step: absent, or present with its
// content when known (else problem says why not).
type fileState struct {
	exists, known    bool
	content, problem string
}

// stepView is one file's step on a card.
type stepView struct {
	ID    string
	Path  template.HTML
	What  string // created, changed, deleted; created, moved from a path
	Stats string // "+3 −1"
	Note  string // why no diff is shown
	Code  template.HTML
}

// stepsView is what a card shows of its action's steps.
type stepsView struct {
	Steps []stepView
	// None says the action changes files but changes none here (a failed
	// edit: its diagnostics say why).
	None bool
	// Skipped says why the steps (or the rest of them) are not shown.
	Skipped string
}

// spentNote is what a card says of the steps the page's diff budget does
// not cover.
const spentNote = "Not shown: this page has diffed the 64 MiB of file content it diffs at most; apply -d prints every change."

// newSteps returns the simulation of the page of a document of dialect
// against ws, or nil without ws; the error says why ws.Root cannot be a
// workspace.
func newSteps(ws *Workspace, dialect string, opts Options) (*steps, error) {
	if ws == nil {
		return nil, nil
	}
	if err := workspace.ValidateRoot(ws.Root); err != nil {
		return nil, err
	}
	// The actions are simulated as apply simulates them: strict, with the
	// page's schema and the default effects.
	k := workspace.NewChecker(ws.Root, dialect, workspace.Options{Strict: true, Schema: opts.Schema})
	return &steps{ctx: cmp.Or(ws.Context, context.Background()), k: k, effects: workspace.DefaultEffects(), last: map[string]fileState{}, left: maxStepBytes}, nil
}

// close frees the simulation's memory.
func (s *steps) close() {
	if s != nil {
		s.k.Close()
	}
}

// step simulates action a, whose card has the id, and returns the view of
// what it does to the files; nil without a workspace, or for an action
// that changes no file by its effect (a command, a read).
func (s *steps) step(r *renderer, a *ast.Action, id string) *stepsView {
	if s == nil {
		return nil
	}
	op := s.effects[a.Name]
	changing := op != workspace.OpRun && op != workspace.OpNone && op != workspace.OpRead
	if s.left <= 0 {
		// The budget is spent: the action is still simulated (the
		// actions after it see what it did), its content not read.
		s.k.Action(s.ctx, a)
		if !changing {
			return nil
		}
		return &stepsView{Skipped: spentNote}
	}
	changes := s.k.Step(s.ctx, a)
	switch {
	case !changing:
		return nil
	case s.ctx.Err() != nil:
		return &stepsView{Skipped: "Not shown: the simulation was cancelled."}
	}
	v := &stepsView{None: len(changes) == 0}
	for i, ch := range changes {
		before, ok := s.last[ch.Path]
		if !ok {
			before = fileState{exists: ch.Existed, known: ch.OldKnown, content: ch.Old}
			if !ch.OldKnown {
				before.problem = ch.Problem
			}
		}
		after := fileState{exists: ch.Exists, known: ch.NewKnown, content: ch.New}
		if ch.Exists && !ch.NewKnown {
			after.problem = ch.Problem
		}
		if s.left -= len(before.content) + len(after.content); s.left < 0 {
			v.Skipped, v.None = spentNote, false
			break
		}
		s.last[ch.Path] = after
		sv := r.stepView(fmt.Sprintf("%s-apply-%d", id, i+1), ch.Path, before, after)
		if !before.exists && ch.Exists && ch.MovedFrom != "" {
			// A move is a deletion and a creation in the diff, as apply
			// -d prints it; the caption says where the file came from.
			sv.What = "created, moved from " + ch.MovedFrom
		}
		v.Steps = append(v.Steps, sv)
	}
	return v
}

// stepView shows one file's step: its diff as `plangram apply -d` prints
// it (linediff.File), each line marked by what it is.
func (r *renderer) stepView(id, path string, before, after fileState) stepView {
	v := stepView{ID: id, Path: codeText(path), What: "changed"}
	switch {
	case !before.exists && after.exists:
		v.What = "created"
	case before.exists && !after.exists:
		v.What = "deleted"
	}
	switch {
	case before.exists && !before.known:
		v.Note = "No diff: the file's content before this action is not known (" + before.problem + "); apply refuses to change it."
		return v
	case after.exists && !after.known:
		v.Note = "No diff: the file's content after this action is not known (" + after.problem + "); apply refuses to write it."
		return v
	}
	var b strings.Builder
	if err := linediff.File(&b, path, before.exists, after.exists, before.content, after.content); err != nil {
		v.Note = "No diff: " + err.Error()
		return v
	}
	text := b.String()
	if text == "" {
		v.Note = "This action leaves the file as it was."
		return v
	}
	marks, ins, del := diffMarks(text)
	v.Stats = fmt.Sprintf("+%d −%d", ins, del)
	v.Code = r.code(strings.TrimSuffix(text, "\n"), codeOpts{info: "text", marks: marks})
	return v
}

// diffMarks marks each line of a diff linediff.File wrote by what it is
// (a header, a hunk's head, a removed or an added line) and counts the
// added and removed lines.
func diffMarks(text string) (marks map[int]string, ins, del int) {
	marks = map[int]string{}
	inHunk := false
	for i, line := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(line, "@@ "):
			marks[i], inHunk = "hunk", true
		case inHunk && strings.HasPrefix(line, "+"):
			marks[i] = "ins"
			ins++
		case inHunk && strings.HasPrefix(line, "-"):
			marks[i] = "del"
			del++
		case inHunk && (strings.HasPrefix(line, " ") || strings.HasPrefix(line, `\`)):
		default:
			marks[i], inHunk = "head", false
		}
	}
	return marks, ins, del
}
