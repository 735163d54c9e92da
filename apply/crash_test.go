package apply

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/plangram/plangram/ast"
)

var long = flag.Bool("long", false, "TestCrashAtEveryStep at every crash point, not every third")

// fastDir is a new directory on a memory file system where there is one
// (/dev/shm), so that the hundreds of applies of the crash tests do not
// wait on a disk's flushes; else t.TempDir().
func fastDir(t testing.TB) string {
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		if d, err := os.MkdirTemp("/dev/shm", "plangram-crash-"); err == nil {
			t.Cleanup(func() { os.RemoveAll(d) })
			return d
		}
	}
	return t.TempDir()
}

// crashTree fills root with the files of crashPlan: 40 to edit (a pair
// of them hard links of each other), 20 to delete, 20 to move into a new
// directory; the plan also creates 20 files in new directories.
func crashTree(t testing.TB, root string) {
	m := map[string]string{}
	for i := 0; i < 40; i++ {
		m[fmt.Sprintf("src/e%02d.txt", i)] = fmt.Sprintf("line %d\nold\n", i)
	}
	for i := 0; i < 20; i++ {
		m[fmt.Sprintf("del/d%02d.txt", i)] = fmt.Sprintf("delete %d\n", i)
		m[fmt.Sprintf("mv/m%02d.txt", i)] = fmt.Sprintf("move %d\n", i)
	}
	files(t, root, m)
	os.Remove(filepath.Join(root, "src/e39.txt"))
	if err := os.Link(filepath.Join(root, "src/e38.txt"), filepath.Join(root, "src/e39.txt")); err != nil {
		t.Fatal(err)
	}
}

// crashPlan edits, deletes, moves and creates the files of crashTree.
func crashPlan() string {
	var b strings.Builder
	for i := 0; i < 40; i++ {
		old := "old"
		if i == 39 {
			old = "line 38" // a hard link of e38.txt
		}
		fmt.Fprintf(&b, "~~~act\npatch_file src/e%02d.txt\n~~~\n~~~\n%s\n~~~\n~~~\nnew %d\n~~~\n", i, old, i)
	}
	for i := 0; i < 20; i++ {
		fmt.Fprintf(&b, "~~~act\ndelete_file del/d%02d.txt\n~~~\n", i)
		fmt.Fprintf(&b, "~~~act\nmove_file mv/m%02d.txt moved/m%02d.txt\n~~~\n", i, i)
		fmt.Fprintf(&b, "~~~act\nwrite_file new/c%d/f%02d.txt\n~~~\n~~~\ncreated %d\n~~~\n", i%4, i, i)
	}
	return b.String()
}

// crashStates returns the snapshots of crashTree before and after
// crashPlan.
func crashStates(t *testing.T) (old, new string) {
	root := fastDir(t)
	crashTree(t, root)
	old = snapshot(t, root)
	if _, err := Apply(context.Background(), []*ast.Document{parse(t, crashPlan())}, root, Options{}); err != nil {
		t.Fatal(err)
	}
	return old, snapshot(t, root)
}

// TestCrashAtEveryStep stops an apply at every point between two of its
// steps (with -long; else every third point, every 29th with -short) as a kill would (nothing undone, the journal left), then
// recovers: the tree is the old one before the apply marked its journal
// done, the new one after, and no temporary file, backup or journal is
// left.
func TestCrashAtEveryStep(t *testing.T) {
	old, new := crashStates(t)
	doc := parse(t, crashPlan())
	points := 0
	root := fastDir(t)
	crashTree(t, root)
	if _, err := Apply(context.Background(), []*ast.Document{doc}, root, Options{hook: func(string, string) error { points++; return nil }}); err != nil {
		t.Fatal(err)
	}
	stride := 3
	switch {
	case *long:
		stride = 1
	case testing.Short():
		stride = 29
	}
	for k := 0; k < points; k += stride {
		root := fastDir(t)
		crashTree(t, root)
		calls, at := 0, ""
		hook := func(step, p string) error {
			calls++
			if calls == k+1 {
				at = step + " " + p
				return errSimulatedCrash
			}
			return nil
		}
		if _, err := Apply(context.Background(), []*ast.Document{doc}, root, Options{hook: hook}); !errors.Is(err, errSimulatedCrash) {
			t.Fatalf("point %d: %v", k, err)
		}
		rec, err := Recover(context.Background(), root)
		if err != nil || rec == nil {
			t.Fatalf("point %d (%s): recover %+v %v", k, at, rec, err)
		}
		want := old
		if strings.HasPrefix(at, "cleanup") {
			want = new
		}
		if got := snapshot(t, root); got != want {
			t.Fatalf("point %d (%s): after recovery (%+v):\n%s\nwant:\n%s", k, at, rec, got, want)
		}
	}
	t.Logf("%d crash points", points)
}

