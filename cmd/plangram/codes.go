package main

import (
	_ "embed"
	"fmt"
	"slices"
	"strings"
)

// codesTxt lists every diagnostic code plangram's packages report, one a
// line, sorted: the `Code… = "…"` constants of the source tree.
// TestKnownCodes keeps it in step with them (`go test ./cmd/plangram -run
// TestKnownCodes -update` rewrites it).
//
//go:embed codes.txt
var codesTxt string

// knownCodes returns the diagnostic codes of codes.txt.
func knownCodes() []string { return strings.Fields(codesTxt) }

// checkCodes checks the codes given to --disable: each must be a known
// diagnostic code, and a misspelt one gets a did-you-mean, so that a typo
// does not silently disable nothing.
func checkCodes(codes []string) error {
	known := knownCodes()
	for _, c := range codes {
		if !slices.Contains(known, c) {
			return fmt.Errorf("--disable: unknown diagnostic code %q%s (the codes are listed in docs/check.md and each format's page)", c, didYouMean(c, known))
		}
	}
	return nil
}
