package main

import (
	"fmt"

	"github.com/plangram/plangram/ast"
)

// knownCodes returns every diagnostic code plangram reports: the registry's
// (ast.Codes).
func knownCodes() []string {
	codes := ast.Codes()
	out := make([]string, len(codes))
	for i, c := range codes {
		out[i] = c.Code
	}
	return out
}

// checkCodes checks the codes given to --disable: each must be a known
// diagnostic code, and a misspelt one gets a did-you-mean, so that a typo
// does not silently disable nothing.
func checkCodes(codes []string) error {
	for _, c := range codes {
		if _, ok := ast.LookupCode(c); !ok {
			return fmt.Errorf("--disable: unknown diagnostic code %q%s (docs/diagnostics.md lists the codes)", c, didYouMean(c, knownCodes()))
		}
	}
	return nil
}
