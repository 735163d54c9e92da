package main

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/lexer"
	"github.com/plangram/plangram/schema"
	"github.com/plangram/plangram/stream"
)

// newFlags returns a flag set that reports errors instead of exiting. It
// defines the output flags every command shares, set on e as they are
// parsed: -q/--quiet (only errors), -v/--verbose (whole AST diffs) and
// --color=auto|always|never. Its help lists each flag as the synopsis
// spells it: `--name` for a long flag, `-x` for a one-letter one.
func newFlags(e *env, name, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintln(w, strings.TrimSpace("usage: plangram "+name+" "+usage))
		if c, ok := commands()[name]; ok {
			fmt.Fprintf(w, "\n%s (docs/cli.md)\n", c.summary)
		}
		fmt.Fprintln(w, "\nflags:")
		printDefaults(w, fs)
	}
	quiet := "print only errors: no warnings, notes or info (with check --strict, warnings too, since they fail the run)"
	fs.BoolVar(&e.quiet, "q", false, quiet)
	fs.BoolVar(&e.quiet, "quiet", false, quiet)
	verbose := "print each AST diff whole (default: the rows around the nodes that differ)"
	fs.BoolVar(&e.verbose, "v", false, verbose)
	fs.BoolVar(&e.verbose, "verbose", false, verbose)
	fs.Func("color", "when to colour diagnostics: `auto|always|never`; auto colours a terminal unless NO_COLOR is set or TERM=dumb (default auto)", func(v string) error {
		if err := oneOf("color", v, "auto", "always", "never"); err != nil {
			return err
		}
		e.colorMode = v
		return nil
	})
	return fs
}

// printDefaults prints the flags of fs as flag.PrintDefaults does, but with
// the `--name` spelling of the synopsis for every flag of more than one
// letter, and the one-letter forms newFlags defines on their long flag's
// line: `-q, --quiet`.
func printDefaults(w io.Writer, fs *flag.FlagSet) {
	short := map[string]string{"quiet": "q", "verbose": "v"} // long name -> its one-letter form
	fs.VisitAll(func(f *flag.Flag) {
		if f.Name == "q" || f.Name == "v" {
			return // printed with its long form
		}
		dash := "--"
		if len(f.Name) == 1 {
			dash = "-"
		}
		typ, usage := flag.UnquoteUsage(f)
		line := "  " + dash + f.Name
		if s := short[f.Name]; s != "" {
			line = "  -" + s + ", --" + f.Name
		}
		if typ != "" {
			line += " " + typ
		}
		line += "\n    \t" + strings.ReplaceAll(usage, "\n", "\n    \t")
		if d := f.DefValue; d != "" && d != "false" && d != "0" {
			if typ == "string" {
				d = fmt.Sprintf("%q", d)
			}
			line += fmt.Sprintf(" (default %s)", d)
		}
		fmt.Fprintln(w, line)
	})
}

// helpAsked reports whether args ask a command for its help (-h, -help or
// --help before any "--"): the help then goes to standard output, exit 0,
// as `go` and `git` do.
func helpAsked(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--help":
			return true
		}
	}
	return false
}

// parseFlags parses args allowing flags after positional arguments
// (`plangram parse plan.md --format repr`); "--" ends flag parsing.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if len(args) > 0 && len(rest) < len(args) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// parseNoArgs is parseFlags for a command that takes flags only: an
// argument is a usage error. On an error it returns the exit code and
// false.
func parseNoArgs(e *env, fs *flag.FlagSet, args []string) (int, bool) {
	pos, err := parseFlags(fs, args)
	if err != nil {
		return exitUsage, false
	}
	if len(pos) > 0 {
		return usageError(e, fmt.Errorf("%s takes no arguments, got %q", fs.Name(), pos[0])), false
	}
	return exitOK, true
}

// oneOf checks a flag value against its allowed values.
func oneOf(flagName, v string, allowed ...string) error {
	if slices.Contains(allowed, v) {
		return nil
	}
	return fmt.Errorf("--%s must be one of %s, got %q", flagName, strings.Join(allowed, ", "), v)
}

// parserFlags are the --dialect, --fence and --schema flags of every command
// that parses plans.
type parserFlags struct {
	dialect, fence, schema *string
	extra                  []string // --dialect values beyond the document dialects
}

// addParserFlags defines the parser flags on fs. The --dialect help lists
// the one list of document dialects (docDialects), with the extra values
// the command accepts (render's markdown).
func addParserFlags(fs *flag.FlagSet, extra ...string) parserFlags {
	return parserFlags{
		dialect: fs.String("dialect", "auto", "input dialect: "+strings.Join(docDialects(extra...), ", ")),
		fence:   fs.String("fence", "auto", "acts fence character: auto, backtick or tilde"),
		schema:  fs.String("schema", "", "action schema file replacing the dialect's built-in one"),
		extra:   extra,
	}
}

// docDialects is the one list of --dialect values of the commands that read
// documents (parse, check, fmt, fix, render, apply, lsp): auto, the
// dialects grammar.Parse reads itself, and tools, which it reads through
// the stream parser (grammar.Options.ReadTools, set by parserFlags.options).
// Every built-in dialect (schema.Dialects) is in it.
func docDialects(extra ...string) []string {
	return append(append(append([]string{grammar.DialectAuto}, grammar.Dialects()...), grammar.DialectTools), extra...)
}

// checkDocDialect checks a --dialect value of a command that reads
// documents against docDialects; a misspelt one gets a did-you-mean.
func checkDocDialect(v string, extra ...string) error {
	allowed := docDialects(extra...)
	if slices.Contains(allowed, v) {
		return nil
	}
	return fmt.Errorf("--dialect must be one of %s, got %q%s", strings.Join(allowed, ", "), v, didYouMean(v, allowed))
}

// didYouMean returns ` (did you mean "x"?)` for the name of known closest
// to v (edit distance, case-insensitive, at most a third of v's length
// plus one), or "".
func didYouMean(v string, known []string) string {
	best, bestD := "", len(v)/3+2
	for _, k := range known {
		if d := schema.Distance(strings.ToLower(v), strings.ToLower(k)); d < bestD {
			best, bestD = k, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

// options turns the flags into parser options, loading the schema file. On
// a bad value it reports to stderr and returns false: exit with exitUsage.
func (f parserFlags) options(e *env) (grammar.Options, bool) {
	if err := checkDocDialect(*f.dialect, f.extra...); err != nil {
		usageError(e, err)
		return grammar.Options{}, false
	}
	fc, err := lexer.ParseFence(*f.fence)
	if err != nil {
		usageError(e, err)
		return grammar.Options{}, false
	}
	// The tools dialect is read by the stream parser, which grammar
	// cannot import: every command that parses with these options reads
	// it the same way.
	opts := grammar.Options{Dialect: *f.dialect, Fence: fc, ReadTools: stream.ReadDocument}
	if *f.schema != "" {
		if opts.Schema = loadSchema(e, *f.schema, false); opts.Schema == nil {
			return grammar.Options{}, false
		}
	}
	return opts, true
}
