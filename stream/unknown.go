package stream

import (
	"cmp"
	"fmt"

	"github.com/plangram/plangram/schema"
)

// toolNames says what an unknown tool name is near: the schema's tools and
// whether the schema is the syntax's built-in one (Options.Schema nil).
type toolNames struct {
	schema  *schema.Schema
	builtin bool
	hint    string // Options.ToolsHint
}

// namesOf returns the toolNames of a scanner's config.
func namesOf(c *config) toolNames {
	return toolNames{schema: c.schema, builtin: c.opts.Schema == nil, hint: c.opts.ToolsHint}
}

// unknown returns the message of the unknown-tool error of a call of
// name: the nearest known tool as `plangram check` suggests an action
// (schema.Suggest), and, under the built-in registry, that the model's own
// tools are given with --tools FILE (Options.Schema in Go): a model that
// calls a tool the built-in registry lacks was most often given other
// tools.
func (n toolNames) unknown(name string) string {
	msg := fmt.Sprintf("unknown tool %q", name)
	if n.schema != nil {
		if sug := n.schema.Suggest(name); sug != "" {
			msg += fmt.Sprintf("; did you mean %q?", sug)
		}
	}
	if n.builtin {
		hint := cmp.Or(n.hint, "with --tools FILE")
		msg += " (the built-in tools registry is in use: give the model's tools " + hint + ")"
	}
	return msg
}
