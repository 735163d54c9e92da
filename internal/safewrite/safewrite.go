// Package safewrite replaces the content of a file without surprising the
// people who own it.
//
// `plangram render -o` writes through [WriteFileFunc], `fmt -w` and
// `fix -w` through [Rewrite], which also refuses a file that changed after
// it was read; [WriteFile] writes bytes at hand by the same rules. Each
// opens the file's directory once as an internal/rootfs handle, the one
// apply writes the workspace through, and stages, checks and renames
// through it. The rules, in the order they are applied to the path given:
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
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/plangram/plangram/internal/rootfs"
)

// ErrReadOnly is wrapped by the error a write returns for a regular file
// whose mode lacks the owner's write bit.
var ErrReadOnly = errors.New("file is read-only")

// ErrChanged is wrapped by the error [Rewrite] returns when the file is no
// longer what the caller read: another process changed, replaced or
// removed it in between, and writing would lose that change.
var ErrChanged = errors.New("it changed after it was read")

// maxLinks bounds how many symbolic links are followed, as the kernel does.
const maxLinks = 40

// WriteFile replaces the content of path with data following the package
// rules; a new file is created with mode 0644 (before the umask).
func WriteFile(path string, data []byte) error {
	return write(path, bytesOf(data), nil)
}

// WriteFileFunc is [WriteFile] with the content written by fill, for a
// content too large to hold (`plangram render -o`). Where the file is
// replaced atomically (a new file, a regular file with one link), fill
// writes into the temporary file, through a buffer, and an error from it
// leaves path as it was. Where a regular file is written in place (one
// with several links, one whose owner a rename cannot keep), the content
// is collected in memory first, for the same reason. A device or a pipe
// is written through a buffer as fill writes, as standard output would
// be: an error from fill ends what it was given.
func WriteFileFunc(path string, fill func(io.Writer) error) error {
	return write(path, fill, nil)
}

// Rewrite replaces the content of the file at path, which the caller read
// as old, with data, by the rules of [WriteFile], and refuses with an
// error wrapping [ErrChanged] when, just before the new content takes its
// place, the file is not the one it was when Rewrite started (device and
// inode, size, modification time) or does not hold old: `fmt -w` and
// `fix -w` then lose no edit made while they worked, as apply does not.
// The file's directory is opened once, so a directory on the path
// swapped for a symbolic link after the open cannot redirect the write,
// and a file swapped for a link is refused, not written through.
//
// beforeRename, when not nil, is called once the new content is staged,
// before the checks (tests make a concurrent change deterministic with
// it). A file that is not a regular file (a device, a pipe) holds nothing
// to compare: it is written as [WriteFile] writes it.
func Rewrite(path string, old, data []byte, beforeRename func()) error {
	return write(path, bytesOf(data), &readAs{old: old, hook: beforeRename})
}

// readAs is what Rewrite checks: the content read, and the test hook.
type readAs struct {
	old  []byte
	hook func()
}

// bytesOf returns a fill function that writes data.
func bytesOf(data []byte) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	}
}

