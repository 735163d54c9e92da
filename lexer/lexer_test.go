package lexer

import (
	"strings"
	"testing"

	plex "github.com/alecthomas/participle/v2/lexer"

	"github.com/plangram/plangram/internal/view"
)

type tok struct {
	Type  string
	Value string
	Off   int
	Line  int
}

func collect(t testing.TB, def plex.Definition, src string) []tok {
	t.Helper()
	var l plex.Lexer
	var err error
	if sd, ok := def.(plex.StringDefinition); ok {
		l, err = sd.LexString("", src)
	} else {
		l, err = def.Lex("", strings.NewReader(src))
	}
	if err != nil {
		t.Fatal(err)
	}
	names := plex.SymbolsByRune(def)
	var out []tok
	for i := 0; ; i++ {
		tk, err := l.Next()
		if err != nil {
			t.Fatalf("lex: %v", err)
		}
		if tk.EOF() {
			return out
		}
		if i > len(src)+1 {
			t.Fatal("lexer does not advance")
		}
		out = append(out, tok{names[tk.Type], tk.Value, tk.Pos.Offset, tk.Pos.Line})
	}
}

var samples = []string{
	"",
	"plain\n",
	"no newline",
	"~~~~~act\nwrite_file\n~~~~~\n~~~~~\nsrc/a.py\n~~~~~\n~~~~~python\n    x = 1  \n~~~~~\n",
	"```act\necho\n```\n```\nhi\n```",
	"~~~act\r\nend\r\n~~~\r\n",
	"  ~~~~ python.old \n~~~~~\n  ~~~~  \nafter\n",
	"~~~\nunclosed\n~~~~\n",
	"```c++\nint x;\n``` \n",
	"\uFEFF~~~act\nend\n~~~\n",
	"~~~ACT\nend\n~~~",
	"text\n```\n~~~act\n```\n",
	"~~~\n```act\n~~~\n",
	"\n\n~~~\n\n\n~~~\n\n",
	"~~\nnot a fence\n",
	"~~~act \t\n~~~\n~~~act\n",
	// Fences on list item marker lines.
	"1. ~~~act\n   write_file a.py\n   ~~~\n2. ~~~python\n   x\n   ~~~\n",
	"- a\n- ```\n  b\n\n\n  ```\n- c\n",
	"  * 10) ````sh\n  ```\n  - ````\n````\n",
	"-```\n- ``` `x`\n-\t~~~ act\n~~~\n1.```\n1234567890. ```\n",
	"\uFEFF+ ~~~act\nend\n   ~~~\n",
	"- ```\n- ```\n",
}

func TestDetect(t *testing.T) {
	cases := map[string]byte{
		"":                           Backtick,
		"~~~\nx\n~~~\n":              Backtick,
		"~~~~~act\nend\n~~~~~\n":     Tilde,
		"```act\nend\n```\n":         Backtick,
		"intro\n  ~~~ ACT \nx\n":     Tilde,
		"```python\n~~~act\n```\n":   Tilde, // the first act line decides, wherever it stands
		"\uFEFF~~~act\nend\n~~~\n":   Tilde,
		"~~~actual\nend\n~~~\n":      Backtick,
		"~~~act\n```act\n~~~\n":      Tilde,
		"   ```act\n":                Backtick,
		"~~~~act\r\nend\r\n~~~~\r\n": Tilde,
		"- ```python\n1. ~~~act\n":   Tilde, // on a list item's marker line
		"1.~~~act\n- ```act\n":       Backtick,
	}
	for src, want := range cases {
		if got := Detect([]byte(src)); got != want {
			t.Errorf("Detect(%q) = %q, want %q", src, got, want)
		}
	}
}

// TestRoundTrip checks that the tokens of each sample, with the fence
// detected and forced, hold its bytes in order and the line and column of
// their starts (checkTokens).
func TestRoundTrip(t *testing.T) {
	for _, src := range samples {
		for _, c := range []byte{0, Tilde, Backtick} {
			checkTokens(t, src, c)
		}
	}
}

// checkTokens lexes src with fence character c (0: detected) and checks
// that the tokens tile the input, that each starts at the line and column
// of its offset, and that each obeys the fence rules: no line of a Text
// token opens a block; a Block or ActBlock token starts with a line that
// opens a block (an act block for ActBlock), no later line but its last
// closes it, and its last line closes it unless the token runs to the end
// of the input.
func checkTokens(t testing.TB, src string, c byte) {
	t.Helper()
	toks := collect(t, Coarse(c), src)
	if c == 0 {
		c = Detect([]byte(src))
	}
	off, line := 0, 1
	for _, tk := range toks {
		if tk.Off != off || tk.Line != line || tk.Value == "" || src[off:off+len(tk.Value)] != tk.Value {
			t.Fatalf("fence %q, %q: token %+v, want offset %d line %d", c, src, tk, off, line)
		}
		var lines []string
		for p := 0; p < len(tk.Value); p = LineEnd(tk.Value, p) {
			lines = append(lines, tk.Value[p:LineEnd(tk.Value, p)])
		}
		r, act := openRun(view.Bytes(lines[0]), c)
		switch tk.Type {
		case "Text":
			for _, l := range lines {
				if n, _ := openRun(view.Bytes(l), c); n > 0 {
					t.Fatalf("fence %q, %q: text token %q holds the opening line %q", c, src, tk.Value, l)
				}
			}
		case "Block", "ActBlock":
			if r == 0 || act != (tk.Type == "ActBlock") {
				t.Fatalf("fence %q, %q: %s token %q does not start with its opening line", c, src, tk.Type, tk.Value)
			}
			closed := false
			for i, l := range lines[1:] {
				if closed = ClosesRun(l, c, r); closed && i < len(lines)-2 {
					t.Fatalf("fence %q, %q: block token %q runs on past the line %q that closes it", c, src, tk.Value, l)
				}
			}
			if !closed && off+len(tk.Value) < len(src) {
				t.Fatalf("fence %q, %q: block token %q ends before the end of the input without a closing line", c, src, tk.Value)
			}
		default:
			t.Fatalf("token type %s", tk.Type)
		}
		off += len(tk.Value)
		line += strings.Count(tk.Value, "\n")
	}
	if off != len(src) {
		t.Fatalf("fence %q, %q: the tokens end at %d", c, src, off)
	}
}

