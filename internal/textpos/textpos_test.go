package textpos

import (
	"testing"

	"github.com/plangram/plangram/ast"
)

func TestConversions(t *testing.T) {
	// "a😀b" — 😀 is U+1F600: 4 bytes, 2 UTF-16 units.
	// "漢字x" — each CJK character is 3 bytes, 1 unit.
	src := []byte("a😀b\n漢字x\r\n\xffz\n")
	tx := New(src)
	for _, tc := range []struct {
		off, line, char int
	}{
		{0, 0, 0},  // a
		{1, 0, 1},  // 😀
		{5, 0, 3},  // b: after a surrogate pair
		{6, 0, 4},  // end of line 1
		{7, 1, 0},  // 漢
		{10, 1, 1}, // 字
		{13, 1, 2}, // x
		{14, 1, 3}, // \r
		{16, 2, 0}, // invalid byte
		{17, 2, 1}, // z
		{99, 3, 0}, // clamped to the end
		{-5, 0, 0}, // clamped to the start
	} {
		l, c := tx.UTF16(tc.off)
		if l != tc.line || c != tc.char {
			t.Errorf("UTF16(%d) = %d:%d, want %d:%d", tc.off, l, c, tc.line, tc.char)
		}
		if tc.off >= 0 && tc.off <= len(src) && tc.off != 14 {
			if back := tx.Offset(l, c); back != tc.off {
				t.Errorf("Offset(%d, %d) = %d, want %d", l, c, back, tc.off)
			}
		}
	}
	// Inside a surrogate pair rounds down; past the end of a line stops
	// before its line ending; past the last line is the end.
	if got := tx.Offset(0, 2); got != 1 {
		t.Errorf("Offset inside a pair = %d, want 1", got)
	}
	if got := tx.Offset(1, 99); got != 13+1 {
		t.Errorf("Offset past CRLF line end = %d, want 14", got)
	}
	if got := tx.Offset(9, 0); got != len(src) {
		t.Errorf("Offset past the end = %d, want %d", got, len(src))
	}
	if got := UTF16Len([]byte("😀漢a")); got != 4 {
		t.Errorf("UTF16Len = %d, want 4", got)
	}
}

// TestLoneCR: UTF16 and Offset count a lone "\r" as a line ending, as the
// LSP does; Column16 (SARIF, plangram's "\n" lines) does not.
func TestLoneCR(t *testing.T) {
	src := []byte("a\rb😀c\r\nd\re\n\rf")
	tx := New(src)
	for _, tc := range []struct {
		off, line, char int
	}{
		{0, 0, 0},  // a
		{1, 0, 1},  // \r
		{2, 1, 0},  // b
		{3, 1, 1},  // 😀
		{7, 1, 3},  // c
		{8, 1, 4},  // \r of \r\n
		{10, 2, 0}, // d
		{12, 3, 0}, // e
		{14, 4, 0}, // \r on its own line
		{15, 5, 0}, // f
		{16, 5, 1}, // end
		{99, 5, 1}, // clamped
		{-1, 0, 0}, // clamped
	} {
		l, c := tx.UTF16(tc.off)
		if l != tc.line || c != tc.char {
			t.Errorf("UTF16(%d) = %d:%d, want %d:%d", tc.off, l, c, tc.line, tc.char)
		}
		if tc.off >= 0 && tc.off <= len(src) && tc.off != 8 && tc.off != 1 {
			if back := tx.Offset(l, c); back != tc.off {
				t.Errorf("Offset(%d, %d) = %d, want %d", l, c, back, tc.off)
			}
		}
	}
	// Past a line's end stops before its lone CR; past the last line is the end.
	if got := tx.Offset(0, 5); got != 1 {
		t.Errorf("Offset(0, 5) = %d, want 1", got)
	}
	if got := tx.Offset(1, 99); got != 8 {
		t.Errorf("Offset(1, 99) = %d, want 8", got)
	}
	if got := tx.Offset(6, 0); got != len(src) {
		t.Errorf("Offset(6, 0) = %d, want %d", got, len(src))
	}
	// SARIF columns stay on "\n" lines: c is on plangram's line 1, after
	// "a\rb😀" (1+1+1+2 units).
	if got := tx.Column16(ast.Pos{Offset: 7}); got != 6 {
		t.Errorf("Column16(7) = %d, want 6", got)
	}
}
