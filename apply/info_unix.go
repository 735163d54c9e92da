//go:build unix

package apply

import (
	"io/fs"
	"syscall"
)

// openReadFlags keeps opening a file swapped for a named pipe from
// blocking.
const openReadFlags = syscall.O_NONBLOCK

// infoOf describes the entry fi describes.
func infoOf(fi fs.FileInfo) info {
	i := info{mode: fi.Mode(), size: fi.Size(), mtimeNanos: fi.ModTime().UnixNano(), nlink: 1, fi: fi}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		i.uid, i.gid = int(st.Uid), int(st.Gid)
		i.dev, i.ino, i.nlink = uint64(st.Dev), uint64(st.Ino), uint64(st.Nlink)
	}
	return i
}

// isNoLinkErrno says err is a file system's refusal of a hard link.
func isNoLinkErrno(err error) bool {
	return err == syscall.EMLINK || err == syscall.ENOTSUP || err == syscall.EOPNOTSUPP || err == syscall.ENOSYS
}
