package view

import (
	"testing"
	"unsafe"
)

// TestViewsShareBytes: String and Bytes give the same bytes, without a
// copy (the view starts where its source does), and empty inputs give
// empty views.
func TestViewsShareBytes(t *testing.T) {
	b := []byte("plan\n")
	s := String(b)
	if s != "plan\n" || unsafe.StringData(s) != &b[0] {
		t.Errorf("String(%q) = %q, a copy or other bytes", b, s)
	}
	v := Bytes(s)
	if string(v) != s || &v[0] != &b[0] || len(v) != len(s) {
		t.Errorf("Bytes(%q) = %q, a copy or other bytes", s, v)
	}
	if String(nil) != "" || String(b[:0]) != "" || len(Bytes("")) != 0 {
		t.Error("empty inputs give non-empty views")
	}
}
