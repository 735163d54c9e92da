package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/schema"
	"github.com/plangram/plangram/stream"
)

// cmdStream parses standard input as it arrives and writes one JSON event
// per line, flushed as soon as the input read so far is processed
// (docs/stream.md). Error
// events also print to stderr as diagnostics; the exit code is 1 when one of
// them is an error.
func cmdStream(ctx context.Context, e *env, args []string) int {
	fs := newFlags(e, "stream", "[--syntax NAME|auto] [--schema FILE | --tools FILE] [--chunk N] [--format json|openai] [--no-thinking] [--in-thinking] [--exact] < INPUT")
	names := strings.Join(stream.SyntaxNames(), ", ")
	syntax := fs.String("syntax", "", "stream syntax: "+names+" (default auto, or the --schema file's syntax when it is not tools)")
	dialect := fs.String("dialect", "", "former name of --syntax")
	schemaFile := fs.String("schema", "", "action schema file replacing the dialect's built-in one")
	toolsFile := fs.String("tools", "", "tools registry (OpenAI, Anthropic or MCP tools) converted to the action schema")
	format := fs.String("format", "json", "output: json (one event per line) or openai (Chat Completions chunks as SSE)")
	chunk := fs.Int("chunk", 4096, "feed the parser at most N bytes at a time (small values show the streaming)")
	noThinking := fs.Bool("no-thinking", false, "leave thinking events out")
	inThinking := fs.Bool("in-thinking", false, "the stream starts inside a thinking block (the chat template opened <think>)")
	exact := fs.Bool("exact", false, "keep the events of framing only (wrapper tags, SSE events without text, thinking tags): every input byte is in some event's raw")
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
	opts := stream.Options{Syntax: *syntax, HideThinking: *noThinking, InThinking: *inThinking, OmitFraming: !*exact}
	if *schemaFile != "" && *toolsFile != "" {
		return usageError(e, fmt.Errorf("give --schema or --tools, not both"))
	}
	if *schemaFile != "" {
		if opts.Schema = loadSchema(e, *schemaFile, false); opts.Schema == nil {
			return exitUsage
		}
	}
	if *toolsFile != "" {
		if opts.Schema = loadSchema(e, *toolsFile, true); opts.Schema == nil {
			return exitUsage
		}
	}
	if opts.Syntax == "" {
		opts.Syntax = defaultSyntax(opts.Schema)
	}
	// Events are written directly (Event.AppendJSON) into one buffer,
	// flushed before each read that may wait for input (flushReader) and at
	// the end: every event is out as soon as the input read so far is
	// processed, with one write per read rather than per event.
	out := bufio.NewWriterSize(e.stdout, 64<<10)
	var oa *stream.OpenAIWriter
	if *format == "openai" {
		oa = stream.NewOpenAIWriter(out, "chatcmpl-plangram", "plangram", 0)
	}
	in := newFlushReader(e.stdin, *chunk, out)
	var line []byte
	code := exitOK
	err = stream.Parse(ctx, in, *chunk, opts, func(ev *stream.Event) error {
		if ev.Type == stream.Error {
			d := ast.Diagnostic{Severity: ev.Severity, Code: ev.Kind, Message: ev.Message, Span: ev.Span}
			fmt.Fprintln(e.stderr, d.Format("<stdin>"))
			if ev.Severity == ast.Error {
				code = exitError
			}
		}
		if oa != nil {
			n, _ := oa.NotUTF8()
			err := oa.Write(ev)
			if m, first := oa.NotUTF8(); n == 0 && m > 0 {
				d := ast.Diagnostic{Severity: ast.Warning, Code: stream.CodeNotUTF8OpenAI, Span: first,
					Message: "bytes that are not UTF-8 are written as U+FFFD: the OpenAI chunk format cannot carry them (--format json gives their exact bytes, docs/stream.md)"}
				fmt.Fprintln(e.stderr, d.Format("<stdin>"))
			}
			return err
		}
		var err error
		if line, err = ev.AppendJSON(line[:0]); err != nil {
			return err
		}
		line = append(line, '\n')
		_, err = out.Write(line)
		return err
	})
	if ferr := out.Flush(); err == nil && ferr != nil {
		err = ferr
	}
	if err != nil {
		return usageError(e, err)
	}
	return code
}

// defaultSyntax is the syntax read without --syntax: the one the --schema
// file names, unless it is the tools syntax (a registry of tools, like the
// built-in one and those of --tools), else auto, which detects the
// model's syntax (docs/stream.md).
func defaultSyntax(s *schema.Schema) string {
	if s != nil {
		if n := s.SyntaxName(); n != "" && n != "tools" {
			return n
		}
	}
	return stream.Auto
}

// flushReader feeds the parser from standard input through a 64 KiB read
// buffer and flushes the output w before each read that may wait for
// input: everything the input read so far produced is written before
// waiting for more, with one write per read of standard input rather than
// one per event or per chunk.
//
// From a regular file (reads never wait) each Read fills p, as a direct
// read of the file would, so the chunks and with them the events are the
// same as without the buffer. From a pipe or terminal a Read returns what
// has arrived (at most len(p)), as a direct read would.
type flushReader struct {
	r    *bufio.Reader
	w    *bufio.Writer
	full bool // standard input is a regular file
}

func newFlushReader(in io.Reader, chunk int, w *bufio.Writer) *flushReader {
	f := &flushReader{r: bufio.NewReaderSize(in, max(chunk, 64<<10)), w: w}
	if file, ok := in.(*os.File); ok {
		if fi, err := file.Stat(); err == nil && fi.Mode().IsRegular() {
			f.full = true
		}
	}
	return f
}

func (f *flushReader) Read(p []byte) (int, error) {
	if f.r.Buffered() == 0 {
		if err := f.w.Flush(); err != nil {
			return 0, fmt.Errorf("write: %w", err)
		}
	}
	if !f.full {
		return f.r.Read(p)
	}
	n, err := io.ReadFull(f.r, p)
	if err == io.ErrUnexpectedEOF {
		err = nil // a last short chunk; the next Read says EOF
	}
	return n, err
}
