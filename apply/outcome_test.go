package apply

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/workspace"
)

// applyBoth applies srcs (one input each) with ApplyInputs in a root
// holding the workspace files, and returns its result and error and the
// root.
func applyBoth(t *testing.T, ws map[string]string, srcs ...string) (*Result, error, string) {
	t.Helper()
	var ins []Input
	for _, s := range srcs {
		ins = append(ins, Input{Name: "plan.md", Src: []byte(s)})
	}
	root := t.TempDir()
	files(t, root, ws)
	res, err := ApplyInputs(context.Background(), ins, grammar.Options{}, root, Options{})
	return res, err, root
}

// codes lists the codes of the diagnostics of res with severity sev.
func codes(res *Result, sev ast.Severity) string {
	var out []string
	for _, ds := range res.Diagnostics {
		for _, d := range ds {
			if d.Severity == sev {
				out = append(out, d.Code)
			}
		}
	}
	return strings.Join(out, ",")
}

// TestNothingToApply: an input with no action that changes a file is
// refused with one nothing-to-apply error that names what it holds, and
// several inputs are refused only when none of them has one.
func TestNothingToApply(t *testing.T) {
	for _, c := range []struct {
		name string
		srcs []string
		want string // in the message
	}{
		{"empty", []string{""}, "the input is empty"},
		{"blank", []string{"\n  \n"}, "the input is empty"},
		{"prose", []string{"Sure! I've made the changes.\n"}, "only prose"},
		{"blocks", []string{"Run this:\n\n```sh\ngo test\n```\n\n```go\nx := 1\n```\n"}, "2 fenced blocks, none an action, and prose"},
		{"headerless diff", []string{"The fix:\n\n```diff\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n```\n"}, "looks like a diff but has no file header"},
		{"diff fence, no hunk", []string{"```diff\n-b\n+c\n```\n"}, "looks like a diff but has no file header"},
		{"unfenced headerless diff", []string{"@@ -1 +1 @@\n-b\n+c\n"}, "the text here looks like a diff"},
		{"commands and reads", []string{"~~~act\nrun_command ls\n~~~\n~~~act\nread_file a.txt\n~~~\n"}, "the plan has 1 command (apply never runs one), 1 read"},
		{"two inputs", []string{"prose\n", ""}, "only prose"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err, root := applyBoth(t, map[string]string{"a.txt": "a\n"}, c.srcs...)
			if !errors.Is(err, ErrNothingToApply) || !errors.Is(err, ErrRefused) {
				t.Fatalf("err = %v, want ErrNothingToApply", err)
			}
			if read(t, root+"/a.txt") != "a\n" {
				t.Fatal("the workspace changed")
			}
			if got := codes(res, ast.Error); got != strings.TrimSuffix(strings.Repeat(CodeNothingToApply+",", len(c.srcs)), ",") {
				t.Errorf("errors %s, want %s", got, CodeNothingToApply)
			}
			var msg string
			for _, d := range res.Diagnostics[0] {
				if d.Code == CodeNothingToApply {
					msg = d.Message
				}
			}
			if !strings.Contains(msg, c.want) {
				t.Errorf("message %q does not say %q", msg, c.want)
			}
		})
	}
	// One input with a change: the other one, prose, is no error.
	res, err, root := applyBoth(t, nil, "prose\n", "~~~act\nwrite_file b.txt\n~~~\n~~~\nb\n~~~\n")
	if err != nil || codes(res, ast.Error) != "" {
		t.Fatalf("err = %v, errors %s", err, codes(res, ast.Error))
	}
	if read(t, root+"/b.txt") != "b\n" {
		t.Error("b.txt not written")
	}
}

