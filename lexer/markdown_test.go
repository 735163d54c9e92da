package lexer

import (
	"strings"
	"testing"

	plex "github.com/alecthomas/participle/v2/lexer"
)

var mdSamples = []string{
	"",
	"# Title\n",
	"#Title\n- **Status:** Green\n- Agent: dev\n",
	"text\nmore text\n\n\n## Action Plan\n",
	"---\n***\n_ _ _\n- - -\n",
	"- a\n  - nested\n  continued\n- b\nnot swallowed\n",
	"- a\n\n  loose continuation\n\n- b\n",
	"- a\n\nnot indented\n",
	"```python\ncode\n```bash\nstill code\n```\n```\n",
	"~~~~\n~~~\n~~~~~ \n",
	"```\nunclosed\n",
	"    ```\n    indented\n    ```\n",
	"``` `bad` ```\n",
	"\uFEFF# Title\n",
	"\uFEFF```\nx\n```",
	"# A\r\n\r\n- **k:** v\r\n```\r\nx\r\n```\r\n",
	"####### seven\n#\n## \n",
	"- **Handoff Resources:**\n  ```\n  code\n  ```\n",
	" - one space\n   - three\n    - four\n",
	"*\n-\n+ x\n",
	"\t- tab\n",
	"- x\n\t\tcont\n",
	"1. ```sh\n   make\n   ```\n2. ~~~\n   x\n~~~\n",
	"- a\n- ```\n  b\n\n\n  ```\n- c\n",
	"- step\n  - ```python\n    print()\n    ```\n  more\n",
	"\uFEFF- ```\nx\n```\n",
	"* 1. ````md\n  ```\n  ````\n",
	"- ```\nunclosed\n",
}

// fineTokens returns the tokens ScanMarkdown reads src as, one step at a
// time, named by their symbols, with their lines.
func fineTokens(src string) []tok {
	names := map[plex.TokenType]string{}
	for name, typ := range Markdown().Symbols() {
		names[typ] = name
	}
	var out []tok
	line := 1
	for off := 0; off < len(src); {
		typ, end := ScanMarkdown(src, off)
		out = append(out, tok{Type: names[typ], Value: src[off:end], Off: off, Line: line})
		line += strings.Count(src[off:end], "\n")
		off = end
	}
	return out
}

func TestMarkdownRoundTrip(t *testing.T) {
	for _, src := range mdSamples {
		var b strings.Builder
		for _, tk := range collect(t, Markdown(), src) {
			b.WriteString(tk.Value)
		}
		if b.String() != src {
			t.Errorf("round trip of %q gave %q", src, b.String())
		}
	}
}

