package safewrite

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// ErrChanged is wrapped by the error [Rewrite] returns when the file is no
// longer what the caller read: another process changed, replaced or
// removed it in between, and writing would lose that change.
var ErrChanged = errors.New("it changed after it was read")

// Rewrite replaces the content of the file at path, which the caller read
// as old, with data, by the rules of [WriteFile] (a symbolic link as the
// last element is followed; the owner and mode are kept; a read-only file
// is refused; a file with several hard links, or whose owner a rename
// cannot keep, is written in place), and refuses with an error wrapping
// [ErrChanged] when, just before the new content takes its place, the
// file is not the one it was when Rewrite started (device and inode,
// size, modification time) or does not hold old: `fmt -w` and `fix -w`
// then lose no edit made while they worked, as apply does not.
//
// The file's directory is opened once (os.OpenRoot) and the temporary
// file, the checks and the rename all go through that handle, so a
// directory on the path swapped for a symbolic link after the open cannot
// redirect the write, and a file swapped for a link is refused, not
// written through. The temporary file's name has a fixed length
// (.plangram-XXXXXXXXXXXXX.tmp, 27 bytes), so any name the file system
// allows can be rewritten.
//
// beforeRename, when not nil, is called once the new content is staged,
// before the checks (tests make a concurrent change deterministic with
// it). A file that is not a regular file (a device, a pipe) holds nothing
// to compare: it is written as [WriteFile] writes it.
func Rewrite(path string, old, data []byte, beforeRename func()) error {
	target, err := Resolve(path)
	if err != nil {
		return err
	}
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	fi, err := root.Lstat(base)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s: %w (it was removed); it was not rewritten", path, ErrChanged)
	case err != nil:
		return err
	case fi.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("%s: %w (it is a symbolic link now); it was not rewritten", path, ErrChanged)
	case fi.IsDir():
		return fmt.Errorf("%s: is a directory", path)
	case !fi.Mode().IsRegular():
		return WriteFile(path, data)
	case fi.Mode().Perm()&0o200 == 0:
		return fmt.Errorf("%s: %w (mode %04o): make it writable to let plangram change it", path, ErrReadOnly, fi.Mode().Perm())
	}
	mode := fi.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
	if links(fi) == 1 {
		name, err := stageIn(root, base, data, mode, fi)
		switch {
		case err == nil:
			if beforeRename != nil {
				beforeRename()
			}
			if err := unchanged(root, base, fi, old); err != nil {
				root.Remove(name)
				return fmt.Errorf("%s: %w", path, err)
			}
			if err := root.Rename(name, base); err != nil {
				root.Remove(name)
				return fmt.Errorf("%s: %w", path, err)
			}
			return nil
		case !errors.Is(err, errKeepInPlace):
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	// In place: every hard link keeps seeing the file, or the owner
	// could not be kept by a new file.
	if beforeRename != nil {
		beforeRename()
	}
	f, err := root.OpenFile(base, os.O_RDWR|syscall.O_NONBLOCK, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := sameOpen(f, fi, old); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if _, err := f.WriteAt(data, 0); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := f.Truncate(int64(len(data))); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Close()
}

// unchanged checks, through root, that base is still the regular file fi
// described and holds old.
func unchanged(root *os.Root, base string, fi fs.FileInfo, old []byte) error {
	lst, err := root.Lstat(base)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%w (it was removed); it was not rewritten", ErrChanged)
		}
		return err
	}
	if !os.SameFile(fi, lst) {
		return fmt.Errorf("%w (another file took its place); it was not rewritten", ErrChanged)
	}
	f, err := root.OpenFile(base, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	return sameOpen(f, fi, old)
}

// sameOpen checks that the open file f is the file fi described, with its
// size and modification time, and holds old.
func sameOpen(f *os.File, fi fs.FileInfo, old []byte) error {
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if !os.SameFile(fi, st) {
		return fmt.Errorf("%w (another file took its place); it was not rewritten", ErrChanged)
	}
	if st.Size() != fi.Size() || !st.ModTime().Equal(fi.ModTime()) || st.Size() != int64(len(old)) {
		return fmt.Errorf("%w (its size or modification time is not what it was); it was not rewritten", ErrChanged)
	}
	got, err := io.ReadAll(io.LimitReader(f, int64(len(old))+1))
	if err != nil {
		return err
	}
	if !bytes.Equal(got, old) {
		return fmt.Errorf("%w (its content is not what was read); it was not rewritten", ErrChanged)
	}
	return nil
}

// stageIn writes data to a new temporary file in root, next to base, with
// old's owner and group and the mode mode, synced, and returns its name.
// On error no temporary file is left; errKeepInPlace says the file should
// be written in place instead (the directory does not allow the temporary
// file, or the owner cannot be kept).
func stageIn(root *os.Root, base string, data []byte, mode fs.FileMode, old fs.FileInfo) (string, error) {
	var tmp *os.File
	var name string
	var err error
	for range 100 {
		name = ".plangram-" + fixed13(rand.Uint64()) + ".tmp"
		tmp, err = root.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, mode.Perm())
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		if errors.Is(err, fs.ErrPermission) {
			return "", errKeepInPlace
		}
		return "", err
	}
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			root.Remove(name)
		}
	}()
	// Owner first: chown clears the setuid and setgid bits.
	if err := keepOwner(tmp, old); err != nil {
		if errors.Is(err, fs.ErrPermission) {
			return "", errKeepInPlace
		}
		return "", fmt.Errorf("keeping owner: %w", err)
	}
	if err := tmp.Chmod(mode); err != nil {
		return "", fmt.Errorf("keeping mode: %w", err)
	}
	if _, err := tmp.Write(data); err != nil {
		return "", err
	}
	if err := tmp.Sync(); err != nil {
		return "", err
	}
	if err := tmp.Close(); err != nil {
		return "", err
	}
	ok = true
	return name, nil
}

// fixed13 writes v in base 36 with 13 digits (leading zeros kept), so that
// every temporary name has the same length.
func fixed13(v uint64) string {
	s := strconv.FormatUint(v, 36)
	for len(s) < 13 {
		s = "0" + s
	}
	return s
}
