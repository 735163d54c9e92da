// Package safewrite replaces the content of a file without surprising the
// people who own it.
//
// `plangram render -o` writes through [WriteFileFunc], `fmt -w` and
// `fix -w` through [Rewrite], which also refuses a file that changed after
// it was read; `apply` writes through its own handle on the workspace root
// and shares only [ErrReadOnly] with this package. [WriteFile] writes
// bytes at hand by the same rules. The rules, in the order they are applied
// to the path given:
//
//   - A symbolic link is followed (link by link, so a dangling link creates
//     its target): the link stays a link and the file it names is written.
//   - A missing file is created atomically: the data goes to a temporary file
//     in the same directory, which is synced and renamed over the path. The
//     new file gets mode 0644 filtered by the process umask, like
//     os.WriteFile.
//   - An existing regular file without the owner's write bit (mode 0444, for
//     example) is refused with an error that wraps [ErrReadOnly], even when
//     the process runs as root and could write it.
//   - An existing regular file with a single link is replaced atomically the
//     same way; the replacement keeps the file's owner, group and mode
//     (including setuid, setgid and sticky bits).
//   - An existing regular file with more than one hard link is written in
//     place (opened, overwritten, truncated, synced) so that every name of
//     the file keeps seeing the new content: a rename would split the links.
//     In-place writing is not atomic; it is also used when the owner or group
//     cannot be kept by a rename (a non-root process writing another user's
//     writable file) and when the directory does not allow creating the
//     temporary file.
//   - Anything else that is not a directory — a character or block device
//     such as /dev/null, a named pipe — is opened for writing and written,
//     as a shell's `>` would do (writing to a pipe waits for a reader).
//
// Extended attributes and ACLs of a replaced file are not copied.
package safewrite

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// ErrReadOnly is wrapped by the error [WriteFile] returns for a regular file
// whose mode lacks the owner's write bit.
var ErrReadOnly = errors.New("file is read-only")

// maxLinks bounds how many symbolic links are followed, as the kernel does.
const maxLinks = 40

// WriteFile replaces the content of path with data following the package
// rules; a new file is created with mode 0644 (before the umask).
func WriteFile(path string, data []byte) error {
	return writeFile(path, payload{data: data}, 0o644)
}

// WriteFileFunc is [WriteFile] with the content written by write, for a
// content too large to hold (`plangram render -o`). Where the file is
// replaced atomically (a new file, a regular file with one link), write
// writes into the temporary file, through a buffer, and an error from it
// leaves path as it was. Where a regular file is written in place (one
// with several links, one whose owner a rename cannot keep), the content
// is collected in memory first, for the same reason. A device or a pipe
// is written through a buffer as write writes, as standard output would
// be: an error from write ends what it was given.
func WriteFileFunc(path string, write func(io.Writer) error) error {
	return writeFile(path, payload{write: write}, 0o644)
}

// payload is what a write puts in a file: bytes at hand, or a function
// that writes them.
type payload struct {
	data  []byte
	write func(io.Writer) error // nil: data
}

