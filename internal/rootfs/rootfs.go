// Package rootfs is plangram's one way to change files below a directory
// opened once: `plangram apply` writes the workspace through it, and
// `fmt -w` and `fix -w` (internal/safewrite.Rewrite) the directory of the
// file they rewrite, and `check --root` reads the workspace through it. No operation can leave the root or follow a symbolic
// link on the way. A directory is reached component by component without
// following any symbolic link (openat2 with RESOLVE_BENEATH and
// RESOLVE_NO_SYMLINKS on Linux; os.Root with a check of each component
// elsewhere), and every operation on a directory's entry acts on the
// entry itself, never on what a symbolic link there names.
package rootfs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
)

// Root is a directory opened once, under which every operation happens.
type Root interface {
	// Dir opens the directory at the slash path rel ("" is the root).
	// A symbolic link on the way is an error wrapping ErrSymlink.
	Dir(rel string) (Dir, error)
	// OpenRead opens the file at the slash path rel to read it (no
	// symbolic link on the way or at its end) without blocking on a named
	// pipe; the Info is fstat of what was opened. For anything but a
	// regular file the reader is nil.
	OpenRead(rel string) (io.ReadCloser, Info, error)
	// SyncFS flushes the files written in the directories whose
	// BatchSynced is true to disk at once (syncfs on Linux).
	SyncFS() error
	Close() error
}

// Dir is an open directory inside the root. Names are single path
// elements of it.
type Dir interface {
	// Lstat describes the entry name itself (a link is not followed).
	Lstat(name string) (Info, error)
	// Open opens a regular file with flag (os.O_RDONLY or os.O_RDWR)
	// without following a symbolic link or blocking on a pipe; the Info
	// is fstat of the file opened. For an entry that is no regular file
	// the portable implementation returns a nil file and its Info.
	Open(name string, flag int) (*os.File, Info, error)
	// Create creates the new file name for writing; it fails if
	// anything is at name, a dangling link included.
	Create(name string, perm fs.FileMode) (*os.File, error)
	Mkdir(name string, perm fs.FileMode) error
	// Remove removes a file or a symbolic link; Rmdir an empty directory.
	Remove(name string) error
	Rmdir(name string) error
	// Rename renames the entry old to new; with noReplace it fails
	// when new exists.
	Rename(old, new string, noReplace bool) error
	// Link makes new a second name of the file old (the entry itself).
	Link(old, new string) error
	Symlink(target, name string) error
	Readlink(name string) (string, error)
	// Names lists at most n names of the directory's entries ("." and
	// ".." left out), in the order the directory gives them.
	Names(n int) ([]string, error)
	Sync() error
	// Lock takes the exclusive advisory lock of the directory without
	// waiting (flock; an error wrapping ErrLocked when another process
	// holds it), released by Close. Platforms without flock lock nothing.
	Lock() error
	// BatchSynced says the root's SyncFS flushes a file written here
	// (the same file system); otherwise the file is synced on its own.
	BatchSynced() bool
	Close() error
}

// Info is what a writer needs to know of a directory entry.
type Info struct {
	Mode       fs.FileMode // type and permission bits, setuid and co.
	UID, GID   int         // -1 where files have no Unix owner
	Dev, Ino   uint64
	Nlink      uint64
	Size       int64
	MtimeNanos int64
	fi         fs.FileInfo // the portable implementation's, for os.SameFile
}

// Same says i and j are the same file, unchanged in size and time.
func (i Info) Same(j Info) bool {
	if i.fi != nil && j.fi != nil && (i.Ino == 0 || j.Ino == 0) {
		return os.SameFile(i.fi, j.fi) && i.Size == j.Size && i.MtimeNanos == j.MtimeNanos
	}
	return i.Dev == j.Dev && i.Ino == j.Ino && i.Size == j.Size && i.MtimeNanos == j.MtimeNanos
}

// ErrSymlink is wrapped by the error of an operation that meets a
// symbolic link where a directory or a file was expected.
var ErrSymlink = errors.New("a symbolic link is in the way; nothing is written through it")

// ErrLocked says another process holds the lock of a directory: for
// apply's metadata directory, an apply is running there.
var ErrLocked = errors.New("another plangram apply is running in this root")

// Open opens root (symbolic links on its own path are followed once,
// here); portable forces the os.Root implementation (tests).
func Open(root string, portable bool) (Root, error) {
	if !portable {
		if r, err := openNativeRoot(root); !errors.Is(err, errNoNative) {
			return r, err
		}
	}
	return openPortableRoot(root)
}

// errNoNative says the platform (or the kernel) has no native
// implementation: the portable one is used.
var errNoNative = errors.New("no native root implementation")

// Split splits a slash path into its directory ("" for the root) and
// its last element.
func Split(rel string) (dir, name string) {
	dir, name = path.Split(rel)
	return strings.TrimSuffix(dir, "/"), name
}

// Join joins a directory ("" for the root) and a name.
func Join(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

// ValidPath checks that rel is a clean relative slash path inside the
// root: no empty, "." or ".." element, not absolute.
func ValidPath(rel string) error {
	if rel == "" {
		return nil
	}
	for e := range strings.SplitSeq(rel, "/") {
		if e == "" || e == "." || e == ".." || strings.ContainsRune(e, 0) {
			return fmt.Errorf("%q: not a clean path inside the root", rel)
		}
	}
	return nil
}

// WithDir opens the directory rel of r, runs f on it and closes it.
func WithDir(r Root, rel string, f func(d Dir) error) error {
	d, err := r.Dir(rel)
	if err != nil {
		return err
	}
	err = f(d)
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

// IsNoLink says err is a refusal to make a hard link (the file system
// has none, or the file has too many).
func IsNoLink(err error) bool {
	var pe *fs.PathError
	return errors.As(err, &pe) && isNoLinkErrno(pe.Err)
}
