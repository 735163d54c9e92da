package linediff

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// apply rebuilds both texts from the changes of a diff's blocks, and
// counts the lines inserted and deleted.
func apply(blocks []Block, a, b []string) (gotA, gotB []string, edits int) {
	for _, c := range Changes(blocks) {
		gotA = append(gotA, a[c.I1:c.I2]...)
		gotB = append(gotB, b[c.J1:c.J2]...)
		if c.Tag != Same {
			edits += c.I2 - c.I1 + c.J2 - c.J1
		}
	}
	return gotA, gotB, edits
}

func TestDiffRebuildsBothTexts(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a\n", "b\n", "c\n", "d\n", "e"}
	gen := func() []string {
		n := r.IntN(12)
		s := make([]string, n)
		for i := range s {
			s[i] = alphabet[r.IntN(len(alphabet))]
		}
		return s
	}
	for i := 0; i < 5000; i++ {
		a, b := gen(), gen()
		blocks := Diff(a, b)
		gotA, gotB, e := apply(blocks, a, b)
		if strings.Join(gotA, "|") != strings.Join(a, "|") || strings.Join(gotB, "|") != strings.Join(b, "|") {
			t.Fatalf("a=%q b=%q blocks=%v", a, b, blocks)
		}
		for i := 1; i < len(blocks); i++ {
			if p, q := blocks[i-1], blocks[i]; p.A+p.Size >= q.A && p.B+p.Size >= q.B && q.Size > 0 {
				t.Fatalf("a=%q b=%q: blocks %v and %v overlap or touch", a, b, p, q)
			}
		}
		if lcs := lcsLen(a, b); e != len(a)+len(b)-2*lcs {
			t.Fatalf("a=%q b=%q: %d edits, minimal is %d", a, b, e, len(a)+len(b)-2*lcs)
		}
	}
}

func lcsLen(a, b []string) int {
	dp := make([][]int, len(a)+1)
	for i := range dp {
		dp[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				dp[i][j] = dp[i+1][j+1] + 1
			} else {
				dp[i][j] = max(dp[i+1][j], dp[i][j+1])
			}
		}
	}
	return dp[0][0]
}

func TestDiffBounded(t *testing.T) {
	var a, b []string
	for i := 0; i < 3000; i++ {
		a = append(a, "x"+strings.Repeat("a", i%7)+"\n")
		b = append(b, "y"+strings.Repeat("b", i%5)+"\n")
	}
	a = append([]string{"same\n"}, a...)
	b = append([]string{"same\n"}, b...)
	blocks := Diff(a, b)
	gotA, gotB, _ := apply(blocks, a, b)
	if len(gotA) != len(a) || len(gotB) != len(b) || blocks[0] != (Block{0, 0, 1}) {
		t.Fatalf("bad fallback script")
	}
}

func TestUnified(t *testing.T) {
	a := "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven\ntwelve"
	b := "one\nTWO\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven\ntwelve\n"
	var out bytes.Buffer
	if err := Unified(&out, "a.md", "b.md", []byte(a), []byte(b), 3); err != nil {
		t.Fatal(err)
	}
	want := `--- a.md
+++ b.md
@@ -1,5 +1,5 @@
 one
-two
+TWO
 three
 four
 five
@@ -9,4 +9,4 @@
 nine
 ten
 eleven
-twelve
\ No newline at end of file
+twelve
`
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
	out.Reset()
	if err := Unified(&out, "a", "b", []byte(a), []byte(a), 3); err != nil || out.Len() != 0 {
		t.Errorf("equal texts: %q %v", out.String(), err)
	}
	out.Reset()
	_ = Unified(&out, "a", "b", nil, []byte("x\n"), 3)
	if out.String() != "--- a\n+++ b\n@@ -0,0 +1 @@\n+x\n" {
		t.Errorf("from empty: %q", out.String())
	}
}
