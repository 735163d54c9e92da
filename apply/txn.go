package apply

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"os"
	"slices"
	"strings"

	"github.com/plangram/plangram/internal/rootfs"
	"github.com/plangram/plangram/internal/safewrite"
	"github.com/plangram/plangram/workspace"
)

// The kinds of journal steps (see journal.go for their rules).
const (
	opMkdir   = "mkdir"   // a missing directory created
	opEdit    = "edit"    // a file replaced by a new one; the old kept by a hard link
	opCreate  = "create"  // a new file
	opSymlink = "symlink" // a symbolic link moved here (made anew)
	opDelete  = "delete"  // a file or a link renamed to its backup name
)

// step is one change of an apply as its journal records it, and what the
// write needs to carry it out.
type step struct {
	op   string
	dir  string // slash path of the directory, "" for the root
	name string // the entry in dir
	tmp  string // the staged new entry in dir (edit, create, symlink)
	bak  string // the old entry kept in dir (edit, delete)
	sum  string // hex SHA-256 of a created file's content (create)
	link string // a symbolic link's target text (symlink, delete of a link)

	// Not journaled.
	path string       // dir/name, for messages
	data string       // the new content (edit, create)
	old  rootfs.Info  // the entry verified (edit, delete)
	like *rootfs.Info // whose owner and mode a created file gets
}

// dirChanges is the set of directories whose entries an apply changed,
// in order, to sync each once.
type dirChanges struct {
	seen  map[string]bool
	order []string
}

func (c *dirChanges) add(dir string) {
	if c.seen == nil {
		c.seen = map[string]bool{}
	}
	if !c.seen[dir] {
		c.seen[dir] = true
		c.order = append(c.order, dir)
	}
}

// txn is one apply's verify, write and undo steps, all through the root
// handle.
type txn struct {
	fs    rootfs.Root
	hook  func(step, path string) error
	steps []*step
	begun int // the write began steps[:begun] (in-process undo)
	dirs  dirChanges
}

// tempName returns a new name for a staged file (suffix "new") or a
// backup ("old"): the same length whatever the file's name, so that it
// fits every file system that holds the file.
func tempName(suffix string) string {
	var b [8]byte
	rand.Read(b[:]) // crypto/rand.Read never fails
	return ".plangram-" + hex.EncodeToString(b[:]) + "." + suffix
}

// isTempName says name is one tempName makes.
func isTempName(name string) bool {
	rest, ok := strings.CutPrefix(name, ".plangram-")
	if !ok || len(rest) != 20 || (rest[16:] != ".new" && rest[16:] != ".old") {
		return false
	}
	_, err := hex.DecodeString(rest[:16])
	return err == nil
}

