package rootfs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// nativeRoot is the Linux root: a directory descriptor, and openat2 with
// RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS to reach a directory below it, so
// that neither a symbolic link nor ".." is followed on the way, whatever
// is swapped meanwhile. Entries are then handled with the *at calls on
// the directory's descriptor, which never follow a link in the last
// element.
type nativeRoot struct {
	fd   int
	dev  uint64
	name string
}

// openNativeRoot opens root; a kernel without openat2 (before 5.6, or a
// sandbox that filters it) gives errNoNative.
func openNativeRoot(root string) (Root, error) {
	fd, err := unix.Open(root, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: root, Err: err}
	}
	probe, err := openat2(fd, ".", unix.O_RDONLY|unix.O_DIRECTORY)
	if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EPERM) {
		unix.Close(fd)
		return nil, errNoNative
	}
	if err != nil {
		unix.Close(fd)
		return nil, &fs.PathError{Op: "openat2", Path: root, Err: unwrapPath(err)}
	}
	unix.Close(probe)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, &fs.PathError{Op: "fstat", Path: root, Err: err}
	}
	return &nativeRoot{fd: fd, dev: uint64(st.Dev), name: root}, nil
}

// openat2 opens rel below dirfd with flags without following any
// symbolic link or leaving dirfd (a link on the way is an error wrapping
// ErrSymlink). The kernel may ask to retry (EAGAIN) when a rename raced
// the lookup: a few times, then the error stands.
func openat2(dirfd int, rel string, flags uint64) (int, error) {
	if rel == "" {
		rel = "."
	}
	how := &unix.OpenHow{
		Flags:   flags | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	}
	var err error
	for i := 0; i < 8; i++ {
		var fd int
		fd, err = unix.Openat2(dirfd, rel, how)
		if err == nil {
			return fd, nil
		}
		if err != unix.EAGAIN && err != unix.EINTR {
			break
		}
	}
	if err == unix.ELOOP || err == unix.EXDEV {
		return -1, fmt.Errorf("%s: %w", rel, ErrSymlink)
	}
	return -1, &fs.PathError{Op: "open", Path: rel, Err: err}
}

func (r *nativeRoot) Dir(rel string) (Dir, error) {
	if err := ValidPath(rel); err != nil {
		return nil, err
	}
	fd, err := openat2(r.fd, rel, unix.O_RDONLY|unix.O_DIRECTORY)
	if err != nil {
		return nil, err
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, &fs.PathError{Op: "fstat", Path: rel, Err: err}
	}
	return &nativeDir{fd: fd, rel: rel, batch: uint64(st.Dev) == r.dev}, nil
}

// OpenRead opens rel with one openat2 and reads it with read(2) alone:
// an os.File would try to register the descriptor with the netpoller,
// which a regular file refuses.
func (r *nativeRoot) OpenRead(rel string) (io.ReadCloser, Info, error) {
	if err := ValidPath(rel); err != nil {
		return nil, Info{}, err
	}
	fd, err := openat2(r.fd, rel, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOCTTY)
	if err != nil {
		return nil, Info{}, err
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, Info{}, &fs.PathError{Op: "fstat", Path: rel, Err: err}
	}
	if info := statInfo(&st); !info.Mode.IsRegular() {
		unix.Close(fd)
		return nil, info, nil
	}
	return fdReader(fd), statInfo(&st), nil
}

// fdReader reads a file descriptor.
type fdReader int

func (f fdReader) Read(b []byte) (int, error) {
	n, err := unix.Read(int(f), b)
	if n == 0 && err == nil && len(b) > 0 {
		err = io.EOF
	}
	return max(n, 0), err
}

func (f fdReader) Close() error { return unix.Close(int(f)) }

// syncFS flushes the file system of the root (syncfs(2)).
func (r *nativeRoot) SyncFS() error {
	if err := unix.Syncfs(r.fd); err != nil {
		return &fs.PathError{Op: "syncfs", Path: r.name, Err: err}
	}
	return nil
}

func (r *nativeRoot) Close() error { return unix.Close(r.fd) }

// nativeDir is a directory opened by nativeRoot.dir.
type nativeDir struct {
	fd    int
	rel   string
	batch bool // on the root's file system
}

func (d *nativeDir) BatchSynced() bool { return d.batch }

// perr wraps err, when not nil, with the entry's path relative to the
// root.
func (d *nativeDir) perr(op, name string, err error) error {
	if err == nil {
		return nil
	}
	if err == unix.ELOOP {
		return fmt.Errorf("%s: %w", Join(d.rel, name), ErrSymlink)
	}
	return &fs.PathError{Op: op, Path: Join(d.rel, name), Err: err}
}

