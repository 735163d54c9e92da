// Command plangram parses LLM-written plans (fenced acts, structured Markdown
// plans, streamed tool calls) into a position-exact AST and reports what does
// not fit. Run `plangram help` for the commands; docs/cli.md documents them.
package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"slices"
)

// Exit codes shared by every command.
const (
	exitOK    = 0 // no error diagnostics (warnings allowed)
	exitError = 1 // the input has error diagnostics (or, with fmt -l / fix -l, a file would change)
	exitUsage = 2 // bad usage or an I/O error
)

// env is what a command may touch: no globals, so tests run commands in
// parallel with their own streams.
type env struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	// outTTY and errTTY tell whether standard output and standard error are
	// terminals: they turn on colour (outTTY, unless noColor), the summary
	// line of check and the progress counter (errTTY).
	outTTY, errTTY bool
	// noColor is set when the NO_COLOR environment variable is non-empty
	// or TERM is "dumb".
	noColor bool
	// colorMode is --color: "auto" (or ""), "always" or "never".
	colorMode string
	// quiet (-q, --quiet) prints only errors; verbose (-v, --verbose)
	// prints each AST diff whole. Both are set by the flags every
	// command shares (newFlags).
	quiet, verbose bool
	// beforeRename, when set, is called by fmt -w and fix -w with a file's
	// path once its new content is staged, before the file is checked to
	// be what was read and renamed into place (tests race it with it).
	beforeRename func(path string)
}

// colored applies --color to a stream that is a terminal or not: auto
// colours a terminal unless NO_COLOR or TERM=dumb; always and never do
// what they say.
func (e *env) colored(tty bool) bool {
	switch e.colorMode {
	case "always":
		return true
	case "never":
		return false
	}
	return tty && !e.noColor
}

type command struct {
	summary string
	run     func(ctx context.Context, e *env, args []string) int
}

func commands() map[string]command {
	return map[string]command{
		"parse":      {"parse plans and print their AST (json or repr)", cmdParse},
		"check":      {"check plans and report every problem (text, json, sarif, llm)", cmdCheck},
		"apply":      {"apply the file edits of plans to a workspace, all or nothing (--dry-run -d diffs)", cmdApply},
		"recover":    {"roll back (or forward) an apply that was interrupted in a workspace", cmdRecover},
		"fix":        {"repair broken fences, #Title and trailing blank lines (-l lists, -d diffs, -w rewrites)", cmdFix},
		"render":     {"render a plan as a self-contained HTML page for review", cmdRender},
		"fmt":        {"print plans in canonical form (-l lists, -d diffs, -w rewrites)", cmdFmt},
		"stream":     {"parse streamed LLM output into JSON events", cmdStream},
		"test":       {"compare every reply below DIR with its golden file (--update writes them)", cmdTest},
		"diff":       {"print the semantic difference of two plans, transcripts or goldens", cmdDiff},
		"schema":     {"print the JSON Schema of a dialect's JSON output", cmdSchema},
		"gen":        {"generate Go types and a decoder from an action schema", cmdGen},
		"example":    {"print a canonical example document of a dialect", cmdExample},
		"lsp":        {"run the language server (LSP) on stdin and stdout", cmdLSP},
		"version":    {"print the module version and VCS revision", cmdVersion},
		"completion": {"print a shell completion script (bash, zsh or fish)", cmdCompletion},
	}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	e := &env{
		stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr,
		outTTY: isTerminal(os.Stdout), errTTY: isTerminal(os.Stderr),
		noColor: os.Getenv("NO_COLOR") != "" || os.Getenv("TERM") == "dumb",
	}
	code := run(ctx, e, os.Args[1:])
	stop()
	os.Exit(code)
}

// isTerminal reports whether f is a character device, as a terminal is.
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

func run(ctx context.Context, e *env, args []string) int {
	cmds := commands()
	if len(args) == 0 {
		usage(e.stderr, cmds)
		return exitUsage
	}
	switch args[0] {
	case "-h", "-help", "--help":
		usage(e.stdout, cmds)
		return exitOK
	case "-version", "--version":
		return cmdVersion(ctx, e, args[1:])
	case "help":
		return cmdHelp(ctx, e, cmds, args[1:])
	}
	c, ok := cmds[args[0]]
	if !ok {
		fmt.Fprintf(e.stderr, "plangram: unknown command %q\n", args[0])
		usage(e.stderr, cmds)
		return exitUsage
	}
	if helpAsked(args[1:]) {
		return cmdHelp(ctx, e, cmds, args[:1])
	}
	return c.run(ctx, e, args[1:])
}

// cmdHelp prints the general usage, or with a COMMAND that command's usage
// and flags, on standard output.
func cmdHelp(ctx context.Context, e *env, cmds map[string]command, args []string) int {
	switch {
	case len(args) == 0:
		usage(e.stdout, cmds)
		return exitOK
	case len(args) > 1:
		return usageError(e, fmt.Errorf("help takes one COMMAND, got %d arguments", len(args)))
	case args[0] == "help":
		fmt.Fprintln(e.stdout, "usage: plangram help [COMMAND]\n\nPrints the commands, or one command's usage and flags.")
		return exitOK
	}
	c, ok := cmds[args[0]]
	if !ok {
		fmt.Fprintf(e.stderr, "plangram help: unknown command %q\n", args[0])
		usage(e.stderr, cmds)
		return exitUsage
	}
	// A command's -h prints its help through its flag set (to the env's
	// stderr); run it with that stream pointed at standard output.
	he := *e
	he.stderr = e.stdout
	he.stdin = nil
	c.run(ctx, &he, []string{"-h"})
	return exitOK
}

func usage(w io.Writer, cmds map[string]command) {
	fmt.Fprintln(w, "usage: plangram COMMAND [flags] [args]\n\ncommands:")
	for _, n := range slices.Sorted(maps.Keys(cmds)) {
		fmt.Fprintf(w, "  %-10s %s\n", n, cmds[n].summary)
	}
	fmt.Fprintln(w, "\nrun `plangram help COMMAND` for a command's usage and flags; docs/cli.md documents them")
}