// run calls the test hook, if any.
func (t *txn) run(stepName, path string) error {
	if t.hook == nil {
		return nil
	}
	if err := t.hook(stepName, path); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// verify checks that the workspace still is what the simulation read,
// through the root handle, and turns the changes into the steps of the
// write: created directories, then each change in path order.
func (t *txn) verify(ctx context.Context, changes []workspace.Change) error {
	planned := map[string]bool{}          // directories to create
	verified := map[string]*rootfs.Info{} // the regular files verified, by path
	movedFrom := map[*step]string{}       // a moved file's new copy: its source
	for _, ch := range changes {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := rootfs.ValidPath(ch.Path); err != nil || ch.Path == "" {
			return fmt.Errorf("%s: not a path inside the root; nothing was written", ch.Path)
		}
		dir, name := rootfs.Split(ch.Path)
		s := &step{dir: dir, name: name, path: ch.Path, link: ch.Link, data: ch.New}
		if ch.MovedFrom != "" && ch.Link == "" {
			movedFrom[s] = ch.MovedFrom
		}
		if ch.Link != "" && !ch.Exists {
			ch.Existed = true // a link removed: whatever the simulation calls it, it was there
		}
		if ch.Existed {
			old, err := t.verifyOld(ch, dir, name)
			if err != nil {
				return fmt.Errorf("%w; nothing was written", err)
			}
			s.old = old
			if ch.Link == "" {
				verified[ch.Path] = &s.old
			}
		}
		switch {
		case ch.Existed && !ch.Exists:
			s.op, s.bak = opDelete, tempName("old")
		case ch.Existed:
			if ch.Link != "" {
				return fmt.Errorf("%s: a symbolic link written over; nothing was written", ch.Path)
			}
			s.op, s.tmp, s.bak = opEdit, tempName("new"), tempName("old")
		case ch.Exists:
			s.op, s.tmp = opCreate, tempName("new")
			if ch.Link != "" {
				s.op = opSymlink
			} else {
				sum := sha256.Sum256([]byte(ch.New))
				s.sum = hex.EncodeToString(sum[:])
			}
			if err := t.verifyAbsent(ch.Path, dir, name); err != nil {
				return err
			}
			if err := t.planDirs(dir, planned); err != nil {
				return fmt.Errorf("%w; nothing was written", err)
			}
		default:
			continue
		}
		t.steps = append(t.steps, s)
	}
	// A moved file's new copy keeps the source's mode and, where the
	// process may, its owner.
	for s, from := range movedFrom {
		s.like = verified[from]
	}
	return nil
}

// verifyOld checks the entry a change replaces or removes and returns
// what it is: a regular file holding exactly ch.Old, writable by its
// owner, or the symbolic link ch.Link.
func (t *txn) verifyOld(ch workspace.Change, dir, name string) (rootfs.Info, error) {
	var got rootfs.Info
	err := rootfs.WithDir(t.fs, dir, func(d rootfs.Dir) error {
		if ch.Link != "" {
			fi, err := d.Lstat(name)
			if err != nil {
				return err
			}
			if fi.Mode&fs.ModeSymlink == 0 {
				return fmt.Errorf("%s: no longer a symbolic link", ch.Path)
			}
			target, err := d.Readlink(name)
			if err != nil {
				return err
			}
			if target != ch.Link {
				return fmt.Errorf("%s: the link changed after the check", ch.Path)
			}
			got = fi
			return nil
		}
		f, fi, err := d.Open(name, os.O_RDONLY)
		if err != nil {
			return err
		}
		if f == nil || !fi.Mode.IsRegular() {
			if f != nil {
				f.Close()
			}
			return fmt.Errorf("%s: not a regular file any more", ch.Path)
		}
		defer f.Close()
		var b bytes.Buffer
		if _, err := b.ReadFrom(f); err != nil {
			return fmt.Errorf("%s: %w", ch.Path, err)
		}
		if b.String() != ch.Old {
			return fmt.Errorf("%s: it changed after the check", ch.Path)
		}
		if ch.Exists && fi.Mode.Perm()&0o200 == 0 {
			return fmt.Errorf("%s: %w (mode %04o): make it writable to let plangram change it", ch.Path, safewrite.ErrReadOnly, fi.Mode.Perm())
		}
		got = fi
		return nil
	})
	return got, err
}

// verifyAbsent checks that nothing is at the path of a file to create.
func (t *txn) verifyAbsent(rel, dir, name string) error {
	err := rootfs.WithDir(t.fs, dir, func(d rootfs.Dir) error {
		there, err := exists(d, name)
		if there {
			return fmt.Errorf("%s: it appeared after the check; nothing was written", rel)
		}
		return err
	})
	if errors.Is(err, fs.ErrNotExist) {
		return nil // its directory is to be created
	}
	return err
}

// planDirs adds a step per missing directory of dir, parents first.
func (t *txn) planDirs(dir string, planned map[string]bool) error {
	if dir == "" {
		return nil
	}
	parent := ""
	for _, e := range strings.Split(dir, "/") {
		p := rootfs.Join(parent, e)
		if !planned[p] {
			missing := false
			err := rootfs.WithDir(t.fs, parent, func(d rootfs.Dir) error {
				fi, err := d.Lstat(e)
				switch {
				case errors.Is(err, fs.ErrNotExist):
					missing = true
				case err != nil:
					return err
				case fi.Mode&fs.ModeSymlink != 0:
					return fmt.Errorf("%s: %w", p, rootfs.ErrSymlink)
				case !fi.Mode.IsDir():
					return fmt.Errorf("%s: not a directory", p)
				}
				return nil
			})
			// Below a directory to create, the parent is not found.
			if missing || errors.Is(err, fs.ErrNotExist) && planned[parent] {
				planned[p] = true
				t.steps = append(t.steps, &step{op: opMkdir, dir: parent, name: e, path: p})
			} else if err != nil {
				return err
			}
		}
		parent = p
	}
	return nil
}

// write carries out the steps in passes, so that the cost of flushing to
// disk does not grow with the number of files: every directory is
// created and every new content staged under a temporary name next to
// its target, then all of them are flushed at once (syncfs, where the
// platform has it), then, step by step, each is put in place, and last
// each directory whose entries changed is synced once. A failure leaves
// what was done for the caller's undo.
func (t *txn) write(ctx context.Context) error {
	for i, s := range t.steps {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := t.run("stage", s.path); err != nil {
			return err
		}
		t.begun = i + 1
		if err := rootfs.WithDir(t.fs, s.dir, func(d rootfs.Dir) error { return t.stage(d, s) }); err != nil {
			return err
		}
	}
	if err := t.fs.SyncFS(); err != nil {
		return err
	}
	for _, s := range t.steps {
		if err := ctx.Err(); err != nil {
			return err
		}
		if s.op == opMkdir {
			continue
		}
		if err := t.run("write", s.path); err != nil {
			return err
		}
		if err := rootfs.WithDir(t.fs, s.dir, func(d rootfs.Dir) error { return t.commit(d, s) }); err != nil {
			return err
		}
	}
	for _, dir := range t.dirs.order {
		if err := ctx.Err(); err != nil {
			return err
		}
		err := rootfs.WithDir(t.fs, dir, func(d rootfs.Dir) error { return d.Sync() })
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// stage creates a directory, or writes a step's new content under its
// temporary name.
func (t *txn) stage(d rootfs.Dir, s *step) error {
	switch s.op {
	case opMkdir:
		if err := d.Mkdir(s.name, 0o755); err != nil {
			return err
		}
		t.dirs.add(s.dir)
		return nil
	case opSymlink:
		return d.Symlink(s.link, s.tmp)
	case opEdit, opCreate:
	default:
		return nil
	}
	like := s.like
	if s.op == opEdit {
		like = &s.old
	}
	f, err := d.Create(s.tmp, 0o644)
	if err != nil {
		return err
	}
	defer f.Close() // for an early return: after the Close below it does nothing
	if like != nil {
		// Owner first: chown clears the setuid and setgid bits. A
		// process that may not give the file away (not root) keeps it.
		if like.UID >= 0 {
			if err := f.Chown(like.UID, like.GID); err != nil && !errors.Is(err, fs.ErrPermission) {
				return fmt.Errorf("%s: keeping the owner: %w", s.path, err)
			}
		}
		if err := f.Chmod(like.Mode & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)); err != nil {
			return fmt.Errorf("%s: keeping the mode: %w", s.path, err)
		}
	}
	if _, err := f.WriteString(s.data); err != nil {
		return fmt.Errorf("%s: %w", s.path, err)
	}
	if !d.BatchSynced() {
		if err := f.Sync(); err != nil {
			return fmt.Errorf("%s: %w", s.path, err)
		}
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("%s: %w", s.path, err)
	}
	return nil
}

// commit puts a step in place. An edit keeps the old file under its
// backup name by a hard link (by a rename where the file system cannot
// link), checks that what it keeps is the file verified, and renames the
// new file over the name: the old inode, and every other name of it, is
// never written. A deletion renames the entry to its backup name and
// checks it the same way. A creation renames the staged file to a name
// that must still be free.
func (t *txn) commit(d rootfs.Dir, s *step) error {
	switch s.op {
	case opEdit:
		if err := d.Link(s.name, s.bak); err != nil {
			if !errors.Is(err, fs.ErrPermission) && !rootfs.IsNoLink(err) {
				return err
			}
			if err := d.Rename(s.name, s.bak, true); err != nil {
				return err
			}
		}
		if err := t.checkKept(d, s); err != nil {
			return err
		}
		if err := t.run("kept", s.path); err != nil {
			return err
		}
		if err := d.Rename(s.tmp, s.name, false); err != nil {
			return err
		}
	case opDelete:
		if err := d.Rename(s.name, s.bak, true); err != nil {
			return err
		}
		if err := t.checkKept(d, s); err != nil {
			return err
		}
	case opCreate, opSymlink:
		if err := d.Rename(s.tmp, s.name, true); err != nil {
			if errors.Is(err, fs.ErrExist) {
				return fmt.Errorf("%s: it appeared after the check", s.path)
			}
			return err
		}
	}
	t.dirs.add(s.dir)
	return nil
}

// checkKept checks that the entry now under the backup name is the one
// verified: a file or a link swapped in meanwhile is refused (and the
// undo puts it back).
func (t *txn) checkKept(d rootfs.Dir, s *step) error {
	got, err := d.Lstat(s.bak)
	if err != nil {
		return err
	}
	if s.link != "" {
		target, err := d.Readlink(s.bak)
		if err != nil || got.Mode&fs.ModeSymlink == 0 || target != s.link {
			return fmt.Errorf("%s: the link changed after the check", s.path)
		}
		return nil
	}
	if got.Mode&fs.ModeSymlink != 0 {
		return fmt.Errorf("%s: %w", s.path, rootfs.ErrSymlink)
	}
	if !got.Mode.IsRegular() || !got.Same(s.old) {
		return fmt.Errorf("%s: it changed after the check", s.path)
	}
	return nil
}

// undo reverses the steps begun, last first, through the root handle,
// and reports every step that could not be undone.
func (t *txn) undo() error {
	_, err := finishAll(t.fs, slices.Backward(t.steps[:t.begun]), func(r rootfs.Root, s *step) (int, error) {
		if err := t.run("undo", s.path); err != nil {
			return 0, err
		}
		return rollback(r, s)
	})
	return err
}

// finishAll runs finish (rollback or rollForward) on each step in turn,
// whatever fails, and returns the temporary files and backups it removed
// or put back and every error.
func finishAll(r rootfs.Root, steps iter.Seq2[int, *step], finish func(rootfs.Root, *step) (int, error)) (int, error) {
	n := 0
	var errs []error
	for _, s := range steps {
		k, err := finish(r, s)
		n += k
		if err != nil {
			errs = append(errs, err)
		}
	}
	return n, errors.Join(errs...)
}

// removeIfThere removes the entry name of d; a missing one is no error.
// It says whether something was removed.
func removeIfThere(d rootfs.Dir, name string) (bool, error) {
	return found(d.Remove(name))
}

// exists says d has an entry name.
func exists(d rootfs.Dir, name string) (bool, error) {
	_, err := d.Lstat(name)
	return found(err)
}

// found turns the error of a call on an entry into whether the entry was
// there: a missing entry is no error.
func found(err error) (bool, error) {
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}

// removeTemps removes those of names that d has ("" is none), counting
// them in n.
func removeTemps(d rootfs.Dir, n *int, names ...string) error {
	for _, name := range names {
		if name == "" {
			continue
		}
		removed, err := removeIfThere(d, name)
		if removed {
			*n++
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// rollback undoes one step, whatever point it reached, from what is on
// disk: the same for an undo in process and for a recovery after a
// crash. It returns how many temporary files and backups it removed or
// put back.
func rollback(r rootfs.Root, s *step) (int, error) {
	n := 0
	err := rootfs.WithDir(r, s.dir, func(d rootfs.Dir) error {
		switch s.op {
		case opMkdir:
			err := d.Rmdir(s.name)
			if err == nil || errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			// A directory that is not empty holds what someone else put
			// there since: it stays.
			if fi, lerr := d.Lstat(s.name); lerr == nil && fi.Mode.IsDir() {
				return nil
			}
			return err
		case opEdit, opDelete:
			there, err := exists(d, s.bak)
			if err != nil {
				return err
			}
			if there {
				// A deletion's name must be free again; an edit's holds
				// the new file (or, before its rename, the old one).
				if err := d.Rename(s.bak, s.name, s.op == opDelete); err != nil {
					return err
				}
				n++
				// Renaming a name over another name of the same file
				// does nothing: the backup is then still there.
				if _, err := removeIfThere(d, s.bak); err != nil {
					return err
				}
			}
		case opCreate, opSymlink:
			there, err := exists(d, s.tmp)
			if err != nil {
				return err
			}
			if !there {
				mine, err := isMine(d, s)
				if err != nil {
					return err
				}
				if mine {
					if _, err := removeIfThere(d, s.name); err != nil {
						return err
					}
				}
			}
		}
		return removeTemps(d, &n, s.tmp)
	})
	if errors.Is(err, fs.ErrNotExist) {
		return n, nil // the directory is gone: nothing of the step is there
	}
	return n, err
}

// isMine says the entry at a created step's name is the one the step put
// there: the link it makes, or a regular file with its content.
func isMine(d rootfs.Dir, s *step) (bool, error) {
	fi, err := d.Lstat(s.name)
	if there, err := found(err); !there {
		return false, err
	}
	if s.op == opSymlink {
		if fi.Mode&fs.ModeSymlink == 0 {
			return false, nil
		}
		target, err := d.Readlink(s.name)
		return err == nil && target == s.link, err
	}
	if !fi.Mode.IsRegular() {
		return false, nil
	}
	f, _, err := d.Open(s.name, os.O_RDONLY)
	if err != nil || f == nil {
		return false, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return false, err
	}
	return hex.EncodeToString(h.Sum(nil)) == s.sum, nil
}

// rollForward removes what a step left once the apply is complete: the
// backup of an edit or a deletion, and a staged file still there.
func rollForward(r rootfs.Root, s *step) (int, error) {
	n := 0
	err := rootfs.WithDir(r, s.dir, func(d rootfs.Dir) error { return removeTemps(d, &n, s.bak, s.tmp) })
	if errors.Is(err, fs.ErrNotExist) {
		err = nil
	}
	if err == nil && s.op == opDelete {
		pruneEmptyDirs(r, s.dir)
	}
	return n, err
}

// pruneEmptyDirs removes dir and each directory above it that a deletion
// left empty, innermost first, as git apply does; it stops at the root, at
// plangram's metadata directory and at the first directory that is not
// empty (or cannot be removed, which leaves it as it is: no file is lost).
// A directory already gone (a recovery that runs it again) is passed.
func pruneEmptyDirs(r rootfs.Root, dir string) {
	for dir != "" && !isMetaPath(dir) {
		parent, name := rootfs.Split(dir)
		err := rootfs.WithDir(r, parent, func(d rootfs.Dir) error { return d.Rmdir(name) })
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return
		}
		dir = parent
	}
}
