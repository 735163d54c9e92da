package report

import (
	"sort"
	"strings"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/workspace"
)

// Rule documents one diagnostic code: SARIF lists it as a reporting
// descriptor (rule id = code).
type Rule struct {
	ID       string
	Severity ast.Severity // default level
	Summary  string       // one line (SARIF shortDescription)
	Help     string       // a paragraph (SARIF fullDescription and help)
	HelpURI  string       // absolute URL of the rule's documentation, if any
}

// DocsBase is the URL of the documentation SARIF rules link to.
const DocsBase = "https://github.com/plangram/plangram/blob/main/docs/"

// KnownRules returns the documentation of the codes plangram's packages
// report that this package knows of: the fenced-acts parser's, the schema
// validator's and the workspace rules. Codes it does not know still get a
// SARIF rule, with a summary made from the code.
func KnownRules() []Rule {
	rules := []Rule{
		{ID: "unclosed-fence", Severity: ast.Error, Summary: "a fence is never closed",
			Help: "A fenced block opened here has no closing fence of the same run, so it swallows the rest of the document. Close it with the same fence run that opened it."},
		{ID: "block-before-act", Severity: ast.Warning, Summary: "a block comes before the first act",
			Help: "A fenced block before the first `act` block belongs to no action and is ignored."},
		{ID: "near-act", Severity: ast.Error, Summary: "a block's info string starts with act but is not act",
			Help: "Only a fenced block whose info string is exactly `act` is an act block. A block with `act python`, `act:` or `{act}` is an ordinary block (an argument of the action before it): the action it seems to name is not read. Write the fence line as ```act with nothing after it."},
		{ID: "quoted-act", Severity: ast.Warning, Summary: "an act block is inside a block quote",
			Help: "A line starting with `>` is quoted text: an act block written there is prose, and its action is not read. Remove the `>` markers if the action is meant to run."},
		{ID: "hidden-act", Severity: ast.Warning, Summary: "an act block is inside an HTML comment",
			Help: "An act block after a line starting with `<!--` and before the line holding `-->` is read as an action, but Markdown viewers hide the comment, so a reviewer may approve the plan without seeing it. Take the block out of the comment, or delete it."},
		{ID: "looks-like-edit", Severity: ast.Warning, Summary: "the document looks like an edit that no edit format reads",
			Help: "Under --dialect auto, a document with no plan holds a unified-diff hunk with no `--- a/PATH` / `+++ b/PATH` header, or apply-patch file lines with no `*** Begin Patch`: nothing in it would be applied. Give the diff its file header (or the envelope its first line)."},
		{ID: "empty-action-name", Severity: ast.Error, Summary: "an act block names no action",
			Help: "The first non-blank line of an `act` block must start with the action name."},
		{ID: "unterminated-quote", Severity: ast.Warning, Summary: "an act line has an unterminated quote",
			Help: "Inline arguments are split like a shell would; an unterminated quote takes the rest of the line literally."},
		{ID: "parse-error", Severity: ast.Error, Summary: "internal parse error",
			Help: "The parser failed; please report the input."},
		{ID: "unknown-action", Severity: ast.Error, Summary: "the action is not in the schema",
			Help: "The action name is not declared by the dialect's schema; check the spelling (the message suggests the closest name)."},
		{ID: "wrong-arg-count", Severity: ast.Error, Summary: "wrong number of arguments",
			Help: "The action takes the parameters its schema declares; the message names them."},
		{ID: "inline-args-not-allowed", Severity: ast.Error, Summary: "the action takes block arguments only",
			Help: "Give the arguments as fenced blocks after the act block."},
		{ID: "block-args-not-allowed", Severity: ast.Error, Summary: "the action takes inline arguments only",
			Help: "Give the arguments on the act line."},
	}
	for _, r := range workspace.Rules() {
		rules = append(rules, Rule{ID: r.Code, Severity: r.Severity, Summary: r.Summary, Help: r.Help,
			HelpURI: DocsBase + "check.md#" + r.Code})
	}
	return rules
}

// ruleSet looks rules up by id; later rules replace earlier ones.
type ruleSet map[string]Rule

func newRuleSet(extra []Rule) ruleSet {
	rs := ruleSet{}
	for _, r := range KnownRules() {
		rs[r.ID] = r
	}
	for _, r := range extra {
		rs[r.ID] = r
	}
	return rs
}

// get returns the rule of a code, inventing one for an unknown code from the
// code itself and the severity of its first diagnostic.
func (rs ruleSet) get(code string, sev ast.Severity) Rule {
	if r, ok := rs[code]; ok {
		return r
	}
	summary := strings.ReplaceAll(code, "-", " ")
	return Rule{ID: code, Severity: sev, Summary: summary, Help: "plangram diagnostic " + code + ": " + summary + "."}
}

// used returns the rules of the codes that occur in the files, sorted by id.
func (rs ruleSet) used(files []*File) []Rule {
	seen := map[string]Rule{}
	for _, f := range files {
		for _, d := range f.Diagnostics {
			code := codeOf(d)
			if _, ok := seen[code]; !ok {
				seen[code] = rs.get(code, d.Severity)
			}
		}
	}
	out := make([]Rule, 0, len(seen))
	for _, r := range seen {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// codeOf returns a diagnostic's code, "plangram" when it has none.
func codeOf(d *ast.Diagnostic) string {
	if d.Code == "" {
		return "plangram"
	}
	return d.Code
}
