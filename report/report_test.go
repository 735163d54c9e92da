package report

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/sebdah/goldie/v2"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/workspace"
)

// checkedFiles parses the plans under golden/report/plans and runs the
// workspace rules against golden/report/_root, as `plangram check --root`
// does, returning the files in path order.
func checkedFiles(t *testing.T) []*File {
	t.Helper()
	names := []string{"plans/bad.md", "plans/ok.md"}
	var files []*File
	for _, name := range names {
		src, err := os.ReadFile(filepath.Join("../golden/report", name))
		if err != nil {
			t.Fatal(err)
		}
		doc, err := grammar.Parse(context.Background(), name, src, grammar.Options{Dialect: grammar.DialectActs})
		if err != nil {
			t.Fatal(err)
		}
		diags := append(doc.Diagnostics, workspace.Check(context.Background(), doc, "../golden/report/_root", workspace.Options{})...)
		files = append(files, &File{Path: name, Source: src, Diagnostics: diags})
	}
	return files
}

func TestFormatsGolden(t *testing.T) {
	files := checkedFiles(t)
	g := goldie.New(t, goldie.WithFixtureDir("../golden/report"), goldie.WithNameSuffix(".golden"))
	for _, format := range Formats() {
		t.Run(format, func(t *testing.T) {
			var b bytes.Buffer
			if err := Write(&b, format, files, Options{}); err != nil {
				t.Fatal(err)
			}
			g.Assert(t, "check."+format, b.Bytes())
		})
	}
	if err := Write(&bytes.Buffer{}, "yaml", files, Options{}); err == nil {
		t.Error("Write accepted an unknown format")
	}
}

// TestSARIFSchema validates the SARIF output against the OASIS SARIF 2.1.0
// JSON Schema (testdata/sarif-schema-2.1.0.json, see testdata/README.md).
func TestSARIFSchema(t *testing.T) {
	f, err := os.Open("testdata/sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	const url = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(url)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		files []*File
	}{
		{"checked", checkedFiles(t)},
		{"empty", nil},
		{"odd paths", []*File{
			{Path: "<stdin>", Diagnostics: []*ast.Diagnostic{{Code: "x", Message: "m", Span: ast.Span{}}}},
			{Path: "/abs/dir with space/p.md", Source: []byte("a\n"), Diagnostics: []*ast.Diagnostic{
				{Severity: ast.Info, Message: "", Span: ast.Span{Start: ast.Pos{Offset: 0, Line: 1, Col: 1}, End: ast.Pos{Offset: 2, Line: 2, Col: 1}}}}},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteSARIF(&b, tc.files, Options{ToolVersion: "test"}); err != nil {
				t.Fatal(err)
			}
			inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			if err := sch.Validate(inst); err != nil {
				t.Fatalf("SARIF output does not validate: %v\n%s", err, b.String())
			}
		})
	}
}

