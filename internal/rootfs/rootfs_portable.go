package rootfs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"strings"
	"syscall"
)

// portableRoot is the root on every platform, through os.Root: nothing it
// opens can leave the root. os.Root follows a symbolic link that stays
// inside the root, so each directory is reached one element at a time,
// refusing any symbolic link, and each element opened must be the very
// directory that was checked (os.SameFile), so a directory swapped for a
// link meanwhile is refused rather than followed. Entries are handled in
// their own directory's os.Root, one element deep; a file is opened only
// after Lstat says it is no link, and must be the file Lstat saw.
type portableRoot struct {
	r *os.Root
}

func openPortableRoot(root string) (Root, error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, err
	}
	return &portableRoot{r: r}, nil
}

func (p *portableRoot) Dir(rel string) (Dir, error) {
	if err := ValidPath(rel); err != nil {
		return nil, err
	}
	cur, err := p.r.OpenRoot(".")
	if err != nil {
		return nil, err
	}
	if rel == "" {
		return &portableDir{r: cur}, nil
	}
	done := ""
	for _, e := range strings.Split(rel, "/") {
		done = Join(done, e)
		fi, err := cur.Lstat(e)
		if err != nil {
			cur.Close()
			return nil, &fs.PathError{Op: "lstat", Path: done, Err: unwrapPath(err)}
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			cur.Close()
			return nil, fmt.Errorf("%s: %w", done, ErrSymlink)
		}
		if !fi.IsDir() {
			cur.Close()
			return nil, &fs.PathError{Op: "open", Path: done, Err: syscall.ENOTDIR}
		}
		next, err := cur.OpenRoot(e)
		cur.Close()
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: done, Err: unwrapPath(err)}
		}
		got, err := next.Stat(".")
		if err != nil || !os.SameFile(fi, got) {
			next.Close()
			return nil, fmt.Errorf("%s: %w", done, ErrSymlink)
		}
		cur = next
	}
	return &portableDir{r: cur, rel: rel}, nil
}

func (p *portableRoot) OpenRead(rel string) (io.ReadCloser, Info, error) {
	dir, name := Split(rel)
	d, err := p.Dir(dir)
	if err != nil {
		return nil, Info{}, err
	}
	defer d.Close()
	f, info, err := d.Open(name, os.O_RDONLY)
	if f == nil {
		return nil, info, err
	}
	return f, info, nil
}

// syncFS does nothing: each new file is synced as it is written.
func (p *portableRoot) SyncFS() error { return nil }

func (p *portableRoot) Close() error { return p.r.Close() }

// portableDir is a directory opened by portableRoot.dir.
type portableDir struct {
	r      *os.Root
	rel    string
	locked *os.File // the directory opened to hold its lock
}

func (d *portableDir) Lock() error {
	f, err := d.r.Open(".")
	if err != nil {
		return d.perr("open", ".", err)
	}
	if err := flock(f); err != nil {
		f.Close()
		if errors.Is(err, ErrLocked) {
			return fmt.Errorf("%s: %w", d.rel, ErrLocked)
		}
		return d.perr("flock", ".", err)
	}
	d.locked = f
	return nil
}

// unwrapPath returns the error inside a *fs.PathError (whose path is the
// os.Root's), so that the caller names the path relative to the root.
func unwrapPath(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err
	}
	if le, ok := err.(*os.LinkError); ok {
		return le.Err
	}
	return err
}

func (d *portableDir) perr(op, name string, err error) error {
	if err == nil {
		return nil
	}
	return &fs.PathError{Op: op, Path: Join(d.rel, name), Err: unwrapPath(err)}
}

func (d *portableDir) Lstat(name string) (Info, error) {
	fi, err := d.r.Lstat(name)
	if err != nil {
		return Info{}, d.perr("lstat", name, err)
	}
	return InfoOf(fi), nil
}

func (d *portableDir) Open(name string, flag int) (*os.File, Info, error) {
	fi, err := d.r.Lstat(name)
	if err != nil {
		return nil, Info{}, d.perr("lstat", name, err)
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return nil, Info{}, fmt.Errorf("%s: %w", Join(d.rel, name), ErrSymlink)
	}
	if !fi.Mode().IsRegular() {
		return nil, InfoOf(fi), nil
	}
	f, err := d.r.OpenFile(name, flag|openReadFlags, 0)
	if err != nil {
		return nil, Info{}, d.perr("open", name, err)
	}
	got, err := f.Stat()
	if err != nil || !os.SameFile(fi, got) {
		f.Close()
		return nil, Info{}, fmt.Errorf("%s: %w", Join(d.rel, name), ErrSymlink)
	}
	return f, InfoOf(got), nil
}

func (d *portableDir) Create(name string, perm fs.FileMode) (*os.File, error) {
	f, err := d.r.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm.Perm())
	if err != nil {
		return nil, d.perr("create", name, err)
	}
	return f, nil
}

func (d *portableDir) Mkdir(name string, perm fs.FileMode) error {
	return d.perr("mkdir", name, d.r.Mkdir(name, perm.Perm()))
}

func (d *portableDir) Remove(name string) error { return d.removeEntry("remove", name, false) }

func (d *portableDir) Rmdir(name string) error { return d.removeEntry("rmdir", name, true) }

// removeEntry removes name, which must be a directory when dir is set and
// must not be one otherwise (os.Root.Remove takes either).
func (d *portableDir) removeEntry(op, name string, dir bool) error {
	fi, err := d.r.Lstat(name)
	switch {
	case err != nil:
		return d.perr(op, name, err)
	case dir && !fi.IsDir():
		return d.perr(op, name, syscall.ENOTDIR)
	case !dir && fi.IsDir():
		return d.perr(op, name, syscall.EISDIR)
	}
	return d.perr(op, name, d.r.Remove(name))
}

func (d *portableDir) Rename(old, new string, noReplace bool) error {
	if noReplace {
		if _, err := d.r.Lstat(new); err == nil {
			return d.perr("rename", new, fs.ErrExist)
		}
	}
	return d.perr("rename", new, d.r.Rename(old, new))
}

func (d *portableDir) Link(old, new string) error {
	return d.perr("link", new, d.r.Link(old, new))
}

func (d *portableDir) Symlink(target, name string) error {
	return d.perr("symlink", name, d.r.Symlink(target, name))
}

func (d *portableDir) Readlink(name string) (string, error) {
	s, err := d.r.Readlink(name)
	if err != nil {
		return "", d.perr("readlink", name, err)
	}
	return s, nil
}

func (d *portableDir) Names(n int) ([]string, error) {
	f, err := d.r.Open(".")
	if err != nil {
		return nil, d.perr("open", ".", err)
	}
	defer f.Close()
	names, err := f.Readdirnames(n)
	if err != nil && err != io.EOF {
		return names, d.perr("readdir", ".", err)
	}
	return names, nil
}

// sync syncs the directory; Windows cannot, and needs not (its renames
// are journaled by NTFS).
func (d *portableDir) Sync() error {
	if runtime.GOOS == "windows" {
		return nil
	}
	f, err := d.r.Open(".")
	if err != nil {
		return d.perr("open", ".", err)
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return d.perr("fsync", ".", err)
	}
	return nil
}

func (d *portableDir) BatchSynced() bool { return false }

func (d *portableDir) Close() error {
	if d.locked != nil {
		d.locked.Close()
	}
	return d.r.Close()
}
