package main

import (
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"
)

var (
	stepRE     = regexp.MustCompile(`(?s)<figure class="block step" id="[^"]+">.*?<pre class="code"><code>(.*?)</code></pre>`)
	stepLineRE = regexp.MustCompile(`(?s)<span class="line[^"]*">(.*?)</span>(?:\n|$)`)
	tagRE      = regexp.MustCompile(`<[^>]*>`)
)

// pageSteps returns the diffs a page rendered with --root shows, in page
// order, as text (each line's markup taken off, entities decoded).
func pageSteps(page string) string {
	var b strings.Builder
	for _, m := range stepRE.FindAllStringSubmatch(page, -1) {
		for _, l := range stepLineRE.FindAllStringSubmatch(m[1], -1) {
			b.WriteString(html.UnescapeString(tagRE.ReplaceAllString(l[1], "")) + "\n")
		}
	}
	return b.String()
}

// TestRenderRootAsApply: for a plan of one action per file, the diffs
// `render --root` shows on the cards are, together, what `apply --dry-run
// -d` prints (the actions are in the order of their paths, apply's
// order), in the acts dialect (an edit, an append, a delete, an empty
// file and a file created, a move), as a unified diff and as a structured
// plan (an EDIT of two pairs, a CREATE).
func TestRenderRootAsApply(t *testing.T) {
	for _, c := range []struct {
		name, plan string
	}{
		{"acts.md", "~~~act\npatch_file a.txt two TWO\n~~~\n" +
			"~~~act\nappend_file b.txt\n~~~\n~~~\nmore\n~~~\n" +
			"~~~act\ndelete_file c.txt\n~~~\n" +
			"~~~act\nwrite_file d0.txt\n~~~\n~~~\n~~~\n" +
			"~~~act\nwrite_file d1.txt\n~~~\n~~~\nnew\nfile\n~~~\n" +
			"~~~act\nmove_file e.txt f.txt\n~~~\n" +
			"~~~act\nrun_command 'make test'\n~~~\n"},
		{"change.diff", "--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n" +
			"--- /dev/null\n+++ b/g.txt\n@@ -0,0 +1,2 @@\n+g\n+h\n"},
		{"plan.md", "# Edit\n\n- **Status:** Green\n- **Agent:** Developer\n- **Goal:** Edit a.\n\n## Rationale\n```text\nWhy.\n```\n\n## Action Plan\n\n" +
			"### `EDIT`\n- **File Path:** `a.txt`\n\n#### `FIND:`\n```\none\n```\n#### `REPLACE:`\n```\n1\n```\n\n#### `FIND:`\n```\nthree\n```\n#### `REPLACE:`\n```\n3\n```\n\n" +
			"### `CREATE`\n- **File Path:** `h.txt`\n\n```\nh\n```\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			root := filepath.Join(dir, "root")
			if err := os.MkdirAll(root, 0o755); err != nil {
				t.Fatal(err)
			}
			writeTemp(t, root, "a.txt", "one\ntwo\nthree\n", 0o644)
			writeTemp(t, root, "b.txt", "b\n", 0o644)
			writeTemp(t, root, "c.txt", "c\n", 0o644)
			writeTemp(t, root, "e.txt", "e\n", 0o644)
			plan := writeTemp(t, dir, c.name, c.plan, 0o644)
			dialect := "auto"
			if strings.HasSuffix(c.name, ".diff") {
				dialect = "udiff"
			}
			code, want, stderr := runCLI(t, "", "apply", "--dry-run", "-d", "--dialect", dialect, "--root", root, plan)
			if code != exitOK || want == "" {
				t.Fatalf("apply -d: exit %d\n%s%s", code, want, stderr)
			}
			code, page, stderr := runCLI(t, "", "render", "--dialect", dialect, "--root", root, plan)
			if code != exitOK {
				t.Fatalf("render --root: exit %d\n%s", code, stderr)
			}
			if got := pageSteps(page); got != want {
				t.Errorf("render --root shows\n%s\napply --dry-run -d prints\n%s", got, want)
			}
		})
	}
}

// TestRenderRoot pins `render --root`'s output shapes (golden/cli/
// render_root.golden): a plan with a failing edit prints check --root's
// diagnostics and exits 1, the page is written all the same and shows
// the steps; a root that is no directory is a usage error (exit 2),
// before anything is written.
func TestRenderRoot(t *testing.T) {
	t.Chdir("../..")
	out := filepath.Join(t.TempDir(), "page.html")
	var tr strings.Builder
	for _, args := range [][]string{
		{"render", "--root", "golden/render/workspace/_root", "golden/render/workspace/plan.md", "-o", out},
		{"render", "--root", "golden/render/workspace/missing", "golden/render/workspace/plan.md", "-o", out + ".2"},
		{"render", "--root", "golden/render/workspace/plan.md", "golden/render/workspace/plan.md"},
	} {
		tr.WriteString(strings.ReplaceAll(transcript(t, args...), filepath.Dir(out), "DIR"))
	}
	goldie.New(t, goldie.WithFixtureDir("golden/cli"), goldie.WithNameSuffix(".golden")).
		Assert(t, "render_root", []byte(tr.String()))
	page, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(page), `<figure class="block step"`); n != 7 {
		t.Errorf("the page shows %d steps, want 7", n)
	}
	if _, err := os.Stat(out + ".2"); err == nil {
		t.Error("a page was written for an unusable root")
	}
}