// TestSARIFColumns checks the UTF-16 conversion of the non-ASCII line of
// bad.md: `move_file 漢字.txt /abs😀.txt`, whose destination starts at byte
// column 22 (UTF-16 column 18) and ends before byte column 34 (UTF-16 28).
func TestSARIFColumns(t *testing.T) {
	var b bytes.Buffer
	if err := WriteSARIF(&b, checkedFiles(t), Options{}); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			ColumnKind string `json:"columnKind"`
			Results    []struct {
				RuleID    string `json:"ruleId"`
				Locations []struct {
					PhysicalLocation struct {
						Region struct {
							StartLine, StartColumn, EndLine, EndColumn int
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(b.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	if log.Runs[0].ColumnKind != "utf16CodeUnits" {
		t.Errorf("columnKind = %q", log.Runs[0].ColumnKind)
	}
	found := false
	for _, r := range log.Runs[0].Results {
		if r.RuleID != workspace.CodeAbsolutePath {
			continue
		}
		found = true
		reg := r.Locations[0].PhysicalLocation.Region
		if reg.StartLine != 5 || reg.StartColumn != 18 || reg.EndLine != 5 || reg.EndColumn != 28 {
			t.Errorf("region = %+v, want 5:18-5:28", reg)
		}
	}
	if !found {
		t.Fatal("no absolute-path result")
	}
}

func TestLLMQuoteFence(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"plain", "~~~"},
		{"~~~~~act\n~~~~~\n", "```"},
		{"~~~\n````\n", "~~~~"},
		{"``````\n~~~~~~~\n", "```````"},
	} {
		if got := quoteFence([]byte(tc.src)); got != tc.want {
			t.Errorf("quoteFence(%q) = %q, want %q", tc.src, got, tc.want)
		}
	}
	var b bytes.Buffer
	src := "~~~~~act\nfrobnicate\n~~~~~"
	f := &File{Path: "p.md", Source: []byte(src), Diagnostics: []*ast.Diagnostic{{Severity: ast.Warning, Code: "unknown-action", Message: "unknown action"}}}
	if err := WriteLLM(&b, []*File{f}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "```markdown\n"+src+"\n```\n") {
		t.Errorf("plan not quoted in a longer fence:\n%s", b.String())
	}
}

func TestArtifactURI(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ path, root, uri, base string }{
		{"plans/a b.md", "", "plans/a%20b.md", SrcRoot},
		{"./x.md", "", "x.md", SrcRoot},
		{"<stdin>", "", "%3Cstdin%3E", SrcRoot},
		{filepath.Join(dir, "sub", "p.md"), dir, "sub/p.md", SrcRoot},
		{"/elsewhere/p.md", dir, "file:///elsewhere/p.md", ""},
	} {
		loc := artifact(tc.path, tc.root)()
		base := ""
		if loc.URIBaseId != nil {
			base = *loc.URIBaseId
		}
		if *loc.URI != tc.uri || base != tc.base {
			t.Errorf("artifact(%q, %q) = %q base %q, want %q base %q", tc.path, tc.root, *loc.URI, base, tc.uri, tc.base)
		}
	}
}

func TestBoundDetail(t *testing.T) {
	for _, c := range []struct {
		in   string
		max  int
		want string
	}{
		{"a\nb\n", 2, "a\nb"},
		{"a\nb\nc", 2, "a\nb\n… 1 more lines"},
		{strings.Repeat("x\n", 1500), 1, "x\n… 1,499 more lines"},
		{"", 3, ""},
	} {
		if got := BoundDetail(c.in, c.max); got != c.want {
			t.Errorf("BoundDetail(%.20q, %d) = %q, want %q", c.in, c.max, got, c.want)
		}
	}
}

// TestFollowOnsAsRelated pins how one nested-fence mistake reaches every
// format as one problem: its follow-ons are notes in text, related
// locations in SARIF.
func TestFollowOnsAsRelated(t *testing.T) {
	src, err := os.ReadFile("../golden/plan/nested_fence.llm.md")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := grammar.Parse(context.Background(), "p.md", src, grammar.Options{Dialect: grammar.DialectPlan})
	if err != nil {
		t.Fatal(err)
	}
	files := []*File{{Path: "p.md", Source: src, Diagnostics: doc.Diagnostics}}
	if e, w := Count(files); e != 1 || w != 0 {
		t.Fatalf("%d errors, %d warnings; want 1 error", e, w)
	}
	var text, sarif bytes.Buffer
	if err := Write(&text, Text, files, Options{FullDetail: true}); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(text.String(), ": note: follow-on: "); n != 3 {
		t.Errorf("%d follow-on notes in the text:\n%s", n, text.String())
	}
	if err := WriteSARIF(&sarif, files, Options{}); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RelatedLocations []struct {
					Message struct{ Text string }
				}
			}
		}
	}
	if err := json.Unmarshal(sarif.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	rs := log.Runs[0].Results
	if len(rs) != 1 || len(rs[0].RelatedLocations) != 6 || !strings.HasPrefix(rs[0].RelatedLocations[5].Message.Text, "follow-on: ") {
		t.Errorf("SARIF results: %+v", rs)
	}
}

// TestShortDetail: the text format cuts an AST diff to the rows that differ
// with ShortContext rows on each side, counts the rest, leaves out the
// expected shape and names -v; FullDetail keeps it whole, and any other
// detail is kept as it is.
func TestShortDetail(t *testing.T) {
	var rows []string
	for i := range 12 {
		mark := "✓"
		if i == 6 {
			mark = "✗"
		}
		rows = append(rows, fmt.Sprintf("[%s] [%03d] L%-3d Heading 2: \"h%d\"", mark, i, i+1, i))
	}
	detail := "Expected:  [0] Heading 1\n           (optional …)\nActual:\n" + strings.Join(rows, "\n") + "\n"
	want := "Actual, around the nodes that differ (-v prints the whole tree):\n" +
		"    … 4 nodes not shown …\n" + strings.Join(rows[4:9], "\n") + "\n" + "    … 3 nodes not shown …\n"
	if got := ShortDetail(detail); got != want {
		t.Errorf("ShortDetail:\n%s\nwant:\n%s", got, want)
	}
	for _, d := range []string{"a text diff\n-a\n+b\n", "Expected:  x\nActual:\n[✗] [000] L1   Heading 1: \"t\"\n"} {
		if got := ShortDetail(d); got != d {
			t.Errorf("ShortDetail(%q) = %q, want it unchanged", d, got)
		}
	}
	files := []*File{{Path: "p.md", Diagnostics: []*ast.Diagnostic{{Severity: ast.Error, Code: "missing-block", Message: "m", Detail: detail}}}}
	var short, full strings.Builder
	if err := Write(&short, Text, files, Options{}); err != nil {
		t.Fatal(err)
	}
	if err := Write(&full, Text, files, Options{FullDetail: true}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(short.String(), "Expected:") || !strings.Contains(short.String(), "-v prints the whole tree") || !strings.Contains(full.String(), "[000]") || strings.Contains(short.String(), "[000]") {
		t.Errorf("text report:\nshort:\n%s\nfull:\n%s", short.String(), full.String())
	}
}