// TestApplyTwice: a plan applied a second time is a success that changes
// nothing when every action is found already applied (in every dialect),
// and is refused when only some are (the already-applied warnings become
// errors); a CREATE without Overwrite over an existing file is refused,
// with Overwrite it replaces the file, and a write_file (a write of the
// whole file, no overwrite flag) replaces it with a warning.
func TestApplyTwice(t *testing.T) {
	ws := map[string]string{"greet.go": "package greet\n\nfunc Hello() string { return \"hello\" }\n"}
	for _, c := range []struct{ name, src string }{
		{"acts", "~~~act\npatch_file greet.go\n~~~\n~~~\nfunc Hello() string { return \"hello\" }\n~~~\n~~~\nfunc Hello() string { return \"hello\" }\n\nfunc Bye() string { return \"bye\" }\n~~~\n" +
			"~~~act\nwrite_file greet_test.go\n~~~\n~~~\npackage greet\n~~~\n~~~act\nrun_command \"go test\"\n~~~\n"},
		{"plan", "# P\n\n- **Goal:** g\n\n## Rationale\n\n```\nr\n```\n\n## Action Plan\n\n### `CREATE`\n\n- **File Path:** greet_test.go\n\n```go\npackage greet\n```\n\n" +
			"### `EDIT`\n\n- **File Path:** greet.go\n\n#### `FIND:`\n```go\nfunc Hello() string { return \"hello\" }\n```\n#### `REPLACE:`\n```go\nfunc Hello() string { return \"hello\" }\n\nfunc Bye() string { return \"bye\" }\n```\n"},
		{"search-replace", "greet.go\n```go\n<<<<<<< SEARCH\nfunc Hello() string { return \"hello\" }\n=======\nfunc Hello() string { return \"hello\" }\n\nfunc Bye() string { return \"bye\" }\n>>>>>>> REPLACE\n```\n"},
		{"udiff", "```diff\n--- a/greet.go\n+++ b/greet.go\n@@ -2,2 +2,4 @@\n \n func Hello() string { return \"hello\" }\n+\n+func Bye() string { return \"bye\" }\n--- /dev/null\n+++ b/greet_test.go\n@@ -0,0 +1 @@\n+package greet\n```\n"},
		{"apply-patch", "*** Begin Patch\n*** Update File: greet.go\n@@\n func Hello() string { return \"hello\" }\n+\n+func Bye() string { return \"bye\" }\n*** Add File: greet_test.go\n+package greet\n*** End Patch\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			files(t, root, ws)
			apply := func() (*Result, error) {
				return ApplyInputs(context.Background(), []Input{{Name: "plan.md", Src: []byte(c.src)}}, grammar.Options{}, root, Options{})
			}
			if res, err := apply(); err != nil || res.AlreadyApplied {
				t.Fatalf("first apply: %v, already applied %v", err, res.AlreadyApplied)
			}
			want := "package greet\n\nfunc Hello() string { return \"hello\" }\n\nfunc Bye() string { return \"bye\" }\n"
			if got := read(t, root+"/greet.go"); got != want {
				t.Fatalf("greet.go = %q", got)
			}
			before := snapshot(t, root)
			res, err := apply()
			if err != nil || !res.AlreadyApplied || len(res.Changes) != 0 {
				t.Fatalf("second apply: %v, already applied %v, %d changes; warnings %s", err, res.AlreadyApplied, len(res.Changes), codes(res, ast.Warning))
			}
			if !strings.Contains(codes(res, ast.Warning), workspace.CodeAlreadyApplied) {
				t.Errorf("warnings %s, want already-applied", codes(res, ast.Warning))
			}
			if snapshot(t, root) != before {
				t.Error("the second apply changed the workspace")
			}
		})
	}

	// Applied in part: refused, the already-applied warning an error.
	root := t.TempDir()
	files(t, root, map[string]string{"a.txt": "x = 2\n", "b.txt": "y = 1\n"})
	res, err := ApplyInputs(context.Background(), []Input{{Name: "plan.md", Src: []byte(
		"~~~act\npatch_file a.txt\n~~~\n~~~\nx = 1\n~~~\n~~~\nx = 2\n~~~\n~~~act\npatch_file b.txt\n~~~\n~~~\ny = 1\n~~~\n~~~\ny = 2\n~~~\n")}}, grammar.Options{}, root, Options{})
	if !errors.Is(err, ErrRefused) || codes(res, ast.Error) != workspace.CodeAlreadyApplied || res.AlreadyApplied {
		t.Fatalf("applied in part: %v, errors %s", err, codes(res, ast.Error))
	}
	if read(t, root+"/b.txt") != "y = 1\n" {
		t.Error("a refused apply wrote b.txt")
	}

	// CREATE over an existing file: refused without Overwrite (the
	// default), applied with it; write_file replaces it with a warning.
	create := func(overwrite string) string {
		return "# P\n\n- **Goal:** g\n\n## Rationale\n\n```\nr\n```\n\n## Action Plan\n\n### `CREATE`\n\n- **File Path:** a.txt\n" + overwrite + "\n```\nnew\n```\n"
	}
	for _, c := range []struct {
		name, src, errs, content string
	}{
		{"CREATE", create(""), workspace.CodeFileExists, "old\n"},
		{"CREATE Overwrite: false", create("- **Overwrite:** false\n"), workspace.CodeFileExists, "old\n"},
		{"CREATE Overwrite: true", create("- **Overwrite:** true\n"), "", "new\n"},
		{"write_file", "~~~act\nwrite_file a.txt\n~~~\n~~~\nnew\n~~~\n", "", "new\n"},
	} {
		root := t.TempDir()
		files(t, root, map[string]string{"a.txt": "old\n"})
		res, err := ApplyInputs(context.Background(), []Input{{Name: "plan.md", Src: []byte(c.src)}}, grammar.Options{}, root, Options{})
		if got := codes(res, ast.Error); got != c.errs || (c.errs != "") != errors.Is(err, ErrRefused) {
			t.Errorf("%s: %v, errors %q, want %q", c.name, err, got, c.errs)
		}
		if got := read(t, root+"/a.txt"); got != c.content {
			t.Errorf("%s: a.txt = %q, want %q", c.name, got, c.content)
		}
	}
}

// TestLookalike: what a text that is not an edit looks like (a fenced
// block under --dialect acts, prose): a diff without its file header, a
// SEARCH/REPLACE block without its path; a diff with its header, or code,
// looks like neither.
func TestLookalike(t *testing.T) {
	for _, c := range []struct{ info, text, want string }{
		{"diff", "@@ -1 +1 @@\n-a\n+b\n", "diff"},
		{"", "@@\n-a\n+b\n", "diff"},
		{"patch", "-a\n+b\n", "diff"},
		{"", "<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n", "SEARCH/REPLACE"},
		{"diff", "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n", ""},
		{"go", "x := a - b\n", ""},
		{"", "", ""},
	} {
		got := lookalike(c.info, c.text)
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("lookalike(%q, %q) = %q, want %q", c.info, c.text, got, c.want)
		}
	}
}
