package report

import (
	"go/build"
	"slices"
	"strings"
	"testing"

	"github.com/plangram/plangram/ast"
)

// TestRulesFromRegistry checks that the rule of every registered code
// carries its severity, meaning and docs section, and a help paragraph
// also where the registry has none, and that an unknown code gets one.
func TestRulesFromRegistry(t *testing.T) {
	f := &File{Diagnostics: []*ast.Diagnostic{{Code: "no-such-code", Severity: ast.Warning}}}
	for _, c := range ast.Codes() {
		f.Diagnostics = append(f.Diagnostics, &ast.Diagnostic{Code: c.Code, Severity: ast.Error})
	}
	rules := map[string]ast.CodeInfo{}
	for _, r := range usedRules([]*File{f}) {
		rules[r.Code] = r
	}
	for _, c := range ast.Codes() {
		r, ok := rules[c.Code]
		if !ok {
			t.Errorf("no rule for %s", c.Code)
			continue
		}
		if r.Severity != c.Severity || r.Meaning != c.Meaning || r.Doc == "" || r.Doc != c.Doc || ruleHelp(r) == "" {
			t.Errorf("rule %s = %+v; registry %+v", c.Code, r, c)
		}
	}
	r := rules["hunk-without-line-numbers"]
	if r.Severity != ast.Info || !strings.HasPrefix(ruleHelp(r), "A hunk header without line numbers") || r.Doc != "udiff.md#diagnostics" {
		t.Errorf("hunk-without-line-numbers: %+v", r)
	}
	if r := rules["no-such-code"]; r.Severity != ast.Warning || ruleHelp(r) != "plangram diagnostic no-such-code: no such code." || r.Doc != "" {
		t.Errorf("unknown code: %+v", r)
	}
}

// TestRulesImports checks that the rules come from the registry, not from
// the packages that report the codes.
func TestRulesImports(t *testing.T) {
	pkg, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"workspace", "grammar", "validate", "lint"} {
		if slices.Contains(pkg.Imports, "github.com/plangram/plangram/"+p) {
			t.Errorf("package report imports %s", p)
		}
	}
}
