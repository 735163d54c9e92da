package grammar

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestBinarySample pins the rule that tells binary input without a NUL
// byte (docs/acts.md, "Input encoding"): more than a third of the first
// 8 KiB, and at least 4 bytes, are not UTF-8 text.
func TestBinarySample(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	random := make([]byte, 4096)
	for i := range random {
		random[i] = byte(1 + rng.IntN(255)) // no NUL
	}
	latin1 := bytes.Repeat([]byte("R\xe9sum\xe9 : caf\xe9, na\xefve, d\xe9j\xe0 vu, \xe7a va.\n"), 40)
	cut := append(bytes.Repeat([]byte("a"), binaryWindow-1), "漢字"...) // 漢 cut by the window
	tail := append(bytes.Repeat([]byte("plain text\n"), binaryWindow/11+1), bytes.Repeat([]byte{0xff}, 100000)...)
	for _, tc := range []struct {
		name   string
		src    []byte
		binary bool
	}{
		{"random bytes without NUL", random, true},
		{"four bad bytes of ten", []byte("ab\xff\xfe\x01\x02cdef"), true},
		{"control bytes", bytes.Repeat([]byte("\x01\x02\x03a"), 10), true},
		{"three bad bytes (below the minimum)", []byte("\xff\xfe\xfd"), false},
		{"emoji and CJK", []byte(strings.Repeat("🚀✨🎉漢字かな😀", 500)), false},
		{"Latin-1 text", latin1, false},
		{"a plan with a few bad bytes", []byte("```act\nwrite_file a\n```\n```\nx\xffy\xfez\n```\n"), false},
		{"text with ANSI colours, tabs, form feeds, BS, BEL", []byte(strings.Repeat("\x1b[31mred\x1b[0m\t\f\b\a\v\r\n", 50)), false},
		{"a character cut by the window", cut, false},
		{"bad bytes after the window", tail, false},
	} {
		bad, n, first := binarySample(tc.src)
		if got := first >= 0; got != tc.binary {
			t.Errorf("%s: binary = %v (%d bad of %d), want %v", tc.name, got, bad, n, tc.binary)
		}
		diags := checkInput(tc.src)
		isBinary := len(diags) == 1 && diags[0].Code == CodeBinary
		if isBinary != tc.binary {
			t.Errorf("%s: checkInput = %v, want binary-input %v", tc.name, diags, tc.binary)
		}
	}
}