func TestMarkdownTokens(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want string // "Type:value|Type:value"
	}{
		{"# Title\n", `H1:# Title⏎`},
		{"#Title\n##Rationale", `Tight:#Title⏎|Tight:##Rationale`},
		{"####### seven\n#\n## \n", `Line:####### seven⏎|H1:#⏎|H2:## ⏎`},
		{"    # code\n", `Line:    # code⏎`},
		{"---\n***\n_ _ _\n- - -\n--\n", `Break:---⏎|Break:***⏎|Break:_ _ _⏎|Break:- - -⏎|Line:--⏎`},
		{"- a\n  - nested\n  continued\n- b\nnot swallowed\n", `Item:- a⏎  - nested⏎  continued⏎|Item:- b⏎|Line:not swallowed⏎`},
		{"- a\n\n  loose\n\n- b\n", `Item:- a⏎⏎  loose⏎|Blank:⏎|Item:- b⏎`},
		{"- a\n\nnot indented\n", `Item:- a⏎|Blank:⏎|Line:not indented⏎`},
		{"- a\n\n  ```\n  x\n  ```\n", "Item:- a⏎|Blank:⏎|Fence:  ```⏎  x⏎  ```⏎"},
		{"- a\n ## sub\n", `Item:- a⏎|H2: ## sub⏎`},
		{"- a\n   ## deep\n", `Item:- a⏎   ## deep⏎`},
		{" - one\n   - three\n", `Item: - one⏎   - three⏎`},
		{"- one\n - sibling\n", `Item:- one⏎|Item: - sibling⏎`},
		{"*\n-x\n+ y\n", `Item:*⏎|Line:-x⏎|Item:+ y⏎`},
		{"```python\ncode\n```bash\nstill\n```\n```\n", "Fence:```python⏎code⏎```bash⏎still⏎```⏎|Fence:```⏎"},
		{"~~~~\n~~~\n~~~~~ \n", "Fence:~~~~⏎~~~⏎~~~~~ ⏎"},
		{"```\n``` x\n````\n", "Fence:```⏎``` x⏎````⏎"},
		{"```\n~~~\n```\n", "Fence:```⏎~~~⏎```⏎"},
		{"```\n    ```\n   ```\n", "Fence:```⏎    ```⏎   ```⏎"},
		{"  ```\n     ```\n", "Fence:  ```⏎     ```⏎"},
		{"```\nunclosed\n", "Fence:```⏎unclosed⏎"},
		{"``` `x` ```\n", "Line:``` `x` ```⏎"},
		{"~~~ `x`\n~~~", "Fence:~~~ `x`⏎~~~"},
		{"\uFEFF# T\n", "H1:\uFEFF# T⏎"},
		{"\n \n\t\r\nx", `Blank:⏎ ⏎	` + "\r" + `⏎|Line:x`},
		// A fence on a list item's marker line: the marker is the item (or,
		// for an ordered marker, paragraph text), the block starts at the run.
		{"- a\n- ```\n  b\n\n\n  ```\n- c\n", "Item:- a⏎|Item:- |Fence:```⏎  b⏎⏎⏎  ```⏎|Item:- c⏎"},
		{"1. ```sh\n   foo\n   ```\n\n   bar\n", "Line:1. |Fence:```sh⏎   foo⏎   ```⏎|Blank:⏎|Line:   bar⏎"},
		{"- step\n  - ```py\n    x\n    ```\n  more\n", "Item:- step⏎  - |Fence:```py⏎    x⏎    ```⏎|Line:  more⏎"},
		{"   - ```\n     ```\n", "Item:   - |Fence:```⏎     ```⏎"},
		{"- ```\n        ```\n", "Item:- |Fence:```⏎        ```⏎"},
		{"- ```\n- ```\n", "Item:- |Fence:```⏎- ```⏎"},
		{"10) ~~~~\n~~~\n~~~~\n", "Line:10) |Fence:~~~~⏎~~~⏎~~~~⏎"},
		{"- ``` `x`\n-```\n", "Item:- ``` `x`⏎|Line:-```⏎"},
		{"\uFEFF- ```\nx\n```", "Item:\uFEFF- |Fence:```⏎x⏎```"},
	} {
		var parts []string
		for _, tk := range fineTokens(tc.src) {
			parts = append(parts, tk.Type+":"+strings.ReplaceAll(tk.Value, "\n", "⏎"))
		}
		if got := strings.Join(parts, "|"); got != tc.want {
			t.Errorf("%q:\n got %s\nwant %s", tc.src, got, tc.want)
		}
	}
}

func TestMarkdownPositions(t *testing.T) {
	src := "# T\n\n```\na\nb\n```\n- x\n  y\nz"
	toks := fineTokens(src)
	wantLines := []int{1, 2, 3, 7, 9}
	if len(toks) != len(wantLines) {
		t.Fatalf("got %d tokens: %v", len(toks), toks)
	}
	for i, tk := range toks {
		if tk.Line != wantLines[i] || src[tk.Off:tk.Off+len(tk.Value)] != tk.Value {
			t.Errorf("token %d %+v: want line %d", i, tk, wantLines[i])
		}
	}
}

func TestMdFence(t *testing.T) {
	f, ok := ParseMdFence("  ~~~~~ python.old  \r\n")
	if !ok || f.Char != '~' || f.Run != 5 || f.Indent != 2 || f.Info != "python.old" || f.Fence() != "~~~~~" {
		t.Fatalf("got %+v %v", f, ok)
	}
	for line, want := range map[string]bool{
		"~~~~~\n": true, "~~~~~~  \n": true, "     ~~~~~\n": true, "      ~~~~~": false,
		"~~~~\n": false, "~~~~~ x\n": false, "`````\n": false,
	} {
		if got := f.Closes(line); got != want {
			t.Errorf("Closes(%q) = %v, want %v", line, got, want)
		}
	}
	if HeadingLevel(MdH1) != 1 || HeadingLevel(MdH6) != 6 || HeadingLevel(MdLine) != 0 || HeadingLevel(MdBlank) != 0 {
		t.Error("HeadingLevel")
	}
}

func FuzzMarkdown(f *testing.F) {
	for _, s := range mdSamples {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		toks := fineTokens(src)
		var b strings.Builder
		for i, tk := range toks {
			if tk.Value == "" {
				t.Fatalf("empty token %d", i)
			}
			if midLine(src, tk.Off) {
				// Only the block of a list item's marker line starts
				// inside a line, at its fence run.
				if f, ok := MdFenceAt(src, tk.Off); !ok || !f.Item || tk.Type != "Fence" {
					t.Fatalf("token %d %+v does not start a line", i, tk)
				}
			}
			b.WriteString(tk.Value)
		}
		if b.String() != src {
			t.Fatalf("round trip lost bytes")
		}
		checkRuns(t, src)
		checkFenceEnds(t, src)
		checkGrammarTokens(t, src)
	})
}

