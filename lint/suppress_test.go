package lint

import (
	"context"
	"fmt"
	"github.com/plangram/plangram/grammar"
	"strconv"
	"strings"
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/workspace"
)

func TestSuppressDirectives(t *testing.T) {
	src := strings.Join([]string{
		"~~~act", "write_file", "~~~", // 1-3: wrong-arg-count at 2
		"<!-- plangram-disable wrong-arg-count -->", // 4
		"~~~act", "write_file", "~~~", // 5-7: silenced (6)
		"<!-- plangram-enable wrong-arg-count -->", // 8
		"~~~act", "write_file", "~~~", // 9-11: reported (10)
		"<!-- plangram-disable-next-line wrong-arg-count, other -->", // 12
		"~~~act", "write_file", "~~~", // 13-15: silenced (the block on the next line)
		"~~~act", "write_file", "~~~", // 16-18: reported (17)
		"<!-- plangram-disable-next-line -->", // 19: bad-directive
		"",
	}, "\n")
	_, diags, err := Source(context.Background(), "p.md", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range diags {
		got = append(got, d.Span.Start.String()+" "+d.Code)
	}
	want := "2:1 wrong-arg-count|10:1 wrong-arg-count|17:1 wrong-arg-count|19:1 bad-directive"
	if strings.Join(got, "|") != want {
		t.Fatalf("got  %s\nwant %s", strings.Join(got, "|"), want)
	}
	// --disable drops a code everywhere, bad-directive included.
	_, diags, _ = Source(context.Background(), "p.md", []byte(src), Options{Disable: []string{"wrong-arg-count", "bad-directive"}})
	if len(diags) != 0 {
		t.Fatalf("--disable left %v", diags)
	}
}

// TestHasDirective pins the quick test that gates the directive scan: it
// is true for every line directiveRE matches, and false for plans whose
// `plangram-` is in no comment opening (the common case it exists for).
func TestHasDirective(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want bool
	}{
		{"", false},
		{"plangram-disable x", false},
		{"see plangram-check and <!-- a comment -->\n", false},
		{"<!--plangram-", true},
		{"<!-- \t plangram-disable x -->", true},
		{"<!-- x --> <!--  plangram-enable y -->", true},
		{"<<!--<!-- plangram-x", true},
		{"<!--\nplangram-disable x -->", false},
		{"  <!--\tplangram-disable-next-line a, b -->\r\n", true},
	} {
		if got := hasDirective([]byte(tc.src)); got != tc.want {
			t.Errorf("hasDirective(%q) = %v, want %v", tc.src, got, tc.want)
		}
		if anyDirectiveLine(tc.src) && !hasDirective([]byte(tc.src)) {
			t.Errorf("%q: a directive line, hasDirective false", tc.src)
		}
	}
}

// anyDirectiveLine reports whether a line of src matches directiveRE.
func anyDirectiveLine(src string) bool {
	for line := range strings.Lines(src) {
		if directiveRE().MatchString(strings.TrimSuffix(line, "\n")) {
			return true
		}
	}
	return false
}

func TestMergeRanges(t *testing.T) {
	got := merge([]lineRange{{5, 6}, {1, 2}, {3, 3}, {8, 0}, {9, 12}, {20, 21}})
	want := []lineRange{{1, 3}, {5, 6}, {8, 0}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Fatalf("merge: %v", got)
	}
	for line, s := range map[int]bool{0: false, 1: true, 3: true, 4: false, 6: true, 7: false, 8: true, 1000: true} {
		if silenced(got, line) != s {
			t.Errorf("line %d: silenced %v", line, !s)
		}
	}
}

func TestSuppressLinear(t *testing.T) {
	// Many directives and diagnostics: ranges per code stay short lists
	// because each enable closes one, so 4× the directives allocate about
	// 4× as much (not 16×). A ratio, not a count: the race detector adds
	// allocations of its own.
	allocs := func(n int) float64 {
		src := []byte(strings.Repeat("<!-- plangram-disable x -->\n<!-- plangram-enable x -->\n", n))
		return testing.AllocsPerRun(3, func() {
			Suppress(nil, src, []*ast.Diagnostic{{Code: "y"}}, nil)
		})
	}
	if small, large := allocs(500), allocs(2000); large > 5*small {
		t.Fatalf("%v allocs for 1000 directives, %v for 4000", small, large)
	}
}

