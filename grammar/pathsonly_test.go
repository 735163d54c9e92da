package grammar

import (
	"context"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/plangram/plangram/ast"
)

// editShapes returns edit-format documents whose actions have many hunks,
// blank lines between them, and the diagnostics computed at a file diff's
// end (an add_file with old lines, a delete_file that keeps lines).
func editShapes() map[string][]byte {
	var ud, ap strings.Builder
	ud.WriteString("intro\n\n--- /dev/null\n+++ b/n.txt\n")
	for i := range 6 {
		if i == 3 {
			ud.WriteString("@@ -1,1 +1,2 @@\n a\n+b\n\n")
			continue
		}
		fmt.Fprintf(&ud, "@@ -0,0 +%d,1 @@\n+a%d\n", i+1, i)
	}
	ud.WriteString("--- a/d.txt\n+++ /dev/null\n")
	for i := range 6 {
		if i == 4 {
			ud.WriteString("@@ -1,2 +1,1 @@\n a\n-b\n")
			continue
		}
		fmt.Fprintf(&ud, "@@ -%d,1 +0,0 @@\n-a%d\n\n", i+1, i)
	}
	ud.WriteString("diff --git a/u.txt b/v.txt\nrename from u.txt\nrename to v.txt\n--- a/u.txt\n+++ b/v.txt\n")
	for i := range 40 {
		fmt.Fprintf(&ud, "@@ -%d,2 +%d,1 @@\n-a\n+b\n\n\n", i+1, i+1)
	}
	ud.WriteString("--- /dev/null\n+++ b/only.txt\n@@ -0,0 +1,2 @@\n+x\n+y\n\\ No newline at end of file\ntrailing prose\n")
	ap.WriteString("*** Begin Patch\n*** Add File: n.txt\n+a\n+b\n*** Update File: u.txt\n*** Move to: v.txt\n")
	for i := range 40 {
		fmt.Fprintf(&ap, "@@ line %d\n-a\n+b\n\n", i)
	}
	ap.WriteString("*** Update File: w.txt\n-x\n+y\n*** End of File\n*** Update File: e.txt\n*** Delete File: d.txt\n*** End Patch\n")
	return map[string][]byte{"udiff shapes": []byte(ud.String()), "apply-patch shapes": []byte(ap.String())}
}

// TestPathsOnly pins Options.PathsOnly: over the corpus and the shapes
// above, read in each edit-format dialect, the document (its diagnostics
// above all) is the one without it, and each action handed over is the
// same but for the hunks, which it does not keep: no hunks parameter, and
// no block of a hunk (an action with hunks keeps no blocks at all). The
// hunks handed to OnHunk, in order of their index (a udiff add_file that
// turns out an edit hands its first ones over again, from 0), are the
// hunks and blocks the action has without PathsOnly: no block is lost.
func TestPathsOnly(t *testing.T) {
	inputs := actsInputs(t)
	for name, src := range editShapes() {
		inputs[name] = src
	}
	for name, src := range inputs {
		for _, dialect := range []string{DialectUdiff, DialectApplyPatch, DialectSearchReplace} {
			checkPathsOnly(t, name, src, dialect)
		}
	}
}

