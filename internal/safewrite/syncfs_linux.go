//go:build linux && (amd64 || arm64)

package safewrite

import (
	"os"
	"syscall"
)

// syncFS flushes the whole file system holding dir (syncfs(2)).
func syncFS(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, _, e := syscall.Syscall(sysSyncfs, f.Fd(), 0, 0); e != 0 {
		return e
	}
	return nil
}
