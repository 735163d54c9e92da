package report

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/plangram/plangram/ast"
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

// KnownRules returns the documentation of every diagnostic code plangram
// reports, from the registry (ast.Codes): its default severity, its
// meaning as the summary, its help (the meaning when the registry has no
// paragraph) and the URL of its docs section. Codes it does not know still
// get a SARIF rule, with a summary made from the code.
func KnownRules() []Rule {
	codes := ast.Codes()
	rules := make([]Rule, 0, len(codes))
	for _, c := range codes {
		help := c.Help
		if help == "" {
			r, n := utf8.DecodeRuneInString(c.Meaning)
			help = string(unicode.ToUpper(r)) + c.Meaning[n:] + "."
		}
		rules = append(rules, Rule{ID: c.Code, Severity: c.Severity, Summary: c.Meaning, Help: help, HelpURI: DocsBase + c.Doc})
	}
	return rules
}

// ruleSet looks rules up by id.
type ruleSet map[string]Rule

func newRuleSet() ruleSet {
	rs := ruleSet{}
	for _, r := range KnownRules() {
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
