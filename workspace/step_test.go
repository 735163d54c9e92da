package workspace

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plangram/plangram/grammar"
)

// TestStep pins Checker.Step: each action's own changes, in order, with
// the state it leaves each file in (New) and what the disk held (Old):
// two edits of one file are two steps; a failed edit, a read and a
// command are none; a move is the source gone and the destination made;
// a file created and deleted again is a step each time (Changes lists
// neither); an apply-patch update with a move is the edit and the move.
// Fed the same actions, Step and Action leave the same diagnostics and
// net changes.
func TestStep(t *testing.T) {
	root := t.TempDir()
	for name, body := range map[string]string{"a.txt": "one\ntwo\n", "b.txt": "b\n", "c.txt": "c\n"} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	src := "~~~act\npatch_file a.txt one ONE\n~~~\n" +
		"~~~act\npatch_file a.txt two TWO\n~~~\n" +
		"~~~act\npatch_file a.txt three x\n~~~\n" + // not in the file
		"~~~act\nread_file a.txt\n~~~\n" +
		"~~~act\nrun_command ls\n~~~\n" +
		"~~~act\nmove_file b.txt d.txt\n~~~\n" +
		"~~~act\nwrite_file e.txt\n~~~\n~~~\ne\n~~~\n" +
		"~~~act\ndelete_file e.txt\n~~~\n" +
		"~~~act\nappend_file c.txt\n~~~\n~~~\nmore\n~~~\n"
	want := []string{
		"a.txt: existed old=\"one\\ntwo\\n\" → new=\"ONE\\ntwo\\n\"",
		"a.txt: existed old=\"one\\ntwo\\n\" → new=\"ONE\\nTWO\\n\"",
		"",
		"",
		"",
		"b.txt: existed old=\"b\\n\" → gone; d.txt: absent → new=\"b\\n\" moved from b.txt",
		"e.txt: absent → new=\"e\\n\"",
		"e.txt: absent → gone",
		"c.txt: existed old=\"c\\n\" → new=\"c\\nmore\\n\"",
	}
	ctx := context.Background()
	for _, source := range []bool{false, true} {
		t.Run(fmt.Sprintf("source=%v", source), func(t *testing.T) {
			var o Options
			if source {
				o.Source = []byte(src)
			}
			k := NewChecker(root, grammar.DialectActs, o)
			var got []string
			doc, err := grammar.Parse(ctx, "plan.md", []byte(src), grammar.Options{Dialect: grammar.DialectActs})
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range doc.Actions {
				got = append(got, describeSteps(k.Step(ctx, a)))
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("steps:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}

	// An apply-patch update that moves the file: the edit and the move.
	patch := "*** Begin Patch\n*** Update File: a.txt\n*** Move to: f.txt\n@@\n-one\n+uno\n two\n*** End Patch\n"
	k := NewChecker(root, grammar.DialectApplyPatch, Options{})
	var got []string
	pdoc, err := grammar.Parse(ctx, "p.patch", []byte(patch), grammar.Options{Dialect: grammar.DialectApplyPatch})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range pdoc.Actions {
		got = append(got, describeSteps(k.Step(ctx, a)))
	}
	if w := "a.txt: existed old=\"one\\ntwo\\n\" → gone; f.txt: absent → new=\"uno\\ntwo\\n\" moved from a.txt"; strings.Join(got, "\n") != w {
		t.Errorf("apply-patch move: %q, want %q", got, w)
	}
}

// describeSteps writes the changes of one step as TestStep compares them.
func describeSteps(chs []Change) string {
	var parts []string
	for _, ch := range chs {
		s := ch.Path + ": absent"
		if ch.Existed {
			s = fmt.Sprintf("%s: existed old=%q", ch.Path, ch.Old)
		}
		if ch.Exists {
			s += fmt.Sprintf(" → new=%q", ch.New)
		} else {
			s += " → gone"
		}
		if ch.MovedFrom != "" {
			s += " moved from " + ch.MovedFrom
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}
