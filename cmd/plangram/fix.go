package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/plangram/plangram/fix"
	"github.com/plangram/plangram/internal/linediff"
	"github.com/plangram/plangram/internal/safewrite"
)

const fixUsage = "[-w] [-d] [--dialect auto|acts|plan] [FILE...]"

// cmdFix repairs what LLMs typically break (docs/plan.md, "plangram fix"):
// improperly nested fences, text after a closing fence, `#Title`, trailing
// whitespace-only lines. Without FILE it reads standard input and prints
// the result; -w rewrites each changed FILE in place, atomically; -d prints
// a unified diff instead. Each repair is printed to stderr as a warning.
// The exit status is 0 unless a file cannot be read or written (2).
func cmdFix(_ context.Context, e *env, args []string) int {
	fs := newFlags(e, "fix", fixUsage)
	write := fs.Bool("w", false, "write the result to each FILE instead of standard output")
	diff := fs.Bool("d", false, "print a unified diff of the repairs instead of the result")
	dialect := fs.String("dialect", "auto", "input dialect: auto, acts or plan")
	files, err := parseFlags(fs, args)
	if err != nil {
		return exitUsage
	}
	if err := oneOf("dialect", *dialect, "auto", "acts", "plan"); err != nil {
		return usageError(e, err)
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	if !*write && !*diff && len(files) > 1 {
		return usageError(e, errors.New("fix prints one FILE; use -w to repair several in place, or -d to see the changes"))
	}
	code := exitOK
	for _, path := range files {
		if path == "-" && *write {
			return usageError(e, errors.New("fix -w cannot rewrite standard input"))
		}
		code = max(code, fixFile(e, path, *dialect, *write, *diff))
	}
	return code
}

// fixFile repairs one file and returns its exit code.
func fixFile(e *env, path, dialect string, write, diff bool) int {
	name, src, err := readInput(e, path)
	if err != nil {
		fmt.Fprintf(e.stderr, "plangram: %v\n", err)
		return exitUsage
	}
	out, repairs := fix.Apply(src, dialect)
	for _, r := range repairs {
		fmt.Fprintln(e.stderr, r.Format(name))
	}
	changed := !bytes.Equal(src, out)
	switch {
	case diff:
		if changed {
			if err := linediff.Unified(e.stdout, name+".orig", name, src, out, 3); err != nil {
				fmt.Fprintf(e.stderr, "plangram: %v\n", err)
				return exitUsage
			}
		}
	case write:
		if changed {
			if err := safewrite.WriteFile(path, out); err != nil {
				fmt.Fprintf(e.stderr, "plangram: %v\n", err)
				return exitUsage
			}
		}
	default:
		if _, err := e.stdout.Write(out); err != nil {
			fmt.Fprintf(e.stderr, "plangram: %v\n", err)
			return exitUsage
		}
	}
	return exitOK
}
