//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package anonmem

import "errors"

// mapAnon is not available here: callers allocate on the heap.
func mapAnon(int) ([]byte, error) { return nil, errors.ErrUnsupported }

// unmapAnon frees nothing.
func unmapAnon([]byte) error { return nil }
