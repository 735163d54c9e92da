package apply

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"
)

// rootFS is the root directory of an apply, opened once: every file
// operation of the verify, write and undo steps and of recovery goes
// through it, and none can leave the root or follow a symbolic link on
// the way. A directory is reached component by component without
// following any symbolic link (openat2 with RESOLVE_BENEATH and
// RESOLVE_NO_SYMLINKS on Linux; os.Root with a check of each component
// elsewhere), and every operation on a directory's entry acts on the
// entry itself, never on what a symbolic link there names.
type rootFS interface {
	// dir opens the directory at the slash path rel ("" is the root).
	// A symbolic link on the way is an error wrapping errSymlink.
	dir(rel string) (dirHandle, error)
	// syncFS flushes the files written in the directories whose
	// batchSynced is true to disk at once (syncfs on Linux).
	syncFS() error
	close() error
}

// dirHandle is an open directory inside the root. Names are single path
// elements of it.
type dirHandle interface {
	// lstat describes the entry name itself (a link is not followed).
	lstat(name string) (info, error)
	// openRead opens a regular file for reading without following a
	// symbolic link or blocking on a pipe; fstat of the result is the
	// file read.
	openRead(name string) (*os.File, info, error)
	// create creates the new file name for writing; it fails if
	// anything is at name, a dangling link included.
	create(name string, perm fs.FileMode) (*os.File, error)
	mkdir(name string, perm fs.FileMode) error
	// remove removes a file or a symbolic link; rmdir an empty directory.
	remove(name string) error
	rmdir(name string) error
	// rename renames the entry old to new; with noReplace it fails
	// when new exists.
	rename(old, new string, noReplace bool) error
	// link makes new a second name of the file old (the entry itself).
	link(old, new string) error
	symlink(target, name string) error
	readlink(name string) (string, error)
	sync() error
	// lock takes the exclusive advisory lock of the directory without
	// waiting (flock; an error wrapping errLocked when another process
	// holds it), released by close. Platforms without flock lock nothing.
	lock() error
	// batchSynced says the root's syncFS flushes a file written here
	// (the same file system); otherwise the file is synced on its own.
	batchSynced() bool
	close() error
}

// info is what apply needs to know of a directory entry.
type info struct {
	mode       fs.FileMode // type and permission bits, setuid and co.
	uid, gid   int
	dev, ino   uint64
	nlink      uint64
	size       int64
	mtimeNanos int64
	fi         fs.FileInfo // the portable implementation's, for os.SameFile
}

// same says i and j are the same file, unchanged in size and time.
func (i info) same(j info) bool {
	if i.fi != nil && j.fi != nil && (i.ino == 0 || j.ino == 0) {
		return os.SameFile(i.fi, j.fi) && i.size == j.size && i.mtimeNanos == j.mtimeNanos
	}
	return i.dev == j.dev && i.ino == j.ino && i.size == j.size && i.mtimeNanos == j.mtimeNanos
}

// errSymlink is wrapped by the error of an operation that meets a
// symbolic link where a directory or a file was expected.
var errSymlink = errors.New("a symbolic link is in the way; nothing is written through it")

// errLocked says another process holds the lock of the root's metadata
// directory: an apply is running there.
var errLocked = errors.New("another plangram apply is running in this root")

// openRootFS opens root (absolute, symbolic links resolved) for an
// apply; portable forces the os.Root implementation (tests).
func openRootFS(root string, portable bool) (rootFS, error) {
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

// splitRel splits a change's slash path into its directory ("" for the
// root) and its last element.
func splitRel(rel string) (dir, name string) {
	dir, name = path.Split(rel)
	return strings.TrimSuffix(dir, "/"), name
}

// joinRel joins a directory ("" for the root) and a name.
func joinRel(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

// validRel checks that rel is a clean relative slash path inside the
// root: no empty, "." or ".." element, not absolute.
func validRel(rel string) error {
	if rel == "" {
		return nil
	}
	for _, e := range strings.Split(rel, "/") {
		if e == "" || e == "." || e == ".." || strings.ContainsRune(e, 0) {
			return fmt.Errorf("%q: not a clean path inside the root", rel)
		}
	}
	return nil
}

// withDir opens the directory rel of r, runs f on it and closes it.
func withDir(r rootFS, rel string, f func(d dirHandle) error) error {
	d, err := r.dir(rel)
	if err != nil {
		return err
	}
	err = f(d)
	if cerr := d.close(); err == nil {
		err = cerr
	}
	return err
}
