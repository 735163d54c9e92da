package lexer

import "unsafe"

// unsafeBytes views a string as a byte slice without copying. The slice must
// never be written to; the lexer only reads it.
func unsafeBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// unsafeString views a byte slice as a string without copying. The bytes
// must not change while the string is in use; the lexer only reads them.
func unsafeString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }
