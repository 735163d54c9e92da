package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The path rule (schema.CheckPath) holds in every dialect and without
// --root: check exits 1, render shows the error on the review page, the
// stream reports the call's path with the rule's own code (issue 10, "Paths that
// escape").
func TestPathRuleEverywhere(t *testing.T) {
	dir := t.TempDir()
	acts := "~~~act\nwrite_file \"ab://../../outside/pwn.txt\"\n~~~\n~~~\nx\n~~~\n"
	plan := "# Plan\n\n## Action Plan\n\n### `CREATE`\n- **File Path:** ../../etc/cron.d/x\n\n```\nx\n```\n"
	for name, src := range map[string]string{"acts.md": acts, "plan.md": plan} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		code, stdout, stderr := runCLI(t, "", "check", p)
		if out := stdout + stderr; code != exitError || !strings.Contains(out, "error:") || !strings.Contains(out, "[path-escapes-root]") {
			t.Errorf("check %s: exit %d %q, want 1 and path-escapes-root", name, code, out)
		}
		code, page, _ := runCLI(t, "", "render", p)
		if code != exitError || !strings.Contains(page, "path-escapes-root") || !strings.Contains(page, "leaves the project root") {
			t.Errorf("render %s: exit %d; the page does not show the path error", name, code)
		}
	}

	code, out, _ := runCLI(t, "<write_to_file><path>/etc/passwd</path><content>x</content></write_to_file>", "stream", "--syntax", "tools")
	if code != exitError || !strings.Contains(out, `"absolute-path"`) || !strings.Contains(out, "is absolute") {
		t.Errorf("stream absolute path: exit %d\n%s", code, out)
	}
}
