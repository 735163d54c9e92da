package workspace

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"

	"github.com/plangram/plangram/internal/rootfs"
	"github.com/plangram/plangram/internal/view"
)

// tooLargeError says a file is over the size limit.
type tooLargeError struct {
	size, limit int64
}

func (e *tooLargeError) Error() string {
	return fmt.Sprintf("it has %d bytes, more than the limit of %d", e.size, e.limit)
}

// readRegularIn reads the regular file at the slash path rel below root,
// at most limit bytes, opened once (rootfs.Root.OpenRead: nothing out of
// the root, no symbolic link, no blocking on a named pipe, the type from
// what was opened). A file over the limit (also one that grows past it
// while being read) is a *tooLargeError with nothing read; anything but a
// regular file is an error that names its type. The content is read into
// one buffer of the size fstat gives (bytes.MinRead more, to see the file
// grow), which is never written again and becomes the string.
func readRegularIn(root rootfs.Root, rel string, limit int64) (string, error) {
	f, info, err := root.OpenRead(rel)
	if err != nil {
		return "", err
	}
	if f == nil {
		return "", fmt.Errorf("it is %s, not a regular file", fileKind(info.Mode))
	}
	defer f.Close()
	if info.Size > limit {
		return "", &tooLargeError{info.Size, limit}
	}
	buf := bytes.NewBuffer(make([]byte, 0, info.Size+bytes.MinRead))
	if _, err := buf.ReadFrom(io.LimitReader(f, limit+1)); err != nil {
		return "", err
	}
	if n := int64(buf.Len()); n > limit {
		return "", &tooLargeError{n, limit}
	}
	return view.String(buf.Bytes()), nil
}

// fileKind names a file type for messages.
func fileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m.IsDir():
		return "a directory"
	}
	return "a special file"
}
