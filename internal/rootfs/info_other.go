//go:build !unix

package rootfs

import (
	"errors"
	"io/fs"
)

const openReadFlags = 0

// InfoOf describes the entry fi describes; links are not counted here.
func InfoOf(fi fs.FileInfo) Info {
	return Info{Mode: fi.Mode(), Size: fi.Size(), MtimeNanos: fi.ModTime().UnixNano(), Nlink: 1, fi: fi, UID: -1, GID: -1}
}

// isNoLinkErrno says err is a file system's refusal of a hard link.
func isNoLinkErrno(err error) bool { return errors.Is(err, errors.ErrUnsupported) }