// statInfo describes what stat(2) found: each row of the table maps the
// mode bits under mask, when they are bits, to fs.FileMode bits (a file
// type, then setuid, setgid and sticky).
func statInfo(st *unix.Stat_t) Info {
	mode := fs.FileMode(st.Mode & 0o777)
	for _, b := range [...]struct {
		mask, bits uint32
		mode       fs.FileMode
	}{
		{unix.S_IFMT, unix.S_IFDIR, fs.ModeDir}, {unix.S_IFMT, unix.S_IFLNK, fs.ModeSymlink},
		{unix.S_IFMT, unix.S_IFIFO, fs.ModeNamedPipe}, {unix.S_IFMT, unix.S_IFSOCK, fs.ModeSocket},
		{unix.S_IFMT, unix.S_IFCHR, fs.ModeDevice | fs.ModeCharDevice}, {unix.S_IFMT, unix.S_IFBLK, fs.ModeDevice},
		{unix.S_ISUID, unix.S_ISUID, fs.ModeSetuid}, {unix.S_ISGID, unix.S_ISGID, fs.ModeSetgid}, {unix.S_ISVTX, unix.S_ISVTX, fs.ModeSticky},
	} {
		if st.Mode&b.mask == b.bits {
			mode |= b.mode
		}
	}
	return Info{Mode: mode, UID: int(st.Uid), GID: int(st.Gid), Dev: uint64(st.Dev), Ino: st.Ino,
		Nlink: uint64(st.Nlink), Size: st.Size, MtimeNanos: st.Mtim.Nano()}
}

func (d *nativeDir) Lstat(name string) (Info, error) {
	var st unix.Stat_t
	if err := unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return Info{}, d.perr("lstat", name, err)
	}
	return statInfo(&st), nil
}

func (d *nativeDir) Open(name string, flag int) (*os.File, Info, error) {
	fd, err := unix.Openat(d.fd, name, flag|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC|unix.O_NOCTTY, 0)
	if err != nil {
		return nil, Info{}, d.perr("open", name, err)
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, Info{}, d.perr("fstat", name, err)
	}
	return os.NewFile(uintptr(fd), Join(d.rel, name)), statInfo(&st), nil
}

func (d *nativeDir) Create(name string, perm fs.FileMode) (*os.File, error) {
	fd, err := unix.Openat(d.fd, name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(perm.Perm()))
	if err != nil {
		return nil, d.perr("create", name, err)
	}
	return os.NewFile(uintptr(fd), Join(d.rel, name)), nil
}

func (d *nativeDir) Mkdir(name string, perm fs.FileMode) error {
	return d.perr("mkdir", name, unix.Mkdirat(d.fd, name, uint32(perm.Perm())))
}

func (d *nativeDir) Remove(name string) error {
	return d.perr("remove", name, unix.Unlinkat(d.fd, name, 0))
}

func (d *nativeDir) Rmdir(name string) error {
	return d.perr("rmdir", name, unix.Unlinkat(d.fd, name, unix.AT_REMOVEDIR))
}

func (d *nativeDir) Rename(old, new string, noReplace bool) error {
	if noReplace {
		err := unix.Renameat2(d.fd, old, d.fd, new, unix.RENAME_NOREPLACE)
		if err == nil {
			return nil
		}
		if err != unix.EINVAL && err != unix.ENOSYS {
			return d.perr("rename", new, err)
		}
		// The file system cannot refuse to replace: check, then rename.
		var st unix.Stat_t
		if err := unix.Fstatat(d.fd, new, &st, unix.AT_SYMLINK_NOFOLLOW); err == nil {
			return d.perr("rename", new, unix.EEXIST)
		}
	}
	return d.perr("rename", new, unix.Renameat(d.fd, old, d.fd, new))
}

func (d *nativeDir) Link(old, new string) error {
	return d.perr("link", new, unix.Linkat(d.fd, old, d.fd, new, 0))
}

func (d *nativeDir) Symlink(target, name string) error {
	return d.perr("symlink", name, unix.Symlinkat(target, d.fd, name))
}

func (d *nativeDir) Readlink(name string) (string, error) {
	buf := make([]byte, unix.PathMax) // no link's target is longer
	n, err := unix.Readlinkat(d.fd, name, buf)
	if err != nil {
		return "", d.perr("readlink", name, err)
	}
	return string(buf[:n]), nil
}

func (d *nativeDir) Names(n int) ([]string, error) {
	var names []string
	buf := make([]byte, 8192)
	for len(names) < n {
		m, err := unix.Getdents(d.fd, buf)
		if err != nil {
			return names, d.perr("getdents", ".", err)
		}
		if m <= 0 {
			break
		}
		_, _, names = unix.ParseDirent(buf[:m], n-len(names), names)
	}
	return names, nil
}

func (d *nativeDir) Sync() error {
	return d.perr("fsync", ".", unix.Fsync(d.fd))
}

func (d *nativeDir) Lock() error {
	if err := unix.Flock(d.fd, unix.LOCK_EX|unix.LOCK_NB); err != nil {
		if err == unix.EWOULDBLOCK {
			return fmt.Errorf("%s: %w", d.rel, ErrLocked)
		}
		return d.perr("flock", ".", err)
	}
	return nil
}

func (d *nativeDir) Close() error { return unix.Close(d.fd) }
