package lexer

import "unsafe"

// unsafeBytes views a string as a byte slice without copying. The slice must
// never be written to; the lexer only reads it.
func unsafeBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }
