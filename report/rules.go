package report

import (
	"cmp"
	"maps"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/plangram/plangram/ast"
)

// DocsBase is the URL of the documentation SARIF rules link to.
const DocsBase = "https://github.com/plangram/plangram/blob/main/docs/"

// usedRules returns the registry's entry (ast.LookupCode) of each code
// that occurs in the files, sorted by code. A code the registry does not
// know still gets a rule, made from the code itself and the severity of
// its first diagnostic.
func usedRules(files []*File) []ast.CodeInfo {
	seen := map[string]ast.CodeInfo{}
	for _, f := range files {
		for _, d := range f.Diagnostics {
			code := codeOf(d)
			if _, ok := seen[code]; ok {
				continue
			}
			c, ok := ast.LookupCode(code)
			if !ok {
				c = ast.CodeInfo{Code: code, Severity: d.Severity, Meaning: strings.ReplaceAll(code, "-", " ")}
				c.Help = "plangram diagnostic " + code + ": " + c.Meaning + "."
			}
			seen[code] = c
		}
	}
	return slices.SortedFunc(maps.Values(seen), func(a, b ast.CodeInfo) int { return strings.Compare(a.Code, b.Code) })
}

// ruleHelp is a rule's help paragraph: the registry's, or else its
// meaning as a sentence.
func ruleHelp(c ast.CodeInfo) string {
	if c.Help != "" {
		return c.Help
	}
	r, n := utf8.DecodeRuneInString(c.Meaning)
	return string(unicode.ToUpper(r)) + c.Meaning[n:] + "."
}

// codeOf returns a diagnostic's code, "plangram" when it has none.
func codeOf(d *ast.Diagnostic) string { return cmp.Or(d.Code, "plangram") }
