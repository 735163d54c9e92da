package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestProblemMatcher applies the problem matcher's regular expression
// (docs/ci/plangram-problem-matcher.json) to real text output of the built
// binary and checks each match against the same diagnostics in the json
// format: every error and warning is matched with its file, line, column,
// severity, message and code, and no other line is.
func TestProblemMatcher(t *testing.T) {
	bin := buildBinary(t)
	var m struct {
		ProblemMatcher []struct {
			Owner   string `json:"owner"`
			Pattern []struct {
				Regexp                                      string
				File, Line, Column, Severity, Message, Code int
			} `json:"pattern"`
		} `json:"problemMatcher"`
	}
	data, err := os.ReadFile("../../docs/ci/plangram-problem-matcher.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &m); err != nil || len(m.ProblemMatcher) != 1 || len(m.ProblemMatcher[0].Pattern) != 1 {
		t.Fatalf("matcher: %v %+v", err, m)
	}
	p := m.ProblemMatcher[0].Pattern[0]
	re := regexp.MustCompile(p.Regexp)

	plan, err := os.ReadFile("../../examples/plan.md")
	if err != nil {
		t.Fatal(err)
	}
	dir := tree(t, map[string]string{
		"acts.md":            badActs + "~~~act\necho a b\n~~~\n~~~\nunclosed\n",
		"dir: colon/plan.md": "#" + strings.TrimPrefix(string(plan), "# ") + "\n### `REED`\n",
	})
	text := runBinary(t, bin, dir, "", "check", ".")
	js := runBinary(t, bin, dir, "", "check", "--format", "json", ".")
	if text.code != 1 || js.code != 1 {
		t.Fatalf("exit %d / %d: %s", text.code, js.code, text.stderr)
	}
	var report struct {
		Files []struct {
			Path        string `json:"path"`
			Diagnostics []struct {
				Severity, Code, Message string
				Span                    struct{ Start struct{ Line, Col int } }
			} `json:"diagnostics"`
		} `json:"files"`
	}
	if err := json.Unmarshal([]byte(js.stdout), &report); err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, f := range report.Files {
		for _, d := range f.Diagnostics {
			if d.Severity == "error" || d.Severity == "warning" {
				want = append(want, strings.Join([]string{f.Path, strconv.Itoa(d.Span.Start.Line), strconv.Itoa(d.Span.Start.Col), d.Severity, d.Message, d.Code}, "|"))
			}
		}
	}
	var got []string
	for _, line := range strings.Split(text.stdout, "\n") {
		g := re.FindStringSubmatch(line)
		if g == nil {
			continue
		}
		got = append(got, strings.Join([]string{g[p.File], g[p.Line], g[p.Column], g[p.Severity], g[p.Message], g[p.Code]}, "|"))
	}
	if len(want) < 4 || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("matched:\n%s\nwant:\n%s\noutput:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"), text.stdout)
	}
}

// TestPreCommitHooks runs each hook of .pre-commit-hooks.yaml the way
// pre-commit does (its entry with the matching staged files appended) with
// the built binary, on a clean, an unformatted and a broken plan.
func TestPreCommitHooks(t *testing.T) {
	bin := buildBinary(t)
	data, err := os.ReadFile("../../.pre-commit-hooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	// The file is a flat list of maps with scalar values: read it as such.
	var hooks []map[string]string
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		if rest, ok := strings.CutPrefix(line, "- "); ok {
			hooks = append(hooks, map[string]string{})
			line = "  " + rest
		}
		k, v, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok || len(hooks) == 0 || !strings.HasPrefix(line, "  ") {
			t.Fatalf("unexpected line %q", line)
		}
		hooks[len(hooks)-1][k] = strings.TrimSpace(v)
	}
	dir := tree(t, map[string]string{"ok.md": okActs, "messy.md": messyActs, "bad.md": badActs, "notes.txt": "x"})
	want := map[string]map[string]int{
		"plangram-check": {"ok.md": 0, "messy.md": 0, "bad.md": 1},
		"plangram-fmt":   {"ok.md": 0, "messy.md": 1, "bad.md": 1},
	}
	if len(hooks) != len(want) {
		t.Fatalf("hooks %v", hooks)
	}
	for _, h := range hooks {
		w, ok := want[h["id"]]
		if !ok || h["language"] != "golang" || h["name"] == "" {
			t.Fatalf("hook %v", h)
		}
		files := regexp.MustCompile(h["files"])
		if files.MatchString("notes.txt") || !files.MatchString("ok.md") {
			t.Errorf("%s: files %q", h["id"], h["files"])
		}
		entry := strings.Fields(h["entry"])
		if entry[0] != "plangram" {
			t.Fatalf("%s: entry %q", h["id"], h["entry"])
		}
		for file, code := range w {
			got := runBinary(t, bin, dir, "", append(entry[1:], file)...)
			if got.code != code {
				t.Errorf("%s on %s: exit %d, want %d (%s%s)", h["id"], file, got.code, code, got.stdout, got.stderr)
			}
		}
	}
}

// TestActionsExample checks that the GitHub Actions example runs the
// SARIF check, uploads it and refers to files that exist.
func TestActionsExample(t *testing.T) {
	data, err := os.ReadFile("../../docs/ci/github-actions.yml")
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	for _, w := range []string{"go install github.com/plangram/plangram/cmd/plangram@", "plangram check --format sarif", "upload-sarif", "security-events: write",
		// The matcher is a file of the user's repository, where the
		// comment says to copy it and docs/cli.md says so too.
		"docs/ci/plangram-problem-matcher.json to .github/plangram-problem-matcher.json", `echo "::add-matcher::.github/plangram-problem-matcher.json"`} {
		if !strings.Contains(s, w) {
			t.Errorf("github-actions.yml lacks %q", w)
		}
	}
	if strings.Contains(s, "\t") {
		t.Error("github-actions.yml has a tab (YAML forbids tabs in indentation)")
	}
	if _, err := os.Stat(filepath.Join("../..", "docs/ci/plangram-problem-matcher.json")); err != nil {
		t.Error(err)
	}
	if cli, err := os.ReadFile("../../docs/cli.md"); err != nil || !strings.Contains(string(cli), `"::add-matcher::.github/plangram-problem-matcher.json"`) {
		t.Errorf("docs/cli.md does not name the matcher path the workflow uses (%v)", err)
	}
}
