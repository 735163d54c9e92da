package textpos

import (
	"testing"
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
