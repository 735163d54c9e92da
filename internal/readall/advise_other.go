//go:build !linux

package readall

// adviseHuge does nothing where madvise is not available.
func adviseHuge([]byte) {}
