package render

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/internal/linediff"
	"github.com/plangram/plangram/lint"
	"github.com/plangram/plangram/schema"
)

// wsFixture is the plan rendered against a workspace (Options.Workspace)
// and its root.
const (
	wsFixture = "../golden/render/workspace/plan.md"
	wsRoot    = "../golden/render/workspace/_root"
)

// renderWorkspace renders the workspace fixture as `plangram render
// --root` does: the diagnostics are check --root's (lint.Source), and
// each card shows its action's step.
func renderWorkspace(t testing.TB) ([]byte, *ast.Document) {
	t.Helper()
	src, err := os.ReadFile(wsFixture)
	if err != nil {
		t.Fatal(err)
	}
	doc, diags, err := lint.Source(context.Background(), "plan.md", src, lint.Options{Root: wsRoot})
	if err != nil {
		t.Fatal(err)
	}
	doc.Diagnostics = diags
	out, err := HTML(doc, src, Options{Title: "plan.md", Filename: "plan.md", Workspace: &Workspace{Root: wsRoot}})
	if err != nil {
		t.Fatal(err)
	}
	return out, doc
}

var (
	stepRE     = regexp.MustCompile(`(?s)<figure class="block step" id="([^"]+)">(.*?)</figure>`)
	stepCodeRE = regexp.MustCompile(`(?s)<pre class="code"><code>(.*?)</code></pre>`)
	anyTagRE   = regexp.MustCompile(`<[^>]*>`)
)

// stepTexts returns, by id, the text each step of a page shows (its
// diff, as a browser reads it).
func stepTexts(page string) map[string]string {
	out := map[string]string{}
	for _, m := range stepRE.FindAllStringSubmatch(page, -1) {
		if c := stepCodeRE.FindStringSubmatch(m[2]); c != nil {
			out[m[1]] = preText(c[1]) + "\n"
		}
	}
	return out
}

// TestWorkspaceGolden pins the page of a plan rendered against a
// workspace (golden/render/workspace): each card of an action that
// changes files shows its own step as a diff — the second edit of
// index.html starts from what the first left, a move is the source
// deleted and the destination created, the edit whose old text is not in
// the file shows no diff but says so next to its find-not-found error,
// a command shows nothing — and the page is as safe as any (the
// workspace's <script> and bidi override are text).
func TestWorkspaceGolden(t *testing.T) {
	page, doc := renderWorkspace(t)
	checkPage(t, page, doc)
	goldie.New(t, goldie.WithFixtureDir("../golden/render/workspace"), goldie.WithNameSuffix(".golden")).Assert(t, "plan.html", page)

	steps := stepTexts(string(page))
	want := map[string]string{
		"action-3-apply-1": "--- a/index.html\n+++ b/index.html\n@@ -1,2 +1,2 @@\n-<p>one</p>\n+<script>alert(1)</script><p>\u202eone</p>\n two\n",
		"action-4-apply-1": "--- a/index.html\n+++ b/index.html\n@@ -1,2 +1,2 @@\n <script>alert(1)</script><p>\u202eone</p>\n-two\n+2\n",
		"action-6-apply-1": "--- a/draft.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-draft\n",
		"action-6-apply-2": "--- /dev/null\n+++ b/notes/final.txt\n@@ -0,0 +1 @@\n+draft\n",
	}
	for id, w := range want {
		if steps[id] != w {
			t.Errorf("step %s shows\n%q\nwant\n%q", id, steps[id], w)
		}
	}
	if len(steps) != 7 {
		t.Errorf("%d steps shown, want 7 (two writes, two edits of index.html, a move's two files, a delete): %v", len(steps), steps)
	}
	card5 := string(page[strings.Index(string(page), `id="action-5"`):strings.Index(string(page), `id="action-6"`)])
	if !strings.Contains(card5, "find-not-found") || !strings.Contains(card5, "this action changes no file") || strings.Contains(card5, `class="block step"`) {
		t.Errorf("the failing edit's card shows no diagnostic, or a step:\n%s", card5)
	}
	if card8 := string(page[strings.Index(string(page), `id="action-8"`):]); strings.Contains(card8, `class="steps"`) {
		t.Error("the command's card shows a step")
	}
}

// TestWorkspaceUnchangedWithout: without a workspace the page of the same
// plan has no step, no steps style and no "against" in its subtitle; the
// other goldens (TestGolden) pin that every other page is unchanged.
func TestWorkspaceUnchangedWithout(t *testing.T) {
	page, _ := renderFile(t, wsFixture)
	for _, s := range []string{`class="steps"`, "figure.step", "against "} {
		if strings.Contains(string(page), s) {
			t.Errorf("the page without a workspace holds %q", s)
		}
	}
	with, _ := renderWorkspace(t)
	for _, s := range []string{`class="steps"`, "figure.step", "against " + wsRoot} {
		if !strings.Contains(string(with), s) {
			t.Errorf("the page against the workspace lacks %q", s)
		}
	}
}