// writeTo writes the content to w.
func (c payload) writeTo(w io.Writer) error {
	if c.write == nil {
		_, err := w.Write(c.data)
		return err
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	if err := c.write(bw); err != nil {
		return err
	}
	return bw.Flush()
}

// bytes returns the content whole.
func (c payload) bytes() ([]byte, error) {
	if c.write == nil {
		return c.data, nil
	}
	var b bytes.Buffer
	if err := c.write(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// inPlace writes the content to path in place (writeInPlace). A
// regular file (truncate) gets its content whole, so that a write
// function that fails leaves it as it was; a device or a pipe (not
// truncate) is written as the content is made, as standard output is:
// what was written to it cannot be taken back anyway, and a page of
// hundreds of megabytes is not held to be thrown away by /dev/null.
func (c payload) inPlace(path string, truncate bool) error {
	if !truncate && c.write != nil {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		if err := c.writeTo(f); err != nil {
			f.Close()
			return fmt.Errorf("%s: %w", path, err)
		}
		return f.Close()
	}
	data, err := c.bytes()
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return writeInPlace(path, data, truncate)
}

// writeFile is WriteFile for any content, with the permission bits of a
// file that does not exist yet.
func writeFile(path string, data payload, perm fs.FileMode) error {
	target, err := Resolve(path)
	if err != nil {
		return err
	}
	fi, err := os.Stat(target)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return replace(target, data, perm&(fs.ModePerm|fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky), nil)
	case err != nil:
		return err
	case fi.IsDir():
		return fmt.Errorf("%s: is a directory", path)
	case !fi.Mode().IsRegular():
		return data.inPlace(target, false)
	case fi.Mode().Perm()&0o200 == 0:
		return fmt.Errorf("%s: %w (mode %04o): make it writable to let plangram change it", path, ErrReadOnly, fi.Mode().Perm())
	case links(fi) > 1:
		return data.inPlace(target, true)
	}
	mode := fi.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
	err = replace(target, data, mode, fi)
	if errors.Is(err, errKeepInPlace) {
		return data.inPlace(target, true)
	}
	return err
}

// Resolve follows the symbolic links of path's last element, one at a time,
// and returns the path of the file a write would change. A dangling link
// resolves to the missing file it names; a chain longer than 40 links is an
// error. Directories along the way are not resolved (the kernel does that).
func Resolve(path string) (string, error) {
	for i := 0; i < maxLinks; i++ {
		fi, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) {
			return path, nil
		}
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return path, nil
		}
		dest, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(dest) {
			dest = filepath.Join(filepath.Dir(path), dest)
		}
		path = dest
	}
	return "", fmt.Errorf("%s: too many levels of symbolic links", path)
}

// errKeepInPlace says the temporary file cannot carry the old file's
// identity (owner, group) or cannot be created: write in place instead.
var errKeepInPlace = errors.New("write in place")

// replace writes data to a new temporary file next to path, syncs it and
// renames it over path. old is the file being replaced, nil when there is
// none.
func replace(path string, data payload, mode fs.FileMode, old fs.FileInfo) error {
	name, err := stage(path, data, mode, old)
	if err != nil {
		return err
	}
	if err := os.Rename(name, path); err != nil {
		os.Remove(name)
		return err
	}
	return nil
}

// stage writes data to a new temporary file next to path, with old's owner
// and group (when old is not nil) and mode, syncs it to disk and returns
// its name. On error no temporary file is left.
func stage(path string, data payload, mode fs.FileMode, old fs.FileInfo) (string, error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := createTemp(dir, base, mode.Perm())
	if err != nil {
		if old != nil && (errors.Is(err, fs.ErrPermission)) {
			return "", errKeepInPlace
		}
		return "", err
	}
	name := tmp.Name()
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(name)
		}
	}()
	if old != nil {
		// Owner first: chown clears the setuid and setgid bits.
		if err := keepOwner(tmp, old); err != nil {
			if errors.Is(err, fs.ErrPermission) {
				return "", errKeepInPlace
			}
			return "", fmt.Errorf("%s: keeping owner: %w", path, err)
		}
		if err := tmp.Chmod(mode); err != nil {
			return "", fmt.Errorf("%s: keeping mode: %w", path, err)
		}
	} else if mode&(fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky) != 0 {
		if err := tmp.Chmod(mode); err != nil {
			return "", err
		}
	}
	if err := data.writeTo(tmp); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	ok = true
	return name, nil
}

// createTemp creates a new file named .BASE.plangram-N in dir with the
// permission bits perm (filtered by the umask, unlike os.CreateTemp).
func createTemp(dir, base string, perm fs.FileMode) (*os.File, error) {
	seed := uint64(time.Now().UnixNano()) ^ uint64(os.Getpid())<<32
	for i := 0; i < 100; i++ {
		seed = seed*6364136223846793005 + 1442695040888963407
		name := filepath.Join(dir, "."+base+".plangram-"+strconv.FormatUint(seed>>33, 36))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, err
	}
	return nil, fmt.Errorf("%s: cannot create a temporary file", dir)
}

// writeInPlace opens path for writing and writes data; for a regular file
// (truncate) the bytes past the new end are cut off after the write.
func writeInPlace(path string, data []byte, truncate bool) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	if truncate {
		if err := f.Truncate(int64(len(data))); err != nil {
			f.Close()
			return fmt.Errorf("%s: %w", path, err)
		}
		if err := f.Sync(); err != nil {
			f.Close()
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	return f.Close()
}
