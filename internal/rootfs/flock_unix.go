//go:build unix

package rootfs

import (
	"os"

	"golang.org/x/sys/unix"
)

// flock takes f's exclusive advisory lock without waiting.
func flock(f *os.File) error {
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		if err == unix.EWOULDBLOCK {
			return ErrLocked
		}
		return err
	}
	return nil
}