// TestStepViewUnknownContent: a file whose content the simulation does
// not know (over the size limit) gets no diff, but a note that says why.
func TestStepViewUnknownContent(t *testing.T) {
	r := newRenderer(Options{})
	v := r.stepView("x", "big.bin", fileState{exists: true, problem: "it is larger than 16 MiB"}, fileState{exists: false})
	if v.Code != "" || !strings.Contains(v.Note, "larger than 16 MiB") || v.What != "deleted" {
		t.Errorf("unknown content: %+v", v)
	}
	v = r.stepView("x", "same.txt", fileState{exists: true, known: true, content: "a\n"}, fileState{exists: true, known: true, content: "a\n"})
	if v.Code != "" || !strings.Contains(v.Note, "leaves the file as it was") {
		t.Errorf("no change: %+v", v)
	}
	// The diff shown is linediff.File's, line for line.
	v = r.stepView("x", "a.txt", fileState{exists: true, known: true, content: "a\nb\n"}, fileState{exists: true, known: true, content: "a\nc\n"})
	var want strings.Builder
	if err := linediff.File(&want, "a.txt", true, true, "a\nb\n", "a\nc\n"); err != nil {
		t.Fatal(err)
	}
	got := preText(stepCodeRE.FindStringSubmatch(string(v.Code))[1]) + "\n"
	if got != want.String() || v.Stats != "+1 −1" {
		t.Errorf("diff %q (%s), want %q", got, v.Stats, want.String())
	}
	if html.UnescapeString(anyTagRE.ReplaceAllString(string(v.Path), "")) != "a.txt" {
		t.Errorf("path %q", v.Path)
	}
}

// TestStepBudget: a page diffs at most maxStepBytes of file content
// (before and after each step); the card of the step that does not fit
// and of every file-changing action after it says so instead.
func TestStepBudget(t *testing.T) {
	if !strings.Contains(spentNote, fmt.Sprintf(" %d MiB ", maxStepBytes>>20)) {
		t.Fatalf("the note %q does not name the budget", spentNote)
	}
	src, err := os.ReadFile(wsFixture)
	if err != nil {
		t.Fatal(err)
	}
	doc, diags, err := lint.Source(context.Background(), "plan.md", src, lint.Options{Root: wsRoot})
	if err != nil {
		t.Fatal(err)
	}
	doc.Diagnostics = diags
	greet, err := os.ReadFile(wsRoot + "/src/greet.go")
	if err != nil {
		t.Fatal(err)
	}
	// The first step (greet.go, "hello" made "HELLO") fits exactly.
	for _, c := range []struct {
		left, shown, notes int
	}{{1, 0, 7}, {2 * len(greet), 1, 6}, {maxStepBytes, 7, 0}} {
		opts := Options{Workspace: &Workspace{Root: wsRoot}}
		r := newRenderer(opts)
		r.schema, _ = schema.Builtin(doc.Dialect)
		if r.steps, err = newSteps(opts.Workspace, doc.Dialect, opts); err != nil {
			t.Fatal(err)
		}
		r.steps.left = c.left
		var b bytes.Buffer
		if err := r.writePage(&pageWriter{w: &b}, doc); err != nil {
			t.Fatal(err)
		}
		r.steps.close()
		page := b.String()
		shown, notes := len(stepTexts(page)), strings.Count(page, spentNote)
		// Actions 1–7 change files (6 in two steps, 5 in none); each
		// card not diffed says so once.
		if shown != c.shown || notes != c.notes {
			t.Errorf("budget %d: %d steps shown, %d notes", c.left, shown, notes)
		}
	}
}

// FuzzRenderWorkspace: any plan renders against a workspace (a copy of
// golden/render/workspace/_root, which the page only reads) without an
// error and as safely as any page, and its streamed page is the same.
func FuzzRenderWorkspace(f *testing.F) {
	src, err := os.ReadFile(wsFixture)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(src)
	f.Add([]byte("~~~act\nmove_file src/greet.go index.html\n~~~\n~~~act\npatch_file index.html package pkg\n~~~\n"))
	f.Add([]byte("*** Begin Patch\n*** Update File: draft.txt\n*** Move to: src/d.txt\n@@\n-draft\n+final\n*** End Patch\n"))
	ws := &Workspace{Root: wsRoot}
	f.Fuzz(func(t *testing.T, src []byte) {
		doc, err := grammar.Parse(context.Background(), "fuzz.md", src, grammar.Options{})
		if err != nil {
			t.Fatal(err)
		}
		out, err := HTML(doc, src, Options{Filename: "fuzz.md", NoHighlight: true, Workspace: ws})
		if err != nil {
			t.Fatal(err)
		}
		s, _ := schema.Builtin(doc.Dialect)
		checkPageSchema(t, out, doc, s)
	})
}

// TestWorkspaceErrors: a root that is not a directory is an error of
// HTML (no page); a cancelled simulation's cards say their steps are not
// shown rather than that the actions change nothing.
func TestWorkspaceErrors(t *testing.T) {
	page, doc := renderWorkspace(t)
	if len(page) == 0 {
		t.Fatal("no page")
	}
	if _, err := HTML(doc, nil, Options{Workspace: &Workspace{Root: wsFixture}}); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("a file as the root: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out, err := HTML(doc, nil, Options{Workspace: &Workspace{Root: wsRoot, Context: ctx}})
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(out), "Not shown: the simulation was cancelled."); n != 7 || strings.Contains(string(out), "changes no file") {
		t.Errorf("cancelled: %d notes of cancellation, want 7 (one per file-changing card)", n)
	}
}