// FuzzSuppress: directives never panic, and every diagnostic kept is one
// of the parser's or a bad-directive warning.
func FuzzSuppress(f *testing.F) {
	f.Add("<!-- plangram-disable-next-line wrong-arg-count -->\n~~~act\nwrite_file\n~~~\n")
	f.Add("<!-- plangram-disable a,b -->\n~~~act\nwrite_file\n~~~\n<!-- plangram-enable a -->\n<!-- plangram-disable -->\n")
	f.Add("~~~\n<!-- plangram-disable x -->\n")
	f.Fuzz(func(t *testing.T, src string) {
		doc, diags, err := Source(context.Background(), "f.md", []byte(src), Options{})
		if err != nil {
			t.Fatal(err)
		}
		known := map[*ast.Diagnostic]bool{}
		for _, d := range doc.Diagnostics {
			known[d] = true
		}
		// and the static path rules' (case-collision, non-portable-path,
		// not-a-file), which Source adds from workspace.CaseCollisions
		static := map[string]bool{}
		cases := workspace.NewCaseCollisions(doc.Dialect, nil)
		for _, a := range doc.Actions {
			cases.Action(a)
		}
		for _, d := range cases.Diagnostics() {
			static[d.Format("f.md")] = true
		}
		for _, d := range diags {
			if !known[d] && d.Code != CodeBadDirective && !static[d.Format("f.md")] {
				t.Fatalf("unknown diagnostic %+v", d)
			}
		}
		if !hasDirective([]byte(src)) && anyDirectiveLine(src) {
			t.Fatalf("hasDirective is false for a document with a directive line")
		}
	})
}

// TestSilencedBeforeCap: what a directive silences is dropped before the
// parsers and the rules count their diagnostics against the cap of 100 a
// code (grammar.Options.Silenced), so the diagnostics listed and the one
// that sums up the rest are of those shown. Before, a plangram-disable
// over the first 120 of 150 unknown actions hid the 100 listed and the
// summing-up error with them: the other 30 were lost and check exited 0.
// Each source of capped diagnostics is tried (the acts and plan parsers,
// an edit format, the workspace rules, case collisions), through Source
// and Run alike.
func TestSilencedBeforeCap(t *testing.T) {
	root := t.TempDir()
	type family struct {
		name, dialect, code string
		root                bool
		head                string
		item                func(i int) string
	}
	planHead := "# P\n\n- **Status:** draft\n\n## Rationale\n\n```text\nwhy\n```\n\n## Action Plan\n\n"
	fams := []family{
		{"acts", "acts", "unknown-action", false, "", func(i int) string { return fmt.Sprintf("~~~act\nfrobnicate%d x\n~~~\n\n", i) }},
		{"plan", "plan", "absolute-path", false, planHead, func(i int) string {
			return fmt.Sprintf("### `CREATE`\n\n- **File Path:** /abs/f%d.txt\n- **Description:** d\n\n```text\nx\n```\n\n", i)
		}},
		{"udiff", "udiff", "path-escapes-root", false, "", func(i int) string {
			return fmt.Sprintf("--- a/../f%d.py\n+++ b/../f%d.py\n@@ -1,1 +1,1 @@\n-old\n+new\n\n", i, i)
		}},
		{"workspace", "acts", "file-not-found", true, "", func(i int) string {
			return fmt.Sprintf("~~~act\npatch_file missing%d.txt\n~~~\n~~~\nold\n~~~\n~~~\nnew\n~~~\n\n", i)
		}},
		{"case", "acts", "case-collision", false, "", func(i int) string {
			return fmt.Sprintf("~~~act\nwrite_file Case%d.txt\n~~~\n~~~\nx\n~~~\n\n~~~act\nwrite_file case%d.txt\n~~~\n~~~\nx\n~~~\n\n", i, i)
		}},
	}
	for _, f := range fams {
		for _, c := range []struct {
			name          string
			from, to      int // the items silenced: [from, to)
			listed, extra int // the diagnostics listed, and the count summed up
		}{
			{"first-120", 0, 120, 30, 0},
			{"middle-30", 40, 70, 100, 20},
			{"none", 0, 0, 100, 50},
		} {
			t.Run(f.name+"/"+c.name, func(t *testing.T) {
				var b strings.Builder
				b.WriteString(f.head)
				for i := range 150 {
					if i == c.from && c.to > c.from {
						fmt.Fprintf(&b, "<!-- plangram-disable %s -->\n\n", f.code)
					}
					if i == c.to && c.to > c.from {
						fmt.Fprintf(&b, "<!-- plangram-enable %s -->\n\n", f.code)
					}
					b.WriteString(f.item(i))
				}
				src := []byte(b.String())
				opts := Options{}
				opts.Parse.Dialect = f.dialect
				if f.root {
					opts.Root = root
				}
				_, viaSource, err := Source(context.Background(), "p.md", src, opts)
				if err != nil {
					t.Fatal(err)
				}
				for _, got := range []struct {
					how   string
					diags []*ast.Diagnostic
				}{{"Source", viaSource}} {
					listed, extra := 0, 0
					for _, d := range got.diags {
						if d.Code != f.code {
							continue
						}
						if grammar.IsOverflow(d) {
							n, _, _ := strings.Cut(d.Message, " ")
							extra, _ = strconv.Atoi(n)
							continue
						}
						listed++
					}
					if listed != c.listed || extra != c.extra {
						t.Errorf("%s: %d %s listed and %d summed up, want %d and %d", got.how, listed, f.code, extra, c.listed, c.extra)
					}
				}
			})
		}
	}
}