// TestExactFenceWithText pins which content lines read as the acts
// dialect's closing fence with text after it: exactly the opening run, at
// any indentation, then text (for backticks, without a backtick).
func TestExactFenceWithText(t *testing.T) {
	for _, c := range []struct {
		v, run string
		closed bool
		text   string // "" when none
	}{
		{"```\na\n``` end of file\n```\n", "```", true, "end of file"},
		{"```\na\n        ```   done  \r\n```\n", "```", true, "done"},
		{"```\na\n```` longer\n```\n", "```", true, ""},
		{"````\na\n``` shorter\n````\n", "````", true, ""},
		{"```\na\n``` `code` ```\n```\n", "```", true, ""},
		{"~~~\na\n~~~ `ok` here\n~~~\n", "~~~", true, "`ok` here"},
		{"```\na\n```   \n```\n", "```", true, ""},
		{"```\na\n- ``` item\n", "```", false, ""},
		{"```\n``` end\n", "```", true, ""}, // the last line is the closing line
		{"```\n``` end\n", "```", false, "end"},
		{"``` x ```\n", "```", false, ""},
	} {
		_, ts, te, ok := ExactFenceWithText(c.v, c.run, c.closed)
		got := ""
		if ok {
			got = c.v[ts:te]
		}
		if got != c.text {
			t.Errorf("ExactFenceWithText(%q, %q, %v) = %q, want %q", c.v, c.run, c.closed, got, c.text)
		}
	}
}

// checkGrammarTokens checks the tokens the plan grammar reads
// (MarkdownScanner) against RunScanner's: each is a run of them, starting
// and ending where they do, holding an H2 or H3 only as a token of its own
// (an H2 token: heading 2 lines with blank lines between them; an H3
// token: an H3 and what follows it up to the next H2), and an Item
// token holds only blank lines and a list and follows a title.
func checkGrammarTokens(t testing.TB, src string) {
	t.Helper()
	runs := NewRunScanner(src, 0)
	typ, start, end := runs.Next()
	prev := EOF
	for _, tk := range collect(t, Markdown(), src) {
		if start != tk.Off {
			t.Fatalf("%q: token %+v does not start where RunScanner's [%d,%d) does", src, tk, start, end)
		}
		for start < tk.Off+len(tk.Value) {
			isHead := typ == MdH2 || typ == MdH3
			if isHead && (tk.Type == "Text" || tk.Type == "Item") || tk.Type == "Item" && typ != MdItem && typ != MdBlank ||
				tk.Type == "H3" && start == tk.Off && typ != MdH3 || tk.Type == "H3" && typ == MdH2 ||
				tk.Type == "H2" && (typ != MdH2 && typ != MdBlank || start == tk.Off && typ != MdH2 || end == tk.Off+len(tk.Value) && typ != MdH2) {
				t.Fatalf("%q: %s token %+v holds a %d token at %d", src, tk.Type, tk, typ, start)
			}
			typ, start, end = runs.Next()
		}
		if start != tk.Off+len(tk.Value) {
			t.Fatalf("%q: token %+v does not end where RunScanner's do", src, tk)
		}
		if tk.Type == "Item" && prev != MdH1 && prev != MdTight {
			t.Fatalf("%q: Item token %+v after a %d token", src, tk, prev)
		}
		prev = Markdown().Symbols()[tk.Type]
	}
	if typ != EOF {
		t.Fatalf("%q: the tokens end before RunScanner's", src)
	}
}

func TestMarkdownGrammarTokens(t *testing.T) {
	src := "x\n# T\n\n- **k:** v\n\n## Rationale\n```\nw\n```\n## a\n\n## b\n## Action Plan\n### `READ`\n- **Resource:** a\n\ntext\n- b\n# H1\n#### L\n### `READ`\n## M\n"
	var parts []string
	for _, tk := range collect(t, Markdown(), src) {
		parts = append(parts, tk.Type+":"+strings.ReplaceAll(tk.Value, "\n", "⏎"))
	}
	want := "Text:x⏎|H1:# T⏎|Item:⏎- **k:** v⏎|Text:⏎|H2:## Rationale⏎|Text:```⏎w⏎```⏎|H2:## a⏎⏎## b⏎## Action Plan⏎|H3:### `READ`⏎- **Resource:** a⏎⏎text⏎- b⏎# H1⏎#### L⏎### `READ`⏎|H2:## M⏎"
	if got := strings.Join(parts, "|"); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	for _, src := range mdSamples {
		checkGrammarTokens(t, src)
	}
}
