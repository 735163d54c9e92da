package workspace

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// tooLargeError says a file is over the size limit.
type tooLargeError struct {
	size, limit int64
}

func (e *tooLargeError) Error() string {
	return fmt.Sprintf("it has %d bytes, more than the limit of %d", e.size, e.limit)
}

// readRegularIn reads the regular file name below root, at most limit
// bytes (readOpen), opened through root so that the open cannot leave it
// (os.Root: a symbolic link or `..` that would is an error).
func readRegularIn(root *os.Root, name string, limit int64) ([]byte, int64, error) {
	f, err := root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	return readOpen(f, limit)
}

// readOpen reads the open file f, at most limit bytes. It never blocks on
// a named pipe and never reads a device: the file is opened with
// O_NONBLOCK and its type is taken from the open descriptor (fstat), so a
// file swapped for a pipe between a stat and the open cannot hang the
// checker. A file over the limit (also one that grows past it while being
// read) is a *tooLargeError with nothing read; anything but a regular file
// is an error that names its type.
func readOpen(f *os.File, limit int64) ([]byte, int64, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, 0, err
	}
	if !fi.Mode().IsRegular() {
		return nil, 0, fmt.Errorf("it is %s, not a regular file", fileKind(fi.Mode()))
	}
	if fi.Size() > limit {
		return nil, 0, &tooLargeError{fi.Size(), limit}
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, 0, err
	}
	if int64(len(data)) > limit {
		return nil, 0, &tooLargeError{int64(len(data)), limit}
	}
	return data, int64(len(data)), nil
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
