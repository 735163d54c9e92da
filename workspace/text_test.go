package workspace

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestIndex: index finds what strings.Index finds, for a FIND text longer
// than the prefix it looks for first too: at the start, at the end, absent,
// and where the prefix occurs at every offset but the whole text only
// late (the comparisons then give way to strings.Index).
func TestIndex(t *testing.T) {
	long := strings.Repeat("\tx := 1\n", 8)
	cases := []struct{ s, find string }{
		{"abc", "c"},
		{"abc", "d"},
		{long, long},
		{"y" + long, long},
		{long[:len(long)-1], long},
		{strings.Repeat("a", 10000) + "b", strings.Repeat("a", 100) + "b"},
		{strings.Repeat("a", 10000), strings.Repeat("a", 100) + "b"},
		{strings.Repeat("\tx := 1\n", 1000) + "\ty := 2\n", long + "\ty := 2\n"},
	}
	for i, c := range cases {
		if got, want := index(c.s, c.find), strings.Index(c.s, c.find); got != want {
			t.Errorf("case %d: index = %d, strings.Index = %d", i, got, want)
		}
	}
}

// TestTextModel: a text edited in place order, with looks back before the
// last edit (which join its parts), says what a plain string edited the
// same way says.
func TestTextModel(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	for i := 0; i < 200; i++ {
		b.WriteString([]string{"a\n", "b\n", "a\nb\n", "c", "\n"}[r.IntN(5)])
	}
	model := b.String()
	orig := strings.Clone(model)
	buf := newText(model, &budget{floor: 1 << 40})
	at := 0
	for step := 0; step < 500; step++ {
		switch r.IntN(6) {
		case 0, 1: // an edit at or after the last one, or anywhere
			from := at
			if r.IntN(4) == 0 {
				from = 0
			}
			if from > len(model) {
				from = len(model)
			}
			p := from + r.IntN(len(model)-from+1)
			end := min(len(model), p+r.IntN(4))
			repl := []string{"", "x\n", "yy", "\nz\n"}[r.IntN(4)]
			buf.Replace(p, end, repl)
			model = model[:p] + repl + model[end:]
			at = p + len(repl)
			// the next hunk is looked for from the end of this one
			find := []string{"a\n", "b\n", "c", "x\n"}[r.IntN(4)]
			gotAt, gotN := buf.Match(find, at)
			wantAt, wantN := newText(model, &budget{floor: 1 << 40}).Match(find, at)
			if gotAt != wantAt || gotN != wantN {
				t.Fatalf("step %d: Match(%q, %d) after an edit = %d, %d, want %d, %d", step, find, at, gotAt, gotN, wantAt, wantN)
			}
		case 2:
			find := []string{"a\n", "b\n", "a\nb\n", "x\n"}[r.IntN(4)]
			from := r.IntN(len(model) + 1)
			gotAt, gotN := buf.Match(find, from)
			wantAt, wantN := newText(model, &budget{floor: 1 << 40}).Match(find, from)
			if gotAt != wantAt || gotN != wantN {
				t.Fatalf("step %d: Match(%q, %d) = %d, %d, want %d, %d", step, find, from, gotAt, gotN, wantAt, wantN)
			}
		case 3:
			off := r.IntN(len(model) + 1)
			if got, want := buf.Line(off), lineOfOffset(model, off); got != want {
				t.Fatalf("step %d: Line(%d) = %d, want %d", step, off, got, want)
			}
		case 4:
			line := 1 + r.IntN(strings.Count(model, "\n")+2)
			if got, want := buf.LineStart(line), newText(model, &budget{floor: 1 << 40}).LineStart(line); got != want {
				t.Fatalf("step %d: LineStart(%d) = %d, want %d", step, line, got, want)
			}
		case 5:
			from := r.IntN(len(model) + 1)
			to := from + r.IntN(len(model)-from+1)
			if got := buf.Slice(from, to); got != model[from:to] {
				t.Fatalf("step %d: Slice(%d, %d) = %q, want %q", step, from, to, got, model[from:to])
			}
		}
		if buf.Len() != len(model) || !buf.HasSuffix(model[max(0, len(model)-3):]) {
			t.Fatalf("step %d: length %d, want %d, or the end differs", step, buf.Len(), len(model))
		}
	}
	if buf.String() != model {
		t.Fatal("the content differs from the string edited the same way")
	}
	if b.String() != orig {
		t.Fatal("editing the text changed the string it was made from")
	}
}

// TestTextGrowOnce: edits that lengthen the content by no more than grow,
// then the content asked for, copy it once: one allocation more than no
// edit.
func TestTextGrowOnce(t *testing.T) {
	s, longer := strings.Repeat("line\n", 1000), strings.Repeat("longer line\n", 50)
	edit := func(edits int) float64 {
		return testing.AllocsPerRun(10, func() {
			buf := newText(s, &budget{floor: 1 << 40})
			buf.grow = 3000
			for i := 0; i < edits; i++ {
				at := buf.Len() - 1000*(5-i) // in the part not edited yet
				buf.Replace(at, at+5, longer)
			}
			if buf.String() == s && edits > 0 {
				t.Fatal("not edited")
			}
		})
	}
	if none, five := edit(0), edit(5); five != none+1 {
		t.Errorf("%v allocations for 5 edits, %v for none", five, none)
	}
}
