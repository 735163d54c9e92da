package main

import (
	"fmt"
	"os"

	"github.com/plangram/plangram/schema"
)

// loadTools reads a tools registry (an OpenAI or Anthropic tools array, an
// MCP tools/list result) and converts it to an action schema
// (schema.FromTools). Its warnings and notes print to stderr as
// diagnostics; on failure the errors do and the exit code is returned.
func loadTools(e *env, file string) (*schema.Schema, int) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, usageError(e, err)
	}
	t, err := schema.FromTools(file, data)
	if err != nil {
		fmt.Fprintln(e.stderr, err) // positioned: FILE:LINE:COL: error: … [bad-tools]
		return nil, exitUsage
	}
	for _, d := range t.Diagnostics {
		fmt.Fprintln(e.stderr, d)
	}
	return t.Schema, exitOK
}

// printTools is `plangram schema --tools FILE`: the converted action
// schema (a schema file --schema reads), or with --json-schema the JSON
// Schema of the dialect's parsed documents.
func printTools(e *env, file, dialect, schemaFile string, jsonSchema, compact bool, out string) int {
	if dialect != "" || schemaFile != "" {
		return usageError(e, fmt.Errorf("--tools replaces --dialect and --schema"))
	}
	s, code := loadTools(e, file)
	if s == nil {
		return code
	}
	if jsonSchema {
		data, err := schema.JSONSchema(s)
		return writeJSONOutput(e, out, data, err, compact)
	}
	data, err := s.MarshalFile()
	return writeJSONOutput(e, out, data, err, compact)
}