func TestOpenFence(t *testing.T) {
	run, info, ok := OpenFence([]byte("  ~~~~~ python.old  \r\n"), Tilde)
	if !ok || run != "~~~~~" || info != "python.old" {
		t.Fatalf("got %q %q %v", run, info, ok)
	}
	if _, _, ok := OpenFence([]byte("~~~"), Backtick); ok {
		t.Fatal("tilde line opened a backtick fence")
	}
	if !ClosesFence([]byte(" ~~~~~ \n"), "~~~~~") || ClosesFence([]byte("~~~~~~\n"), "~~~~~") {
		t.Fatal("ClosesFence")
	}
	// A backtick fence's info string holds no backtick (CommonMark): such a
	// line is inline code, and reading it as a fence would swallow what
	// follows. A tilde fence's info string may hold backticks.
	for line, want := range map[string]int{"- ```py\n": 2, "\uFEFF  1. * ~~~\n": 10, "```\n": 0, "-```\n": 0, " ```\n": 0} {
		if got := MarkerPrefix(line); got != want {
			t.Errorf("MarkerPrefix(%q) = %d, want %d", line, got, want)
		}
	}
	if run, info, ok := OpenFence([]byte("  12) ~~~~ act\n"), Tilde); !ok || run != "~~~~" || info != "act" {
		t.Errorf("fence on a marker line: %q %q %v", run, info, ok)
	}
	if ClosesFence([]byte("- ```\n"), "```") {
		t.Error("a marker line closed a block")
	}
	for _, line := range []string{"``` ```\n", "``` aa ```\n", "```foo``\n", "```act`\n", "- ``` x`\n"} {
		if _, _, ok := OpenFence([]byte(line), Backtick); ok {
			t.Errorf("%q opened a backtick fence", line)
		}
		if r, _ := openRun([]byte(line), Backtick); r != 0 {
			t.Errorf("openRun(%q) = %d", line, r)
		}
	}
	if _, info, ok := OpenFence([]byte("~~~ aa ``` ~\n"), Tilde); !ok || info != "aa ``` ~" {
		t.Errorf("tilde fence with backticks in its info string: %q %v", info, ok)
	}
}

// FuzzLexer checks the tokens of any input with each fence character
// (checkTokens).
func FuzzLexer(f *testing.F) {
	for _, s := range samples {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		for _, c := range []byte{0, Backtick, Tilde} {
			checkTokens(t, src, c)
		}
	})
}

// detectLines is Detect as a plain line-by-line scan: the character of
// the first act block, else of the first act-like (NearAct) block, else a
// backtick.
func detectLines(src string) byte {
	var near byte
	for p := 0; p < len(src); {
		e := LineEnd(src, p)
		for _, c := range [2]byte{Backtick, Tilde} {
			line := view.Bytes(src[p:e])
			if n, act := openRun(line, c); n > 0 && act {
				return c
			}
			if _, info, ok := openFence(line, c); ok && near == 0 && NearAct(string(info)) {
				near = c
			}
		}
		p = e
	}
	if near != 0 {
		return near
	}
	return Backtick
}

// checkJumps checks Detect against its line-by-line statement, the
// tokens of CoarseToken (checkTokens).
func checkJumps(t testing.TB, src string) {
	t.Helper()
	if got, want := Detect([]byte(src)), detectLines(src); got != want {
		t.Fatalf("Detect(%q) = %q, line by line %q", src, got, want)
	}
	for _, c := range []byte{Backtick, Tilde} {
		checkTokens(t, src, c)
	}
}

func TestCoarseTokenJumps(t *testing.T) {
	for _, src := range samples {
		checkJumps(t, src)
	}
	for _, src := range []string{
		"a ``` b\n```\nx ``` \n ```` \n```\n", "~~~~\n~~~~~\n~~~ ~\n  ~~~~\r\n", "````act\n```\n``````\n````\n",
		"x\n```` act\n", "```", "\n```act", "~~~act\n```act\n", "``", "a~~~\n~~~~act\n", "\uFEFF```act\n",
	} {
		checkJumps(t, src)
	}
}

func FuzzCoarseToken(f *testing.F) {
	for _, s := range samples {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		checkJumps(t, src)
	})
}
