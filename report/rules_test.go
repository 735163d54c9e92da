package report

import (
	"go/build"
	"slices"
	"strings"
	"testing"

	"github.com/plangram/plangram/ast"
)

// TestKnownRulesFromRegistry checks that every registered code has a rule
// with its severity, meaning and docs link, including codes that have no
// help paragraph.
func TestKnownRulesFromRegistry(t *testing.T) {
	rs := newRuleSet()
	for _, c := range ast.Codes() {
		r, ok := rs[c.Code]
		if !ok {
			t.Errorf("no rule for %s", c.Code)
			continue
		}
		if r.Severity != c.Severity || r.Summary != c.Meaning || r.HelpURI != DocsBase+c.Doc || r.Help == "" {
			t.Errorf("rule %s = %+v; registry %+v", c.Code, r, c)
		}
	}
	r := rs.get("hunk-without-line-numbers", ast.Error)
	if r.Severity != ast.Info || !strings.HasPrefix(r.Help, "A hunk header without line numbers") || r.HelpURI != DocsBase+"udiff.md#diagnostics" {
		t.Errorf("hunk-without-line-numbers: %+v", r)
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
