package golden_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/plangramtest/golden"
	"github.com/plangram/plangram/stream"
)

func parse(t testing.TB, src string) *golden.Golden {
	t.Helper()
	doc, err := grammar.Parse(context.Background(), "reply.md", []byte(src), grammar.Options{ReadTools: stream.ReadDocument})
	if err != nil {
		t.Fatal(err)
	}
	g, err := golden.Parse(golden.Document(doc))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestValues: Parse reads back every value a golden writes, those a plain
// line cannot hold too (white space around them, quotes, no final line
// ending, bytes that are not UTF-8, colons and spaces in names and paths):
// a golden equals itself, and a changed value is reported as it is.
func TestValues(t *testing.T) {
	odd := []string{"", " lead", "trail ", `"quoted"`, "`back`", "'single'", "a\nb", "a\nb\n", "\n", "\n\n", "x\r\ny\r\n", "tab\there", "bad \xff byte", "|bar", "\\ no newline at end", "multi\n    |indented\n"}
	doc := func(suffix string) *golden.Golden {
		d := &ast.Document{Dialect: "acts"}
		for i, v := range odd {
			d.Actions = append(d.Actions, &ast.Action{Name: fmt.Sprint("a", i, v), Params: ast.Params{{Name: "path", Value: v}, {Name: v + "x", Value: v + suffix}, {Name: fmt.Sprintf("p%d: x", i), Value: v}}})
			d.Diagnostics = append(d.Diagnostics, &ast.Diagnostic{Severity: ast.Error, Code: v, Message: v})
		}
		g, err := golden.Parse(golden.Document(d))
		if err != nil {
			t.Fatalf("%v\n%s", err, golden.Document(d))
		}
		return g
	}
	if d := golden.Diff(doc(""), doc("")); len(d) > 0 {
		t.Errorf("Diff of a golden with itself: %v", d)
	}
	changes := golden.Diff(doc(""), doc("\n"))
	for i, v := range odd {
		if want := (golden.Change{Kind: "changed", Entry: changes[i].Entry, Param: v + "x", Old: v, New: v + "\n"}); changes[i] != want {
			t.Errorf("%q: %#v, want %#v", v, changes[i], want)
		}
	}
	for _, d := range []string{"acts", "plan", "search-replace", "udiff", "apply-patch", "tools"} {
		src, err := exampleOf(d)
		if err != nil {
			t.Fatal(err)
		}
		if g := parse(t, src); len(golden.Diff(g, g)) > 0 {
			t.Errorf("%s: Diff of a golden with itself: %v", d, golden.Diff(g, g))
		}
	}
}

// exampleOf is the canonical example document of a dialect.
func exampleOf(dialect string) (string, error) {
	switch dialect {
	case "plan":
		return "# Plan\n\n- **Status:** draft\n- **Agent:** a\n- **Goal:** g\n\n## Rationale\n\n````text\nWhy.\n````\n\n## Action Plan\n\n### `CREATE`\n\n- **File Path:** src/a.txt\n- **Description:** d\n\n````text\nA\n````\n", nil
	case "search-replace":
		return "src/a.py\n```python\n<<<<<<< SEARCH\nold\n=======\nnew\n>>>>>>> REPLACE\n```\n", nil
	case "udiff":
		return "```diff\n--- a/src/a.py\n+++ b/src/a.py\n@@ -1,2 +1,2 @@\n x\n-old\n+new\n```\n", nil
	case "apply-patch":
		return "*** Begin Patch\n*** Update File: src/a.py\n@@ def f():\n-old\n+new\n*** End Patch\n", nil
	case "tools":
		return "<write_to_file>\n<path>a.txt</path>\n<content>A</content>\n</write_to_file>\n", nil
	}
	return "~~~act\nwrite_file src/a.txt\n~~~\n~~~\nA\n~~~\n", nil
}

// TestStreamChunkInvariant: a stream's golden is the same however the
// input is cut, byte by byte or whole.
func TestStreamChunkInvariant(t *testing.T) {
	src := "Let me look.\n<thinking>the file\nfirst</thinking>\n<read_file>\n<path>src/a.go</path>\n</read_file>\nThen <write_to_file>\n<path>b.txt</path>\n<content>x\ny</content>\n</write_to_file>\n<read_file>\n<path>c"
	whole, err := golden.Stream(stream.Options{Syntax: stream.Auto}, src)
	if err != nil {
		t.Fatal(err)
	}
	cut, err := golden.Stream(stream.Options{Syntax: stream.Auto}, strings.Split(src, "")...)
	if err != nil {
		t.Fatal(err)
	}
	if string(whole) != string(cut) {
		t.Errorf("byte by byte:\n%s\nwhole:\n%s", cut, whole)
	}
	var titles []string
	for _, l := range strings.Split(string(whole), "\n")[2:] {
		if l != "" && l[0] != ' ' {
			titles = append(titles, strings.Fields(l)[0])
		}
	}
	if strings.Join(titles, " ") != "text thinking call text call diagnostic" || !strings.HasPrefix(string(whole), "plangram-golden 1\nstream tools\n") {
		t.Errorf("want text, thinking, call, text, call and an error:\n%s", whole)
	}
}

// TestParseRefuses: a file that is not a golden, a newer version and
// lines out of the format are errors that say so.
func TestParseRefuses(t *testing.T) {
	for _, c := range []struct{ data, want string }{
		{"", "not a plangram golden file"},
		{`{"dialect": "acts"}`, "not a plangram golden file"},
		{"plangram-golden x\n", "not a plangram golden file"},
		{"plangram-golden 2\ndocument acts\nwhatever 2 means\n", "golden format version 2 is newer than this plangram reads (1)"},
		{"plangram-golden 1\n  path: a\n", "golden line 2"},
		{"plangram-golden 1\ndocument acts\naction a\n  \"bad: x\n", "golden line 4"},
		{"plangram-golden 1\ndocument acts\naction a\n\n", "golden line 4"},
		{"plangram-golden 1\ndocument acts\naction a", "golden line 3"},
		{"plangram-golden 1\ndocument acts\n    |stray\n", "golden line 3"},
	} {
		_, err := golden.Parse([]byte(c.data))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v; want %q", c.data, err, c.want)
		}
	}
}

