// Package gentest holds test helpers for the generated typed packages
// (typed/...): a staleness check and a golden summary of decoded actions.
package gentest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/plangram/plangram/codegen"
	"github.com/plangram/plangram/schema"
)

// CheckFresh regenerates the Go code of a built-in dialect in memory, as
// its //go:generate line does, and fails when file differs from it.
func CheckFresh(t *testing.T, dialect, pkg, file string) {
	t.Helper()
	s, err := schema.Builtin(dialect)
	if err != nil {
		t.Fatal(err)
	}
	want, err := codegen.Go(s, codegen.GoOptions{Package: pkg})
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is stale: the %s schema changed; run `go generate ./typed/...`", file, dialect)
	}
}

// Summary renders decoded actions, one line each (Go type, then the
// fields as JSON, clipped to 200 bytes), then the decoding error, if any,
// for golden files.
func Summary[A any](actions []A, err error) string {
	var b bytes.Buffer
	for _, a := range actions {
		var js bytes.Buffer
		enc := json.NewEncoder(&js)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(a); err != nil {
			js.WriteString(err.Error())
		}
		line := strings.TrimSpace(js.String())
		if len(line) > 200 { // long file contents: the start shows enough
			line = strings.ToValidUTF8(line[:200], "") + "…"
		}
		fmt.Fprintf(&b, "%T %s\n", a, line)
	}
	if err != nil {
		fmt.Fprintf(&b, "error: %s\n", strings.ReplaceAll(err.Error(), "\n", "\n  "))
	}
	return b.String()
}
