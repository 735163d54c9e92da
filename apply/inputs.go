package apply

import (
	"bytes"
	"context"
	"fmt"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/workspace"
)

// Input is one plan for [ApplyInputs]: the name its diagnostics are
// reported under and its bytes.
type Input struct {
	Name string
	Src  []byte
}

// ApplyInputs is [Apply] for plans not parsed yet: it parses each input
// with popts and hands every action to the workspace rules as soon as it
// is read, keeping none of them (grammar.Options.OnAction with
// ReuseActions, workspace.Checker), as `plangram check --root` does. An
// apply then holds the inputs, the virtual file system and the changes,
// not every plan's tree, which is many times the plan's size. It finds the same diagnostics and
// changes and writes the same files as Apply over the parsed documents
// (TestApplyInputsAsApply, FuzzApply), except that a change's Action and
// an entry of Commands hold only the action's name and name span. The
// error is Apply's, or the parser's (cancellation, unusable options).
func ApplyInputs(ctx context.Context, ins []Input, popts grammar.Options, root string, opts Options) (*Result, error) {
	absRoot, err := resolveRoot(root)
	if err != nil {
		return nil, err
	}
	h, rec, err := openHold(ctx, absRoot, opts)
	if err != nil {
		return recovered(rec), err
	}
	defer h.close()
	wo := opts.Workspace
	wo.Strict = true
	if len(ins) == 1 {
		wo.Source = ins[0].Src // the line endings that follow its blocks
	}
	effects := wo.Effects
	if effects == nil {
		effects = workspace.DefaultEffects()
	}
	res := &Result{Diagnostics: make([][]*ast.Diagnostic, len(ins)), Commands: make([][]*ast.Action, len(ins)), Recovered: rec}
	tallies := make([]workspace.Tally, len(ins))
	var k *workspace.Checker
	defer func() {
		if k != nil {
			k.Close()
		}
	}()
	// Under auto a .diff or .patch file is a unified diff by its name
	// (grammar.FileDialect), as the other commands read it.
	fileOpts := func(i int) grammar.Options {
		o := popts
		o.Dialect = grammar.FileDialect(ins[i].Name, popts.Dialect)
		return o
	}
	for i, in := range ins {
		popts := fileOpts(i)
		dialect := grammar.DialectOf(in.Src, popts)
		if k == nil {
			k = workspace.NewChecker(absRoot, dialect, wo)
		} else {
			k.Next(dialect)
		}
		// The line ending a file written from a block gets when its
		// content does not say (workspace.Checker.SetNewline).
		k.SetNewline(newline(in.Src))
		cases := workspace.NewCaseCollisions(dialect, opts.Workspace.Schema)
		cases.SetRoot(absRoot)
		p := popts
		p.ReuseActions = true
		p.OnAction = func(a *ast.Action) {
			cases.Action(a)
			k.Action(ctx, a)
			if effects[a.Name] == workspace.OpRun {
				res.Commands[i] = append(res.Commands[i], &ast.Action{Name: a.Name, NameSpan: a.NameSpan})
			}
		}
		doc, err := grammar.Parse(ctx, in.Name, in.Src, p)
		if err != nil {
			return recovered(rec), fmt.Errorf("%s: %w", in.Name, err)
		}
		ds := append(append([]*ast.Diagnostic{}, doc.Diagnostics...), ast.EscapeDiagnostics(k.Diagnostics(doc.Diagnostics, doc.Span.Start))...)
		ds = append(ds, cases.Diagnostics()...)
		res.Diagnostics[i] = append(ds, commandsNotRun(res.Commands[i])...)
		tallies[i] = k.Tally()
	}
	if err := ctx.Err(); err != nil {
		return recovered(rec), err
	}
	if k == nil {
		return res, ErrNothingToApply
	}
	res.Changes = k.Changes()
	// With nothing to apply, each input is parsed once more, whole, to
	// say what it holds instead (its actions were not kept).
	var perr error
	nothing := settle(res, tallies, func(i int) *ast.Document {
		doc, err := grammar.Parse(ctx, ins[i].Name, ins[i].Src, fileOpts(i))
		if err != nil {
			perr = fmt.Errorf("%s: %w", ins[i].Name, err)
		}
		return doc
	})
	if perr != nil {
		return nil, perr
	}
	return finish(ctx, res, h, opts, nothing)
}

// newline returns the first line ending of src ("\r\n" or "\n"), "" when
// it has none.
func newline(src []byte) string {
	i := bytes.IndexByte(src, '\n')
	switch {
	case i < 0:
		return ""
	case i > 0 && src[i-1] == '\r':
		return "\r\n"
	}
	return "\n"
}
