package safewrite

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Batch writes several files, each one atomically as [WriteFile] does, but
// with one flush to disk for all of them instead of one per file: Write
// and Create stage each file's new content in a temporary file next to it
// (not synced), [Batch.Sync] flushes them all at once (one syncfs per file
// system where the platform has it), each [Staged.Commit] renames one into
// place, and [Batch.SyncDirs] syncs each directory whose entries changed,
// once. A crash before a file's Commit leaves that file as it was; after
// SyncDirs every committed file is on disk.
//
// The rules of WriteFile (links followed, owner, group and mode kept,
// read-only files refused, hard-linked and non-regular files written in
// place) apply; a file written in place is written, synced, at its Commit.
// A Batch is not safe for concurrent use. Abort removes the temporary files
// not committed.
type Batch struct {
	staged []*Staged
	dirs   map[string]bool
	order  []string
}

// Staged is one file write prepared by a Batch and carried out by Commit.
type Staged struct {
	b        *Batch
	path     string // the file written (links resolved)
	tmp      string // the temporary file; "" for a write in place
	data     []byte
	truncate bool // in place: cut off the old bytes past the new end
	create   bool // the path must not exist at Commit
	done     bool
}

// Write stages replacing the content of path with data, following the
// rules of WriteFile (a new file gets mode 0644 before the umask).
func (b *Batch) Write(path string, data []byte) (*Staged, error) {
	target, err := Resolve(path)
	if err != nil {
		return nil, err
	}
	fi, err := os.Stat(target)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return b.stage(target, data, 0o644, nil, false)
	case err != nil:
		return nil, err
	case fi.IsDir():
		return nil, fmt.Errorf("%s: is a directory", path)
	case !fi.Mode().IsRegular():
		return b.add(&Staged{path: target, data: data}), nil
	case fi.Mode().Perm()&0o200 == 0:
		return nil, fmt.Errorf("%s: %w (mode %04o): make it writable to let plangram change it", path, ErrReadOnly, fi.Mode().Perm())
	case links(fi) > 1:
		return b.add(&Staged{path: target, data: data, truncate: true}), nil
	}
	mode := fi.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
	s, err := b.stage(target, data, mode, fi, false)
	if errors.Is(err, errKeepInPlace) {
		return b.add(&Staged{path: target, data: data, truncate: true}), nil
	}
	return s, err
}

// Create stages creating the file path, which must not exist (now and at
// Commit), with data; like, when not nil, gives its mode and, where the
// process may, owner and group (as CreateLike), else the mode is 0644
// before the umask.
func (b *Batch) Create(path string, data []byte, like fs.FileInfo) (*Staged, error) {
	if _, err := os.Lstat(path); err == nil {
		return nil, fmt.Errorf("%s: %w", path, fs.ErrExist)
	}
	if like == nil {
		return b.stage(path, data, 0o644, nil, true)
	}
	mode := like.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
	s, err := b.stage(path, data, mode, like, true)
	if errors.Is(err, errKeepInPlace) {
		return b.stage(path, data, mode, nil, true)
	}
	return s, err
}

func (b *Batch) stage(path string, data []byte, mode fs.FileMode, old fs.FileInfo, create bool) (*Staged, error) {
	name, err := stage(path, payload{data: data}, mode, old, false)
	if err != nil {
		return nil, err
	}
	return b.add(&Staged{path: path, tmp: name, create: create}), nil
}

func (b *Batch) add(s *Staged) *Staged {
	s.b = b
	b.staged = append(b.staged, s)
	return s
}

// Sync flushes every staged temporary file to disk: one syncfs per file
// system on Linux, else one fsync per file.
func (b *Batch) Sync() error {
	devs := map[uint64]bool{}
	for _, s := range b.staged {
		if s.tmp == "" || s.done {
			continue
		}
		dir := filepath.Dir(s.tmp)
		if dev, ok := device(dir); ok {
			if devs[dev] {
				continue
			}
			devs[dev] = true
			if err := syncFS(dir); err == nil {
				continue
			} else if !errors.Is(err, errNoSyncfs) {
				return fmt.Errorf("%s: %w", dir, err)
			}
			devs[dev] = false // no syncfs: sync each file
		}
		if err := syncFile(s.tmp); err != nil {
			return err
		}
	}
	return nil
}

// syncFile fsyncs the file at p.
func syncFile(p string) error {
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Commit puts the staged content in place: the temporary file is renamed
// over the path (a Create fails when the path exists by now), or the file
// is written in place and synced. Call Sync first.
func (s *Staged) Commit() error {
	if s.done {
		return errors.New("safewrite: staged file committed twice")
	}
	s.done = true
	if s.tmp == "" {
		return writeInPlace(s.path, s.data, s.truncate)
	}
	if s.create {
		if _, err := os.Lstat(s.path); err == nil {
			os.Remove(s.tmp)
			return fmt.Errorf("%s: %w", s.path, fs.ErrExist)
		}
	}
	if err := os.Rename(s.tmp, s.path); err != nil {
		os.Remove(s.tmp)
		return err
	}
	s.b.Changed(filepath.Dir(s.path))
	return nil
}

// Changed notes that the entries of dir changed (a rename, a new file), so
// that SyncDirs syncs it.
func (b *Batch) Changed(dir string) {
	if b.dirs == nil {
		b.dirs = map[string]bool{}
	}
	if !b.dirs[dir] {
		b.dirs[dir] = true
		b.order = append(b.order, dir)
	}
}

// SyncDirs syncs each directory noted by Commit or Changed, once.
func (b *Batch) SyncDirs() error {
	for _, d := range b.order {
		if _, err := os.Stat(d); errors.Is(err, fs.ErrNotExist) {
			continue // removed since (an undone creation)
		}
		if err := syncFile(d); err != nil {
			return fmt.Errorf("%s: %w", d, err)
		}
	}
	b.dirs, b.order = nil, nil
	return nil
}

// Abort removes the temporary files of the staged writes not committed.
func (b *Batch) Abort() {
	for _, s := range b.staged {
		if !s.done && s.tmp != "" {
			os.Remove(s.tmp)
		}
		s.done = true
	}
	b.staged = nil
}

// errNoSyncfs says the platform cannot sync a whole file system.
var errNoSyncfs = errors.New("syncfs not available")