// write is WriteFileFunc, and Rewrite when was is not nil.
func write(path string, fill func(io.Writer) error, was *readAs) error {
	target, err := Resolve(path)
	if err != nil {
		return err
	}
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	root, err := rootfs.Open(dir, false)
	if err != nil {
		return err
	}
	defer root.Close()
	d, err := root.Dir("")
	if err != nil {
		return err
	}
	defer d.Close()
	fi, err := d.Lstat(base)
	switch {
	case errors.Is(err, fs.ErrNotExist) && was == nil:
		err = put(d, base, fill, 0o644, nil, nil)
	case errors.Is(err, fs.ErrNotExist):
		err = fmt.Errorf("%w (it was removed); it was not rewritten", ErrChanged)
	case err != nil:
		return err
	case fi.Mode&fs.ModeSymlink != 0:
		err = fmt.Errorf("%w (it is a symbolic link now); it was not rewritten", ErrChanged)
	case fi.Mode.IsDir():
		err = errors.New("is a directory")
	case !fi.Mode.IsRegular():
		return toDevice(target, fill)
	case fi.Mode.Perm()&0o200 == 0:
		err = fmt.Errorf("%w (mode %04o): make it writable to let plangram change it", ErrReadOnly, fi.Mode.Perm())
	default:
		err = put(d, base, fill, fi.Mode&(fs.ModePerm|fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky), &fi, was)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// toDevice writes to a device or a pipe as the content is made, as to
// standard output: what was written cannot be taken back anyway, and a
// page of hundreds of megabytes is not held to be thrown away by
// /dev/null.
func toDevice(path string, fill func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 64<<10)
	if err := fill(bw); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Close()
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

// put writes the content fill makes as base in d, with mode. old is the
// file there (nil: none). A new file or one with a single link is
// replaced by a staged temporary file; otherwise (or when staging cannot
// keep the owner) the file is written in place, the content collected
// first so that a failing fill leaves it as it was. was, when not nil,
// is checked just before the content takes its place.
func put(d rootfs.Dir, base string, fill func(io.Writer) error, mode fs.FileMode, old *rootfs.Info, was *readAs) error {
	if old == nil || old.Nlink == 1 {
		name, err := stage(d, fill, mode, old)
		if err == nil {
			if err = was.check(d, base, old, os.O_RDONLY, func(f *os.File) error { return f.Close() }); err == nil {
				err = d.Rename(name, base, false)
			}
			if err != nil {
				d.Remove(name)
			}
			return err
		}
		if !errors.Is(err, errKeepInPlace) {
			return err
		}
	}
	var b bytes.Buffer
	if err := fill(&b); err != nil {
		return err
	}
	flag := os.O_WRONLY
	if was != nil {
		flag = os.O_RDWR // read to compare
	}
	return was.check(d, base, old, flag, func(f *os.File) error {
		_, err := f.WriteAt(b.Bytes(), 0)
		if err == nil {
			err = f.Truncate(int64(b.Len()))
		}
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return err
	})
}

// check runs the test hook, opens base in d with flag and, when was is
// not nil, checks that it is still the file old described, holding
// was.old; then it hands the file to use, which closes it.
func (was *readAs) check(d rootfs.Dir, base string, old *rootfs.Info, flag int, use func(*os.File) error) error {
	if was == nil {
		if flag == os.O_RDONLY {
			return nil // nothing to check before a rename
		}
	} else if was.hook != nil {
		was.hook()
	}
	f, got, err := d.Open(base, flag)
	switch {
	case was != nil && errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%w (it was removed); it was not rewritten", ErrChanged)
	case was != nil && errors.Is(err, rootfs.ErrSymlink):
		return fmt.Errorf("%w (it is a symbolic link now); it was not rewritten", ErrChanged)
	case err != nil:
		return err
	case f == nil:
		return fmt.Errorf("%w (another file took its place); it was not rewritten", ErrChanged)
	}
	if was != nil {
		if !got.Same(*old) || got.Size != int64(len(was.old)) {
			f.Close()
			return fmt.Errorf("%w (another file took its place, or its size or modification time changed); it was not rewritten", ErrChanged)
		}
		b, err := io.ReadAll(io.LimitReader(f, int64(len(was.old))+1))
		if err == nil && !bytes.Equal(b, was.old) {
			err = fmt.Errorf("%w (its content is not what was read); it was not rewritten", ErrChanged)
		}
		if err != nil {
			f.Close()
			return err
		}
	}
	return use(f)
}

// stage writes the content fill makes to a new temporary file in d, with
// old's owner and group (when old is not nil) and mode, syncs it and
// returns its name. On error no temporary file is left; errKeepInPlace
// says the file should be written in place instead (the directory does
// not allow the temporary file, or the owner cannot be kept).
func stage(d rootfs.Dir, fill func(io.Writer) error, mode fs.FileMode, old *rootfs.Info) (string, error) {
	// A fixed-length name, so that any name the file system allows can
	// be rewritten.
	name := fmt.Sprintf(".plangram-%016x.tmp", rand.Uint64())
	tmp, err := d.Create(name, mode.Perm())
	if err != nil {
		if old != nil && errors.Is(err, fs.ErrPermission) {
			return "", errKeepInPlace
		}
		return "", err
	}
	err = fillStaged(tmp, fill, mode, old)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		d.Remove(name)
		return "", err
	}
	return name, nil
}

// fillStaged gives the staged file tmp old's owner and mode and writes
// and syncs its content.
func fillStaged(tmp *os.File, fill func(io.Writer) error, mode fs.FileMode, old *rootfs.Info) error {
	if old != nil && old.UID >= 0 {
		// Owner first: chown clears the setuid and setgid bits.
		fi, err := tmp.Stat()
		if err != nil {
			return err
		}
		if cur := rootfs.InfoOf(fi); cur.UID != old.UID || cur.GID != old.GID {
			if err := tmp.Chown(old.UID, old.GID); errors.Is(err, fs.ErrPermission) {
				return errKeepInPlace
			} else if err != nil {
				return fmt.Errorf("keeping owner: %w", err)
			}
		}
	}
	if old != nil || mode&(fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky) != 0 {
		if err := tmp.Chmod(mode); err != nil {
			return fmt.Errorf("keeping mode: %w", err)
		}
	}
	bw := bufio.NewWriterSize(tmp, 64<<10)
	if err := fill(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return tmp.Sync()
}
