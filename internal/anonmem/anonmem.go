// Package anonmem maps private anonymous memory: memory outside the
// garbage-collected heap, for large buffers that hold no Go pointers and
// whose owner frees them explicitly (the input `plangram check` reads, the
// workspace overlay's chunks). The garbage collector's heap goal is twice
// the live heap (GOGC 100), so a buffer that lives as long as the work
// costs twice its size on the heap and once here.
package anonmem

// Map returns n zeroed bytes of private anonymous memory (an error
// wrapping errors.ErrUnsupported where the system has no anonymous memory
// maps: the caller then allocates on the heap). The memory must
// hold no pointers into the Go heap, and nothing may use it after Unmap.
func Map(n int) ([]byte, error) { return mapAnon(n) }

// Unmap frees memory from Map.
func Unmap(b []byte) error { return unmapAnon(b) }
