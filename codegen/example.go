package codegen

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/plangram/plangram/schema"
)

// Example returns a canonical example document of the dialect s describes,
// written in the syntax of its grammar (s.SyntaxName(): acts, plan,
// tools, or a fixed document for the edit formats): every action once, in schema order, each parameter filled with a
// placeholder of its type (Placeholder), each action introduced by its
// description. It is meant for prompts: it shows a model the whole format,
// and it parses with no diagnostics.
func Example(s *schema.Schema) ([]byte, error) {
	var b strings.Builder
	switch syn := s.SyntaxName(); syn {
	case "acts":
		exampleActs(&b, s)
	case "tools":
		exampleTools(&b, s)
	case "plan":
		examplePlan(&b, s)
	default:
		fixed, ok := fixedExamples[syn]
		if !ok {
			return nil, fmt.Errorf("codegen: no example writer for syntax %q", syn)
		}
		b.WriteString(fixed)
	}
	return []byte(b.String()), nil
}

// fixedExamples are the examples of the edit formats, whose fixed grammars'
// actions are the file operations themselves: each shows every action
// once, in schema order, in the form the format's own documentation uses.
var fixedExamples = map[string]string{
	"search-replace": "src/example.py\n```python\n<<<<<<< SEARCH\ndef greet():\n    print(\"hi\")\n=======\ndef greet():\n    print(\"hello\")\n>>>>>>> REPLACE\n```\n",
	"udiff": "```diff\n--- /dev/null\n+++ b/src/new.txt\n@@ -0,0 +1,2 @@\n+first line\n+second line\n" +
		"--- a/src/old.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-the only line\n" +
		"--- a/src/example.py\n+++ b/src/example.py\n@@ -1,3 +1,3 @@\n def greet():\n-    print(\"hi\")\n+    print(\"hello\")\n \n```\n",
	"apply-patch": "*** Begin Patch\n*** Add File: src/new.txt\n+first line\n+second line\n*** Delete File: src/old.txt\n" +
		"*** Update File: src/example.py\n@@ def greet():\n-    print(\"hi\")\n+    print(\"hello\")\n*** End Patch\n",
}

// Placeholder returns the example value of a parameter as text, in the form
// the dialects read (schema.Param.Value converts it back): "true" for a
// bool, "1" for an int, "1.5" for a number, the default or first value of
// an enum, `{"key": "value"}` for json, a path such as src/example.txt, a
// phrase naming the parameter for a string, and one element per line for
// a list. A parameter's default, when it has one, is the placeholder.
func Placeholder(p *schema.Param) string {
	if p.Default != nil {
		if s, ok := p.Default.(string); ok {
			return s
		}
		if p.TypeOrDefault() != schema.List && p.TypeOrDefault() != schema.JSON {
			data, _ := json.Marshal(p.Default)
			return string(data)
		}
	}
	if p.TypeOrDefault() == schema.List {
		return strings.Join(items(p), "\n")
	}
	return scalar(p, p.TypeOrDefault(), 0)
}

// items returns the placeholder elements of a list or variadic parameter.
func items(p *schema.Param) []string {
	return []string{scalar(p, p.ItemType(), 1), scalar(p, p.ItemType(), 2)}
}

// scalar is the placeholder of one value of type t; i > 0 numbers the
// elements of a list.
func scalar(p *schema.Param, t schema.Type, i int) string {
	suffix := ""
	if i > 0 {
		suffix = "-" + strconv.Itoa(i)
	}
	switch t {
	case schema.Bool:
		return "true"
	case schema.Int:
		return strconv.Itoa(max(i, 1))
	case schema.Number:
		return "1.5"
	case schema.Enum:
		if len(p.Enum) == 0 {
			return ""
		}
		return p.Enum[min(i, len(p.Enum)-1)]
	case schema.JSON:
		return `{"key": "value"}`
	case schema.Path:
		if p.Name == "path" || p.Variadic || p.TypeOrDefault() == schema.List {
			return "src/example" + suffix + ".txt"
		}
		return "src/" + p.Name + suffix + ".txt"
	case schema.Resource:
		return "docs/example" + suffix + ".md"
	}
	if i > 0 {
		return p.Name + suffix
	}
	return "example " + strings.ReplaceAll(p.Name, "_", " ")
}

// inlineOK reports whether a parameter's values read well as inline
// arguments of an act: words (paths, numbers, bools, enums, the elements of
// a variadic parameter) rather than text, JSON or a list of lines.
func inlineOK(p *schema.Param) bool {
	if p.Variadic {
		return p.ItemType() != schema.JSON
	}
	t := p.TypeOrDefault()
	return t != schema.String && t != schema.JSON && t != schema.List
}

// exampleActs writes the fenced-acts form: in hybrid mode the leading
// word-like parameters are inline arguments and the rest argument blocks.
func exampleActs(b *strings.Builder, s *schema.Schema) {
	const fence = "~~~~~"
	for i, a := range s.Actions {
		if i > 0 {
			b.WriteString("\n")
		}
		if a.Description != "" {
			b.WriteString(oneLine(a.Description) + "\n\n")
		}
		var inline, blocks []string
		var blockInfo []string
		toBlocks := a.Mode() == schema.ArgsBlock
		for _, p := range a.Params {
			vals := []string{Placeholder(p)}
			if p.Variadic {
				vals = items(p)
			}
			if a.Mode() == schema.ArgsHybrid && !inlineOK(p) {
				toBlocks = true
			}
			for _, v := range vals {
				if toBlocks {
					blocks = append(blocks, v)
					blockInfo = append(blockInfo, map[bool]string{true: "json"}[p.ItemType() == schema.JSON])
				} else {
					inline = append(inline, shellQuote(v))
				}
			}
		}
		b.WriteString(fence + "act\n" + strings.Join(append([]string{a.Name}, inline...), " ") + "\n" + fence + "\n")
		for j, v := range blocks {
			b.WriteString(fence + blockInfo[j] + "\n" + v + "\n" + fence + "\n")
		}
	}
}

// shellQuote quotes a word for an act line when it needs it.
func shellQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n\"'\\") {
		return s
	}
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", " ").Replace(s) + `"`
}

// exampleTools writes the XML tool-call form, one parameter per line.
func exampleTools(b *strings.Builder, s *schema.Schema) {
	for i, a := range s.Actions {
		if i > 0 {
			b.WriteString("\n")
		}
		if a.Description != "" {
			b.WriteString(oneLine(a.Description) + "\n")
		}
		b.WriteString("<" + a.Name + ">\n")
		for _, p := range a.Params {
			v := Placeholder(p)
			if p.Variadic || p.TypeOrDefault() == schema.List {
				data, _ := json.Marshal(items(p))
				v = string(data)
			}
			b.WriteString("<" + p.Name + ">" + v + "</" + p.Name + ">\n")
		}
		b.WriteString("</" + a.Name + ">\n")
	}
}

// planMessageAction is the plan dialect's action written as a `## Message`
// section instead of an `### ACTION` of the `## Action Plan`; a plan holds
// one or the other, so the example (an action plan) leaves it out.
const planMessageAction = "MESSAGE"

// examplePlan writes a structured Markdown plan (docs/plan.md): title,
// metadata list, Rationale, then every action under `## Action Plan`, each
// parameter written where its `from` source says.
func examplePlan(b *strings.Builder, s *schema.Schema) {
	title := "Example " + s.Dialect + " plan"
	if s.Dialect == "plan" {
		title = "Example plan"
	}
	b.WriteString("# " + title + "\n\n")
	b.WriteString("- **Status:** draft\n- **Agent:** example-agent\n- **Goal:** show every action of the " + s.Dialect + " dialect\n\n")
	b.WriteString("## Rationale\n\n````text\nWhy the plan takes these steps, in order.\n````\n\n")
	b.WriteString("## Action Plan\n")
	for _, a := range s.Actions {
		if a.Name == planMessageAction {
			continue
		}
		b.WriteString("\n### `" + a.Name + "`\n\n")
		var meta []string
		var script struct{ cd, env []string }
		var blocks, markdown []string
		groups := false
		for _, p := range a.Params {
			if p.Fallback != "" && !p.Required {
				continue
			}
			switch p.From {
			case "", "meta":
				meta = append(meta, planMeta(p))
			case "block", "script":
				blocks = append(blocks, Placeholder(p))
			case "block_lines":
				blocks = append(blocks, strings.Join(items(p), "\n"))
			case "cwd":
				script.cd = append(script.cd, "cd src")
			case "env":
				script.env = append(script.env, "export MODE=example")
			case "groups":
				groups = true
			case "markdown":
				if p.Fallback == "" {
					markdown = append(markdown, "Example "+strings.ReplaceAll(p.Name, "_", " ")+", in Markdown.")
				}
			}
		}
		if len(meta) > 0 {
			b.WriteString(strings.Join(meta, "\n") + "\n")
		}
		for _, m := range markdown {
			b.WriteString("\n" + m + "\n")
		}
		info := blockInfo(a)
		for i, blk := range blocks {
			if i == 0 && (len(script.cd) > 0 || len(script.env) > 0) {
				blk = strings.Join(append(append(script.cd, script.env...), blk), "\n")
			}
			b.WriteString("\n````" + info + "\n" + blk + "\n````\n")
		}
		if groups && a.Blocks != nil {
			for _, label := range a.Blocks.Labels {
				b.WriteString("\n#### `" + label + "`\n\n````" + info + "\nexample " + strings.ToLower(strings.TrimSuffix(label, ":")) + " text\n````\n")
			}
		}
	}
}

// planMeta writes a parameter as a metadata list item: `- **Key:** value`,
// a list's elements nested under the key.
func planMeta(p *schema.Param) string {
	key := "- **" + p.KeyOrName() + ":**"
	if p.Variadic || p.TypeOrDefault() == schema.List {
		return key + "\n  - " + strings.Join(items(p), "\n  - ")
	}
	return key + " " + Placeholder(p)
}

// infoCandidates are the info strings an example block may carry, tried in
// order against the action's blocks.info pattern.
var infoCandidates = []string{"text", "yaml", "yml", "json", "sh", "bash", "python", "go", "markdown", "md"}

// blockInfo returns the info string of an action's example blocks: "text",
// or the first candidate its blocks.info pattern accepts.
func blockInfo(a *schema.Action) string {
	if a.Blocks == nil || a.Blocks.Info == "" {
		return "text"
	}
	re, err := regexp.Compile(a.Blocks.Info)
	if err != nil {
		return "text"
	}
	for _, c := range infoCandidates {
		if re.MatchString(c) {
			return c
		}
	}
	return "text"
}
