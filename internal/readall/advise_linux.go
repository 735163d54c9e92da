//go:build linux

package readall

import "syscall"

// adviseHuge asks the kernel to back b with transparent huge pages where
// it can (b is a fresh large allocation, so page aligned). A refusal is
// ignored: the advice changes the cost of the read, not its result.
func adviseHuge(b []byte) {
	_ = syscall.Madvise(b, syscall.MADV_HUGEPAGE)
}
