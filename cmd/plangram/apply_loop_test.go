package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"
)

// loopReply is an agent's reply in the plan dialect: an EDIT that adds a
// function after another (its REPLACE text holds its FIND text, so the
// FIND text still matches once it is applied) and a CREATE of a Go file
// (its block's content has no final line break in the AST).
const loopReply = "# Say goodbye\n\n- **Goal:** add Bye\n\n## Rationale\n\n```text\nThe caller needs it.\n```\n\n## Action Plan\n\n" +
	"### `EDIT`\n\n- **File Path:** greet/greet.go\n\n#### `FIND:`\n\n```go\nfunc Hello() string { return \"hello\" }\n```\n\n" +
	"#### `REPLACE:`\n\n```go\nfunc Hello() string { return \"hello\" }\n\n// Bye says goodbye.\nfunc Bye() string { return \"bye\" }\n```\n\n" +
	"### `CREATE`\n\n- **File Path:** greet/bye_test.go\n\n```go\npackage greet\n\nimport \"testing\"\n\nfunc TestBye(t *testing.T) {\n\tif Bye() != \"bye\" {\n\t\tt.Fatal(Bye())\n\t}\n}\n```\n\n" +
	"### `EXECUTE`\n\n- **Description:** run the tests\n\n```bash\ngo test ./...\n```\n"

// TestApplyAgentLoop drives plangram as the apply step of an agent loop,
// in the workspace as the current directory (apply's default root): a
// reply is checked and applied; applied again it is a no-op (every action
// already applied) and check --root says so; a reply that repeats it with
// one more edit is refused (applied in part); a CREATE over an existing
// file without Overwrite is refused; a prose reply and a diff without its
// file header have nothing to apply (exit 1). No refused or repeated
// apply changes a file, and the files made from blocks end with a line
// break (and pass gofmt -l when gofmt is on PATH). The transcript is
// golden/cli/apply_agent_loop.golden.
func TestApplyAgentLoop(t *testing.T) {
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	if err := os.MkdirAll(filepath.Join(ws, "greet"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeTemp(t, ws, "go.mod", "module example.com/hello\n\ngo 1.22\n", 0o644)
	writeTemp(t, ws, "greet/greet.go", "package greet\n\n// Hello greets.\nfunc Hello() string { return \"hello\" }\n", 0o644)
	replies := map[string]string{
		"reply.md": loopReply,
		"more.md": loopReply + "\n### `EDIT`\n\n- **File Path:** greet/greet.go\n\n#### `FIND:`\n\n```go\n// Hello greets.\n```\n\n" +
			"#### `REPLACE:`\n\n```go\n// Hello says hello.\n```\n",
		"create.md": "# Replace\n\n- **Goal:** g\n\n## Rationale\n\n```text\nr\n```\n\n## Action Plan\n\n### `CREATE`\n\n- **File Path:** greet/greet.go\n\n```go\npackage greet\n```\n",
		"prose.md":  "Sure! I've made the changes to greet.go.\n",
		"hunks.md":  "Here is the fix:\n\n```diff\n@@ -3,2 +3,2 @@\n-// Hello greets.\n+// Hello says hello.\n func Hello() string { return \"hello\" }\n```\n",
	}
	for name, body := range replies {
		writeTemp(t, dir, name, body, 0o644)
	}
	fixtures, err := filepath.Abs("../../golden/cli")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(ws)
	var out strings.Builder
	step := func(wantCode int, args ...string) {
		t.Helper()
		code, stdout, stderr := runCLI(t, "", args...)
		fmt.Fprintf(&out, "$ plangram %s\n%s%sexit %d\n\n", strings.Join(args, " "), stdout, stderr, code)
		if code != wantCode {
			t.Errorf("plangram %s: exit %d, want %d\n%s%s", strings.Join(args, " "), code, wantCode, stdout, stderr)
		}
	}
	reply := func(name string) string { return filepath.Join(dir, name) }

	step(exitOK, "check", "--root", ".", reply("reply.md"))
	step(exitOK, "apply", reply("reply.md"))
	applied := treeOf(t, ws)
	for _, f := range []string{"greet/greet.go", "greet/bye_test.go"} {
		if data, err := os.ReadFile(filepath.Join(ws, f)); err != nil || !strings.HasSuffix(string(data), "}\n") {
			t.Errorf("%s does not end with a line break: %q %v", f, data, err)
		}
	}
	if gofmt, err := exec.LookPath("gofmt"); err == nil {
		if b, err := exec.Command(gofmt, "-l", "greet").CombinedOutput(); err != nil || len(b) > 0 {
			t.Errorf("gofmt -l greet: %s %v", b, err)
		}
	} else {
		t.Log("gofmt is not on PATH: the gofmt -l check is skipped")
	}

	// Again: check warns, apply is a no-op.
	step(exitOK, "check", "--root", ".", reply("reply.md"))
	step(exitOK, "apply", reply("reply.md"))
	// Refused, each leaving the workspace as the first apply left it.
	step(exitError, "apply", reply("more.md"))
	step(exitError, "apply", reply("create.md"))
	step(exitError, "apply", reply("prose.md"))
	step(exitError, "apply", reply("hunks.md"))
	if got := treeOf(t, ws); got != applied {
		t.Errorf("a repeated or refused apply changed the workspace:\n%s\nwant\n%s", got, applied)
	}
	goldie.New(t, goldie.WithFixtureDir(fixtures), goldie.WithNameSuffix(".golden")).
		Assert(t, "apply_agent_loop", []byte(strings.ReplaceAll(out.String(), dir, "DIR")))
}