// checkPathsOnly checks Options.PathsOnly on src read in dialect
// (TestPathsOnly, FuzzEditFormats).
func checkPathsOnly(t *testing.T, name string, src []byte, dialect string) {
	t.Helper()
	ctx := context.Background()
	opts := Options{Dialect: dialect}
	var full, lean []*ast.Action
	opts.OnAction = func(a *ast.Action) { full = append(full, a) }
	fullDoc, err := Parse(ctx, name, src, opts)
	if err != nil {
		t.Fatal(err)
	}
	opts.OnAction = func(a *ast.Action) { lean = append(lean, a) }
	opts.PathsOnly = true
	type handed struct {
		hunks  []any
		blocks []*ast.Block
	}
	got := map[*ast.Action]*handed{}
	opts.OnHunk = func(a *ast.Action, i int, h Hunk, blk *ast.Block) {
		if got[a] == nil || i == 0 {
			got[a] = &handed{} // a udiff add_file that turned out an edit: its hunks again
		}
		if i != len(got[a].hunks) {
			t.Errorf("%s (%s): hunk %d of a %s handed over after %d", name, dialect, i, a.Name, len(got[a].hunks))
		}
		got[a].hunks = append(got[a].hunks, h)
		got[a].blocks = append(got[a].blocks, blk)
	}
	leanDoc, err := Parse(ctx, name, src, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(leanDoc, fullDoc) {
		a, _ := ast.JSON(leanDoc)
		b, _ := ast.JSON(fullDoc)
		t.Fatalf("%s (%s): documents differ:\n got %s\nwant %s", name, dialect, a, b)
	}
	if len(lean) != len(full) {
		t.Fatalf("%s (%s): %d actions, want %d", name, dialect, len(lean), len(full))
	}
	for i, a := range lean {
		want := *full[i]
		wantHunks, hunks := want.Params.Get("hunks")
		h := got[a]
		if hunks && len(wantHunks.([]any)) > 0 && (h == nil || !reflect.DeepEqual(h.hunks, wantHunks)) {
			t.Fatalf("%s (%s): action %d: the hunks handed over differ:\n got %+v\nwant %+v", name, dialect, i, h, wantHunks)
		}
		if h != nil && !reflect.DeepEqual(h.blocks, want.Blocks) {
			t.Fatalf("%s (%s): action %d (%s): the hunks' blocks handed over differ from its blocks:\n got %+v\nwant %+v", name, dialect, i, a.Name, h.blocks, want.Blocks)
		}
		if h == nil && len(a.Blocks) == 0 && len(want.Blocks) > 0 {
			t.Fatalf("%s (%s): action %d (%s): %d blocks neither kept nor handed over", name, dialect, i, a.Name, len(want.Blocks))
		}
		var params ast.Params
		for _, p := range want.Params {
			if p.Name != "hunks" {
				params = append(params, p)
			}
		}
		want.Params = params
		if _, ok := a.Params.Get("hunks"); ok {
			t.Errorf("%s (%s): action %d keeps its hunks", name, dialect, i)
		}
		if hunks && len(a.Blocks) > 0 {
			t.Errorf("%s (%s): action %d (%s) keeps %d blocks of its hunks", name, dialect, i, a.Name, len(a.Blocks))
		}
		if len(a.Blocks) == 0 {
			want.Blocks = a.Blocks
		}
		if !reflect.DeepEqual(a, &want) {
			t.Fatalf("%s (%s): action %d differs:\n got %+v\nwant %+v", name, dialect, i, a, &want)
		}
	}
}

// TestPathsOnlyHoldsNoHunks pins what PathsOnly is for: when the action
// of one file's diff in 20k one-line hunks is handed over, the heap holds
// less than the input more than before the parse (the hunks kept are some
// 20 times the input), in both dialects that have hunks.
func TestPathsOnlyHoldsNoHunks(t *testing.T) {
	if testing.Short() {
		t.Skip("parses 500 KB documents")
	}
	const k = 20_000
	var ud, ap strings.Builder
	ud.WriteString("--- a/f.txt\n+++ b/f.txt\n")
	ap.WriteString("*** Begin Patch\n*** Update File: f.txt\n")
	for i := range k {
		fmt.Fprintf(&ud, "@@ -%d,1 +%d,1 @@\n-a\n+b\n", i+1, i+1)
		ap.WriteString("@@\n-a\n+b\n")
	}
	ap.WriteString("*** End Patch\n")
	for _, c := range []struct {
		dialect string
		src     []byte
	}{{DialectUdiff, []byte(ud.String())}, {DialectApplyPatch, []byte(ap.String())}} {
		held := func(pathsOnly bool) int64 {
			var before, at runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			n := 0
			opts := Options{Dialect: c.dialect, PathsOnly: pathsOnly, OnAction: func(a *ast.Action) {
				n++
				runtime.GC()
				runtime.ReadMemStats(&at)
				runtime.KeepAlive(a) // what a consumer holds while it reads the action
			}}
			if _, err := Parse(context.Background(), "big", c.src, opts); err != nil || n != 1 {
				t.Fatalf("%s: %d actions, %v", c.dialect, n, err)
			}
			return int64(at.HeapAlloc) - int64(before.HeapAlloc)
		}
		lean, full := held(true), held(false)
		t.Logf("%s: %d bytes of input; the heap holds %d bytes more at the action's hand-over with PathsOnly, %d without", c.dialect, len(c.src), lean, full)
		if lean > int64(len(c.src)) {
			t.Errorf("%s: with PathsOnly the heap holds %d bytes more at the hand-over, want less than the input, %d", c.dialect, lean, len(c.src))
		}
		if full < 5*int64(len(c.src)) {
			t.Errorf("%s: without PathsOnly the heap holds only %d bytes more: the test no longer measures the hunks kept", c.dialect, full)
		}
	}
}
