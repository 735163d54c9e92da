// Package view is plangram's one place for zero-copy views between
// strings and byte slices. The parsers read their input as a string (the
// AST's texts are slices of it) although callers hand it over as []byte;
// copying a document of many megabytes to read it would double what a
// parse allocates.
//
// A view is only for bytes that are never written while the view is in
// use: input that the caller handed over and no longer changes, or the
// filled part of a buffer that is only appended to. Never take a view of
// bytes that are written afterwards (the bytes under a string must never
// change).
package view

import "unsafe"

// String returns the bytes of b as a string, without copying.
func String(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// Bytes returns the bytes of s as a slice, without copying. The slice
// must never be written to.
func Bytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }
