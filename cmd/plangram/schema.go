package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/plangram/plangram/schema"
)

// cmdSchema prints the JSON Schema (2020-12) of `plangram parse`'s JSON
// output for a dialect. With --tools it prints the action schema converted
// from a tools registry (a schema file --schema reads), or with
// --json-schema the JSON Schema of that dialect's parsed documents.
func cmdSchema(ctx context.Context, e *env, args []string) int {
	fs := newFlags(e, "schema", "[--dialect D | --schema FILE | --tools FILE [--json-schema]] [--compact] [-o FILE]")
	dialect := fs.String("dialect", "", "built-in dialect ("+strings.Join(schema.Dialects(), ", ")+"); with --schema, the grammar that reads it")
	schemaFile := fs.String("schema", "", "action schema file (docs/schema.md)")
	out := fs.String("o", "", "write to FILE instead of standard output")
	toolsFile := fs.String("tools", "", "tools registry (OpenAI, Anthropic or MCP tools) to convert: prints its action schema")
	jsonSchema := fs.Bool("json-schema", false, "with --tools: print the JSON Schema of the converted dialect instead")
	compact := fs.Bool("compact", false, "print the JSON on one line (default: indented)")
	if code, ok := parseNoArgs(e, fs, args); !ok {
		return code
	}
	var s *schema.Schema
	code := exitUsage
	switch {
	case *toolsFile != "" && (*dialect != "" || *schemaFile != ""):
		return usageError(e, fmt.Errorf("--tools replaces --dialect and --schema"))
	case *toolsFile != "":
		s = loadSchema(e, *toolsFile, true)
	case *jsonSchema:
		return usageError(e, fmt.Errorf("--json-schema goes with --tools"))
	default:
		s, _, code = resolveSchema(e, *dialect, *schemaFile)
	}
	if s == nil {
		return code
	}
	marshal := schema.JSONSchema
	if *toolsFile != "" && !*jsonSchema {
		marshal = (*schema.Schema).MarshalFile // the action schema itself
	}
	data, err := marshal(s)
	if *compact && err == nil {
		var b bytes.Buffer
		err = compactJSON(&b, data)
		data = b.Bytes()
	}
	return writeOutput(e, *out, data, err)
}

// resolveSchema returns the schema named by --dialect or --schema and a
// description of where it came from ("" for a built-in dialect). With both,
// --dialect names the grammar (syntax) that reads the schema's dialect. On
// failure it reports the problem and returns nil and the exit code.
func resolveSchema(e *env, dialect, file string) (*schema.Schema, string, int) {
	if dialect != "" && !slices.Contains(schema.Dialects(), dialect) {
		return nil, "", usageError(e, fmt.Errorf("--dialect must be one of %s, got %q", strings.Join(schema.Dialects(), ", "), dialect))
	}
	if file == "" {
		if dialect == "" {
			return nil, "", usageError(e, fmt.Errorf("give --dialect (%s) or --schema FILE", strings.Join(schema.Dialects(), ", ")))
		}
		s, err := schema.Builtin(dialect)
		if err != nil {
			return nil, "", usageError(e, err)
		}
		return s, "", exitOK
	}
	s := loadSchema(e, file, false)
	if s == nil {
		return nil, "", exitUsage
	}
	if dialect != "" {
		s.Syntax = dialect
	}
	return s, file, exitOK
}

// writeOutput writes data to the file named by -o, or standard output, or
// when the command failed to make data reports err, its error.
func writeOutput(e *env, file string, data []byte, err error) int {
	switch {
	case err != nil: // reported below
	case file == "" || file == "-":
		_, err = e.stdout.Write(data)
	default:
		err = os.WriteFile(file, data, 0o644) // readable by all, like go generate's output
	}
	if err != nil {
		return usageError(e, err)
	}
	return exitOK
}

// loadSchema reads an action schema file (schema.Parse) or, with tools, a
// tools registry (an OpenAI or Anthropic tools array, an MCP tools/list
// result) converted to an action schema (schema.FromTools), whose warnings
// and notes print to stderr as diagnostics. On failure it prints the error,
// positioned in the file (FILE:LINE:COL: error: … [bad-schema] or
// [bad-tools]), and returns nil: exit with exitUsage.
func loadSchema(e *env, file string, tools bool) *schema.Schema {
	data, err := os.ReadFile(file)
	if err != nil {
		usageError(e, err)
		return nil
	}
	var s *schema.Schema
	if tools {
		var t *schema.Tools
		if t, err = schema.FromTools(file, data); err == nil {
			s = t.Schema
			for _, d := range t.Diagnostics {
				fmt.Fprintln(e.stderr, d)
			}
		}
	} else {
		s, err = schema.Parse(file, data)
	}
	if err != nil {
		fmt.Fprintln(e.stderr, err)
		return nil
	}
	return s
}
