package main

import (
	"fmt"
	"os"

	"github.com/plangram/plangram/schema"
)

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

// printTools is `plangram schema --tools FILE`: the converted action
// schema (a schema file --schema reads), or with --json-schema the JSON
// Schema of the dialect's parsed documents.
func printTools(e *env, file, dialect, schemaFile string, jsonSchema, compact bool, out string) int {
	if dialect != "" || schemaFile != "" {
		return usageError(e, fmt.Errorf("--tools replaces --dialect and --schema"))
	}
	s := loadSchema(e, file, true)
	if s == nil {
		return exitUsage
	}
	if jsonSchema {
		data, err := schema.JSONSchema(s)
		return writeJSONOutput(e, out, data, err, compact)
	}
	data, err := s.MarshalFile()
	return writeJSONOutput(e, out, data, err, compact)
}
