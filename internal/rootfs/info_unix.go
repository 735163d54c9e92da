//go:build unix

package rootfs

import (
	"io/fs"
	"syscall"
)

// openReadFlags keeps opening a file swapped for a named pipe from
// blocking.
const openReadFlags = syscall.O_NONBLOCK

// InfoOf describes the entry fi describes (an os.Lstat or os.Stat result).
func InfoOf(fi fs.FileInfo) Info {
	i := Info{Mode: fi.Mode(), Size: fi.Size(), MtimeNanos: fi.ModTime().UnixNano(), Nlink: 1, fi: fi}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		i.UID, i.GID = int(st.Uid), int(st.Gid)
		i.Dev, i.Ino, i.Nlink = uint64(st.Dev), uint64(st.Ino), uint64(st.Nlink)
	}
	return i
}

// isNoLinkErrno says err is a file system's refusal of a hard link.
func isNoLinkErrno(err error) bool {
	return err == syscall.EMLINK || err == syscall.ENOTSUP || err == syscall.EOPNOTSUPP || err == syscall.ENOSYS
}
