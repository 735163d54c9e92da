package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestReadme keeps the README's promises checkable: exactly two fenced
// set-up commands (one runs plangram on a bundled example, one runs the
// tests), the Go version go.mod states, and the install line naming the
// module's command.
func TestReadme(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?ms)^```[a-z]*\n(.*?)^```\n").FindAllStringSubmatch(string(readme), -1)
	if len(blocks) != 2 || blocks[0][1] != "go run ./cmd/plangram parse examples/acts.md\n" || blocks[1][1] != "go test ./...\n" {
		t.Fatalf("README's fenced blocks: %q", blocks)
	}
	goVer := regexp.MustCompile(`(?m)^go (\S+)$`).FindStringSubmatch(string(gomod))
	module := regexp.MustCompile(`(?m)^module (\S+)$`).FindStringSubmatch(string(gomod))
	if goVer == nil || module == nil {
		t.Fatal("go.mod lacks module or go line")
	}
	for _, w := range []string{"Go " + goVer[1] + " or later", "`go " + goVer[1] + "`", "go install " + module[1] + "/cmd/plangram@latest", "Chromium", "Neovim", "zsh", "fish"} {
		if !strings.Contains(string(readme), w) {
			t.Errorf("README lacks %q", w)
		}
	}
	// go test prints a skipped test's SKIP line only under -v: the README
	// says so rather than promise a line plain go test omits.
	if words := strings.Join(strings.Fields(string(readme)), " "); !strings.Contains(words, "(`go test -v` shows their `SKIP` line;") || strings.Contains(words, "loud `SKIP`") {
		t.Error("README must say that a skipped test's SKIP line shows under `go test -v`")
	}
	// The tests the README says need those programs exist under that name.
	for test, file := range map[string]string{"render.TestBrowser": "../../render/browser_test.go", "lsp.TestNeovim": "../../lsp/nvim_test.go", "TestCompletionShells": "completion_test.go"} {
		src, err := os.ReadFile(file)
		_, name, _ := strings.Cut(test, ".")
		if name == "" {
			name = test
		}
		if err != nil || !strings.Contains(string(src), "func "+name+"(") || !strings.Contains(string(readme), "`"+test+"`") {
			t.Errorf("README names %s (%s): %v", test, file, err)
		}
	}
}

// TestExamplesCanonical: the bundled examples are in the canonical format
// (`plangram fmt -l examples/` prints nothing) and check clean.
func TestExamplesCanonical(t *testing.T) {
	if code, out, stderr := runCLI(t, "", "fmt", "-l", "../../examples"); code != exitOK || out != "" {
		t.Errorf("fmt -l examples: exit %d\n%s%s", code, out, stderr)
	}
	if code, out, stderr := runCLI(t, "", "check", "--strict", "../../examples"); code != exitOK {
		t.Errorf("check --strict examples: exit %d\n%s%s", code, out, stderr)
	}
}
