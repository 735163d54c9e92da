package apply

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/plangram/plangram/internal/rootfs"
	"github.com/plangram/plangram/workspace"
)

// The root's metadata directory and the journal in it. The journal is
// written under journalTmp, synced, and renamed to journalName before
// the first change; renamed to journalDone once every change is on disk;
// removed once the backups are.
const (
	metaDir     = ".plangram"
	journalName = "journal"
	journalTmp  = "journal.tmp"
	journalDone = "journal.done"
	journalHead = "plangram apply journal 1"
)

// isMetaPath says the slash path rel is the metadata directory or below
// it (in any letter case, for the file systems that ignore it).
func isMetaPath(rel string) bool {
	first, _, _ := strings.Cut(rel, "/")
	return strings.EqualFold(first, metaDir)
}

// Recovery says what was found of an interrupted apply in a root and
// what was done about it.
type Recovery struct {
	// RolledForward says the interrupted apply had put every change on
	// disk: its backups were removed and the changes kept. Otherwise it
	// was rolled back: the files are as they were before it.
	RolledForward bool
	// Changes is the number of file changes (and directories created)
	// the journal listed.
	Changes int
	// Removed is the number of temporary files and backups removed or
	// put back.
	Removed int
}

// String says what the recovery did, for a message.
func (r *Recovery) String() string {
	if r.RolledForward {
		return fmt.Sprintf("an interrupted apply had written all of its %d changes: kept them and removed %d backups", r.Changes, r.Removed)
	}
	return fmt.Sprintf("an interrupted apply was rolled back: its %d changes undone, %d temporary files and backups removed or put back", r.Changes, r.Removed)
}

// encodeJournal writes the steps, one a line, each field quoted (a name
// may hold any byte but "/" and NUL), after a head line naming the
// metadata directory it was written in (its device and inode: see
// decodeJournal).
func encodeJournal(steps []*step, where string) []byte {
	var b bytes.Buffer
	b.WriteString(journalHead + " " + where + "\n")
	for _, s := range steps {
		b.WriteString(s.op)
		for _, f := range s.fields() {
			b.WriteByte(' ')
			b.WriteString(strconv.Quote(*f))
		}
		b.WriteByte('\n')
	}
	b.WriteString("end\n")
	return b.Bytes()
}

// fields are the step's journaled fields, by its op.
func (s *step) fields() []*string {
	f := []*string{&s.dir, &s.name}
	switch s.op {
	case opEdit:
		f = append(f, &s.tmp, &s.bak)
	case opCreate:
		f = append(f, &s.tmp, &s.sum)
	case opSymlink:
		f = append(f, &s.tmp, &s.link)
	case opDelete:
		f = append(f, &s.bak, &s.link)
	}
	return f
}

// decodeJournal reads what encodeJournal wrote, and checks every field:
// the journal may come from anywhere (a repository could ship one), so
// it must have been written in the very directory it is read from (where,
// the directory's device and inode, which a journal checked out or
// copied there cannot know), its names must be the temporary and backup
// names apply makes and its paths clean paths inside the root.
func decodeJournal(data []byte, where string) ([]*step, error) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	if !sc.Scan() || !strings.HasPrefix(sc.Text(), journalHead+" ") {
		return nil, errors.New("not a plangram journal")
	}
	if strings.TrimPrefix(sc.Text(), journalHead+" ") != where {
		return nil, errors.New("the journal was not written in this directory (copied or checked out with it?): not trusted; remove " + metaDir + " to go on")
	}
	var steps []*step
	for sc.Scan() {
		line := sc.Text()
		if line == "end" {
			return steps, nil
		}
		op, rest, _ := strings.Cut(line, " ")
		var fields []string
		for rest != "" {
			q, err := strconv.QuotedPrefix(rest)
			if err != nil {
				return nil, fmt.Errorf("journal line %q: %w", line, err)
			}
			f, _ := strconv.Unquote(q)
			fields = append(fields, f)
			rest = strings.TrimPrefix(rest[len(q):], " ")
		}
		s := &step{op: op}
		want := s.fields()
		if op != opMkdir && len(want) == 2 || len(fields) != len(want) {
			return nil, fmt.Errorf("journal line %q: not a step", line)
		}
		for i, f := range want {
			*f = fields[i]
		}
		s.path = rootfs.Join(s.dir, s.name)
		if rootfs.ValidPath(s.dir) != nil || rootfs.ValidPath(s.name) != nil || s.name == "" || strings.Contains(s.name, "/") || isMetaPath(s.path) ||
			(s.tmp != "" && !isTempName(s.tmp)) || (s.bak != "" && !isTempName(s.bak)) || (op == opCreate && len(s.sum) != 64) {
			return nil, fmt.Errorf("journal line %q: not a step apply writes", line)
		}
		steps = append(steps, s)
	}
	return nil, errors.New("the journal is cut short")
}

// meta is an apply's hold on the root's metadata directory: open and
// locked, so that one apply at a time writes there or recovers.
type meta struct {
	fs  rootfs.Root
	dir rootfs.Dir
}

// lockMeta opens and locks the metadata directory, creating it when
// create is set; without create, a missing directory gives (nil, nil).
// The lock is the directory's own (flock), so that a killed apply's lock
// goes with it; the directory locked must still be the one at the name,
// or another process removed it meanwhile and it is locked anew.
func lockMeta(r rootfs.Root, create bool) (*meta, error) {
	for try := 0; try < 4; try++ {
		root, err := r.Dir("")
		if err != nil {
			return nil, err
		}
		m, again, err := lockMetaIn(r, root, create)
		root.Close()
		if err != nil || !again {
			return m, err
		}
	}
	return nil, fmt.Errorf("%s: %w", metaDir, rootfs.ErrLocked)
}

