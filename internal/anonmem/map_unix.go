//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package anonmem

import "syscall"

// mapAnon returns n bytes of private anonymous memory, outside the
// garbage-collected heap.
func mapAnon(n int) ([]byte, error) {
	return syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
}

// unmapAnon frees memory from mapAnon.
func unmapAnon(b []byte) error { return syscall.Munmap(b) }
