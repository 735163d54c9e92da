package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/lexer"
)

// newFlags returns a flag set that reports errors instead of exiting.
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
		fs.PrintDefaults()
	}
	return fs
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

// oneOf checks a flag value against its allowed values.
func oneOf(flagName, v string, allowed ...string) error {
	for _, a := range allowed {
		if v == a {
			return nil
		}
	}
	return fmt.Errorf("--%s must be one of %s, got %q", flagName, strings.Join(allowed, ", "), v)
}

// parserFlags are the --dialect, --fence and --schema flags of every command
// that parses plans.
type parserFlags struct {
	dialect, fence, schema *string
}

// addParserFlags defines the parser flags on fs; dialectUsage describes the
// dialects the command accepts.
func addParserFlags(fs *flag.FlagSet, dialectUsage string) parserFlags {
	return parserFlags{
		dialect: fs.String("dialect", "auto", dialectUsage),
		fence:   fs.String("fence", "auto", "acts fence character: auto, backtick or tilde"),
		schema:  fs.String("schema", "", "action schema file replacing the dialect's built-in one"),
	}
}

// options turns the flags into parser options, loading the schema file. On
// a bad value it reports to stderr and returns false: exit with exitUsage.
func (f parserFlags) options(e *env) (grammar.Options, bool) {
	fc, err := lexer.ParseFence(*f.fence)
	if err != nil {
		usageError(e, err)
		return grammar.Options{}, false
	}
	opts := grammar.Options{Dialect: *f.dialect, Fence: fc}
	if *f.schema != "" {
		if opts.Schema, err = loadSchema(*f.schema); err != nil {
			fmt.Fprintln(e.stderr, err)
			return grammar.Options{}, false
		}
	}
	return opts, true
}
