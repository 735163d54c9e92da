package linediff

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// apply rebuilds both texts from an edit script.
func apply(ops []Op, a, b []string) (gotA, gotB []string) {
	for _, op := range ops {
		switch op.Kind {
		case Equal:
			gotA = append(gotA, a[op.A])
			gotB = append(gotB, b[op.B])
		case Delete:
			gotA = append(gotA, a[op.A])
		case Insert:
			gotB = append(gotB, b[op.B])
		}
	}
	return gotA, gotB
}

func edits(ops []Op) int {
	n := 0
	for _, op := range ops {
		if op.Kind != Equal {
			n++
		}
	}
	return n
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
		ops := Diff(a, b)
		gotA, gotB := apply(ops, a, b)
		if strings.Join(gotA, "|") != strings.Join(a, "|") || strings.Join(gotB, "|") != strings.Join(b, "|") {
			t.Fatalf("a=%q b=%q ops=%v", a, b, ops)
		}
		if e, lcs := edits(ops), lcsLen(a, b); e != len(a)+len(b)-2*lcs {
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
	ops := Diff(a, b)
	gotA, gotB := apply(ops, a, b)
	if len(gotA) != len(a) || len(gotB) != len(b) || ops[0].Kind != Equal {
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
