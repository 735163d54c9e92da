package workspace_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/workspace"
)

// Find the paths of a plan that name one file on macOS and Windows.
func ExampleCaseCollisions() {
	plan := "~~~act\nwrite_file README.md\n~~~\n~~~\nhi\n~~~\n" +
		"~~~act\nwrite_file Readme.md\n~~~\n~~~\nho\n~~~\n"
	cases := workspace.NewCaseCollisions("acts", nil)
	_, _ = grammar.Parse(context.Background(), "plan.md", []byte(plan),
		grammar.Options{OnAction: cases.Action})
	for _, d := range cases.Diagnostics() {
		fmt.Println(d.Format("plan.md"))
	}
	// Output:
	// plan.md:8:12: warning: write_file's path "Readme.md" and the path at line 2 differ only in letter case (or Unicode normalization): on a case-insensitive file system (macOS, Windows) both name the same file or directory; write them the same way [case-collision]
}

// caseLines checks a plan of read_file actions, one per path, and returns
// the actions (numbered from 1) of its case-collision diagnostics as
// "n:severity".
func caseLines(t *testing.T, paths ...string) []string {
	t.Helper()
	var b strings.Builder
	for _, p := range paths {
		fmt.Fprintf(&b, "~~~act\nread_file %q\n~~~\n", p)
	}
	cases := workspace.NewCaseCollisions("acts", nil)
	doc, err := grammar.Parse(context.Background(), "p.md", []byte(b.String()), grammar.Options{OnAction: cases.Action})
	if err != nil || len(doc.Diagnostics) > 0 {
		t.Fatalf("parse: %v %v", err, doc.Diagnostics)
	}
	var out []string
	for _, d := range cases.Diagnostics() {
		out = append(out, fmt.Sprintf("%d:%s", (d.Span.Start.Line+1)/3, d.Severity))
	}
	return out
}

// TestCaseCollisions pins the folding rule: simple case folding of every
// script (strings.EqualFold's), NFC, `\` and `.`/`..` cleaned, directories
// on the way, each new spelling once.
func TestCaseCollisions(t *testing.T) {
	for _, tc := range []struct {
		name  string
		paths []string
		want  string // the actions reported (numbered from 1), "n:severity"
	}{
		{"ascii", []string{"Foo.go", "foo.go"}, "2:warning"},
		{"same twice", []string{"foo.go", "foo.go", "./foo.go", "a/../foo.go"}, ""},
		{"each spelling once", []string{"a.txt", "A.txt", "A.txt", "a.TXT", "a.txt"}, "2:warning 4:warning"},
		{"backslash", []string{`dir\x.go`, "DIR/x.go"}, "2:warning"},
		{"directory", []string{"src/a.go", "Src/b.go"}, "2:warning"},
		{"file and directory", []string{"build", "Build/out.txt"}, "2:warning"},
		{"greek", []string{"Σίσυφος.txt", "σίσυφος.txt", "ΣΊΣΥΦΟΣ.txt"}, "2:warning 3:warning"},
		{"kelvin sign", []string{"k.txt", "\u212a.txt"}, "2:warning"},
		{"long s", []string{"s.txt", "\u017f.txt"}, "2:warning"},
		{"nfc", []string{"caf\u00e9", "cafe\u0301"}, "2:warning"},
		{"cyrillic", []string{"Файл", "файл"}, "2:warning"},
		{"different", []string{"a.go", "b.go", "a.go.orig", "ab/a.go"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := caseLines(t, tc.paths...)
			if s := strings.Join(got, " "); s != tc.want {
				t.Errorf("%q: got %q, want %q", tc.paths, s, tc.want)
			}
		})
	}
}

// TestCaseCollisionsBounded: past MaxCaseNames names, later ones are
// still compared with the recorded ones, and one info says what was
// left out.
func TestCaseCollisionsBounded(t *testing.T) {
	paths := make([]string, 0, workspace.MaxCaseNames+3)
	for i := range workspace.MaxCaseNames {
		paths = append(paths, fmt.Sprintf("f%d", i))
	}
	paths = append(paths, "F7", "g1", "G1")
	got := strings.Join(caseLines(t, paths...), " ")
	n := workspace.MaxCaseNames
	want := fmt.Sprintf("%d:warning %d:info", n+1, n+2)
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
