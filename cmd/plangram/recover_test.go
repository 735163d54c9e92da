package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sebdah/goldie/v2"
)

// interrupted leaves in root what an apply killed between two of its
// steps leaves (docs/apply.md, "Crashes and recovery"): its journal, a.txt
// already replaced (the old content kept under the backup name), b.txt
// renamed to its backup name (a deletion), and the staged content of a
// new file not yet renamed. done marks the journal done, as when every
// change had reached the disk; shipped makes it a journal written
// elsewhere.
func interrupted(t *testing.T, root string, done, shipped bool) {
	t.Helper()
	const tmpA, bakA, bakB, tmpC = ".plangram-00000000000000a1.new", ".plangram-00000000000000a1.old", ".plangram-00000000000000b1.old", ".plangram-00000000000000c1.new"
	os.MkdirAll(filepath.Join(root, ".plangram"), 0o755)
	writeTemp(t, root, "a.txt", "new a\n", 0o644)
	writeTemp(t, root, bakA, "old a\n", 0o644)
	writeTemp(t, root, bakB, "old b\n", 0o644)
	writeTemp(t, root, tmpC, "new c\n", 0o644)
	// The journal names the directory it was written in; one that
	// names another (shipped with a repository) is not trusted.
	where := "0:0"
	if fi, err := os.Lstat(filepath.Join(root, ".plangram")); err == nil && !shipped {
		st := fi.Sys().(*syscall.Stat_t)
		where = fmt.Sprintf("%d:%d", st.Dev, st.Ino)
	}
	journal := fmt.Sprintf("plangram apply journal 1 "+where+"\nedit \"\" \"a.txt\" %q %q\ndelete \"\" \"b.txt\" %q \"\"\ncreate \"\" \"c.txt\" %q %q\nend\n",
		tmpA, bakA, bakB, tmpC, strings.Repeat("0", 64))
	name := "journal"
	if done {
		name = "journal.done"
		os.Remove(filepath.Join(root, tmpC))
	}
	writeTemp(t, filepath.Join(root, ".plangram"), name, journal, 0o644)
}

// listing is the names under root and their content.
func listing(t *testing.T, root string) string {
	t.Helper()
	var b strings.Builder
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == root {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			fmt.Fprintf(&b, "%s/\n", rel)
			return nil
		}
		data, _ := os.ReadFile(p)
		fmt.Fprintf(&b, "%s: %q\n", rel, data)
		return nil
	})
	return b.String()
}

// TestRecoverCommand: `plangram recover`, `check --root` and `apply
// --root` find an interrupted apply, roll it back (or forward when its
// journal is marked done), remove its temporary files and backups and
// journal, and say so on standard error. A journal that was not written
// in the directory it is found in (a repository could ship one) is not
// acted on.
func TestRecoverCommand(t *testing.T) {
	dir := t.TempDir()
	plan := writeTemp(t, dir, "plan.md", "~~~act\nappend_file a.txt\n~~~\n~~~\nmore\n~~~\n", 0o644)
	var out strings.Builder
	for _, c := range []struct {
		name string
		done bool
		args []string
	}{
		{"nothing", false, nil},
		{"rolled back", false, nil},
		{"rolled forward", true, nil},
		{"check --root", false, []string{"check", "--root", "ROOT", plan}},
		{"apply --root", false, []string{"apply", "--root", "ROOT", plan}},
		{"shipped", false, nil},
	} {
		root := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_"))
		os.MkdirAll(root, 0o755)
		writeTemp(t, root, "b.txt", "", 0o644)
		os.Remove(filepath.Join(root, "b.txt"))
		if c.name != "nothing" {
			interrupted(t, root, c.done, c.name == "shipped")
		} else {
			writeTemp(t, root, "a.txt", "old a\n", 0o644)
		}
		args := c.args
		if args == nil {
			args = []string{"recover", "--root", "ROOT"}
		}
		for i := range args {
			if args[i] == "ROOT" {
				args[i] = root
			}
		}
		code, stdout, stderr := runCLI(t, "", args...)
		fmt.Fprintf(&out, "# %s\n$ plangram %s\n%s%sexit %d\n%s\n", c.name, strings.Join(args, " "), stdout, stderr, code, listing(t, root))
	}
	goldie.New(t, goldie.WithFixtureDir("../../golden/cli"), goldie.WithNameSuffix(".golden")).
		Assert(t, "recover", []byte(strings.ReplaceAll(out.String(), dir, "DIR")))
	if code, _, stderr := runCLI(t, "", "recover", "--root", dir, plan); code != exitUsage {
		t.Errorf("recover with a PATH: exit %d %s", code, stderr)
	}
}

// TestApplySIGTERM: SIGTERM during the write of a large apply ends the
// process within a second, with exit 2 and the tree as it was: no file
// changed, no temporary file, backup or journal left.
func TestApplySIGTERM(t *testing.T) {
	bin := buildBinary(t)
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	var plan strings.Builder
	for i := 0; i < 3000; i++ {
		sub := filepath.Join(root, fmt.Sprintf("d%02d", i%50))
		os.MkdirAll(sub, 0o755)
		var content strings.Builder
		for l := 0; l < 200; l++ {
			fmt.Fprintf(&content, "line %d of %d\n", l, i)
		}
		writeTemp(t, sub, fmt.Sprintf("f%04d.txt", i), content.String(), 0o644)
		fmt.Fprintf(&plan, "~~~act\npatch_file d%02d/f%04d.txt\n~~~\n~~~\nline 7 of %d\n~~~\n~~~\nnew line\n~~~\n", i%50, i, i)
		fmt.Fprintf(&plan, "~~~act\nwrite_file new/d%02d/f%04d.txt\n~~~\n~~~\nnew\n~~~\n", i%50, i)
	}
	planFile := writeTemp(t, dir, "plan.md", plan.String(), 0o644)
	before := listing(t, root)
	cmd := exec.Command(bin, "apply", "--root", root, planFile)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	// The write has begun once the journal is there.
	journal := filepath.Join(root, ".plangram", "journal")
	deadline := time.Now().Add(60 * time.Second)
	for {
		if _, err := os.Lstat(journal); err == nil {
			break
		}
		select {
		case err := <-exited:
			t.Fatalf("the apply ended before its write began: %v\n%s", err, stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("no journal after 60 s")
		}
		time.Sleep(200 * time.Microsecond)
	}
	sent := time.Now()
	cmd.Process.Signal(syscall.SIGTERM)
	err := <-exited
	took := time.Since(sent)
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitUsage {
		t.Errorf("exit: %v (stderr %s)", err, stderr.String())
	}
	if took > time.Second {
		t.Errorf("SIGTERM took %v to end the apply", took)
	}
	if after := listing(t, root); after != before {
		t.Errorf("the tree changed (%d bytes of listing before, %d after)", len(before), len(after))
	}
	t.Logf("ended %v after SIGTERM: %s", took, strings.TrimSpace(stderr.String()))
}
