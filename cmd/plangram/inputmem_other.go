//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package main

import "errors"

// mapAnon is not available here: inputArena reads onto the heap.
func mapAnon(int) ([]byte, error) { return nil, errors.ErrUnsupported }

// unmapAnon frees nothing.
func unmapAnon([]byte) error { return nil }
