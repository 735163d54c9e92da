// Command plangram parses LLM-written plans (fenced acts, structured Markdown
// plans, streamed tool calls) into a position-exact AST and reports what does
// not fit. Run `plangram help` for the commands; docs/cli.md documents them.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
)

// Exit codes shared by every command.
const (
	exitOK    = 0 // no error diagnostics (warnings allowed)
	exitError = 1 // the input has error diagnostics
	exitUsage = 2 // bad usage or an I/O error
)

// env is what a command may touch: no globals, so tests run commands in
// parallel with their own streams.
type env struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
}

type command struct {
	summary string
	run     func(ctx context.Context, e *env, args []string) int
}

func commands() map[string]command {
	return map[string]command{
		"parse":   {"parse a plan and print its AST (json or repr)", cmdParse},
		"check":   {"check plans and report every problem (text, json, sarif, llm)", cmdCheck},
		"fix":     {"repair broken fences, #Title and trailing blank lines (-w rewrites)", cmdFix},
		"render":  {"render a plan as a self-contained HTML page for review", cmdRender},
		"fmt":     {"print plans in canonical form (-w rewrites, -d diffs)", cmdFmt},
		"stream":  {"parse streamed LLM output into JSON events", cmdStream},
		"schema":  {"print the JSON Schema of a dialect's JSON output", cmdSchema},
		"gen":     {"generate Go types and a decoder from an action schema", cmdGen},
		"example": {"print a canonical example document of a dialect", cmdExample},
		"lsp":     {"run the language server (LSP) on stdin and stdout", cmdLSP},
	}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr}, os.Args[1:])
	stop()
	os.Exit(code)
}

func run(ctx context.Context, e *env, args []string) int {
	cmds := commands()
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(e.stdout, cmds)
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	c, ok := cmds[args[0]]
	if !ok {
		fmt.Fprintf(e.stderr, "plangram: unknown command %q\n", args[0])
		usage(e.stderr, cmds)
		return exitUsage
	}
	return c.run(ctx, e, args[1:])
}

func usage(w io.Writer, cmds map[string]command) {
	fmt.Fprintln(w, "usage: plangram COMMAND [flags] [args]\n\ncommands:")
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-8s %s\n", n, cmds[n].summary)
	}
	fmt.Fprintln(w, "\nrun `plangram COMMAND -h` for a command's flags")
}
