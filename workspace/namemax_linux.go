//go:build linux

package workspace

import "syscall"

// nameMax returns the longest name, in bytes, the file system of dir
// allows (statfs's f_namelen), or defaultNameMax when it cannot be asked.
func nameMax(dir string) int {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil || st.Namelen <= 0 {
		return defaultNameMax
	}
	return int(st.Namelen)
}