func lockMetaIn(r rootfs.Root, root rootfs.Dir, create bool) (m *meta, again bool, err error) {
	if create {
		// Synced with the journal's first write (writeJournal): an apply
		// refused before it writes has nothing to make durable.
		if err := root.Mkdir(metaDir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, false, err
		}
	}
	d, err := r.Dir(metaDir)
	if errors.Is(err, fs.ErrNotExist) && !create {
		return nil, false, nil
	}
	if err != nil {
		return nil, errors.Is(err, fs.ErrNotExist), err
	}
	if err := d.Lock(); err != nil {
		d.Close()
		return nil, false, err
	}
	at, err1 := root.Lstat(metaDir)
	self, err2 := d.Lstat(".")
	if err1 != nil || err2 != nil || at.Dev != self.Dev || at.Ino != self.Ino {
		d.Close()
		return nil, true, nil
	}
	return &meta{fs: r, dir: d}, false, nil
}

// release removes the metadata directory if it is empty, then unlocks
// it: removed while still locked, no other apply can be working in it.
func (m *meta) release() {
	if root, err := m.fs.Dir(""); err == nil {
		root.Rmdir(metaDir)
		root.Close()
	}
	m.dir.Close()
}

// where names the metadata directory: its device and inode.
func (m *meta) where() (string, error) {
	fi, err := m.dir.Lstat(".")
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%d:%d", fi.Dev, fi.Ino), nil
}

// writeJournal records the steps before the first change: written to a
// temporary name, synced, renamed to the journal's name, and the
// directory and the root synced, so that the journal is whole or absent,
// and found.
func (m *meta) writeJournal(steps []*step) error {
	if _, err := removeIfThere(m.dir, journalTmp); err != nil {
		return err
	}
	f, err := m.dir.Create(journalTmp, 0o644)
	if err != nil {
		return err
	}
	where, err := m.where()
	if err == nil {
		_, err = f.Write(encodeJournal(steps, where))
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = m.dir.Rename(journalTmp, journalName, false)
	}
	if err == nil {
		err = m.dir.Sync()
	}
	if err == nil {
		err = rootfs.WithDir(m.fs, "", func(root rootfs.Dir) error { return root.Sync() })
	}
	if err != nil {
		removeIfThere(m.dir, journalTmp)
		return fmt.Errorf("writing the journal: %w", err)
	}
	return nil
}

// markDone records that every change is on disk: from here a recovery
// rolls forward.
func (m *meta) markDone() error {
	if err := m.dir.Rename(journalName, journalDone, false); err != nil {
		return err
	}
	return m.dir.Sync()
}

// dropJournal removes the journal, done or not. It is not synced: a
// journal that a crash brings back finds nothing left to do.
func (m *meta) dropJournal() error {
	for _, n := range []string{journalName, journalDone, journalTmp} {
		if _, err := removeIfThere(m.dir, n); err != nil {
			return err
		}
	}
	return nil
}

// readJournal reads the journal file name of the metadata directory;
// a missing one gives (nil, nil).
func (m *meta) readJournal(name string) ([]*step, error) {
	f, _, err := m.dir.Open(name, os.O_RDONLY)
	if there, err := found(err); !there {
		return nil, err // nil when it is missing
	}
	if f == nil {
		return nil, fmt.Errorf("%s/%s: not a regular file", metaDir, name)
	}
	defer f.Close()
	var b bytes.Buffer
	if _, err := b.ReadFrom(f); err != nil {
		return nil, err
	}
	where, err := m.where()
	if err != nil {
		return nil, err
	}
	steps, err := decodeJournal(b.Bytes(), where)
	if err != nil {
		return nil, fmt.Errorf("%s/%s: %w", metaDir, name, err)
	}
	return steps, nil
}

// recover finishes an interrupted apply whose journal is in the locked
// metadata directory: rolled forward when it was marked done, else rolled
// back, last step first; then the journal is removed. It returns nil when
// there was no journal. A step that cannot be undone is reported and the
// journal kept, for a later try.
func (m *meta) recover(ctx context.Context) (*Recovery, error) {
	steps, err := m.readJournal(journalDone)
	if err != nil {
		return nil, err
	}
	rec := &Recovery{RolledForward: steps != nil, Changes: len(steps)}
	all, finish := slices.All(steps), rollForward
	if steps == nil {
		if steps, err = m.readJournal(journalName); err != nil {
			return nil, err
		}
		if steps == nil {
			// A journal cut short while being written: no change was made.
			if ok, _ := exists(m.dir, journalTmp); ok {
				return &Recovery{}, m.dropJournal()
			}
			return nil, nil
		}
		rec.Changes = len(steps)
		all, finish = slices.Backward(steps), rollback
	}
	rec.Removed, err = finishAll(m.fs, all, finish)
	if err == nil {
		err = m.dropJournal()
	}
	return rec, err
}

// Recover finds an apply that was interrupted in root (killed, or its
// machine stopped) by the journal it left in root/.plangram, and rolls it
// back to the files as they were before it, or forward when it had
// written every change; then it removes the temporary files, backups and
// journal. It returns nil and no error when there was nothing to recover,
// and an error wrapping the lock error when an apply is running there.
// Apply recovers first on its own; `plangram check --root` and `plangram
// recover` call Recover.
func Recover(ctx context.Context, root string) (*Recovery, error) {
	return recoverRoot(ctx, root, false)
}

func recoverRoot(ctx context.Context, root string, portable bool) (*Recovery, error) {
	absRoot, err := workspace.ResolveRoot(root)
	if err != nil {
		return nil, err
	}
	r, err := rootfs.Open(absRoot, portable)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	m, err := lockMeta(r, false)
	if err != nil || m == nil {
		return nil, err
	}
	defer m.release()
	return m.recover(ctx)
}
