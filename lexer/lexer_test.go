package lexer

import (
	"fmt"
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

// TestFineMatchesStateful checks that the hand-written lexer emits exactly the
// tokens of the participle stateful rules.
func TestFineMatchesStateful(t *testing.T) {
	for _, src := range samples {
		for _, c := range []byte{Backtick, Tilde} {
			want := collect(t, Stateful(c), src)
			got := collect(t, Fine(c), src)
			if fmt.Sprint(want) != fmt.Sprint(got) {
				t.Errorf("fence %q, input %q:\nstateful %v\nfine     %v", c, src, want, got)
			}
		}
	}
}

func TestRoundTrip(t *testing.T) {
	for _, src := range samples {
		for _, d := range []plex.Definition{Fine(0), Coarse(0), Fine(Tilde), Coarse(Backtick)} {
			var b strings.Builder
			for _, tk := range collect(t, d, src) {
				b.WriteString(tk.Value)
			}
			if b.String() != src {
				t.Errorf("round trip of %q gave %q", src, b.String())
			}
		}
	}
}

func TestCoarseGroupsFine(t *testing.T) {
	// Coarse tokens are exactly runs of fine tokens: Text = Line+, (Act)Block =
	// (Act)Open Content* Close?.
	for _, src := range samples {
		fine := collect(t, Fine(0), src)
		coarse := collect(t, Coarse(0), src)
		i := 0
		for _, c := range coarse {
			var b strings.Builder
			switch c.Type {
			case "Text":
				for i < len(fine) && fine[i].Type == "Line" {
					b.WriteString(fine[i].Value)
					i++
				}
			case "Block", "ActBlock":
				want := map[string]string{"Block": "Open", "ActBlock": "ActOpen"}[c.Type]
				if fine[i].Type != want {
					t.Fatalf("%q: coarse %s at fine %s", src, c.Type, fine[i].Type)
				}
				b.WriteString(fine[i].Value)
				i++
				for i < len(fine) && (fine[i].Type == "Content" || fine[i].Type == "Close") {
					b.WriteString(fine[i].Value)
					i++
					if fine[i-1].Type == "Close" {
						break
					}
				}
			}
			if b.String() != c.Value {
				t.Errorf("%q: coarse %s %q != fine run %q", src, c.Type, c.Value, b.String())
			}
		}
		if i != len(fine) {
			t.Errorf("%q: %d fine tokens not covered by coarse tokens", src, len(fine)-i)
		}
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

func FuzzLexer(f *testing.F) {
	for _, s := range samples {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		for _, c := range []byte{Backtick, Tilde} {
			fine := collect(t, Fine(c), src)
			var b strings.Builder
			for _, tk := range fine {
				b.WriteString(tk.Value)
			}
			if b.String() != src {
				t.Fatalf("fine round trip lost bytes")
			}
			b.Reset()
			for _, tk := range collect(t, Coarse(c), src) {
				b.WriteString(tk.Value)
			}
			if b.String() != src {
				t.Fatalf("coarse round trip lost bytes")
			}
			if len(src) < 4096 {
				if want := collect(t, Stateful(c), src); fmt.Sprint(want) != fmt.Sprint(fine) {
					t.Fatalf("fine differs from stateful\n%v\n%v", want, fine)
				}
			}
		}
	})
}

// coarseLines is CoarseToken as a plain line-by-line scan: the reference
// for the scan that jumps between lines holding fence characters.
func coarseLines(src string, off int, c byte) (plex.TokenType, int) {
	n := lineLen(src, off)
	if r, act := openRun(view.Bytes(src[off:off+n]), c); r > 0 {
		typ := Block
		if act {
			typ = ActBlock
		}
		for p := off + n; p < len(src); {
			m := lineLen(src, p)
			if closes(view.Bytes(src[p:p+m]), c, r) {
				return typ, p + m
			}
			p += m
		}
		return typ, len(src)
	}
	p := off + n
	for p < len(src) {
		m := lineLen(src, p)
		if r, _ := openRun(view.Bytes(src[p:p+m]), c); r > 0 {
			break
		}
		p += m
	}
	return Text, p
}

// detectLines is Detect as a plain line-by-line scan: the character of
// the first act block, else of the first act-like (NearAct) block, else a
// backtick.
func detectLines(src string) byte {
	var near byte
	for p := 0; p < len(src); {
		m := lineLen(src, p)
		for _, c := range [2]byte{Backtick, Tilde} {
			line := view.Bytes(src[p : p+m])
			if n, act := openRun(line, c); n > 0 && act {
				return c
			}
			if _, info, ok := openFence(line, c); ok && near == 0 && NearAct(string(info)) {
				near = c
			}
		}
		p += m
	}
	if near != 0 {
		return near
	}
	return Backtick
}

// checkJumps compares CoarseToken and Detect with their line-by-line
// references on src.
func checkJumps(t testing.TB, src string) {
	t.Helper()
	if got, want := Detect([]byte(src)), detectLines(src); got != want {
		t.Fatalf("Detect(%q) = %q, line by line %q", src, got, want)
	}
	for _, c := range []byte{Backtick, Tilde} {
		for off := 0; off < len(src); {
			typ, end := CoarseToken(src, off, c)
			wtyp, wend := coarseLines(src, off, c)
			if typ != wtyp || end != wend || end <= off {
				t.Fatalf("fence %q, %q at %d: CoarseToken = %v %d, line by line %v %d", c, src, off, typ, end, wtyp, wend)
			}
			off = end
		}
		// CloseIndex gives the same token at every line start.
		x := NewCloseIndex(src, c)
		for off := 0; off < len(src); {
			typ, end := x.CoarseToken(off)
			wtyp, wend := CoarseToken(src, off, c)
			if typ != wtyp || end != wend {
				t.Fatalf("fence %q, %q at %d: CloseIndex.CoarseToken = %v %d, CoarseToken %v %d", c, src, off, typ, end, wtyp, wend)
			}
			if i := strings.IndexByte(src[off:], '\n'); i >= 0 {
				off += i + 1
			} else {
				break
			}
		}
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