// TestKillChild is the apply that TestKill kills; it runs only as that
// test's child process.
func TestKillChild(t *testing.T) {
	root := os.Getenv("PLANGRAM_KILL_ROOT")
	if root == "" {
		t.Skip("the child process of TestKill")
	}
	doc := parse(t, crashPlan())
	// "ready" as the write begins (its journal is on disk), so that the
	// kills fall in the write rather than in the check.
	ready := false
	hook := func(string, string) error {
		if !ready {
			ready = true
			fmt.Println("ready")
		}
		return nil
	}
	if _, err := Apply(context.Background(), []*ast.Document{doc}, root, Options{hook: hook}); err != nil {
		t.Fatal(err)
	}
	fmt.Println("done")
}

// TestKill sends SIGKILL to an apply process at random points of its
// write (200 times; 40 with -short), then recovers: only the old
// tree or the new one is found, with no temporary file, backup or
// journal left.
func TestKill(t *testing.T) {
	old, new := crashStates(t)
	runs := 200
	if testing.Short() {
		runs = 40
	}
	// How long an apply's write takes, from the child's "ready" to its
	// "done".
	took := time.Hour
	for i := 0; i < 3; i++ {
		_, d := killRun(t, -1)
		took = min(took, d)
	}
	seen := map[string]int{}
	for i := 0; i < runs; i++ {
		delay := time.Duration(rand.Int64N(int64(took) + 1))
		root, _ := killRun(t, delay)
		rec, err := Recover(context.Background(), root)
		if err != nil {
			t.Fatalf("run %d (kill after %v): recover: %v", i, delay, err)
		}
		switch snapshot(t, root) {
		case old:
			seen["old"]++
		case new:
			seen["new"]++
		default:
			t.Fatalf("run %d (kill after %v, %+v): neither the old tree nor the new one:\n%s", i, delay, rec, snapshot(t, root))
		}
		if rec != nil {
			seen["recovered"]++
		}
	}
	t.Logf("%d kills within %v: %v", runs, took, seen)
}

// killRun starts an apply process on a new crash tree and kills it delay
// after its write began (a negative delay lets it finish). It returns the
// root and, when it was not killed, how long the write took.
func killRun(t *testing.T, delay time.Duration) (string, time.Duration) {
	root := fastDir(t)
	crashTree(t, root)
	cmd := exec.Command(os.Args[0], "-test.run=^TestKillChild$")
	cmd.Env = append(os.Environ(), "PLANGRAM_KILL_ROOT="+root)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewReader(out)
	line, _ := lines.ReadString('\n')
	if line != "ready\n" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("child said %q", line)
	}
	start := time.Now()
	var took time.Duration
	if delay >= 0 {
		time.Sleep(delay)
		cmd.Process.Signal(syscall.SIGKILL)
	} else {
		line, _ = lines.ReadString('\n')
		took = time.Since(start)
		if line != "done\n" {
			t.Errorf("child said %q", line)
		}
	}
	io.Copy(io.Discard, lines)
	err = cmd.Wait()
	if delay < 0 && err != nil {
		t.Fatalf("child: %v", err)
	}
	return root, took
}