// TestFlatten: nested params become one param per leaf, in order, object
// keys sorted; other values their JSON.
func TestFlatten(t *testing.T) {
	doc := &ast.Document{Dialect: "x", Actions: []*ast.Action{{Name: "a", Params: ast.Params{
		{Name: "path", Value: "p"}, {Name: "n", Value: int64(3)}, {Name: "ok", Value: true},
		{Name: "list", Value: []string{"x", "y"}}, {Name: "none", Value: []any{}}, {Name: "m", Value: map[string]any{"b": 1.5, "a": nil}},
	}}}}
	got := string(golden.Document(doc))
	want := "plangram-golden 1\ndocument x\naction a p\n  path: p\n  n: 3\n  ok: true\n  list[0]: x\n  list[1]: y\n  none: []\n  m.a: null\n  m.b: 1.5\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func Example() {
	src := "~~~act\nwrite_file src/a.txt\n~~~\n~~~\nhello\n~~~\n"
	doc, _ := grammar.Parse(context.Background(), "reply.md", []byte(src), grammar.Options{})
	fmt.Print(string(golden.Document(doc)))
	// Output:
	// plangram-golden 1
	// document acts
	// action write_file src/a.txt
	//   path: src/a.txt
	//   content: hello
}

func ExampleDiff() {
	parse := func(src string) *golden.Golden {
		doc, _ := grammar.Parse(context.Background(), "reply.md", []byte(src), grammar.Options{})
		g, _ := golden.Parse(golden.Document(doc))
		return g
	}
	old := parse("~~~act\nwrite_file a.txt\n~~~\n~~~\none\ntwo\n~~~\n")
	new := parse("~~~act\nwrite_file a.txt\n~~~\n~~~\none\n2\n~~~\n~~~act\ndelete_file b.txt\n~~~\n")
	fmt.Print(golden.Text(golden.Diff(old, new)))
	// Output:
	// ~ action write_file a.txt: content
	//     @@ -1,2 +1,2 @@
	//      one
	//     -two
	//     \ No newline at end of file
	//     +2
	//     \ No newline at end of file
	// + action delete_file b.txt
	//   path: b.txt
}

func ExampleParse() {
	_, err := golden.Parse([]byte("plangram-golden 2\nstream tools\n"))
	fmt.Println(err)
	// Output:
	// golden format version 2 is newer than this plangram reads (1): update plangram
}

func ExampleStream() {
	data, _ := golden.Stream(stream.Options{Syntax: stream.Auto}, "Reading.\n<read_", "file>\n<path>a.go</path>\n</read_file>\n")
	fmt.Print(string(data))
	// Output:
	// plangram-golden 1
	// stream tools
	// text
	//   text: Reading.
	// call read_file a.go
	//   path: a.go
}
