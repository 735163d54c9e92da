package lsp

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
)

var changeAlphabet = []string{"a", "bc", "é", "漢", "😀", "\n", "\r\n", "\r", "\xff", "\x80", "\xe2\x82", "\x82\xac", "  ", "x\r", "\n\r"}

func randChangeText(r *rand.Rand, n int) string {
	var b strings.Builder
	for range n {
		b.WriteString(changeAlphabet[r.IntN(len(changeAlphabet))])
	}
	return b.String()
}

func randChanges(r *rand.Rand, k, lines int) []change {
	cs := make([]change, k)
	for i := range cs {
		if r.IntN(40) == 0 {
			cs[i] = change{whole: true, text: randChangeText(r, r.IntN(30))}
			continue
		}
		cs[i] = change{startLine: r.IntN(lines + 2), startChar: r.IntN(12), endLine: r.IntN(lines + 2), endChar: r.IntN(12),
			text: randChangeText(r, r.IntN(4))}
		if r.IntN(3) > 0 { // mostly small ranges on one line
			cs[i].endLine, cs[i].endChar = cs[i].startLine, cs[i].startChar+r.IntN(3)
		}
	}
	return cs
}

// checkChanges checks applyChanges against the change-by-change
// reference, with tiny chunks (every boundary case) and the real size.
func checkChanges(t *testing.T, text []byte, cs []change) {
	t.Helper()
	want := applyOneByOne(bytes.Clone(text), cs)
	for _, limit := range []int{1, 2, 3, 5, 8, 0} {
		if got := applyChunked(bytes.Clone(text), cs, limit); !bytes.Equal(got, want) {
			t.Fatalf("chunks of %d: %d changes to %q:\ngot  %q\nwant %q", limit, len(cs), text, got, want)
		}
	}
}

// TestApplyChangesAgrees: a didChange message's changes applied to the
// chunked text give the bytes the reference gives (the text and its
// index rebuilt per change) on random texts of multi-byte characters,
// surrogate pairs, CRLF, lone CRs and invalid UTF-8, and random ranges
// (past line ends, past the end, reversed, whole-text changes midway).
func TestApplyChangesAgrees(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 3000
	if testing.Short() {
		n = 300
	}
	for range n {
		text := []byte(randChangeText(r, r.IntN(60)))
		lines := bytes.Count(text, []byte("\n")) + bytes.Count(text, []byte("\r"))
		checkChanges(t, text, randChanges(r, 1+r.IntN(20), lines))
	}
}

func FuzzApplyChanges(f *testing.F) {
	f.Add([]byte("a\r\nb\rc😀\n\xe2\x82x"), uint64(1), uint8(10))
	f.Add([]byte(""), uint64(2), uint8(3))
	f.Fuzz(func(t *testing.T, text []byte, seed uint64, k uint8) {
		r := rand.New(rand.NewPCG(seed, 7))
		lines := bytes.Count(text, []byte("\n")) + bytes.Count(text, []byte("\r"))
		checkChanges(t, text, randChanges(r, int(k%64)+1, lines))
	})
}

// manyChanges is a document of n lines and a message of k one-character
// changes spread over it.
func manyChanges(n, k int) ([]byte, []change) {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "line %d: some text é 😀\n", i)
	}
	cs := make([]change, k)
	for i := range cs {
		l := (i * 7919) % n
		cs[i] = change{startLine: l, startChar: 3, endLine: l, endChar: 4, text: "X"}
	}
	return []byte(b.String()), cs
}

// TestApplyChangesLinear: k changes to a document of n lines allocate
// O(n + k) bytes (×4 or so from n, k to 4n, 4k); the text and its index
// rebuilt per change, as before, made it ×16.
func TestApplyChangesLinear(t *testing.T) {
	measure := func(n int) uint64 {
		text, cs := manyChanges(n, n)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		applyChanges(text, cs)
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	small, large := measure(20000), measure(80000)
	ratio := float64(large) / float64(small)
	t.Logf("bytes allocated %d at n=20000, %d at 4n: ×%.2f", small, large, ratio)
	if ratio > 6 {
		t.Errorf("bytes allocated grow ×%.2f from n to 4n changes and lines; linear is about ×4", ratio)
	}
}

// BenchmarkApplyChanges: one didChange message of k one-character changes
// to a document of k lines (k = 10,000, 20,000, 40,000).
func BenchmarkApplyChanges(b *testing.B) {
	for _, k := range []int{10000, 20000, 40000} {
		text, cs := manyChanges(k, k)
		b.Run(fmt.Sprint(k), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				applyChanges(text, cs)
			}
		})
	}
}
