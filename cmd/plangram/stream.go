package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/stream"
)

const streamUsage = "[--syntax NAME|auto] [--schema FILE | --tools FILE] [--chunk N] [--format json|openai] [--no-thinking] [--in-thinking] < INPUT"

// cmdStream parses standard input as it arrives and writes one JSON event
// per line, flushed as soon as the event is decided (docs/stream.md). Error
// events also print to stderr as diagnostics; the exit code is 1 when one of
// them is an error.
func cmdStream(ctx context.Context, e *env, args []string) int {
	fs := newFlags(e, "stream", streamUsage)
	names := strings.Join(stream.SyntaxNames(), ", ")
	syntax := fs.String("syntax", "", "stream syntax: "+names+" (default tools, or the --schema file's syntax)")
	dialect := fs.String("dialect", "", "former name of --syntax")
	schemaFile := fs.String("schema", "", "action schema file replacing the dialect's built-in one")
	toolsFile := fs.String("tools", "", "tools registry (OpenAI, Anthropic or MCP tools) converted to the action schema")
	format := fs.String("format", "json", "output: json (one event per line) or openai (Chat Completions chunks as SSE)")
	chunk := fs.Int("chunk", 4096, "read at most N bytes at a time (small values show the streaming)")
	noThinking := fs.Bool("no-thinking", false, "leave thinking events out")
	inThinking := fs.Bool("in-thinking", false, "the stream starts inside a thinking block (the chat template opened <think>)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return exitUsage
	}
	if len(pos) > 1 || len(pos) == 1 && pos[0] != "-" {
		return usageError(e, fmt.Errorf("stream reads standard input (no argument, or -) and takes no FILE, got %q", pos[0]))
	}
	switch {
	case *syntax != "" && *dialect != "" && *syntax != *dialect:
		return usageError(e, fmt.Errorf("--syntax %s and --dialect %s disagree (--dialect is the former name of --syntax)", *syntax, *dialect))
	case *syntax == "":
		*syntax = *dialect
	}
	if *syntax != "" && !slices.Contains(stream.SyntaxNames(), *syntax) {
		return usageError(e, fmt.Errorf("unknown --syntax %q (want one of %s)", *syntax, names))
	}
	if err := oneOf("format", *format, "json", "openai"); err != nil {
		return usageError(e, err)
	}
	if *chunk < 1 {
		return usageError(e, fmt.Errorf("--chunk must be at least 1, got %d", *chunk))
	}
	opts := stream.Options{Syntax: *syntax, HideThinking: *noThinking, InThinking: *inThinking}
	if *schemaFile != "" && *toolsFile != "" {
		return usageError(e, fmt.Errorf("give --schema or --tools, not both"))
	}
	if *schemaFile != "" {
		if opts.Schema, err = loadSchema(*schemaFile); err != nil {
			fmt.Fprintln(e.stderr, err)
			return exitUsage
		}
	}
	if *toolsFile != "" {
		var code int
		if opts.Schema, code = loadTools(e, *toolsFile); opts.Schema == nil {
			return code
		}
	}
	out := bufio.NewWriter(e.stdout)
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	var oa *stream.OpenAIWriter
	if *format == "openai" {
		oa = stream.NewOpenAIWriter(out, "chatcmpl-plangram", "plangram", 0)
	}
	code := exitOK
	err = stream.Parse(ctx, e.stdin, *chunk, opts, func(ev stream.Event) error {
		if ev.Type == stream.Error {
			d := ast.Diagnostic{Severity: ev.Severity, Code: ev.Kind, Message: ev.Message, Span: ev.Span}
			fmt.Fprintln(e.stderr, d.Format("<stdin>"))
			if ev.Severity == ast.Error {
				code = exitError
			}
		}
		if oa != nil {
			if err := oa.Write(ev); err != nil {
				return err
			}
		} else if err := enc.Encode(ev); err != nil {
			return err
		}
		return out.Flush()
	})
	if err != nil {
		fmt.Fprintf(e.stderr, "plangram: %v\n", err)
		return exitUsage
	}
	return code
}
