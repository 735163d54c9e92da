package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"
)

const validPlan = "# T\n\n- **Status:** Green\n\n## Rationale\n```text\nwhy\n```\n\n## Action Plan\n\n### `READ`\n- **Resource:** a.md\n"

func TestCheckExitCodes(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string { return writeTemp(t, dir, name, body, 0o644) }
	ok := write("ok.md", validPlan)
	warn := write("warn.md", strings.Replace(validPlan, "# T", "#T", 1))
	bad := write("bad.md", strings.Replace(validPlan, "`READ`", "`REED`", 1))
	for _, tc := range []struct {
		args []string
		code int
		out  string // a substring of stdout
	}{
		{[]string{"check", ok}, exitOK, ""},
		{[]string{"check", warn}, exitOK, "warn.md:1:1: warning: the title line has no space after the #"},
		{[]string{"check", bad}, exitError, `bad.md:12:1: error: unknown action "REED"; did you mean "READ"?`},
		{[]string{"check", "--format", "json", bad}, exitError, `"code": "unknown-action"`},
		{[]string{"check", "--format", "llm", bad}, exitError, "[✗] [005] L12  Heading 3: \"`REED`\""},
		{[]string{"check", "--format", "sarif", bad}, exitError, `"ruleId": "unknown-action"`},
		{[]string{"check", "--dialect", "plan", ok, bad}, exitError, "bad.md:12:1"},
		{[]string{"check", dir}, exitError, "bad.md:12:1"},
		{[]string{"check", "--format", "yaml", ok}, exitUsage, ""},
		{[]string{"check", "--dialect", "klingon", ok}, exitUsage, ""},
		{[]string{"check", filepath.Join(dir, "missing.md")}, exitUsage, ""},
	} {
		code, out, stderr := runCLI(t, "", tc.args...)
		if code != tc.code {
			t.Errorf("%v: exit %d, want %d (stderr %q)", tc.args, code, tc.code, stderr)
		}
		if !strings.Contains(out, tc.out) {
			t.Errorf("%v: stdout lacks %q:\n%s", tc.args, tc.out, out)
		}
	}
}

// TestCheckLLMGolden pins the correction message `plangram check --format
// llm` sends back to the model for the golden/plan/NAME.llm.md inputs
// (read from standard input, so the name printed is <stdin>).
func TestCheckLLMGolden(t *testing.T) {
	files, _ := filepath.Glob("../../golden/plan/*.llm.md")
	if len(files) < 3 {
		t.Fatalf("want at least 3 llm golden inputs, got %d", len(files))
	}
	g := goldie.New(t, goldie.WithFixtureDir("../../golden/plan"), goldie.WithNameSuffix(".golden"))
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".md")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			code, out, stderr := runCLI(t, string(src), "check", "--format", "llm", "-")
			if code != exitError {
				t.Fatalf("exit %d, stderr %q", code, stderr)
			}
			g.Assert(t, name, []byte(out))
		})
	}
}

func TestFixCommand(t *testing.T) {
	broken := "#Title\n\n```markdown\n# Tool\n```bash\npip install tool\n```\nThen run it.\n```\n\n\n"
	want := "# Title\n\n````markdown\n# Tool\n```bash\npip install tool\n```\nThen run it.\n````\n"
	code, out, stderr := runCLI(t, broken, "fix", "--dialect", "plan")
	if code != exitOK || out != want {
		t.Fatalf("exit %d\n%q\nwant\n%q\n%s", code, out, want, stderr)
	}
	for _, c := range []string{"[fixed-title-space]", "[fixed-nested-fence]", "[fixed-trailing-blank-lines]", "<stdin>:3:1: warning: lengthened"} {
		if !strings.Contains(stderr, c) {
			t.Errorf("stderr lacks %q:\n%s", c, stderr)
		}
	}

	dir := t.TempDir()
	p := filepath.Join(dir, "plan.md")
	os.WriteFile(p, []byte(broken), 0o644)
	if code, _, stderr := runCLI(t, "", "fix", "-w", "--dialect", "plan", p); code != exitOK {
		t.Fatalf("fix -w: exit %d %s", code, stderr)
	}
	if got, _ := os.ReadFile(p); string(got) != want {
		t.Fatalf("fix -w wrote %q", got)
	}
	if code, _, stderr := runCLI(t, "", "fix", "-w", p); code != exitOK || stderr != "" {
		t.Fatalf("second fix -w: exit %d, repairs %q", code, stderr)
	}
	if code, out, _ := runCLI(t, broken, "fix", "-d", "--dialect", "plan"); code != exitOK || !strings.Contains(out, "+````markdown") {
		t.Fatalf("fix -d: exit %d\n%s", code, out)
	}
	for _, args := range [][]string{{"fix", "-w"}, {"fix", "-w", "-", p}, {"fix", "--dialect", "x"}, {"fix", filepath.Join(dir, "nope.md")}} {
		if code, _, _ := runCLI(t, "", args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
	}
}

// TestFixCommandActs: fix repairs the acts dialect's fence errors with
// -l, -d and -w as for plans (docs/cli.md), and check passes on the result.
func TestFixCommandActs(t *testing.T) {
	broken := "```act\nwrite_file a.txt\n```\n```\nhello\n``` end of file\n```act\nwrite_file b.md\n```\n```markdown\n# B\n```sh\nls\n```\n```\n"
	want := "```act\nwrite_file a.txt\n```\n```\nhello\n```\n```act\nwrite_file b.md\n```\n````markdown\n# B\n```sh\nls\n```\n````\n"
	if code, _, _ := runCLI(t, broken, "check", "-"); code != exitError {
		t.Fatalf("check of the broken input: exit %d", code)
	}
	code, out, stderr := runCLI(t, broken, "fix")
	if code != exitOK || out != want {
		t.Fatalf("exit %d\n%q\nwant\n%q\n%s", code, out, want, stderr)
	}
	for _, c := range []string{"<stdin>:6:1: warning: removed \"end of file\"", "<stdin>:10:1: warning: lengthened", "[fixed-nested-fence]"} {
		if !strings.Contains(stderr, c) {
			t.Errorf("stderr lacks %q:\n%s", c, stderr)
		}
	}
	if code, out, stderr := runCLI(t, want, "check", "-"); code != exitOK {
		t.Fatalf("check of the fixed text: exit %d\n%s%s", code, out, stderr)
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "acts.md")
	os.WriteFile(p, []byte(broken), 0o644)
	if code, out, _ := runCLI(t, "", "fix", "-l", p); code != 1 || out != p+"\n" {
		t.Fatalf("fix -l: exit %d %q", code, out)
	}
	if code, out, _ := runCLI(t, "", "fix", "-d", p); code != exitOK || !strings.Contains(out, "+````markdown") || !strings.Contains(out, "-``` end of file") {
		t.Fatalf("fix -d: exit %d\n%s", code, out)
	}
	if code, _, stderr := runCLI(t, "", "fix", "-w", p); code != exitOK {
		t.Fatalf("fix -w: exit %d %s", code, stderr)
	}
	if got, _ := os.ReadFile(p); string(got) != want {
		t.Fatalf("fix -w wrote %q", got)
	}
	if code, _, stderr := runCLI(t, "", "fix", "-l", p); code != exitOK || stderr != "" {
		t.Fatalf("second fix -l: exit %d, repairs %q", code, stderr)
	}
}
