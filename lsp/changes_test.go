package lsp

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/plangram/plangram/internal/textpos"
	"github.com/plangram/plangram/lsp/internal/protocol"
)

type change = protocol.TextDocumentContentChangeEvent

// rangeChange is a change of the range from line sl, character sc to line
// el, character ec.
func rangeChange(sl, sc, el, ec int, text string) change {
	return change{Range: &protocol.Range{
		Start: protocol.Position{Line: uint32(sl), Character: uint32(sc)},
		End:   protocol.Position{Line: uint32(el), Character: uint32(ec)},
	}, Text: text}
}

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
			cs[i] = change{Text: randChangeText(r, r.IntN(30))}
			continue
		}
		cs[i] = rangeChange(r.IntN(lines+2), r.IntN(12), r.IntN(lines+2), r.IntN(12), randChangeText(r, r.IntN(4)))
		if r.IntN(3) > 0 { // mostly small ranges on one line
			cs[i].Range.End = protocol.Position{Line: cs[i].Range.Start.Line, Character: cs[i].Range.Start.Character + uint32(r.IntN(3))}
		}
	}
	return cs
}

// checkChanges checks applyChanges against what each change means: a
// range whose ends are positions of byte offsets a ≤ b (position, the
// converse of the offsets applyChanges reads) replaces text[a:b], and a
// message of several changes gives what they give one message each.
func checkChanges(t *testing.T, r *rand.Rand, text []byte, cs []change) {
	t.Helper()
	for range 4 {
		a, b := r.IntN(len(text)+1), r.IntN(len(text)+1)
		a, b = min(a, b), max(a, b)
		tx := textpos.New(text)
		pa, pb := position(tx, a), position(tx, b)
		if offset(tx, pa) != a || offset(tx, pb) != b {
			continue // inside a character or a CRLF: no position names it
		}
		c := change{Range: &protocol.Range{Start: pb, End: pa}, Text: "Z\n"}
		got, err := applyChanges(bytes.Clone(text), []change{c})
		if want := string(text[:a]) + "Z\n" + string(text[b:]); err != nil || string(got) != want {
			t.Fatalf("offsets %d..%d of %q: got %q, %v; want %q", a, b, text, got, err, want)
		}
	}
	want, err := applyChanges(bytes.Clone(text), cs)
	if err != nil {
		t.Fatal(err)
	}
	got := bytes.Clone(text)
	for _, c := range cs {
		if got, err = applyChanges(got, []change{c}); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%d changes to %q: one message %q, one message each %q", len(cs), text, want, got)
	}
}

// TestApplyChanges: random texts of multi-byte characters, surrogate
// pairs, CRLF, lone CRs and invalid UTF-8, and random ranges (past line
// ends, past the end, reversed, whole-text changes midway).
func TestApplyChanges(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 3000
	if testing.Short() {
		n = 300
	}
	for range n {
		text := []byte(randChangeText(r, r.IntN(60)))
		lines := bytes.Count(text, []byte("\n")) + bytes.Count(text, []byte("\r"))
		checkChanges(t, r, text, randChanges(r, 1+r.IntN(20), lines))
	}
}

func FuzzApplyChanges(f *testing.F) {
	f.Add([]byte("a\r\nb\rc😀\n\xe2\x82x"), uint64(1), uint8(10))
	f.Add([]byte(""), uint64(2), uint8(3))
	f.Fuzz(func(t *testing.T, text []byte, seed uint64, k uint8) {
		r := rand.New(rand.NewPCG(seed, 7))
		lines := bytes.Count(text, []byte("\n")) + bytes.Count(text, []byte("\r"))
		checkChanges(t, r, text, randChanges(r, int(k%64)+1, lines))
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
		cs[i] = rangeChange(l, 3, l, 4, "X")
	}
	return []byte(b.String()), cs
}

// TestApplyChangesBounded: a message of a real editor's size (100
// changes to 0.6 MB) is within applyChanges' work bound; TestRefusedChange sends
// one over it.
func TestApplyChangesBounded(t *testing.T) {
	text, cs := manyChanges(20000, 100)
	if _, err := applyChanges(text, cs); err != nil {
		t.Error(err)
	}
}

// BenchmarkApplyChanges: one didChange message of k one-character changes
// to a document of 20,000 lines (k = 100, 200, 400).
func BenchmarkApplyChanges(b *testing.B) {
	for _, k := range []int{100, 200, 400} {
		text, cs := manyChanges(20000, k)
		b.Run(fmt.Sprint(k), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := applyChanges(text, cs); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
