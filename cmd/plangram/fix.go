package main

import (
	"context"
	"strings"

	"github.com/plangram/plangram/fix"
	"github.com/plangram/plangram/grammar"
)

const fixUsage = "[-l] [-d] [-w] [--dialect auto|acts|plan|search-replace|udiff|apply-patch|tools] [--include GLOB] [PATH...|-]"

// cmdFix repairs what LLMs typically break (docs/plan.md, "plangram fix"):
// improperly nested fences, text after a closing fence, `#Title`, trailing
// whitespace-only lines. PATH is a file, a directory (its *.md files,
// recursively) or "-"; without PATH it reads standard input and prints the
// result. -l lists the files a repair would change (exit 1 if any), -d
// prints a unified diff, -w rewrites changed files in place, atomically.
// Each repair is printed to stderr as a warning. Otherwise the exit status
// is 0, or 2 when a file cannot be read or written.
func cmdFix(ctx context.Context, e *env, args []string) int {
	fs := newFlags(e, "fix", fixUsage)
	rf := addRewriteFlags(fs, "repaired form")
	dialect := fs.String("dialect", "auto", "input dialect: "+strings.Join(docDialects(), ", "))
	files, err := parseFlags(fs, args)
	if err != nil {
		return exitUsage
	}
	if err := checkDocDialect(*dialect); err != nil {
		return usageError(e, err)
	}
	return rewriteInputs(ctx, e, "fix", files, rf, func(_ context.Context, e *env, in input, src []byte) ([]byte, int, error) {
		out, repairs := fix.Apply(src, grammar.FileDialect(in.name, *dialect))
		printDiags(e, in.name, repairs)
		return out, exitOK, nil
	})
}
