//go:build !unix

package apply

import (
	"errors"
	"io/fs"
)

const openReadFlags = 0

// infoOf describes the entry fi describes; links are not counted here.
func infoOf(fi fs.FileInfo) info {
	return info{mode: fi.Mode(), size: fi.Size(), mtimeNanos: fi.ModTime().UnixNano(), nlink: 1, fi: fi, uid: -1, gid: -1}
}

// isNoLinkErrno says err is a file system's refusal of a hard link.
func isNoLinkErrno(err error) bool { return errors.Is(err, errors.ErrUnsupported) }
