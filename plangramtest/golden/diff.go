package golden

import (
	"bytes"
	"slices"
	"strconv"
	"strings"

	"github.com/plangram/plangram/internal/linediff"
)

// Change is one difference Diff found.
type Change struct {
	// Kind is added or removed (an entry, or with Param one of its
	// parameters), moved (an entry to another place among the others) or
	// changed (a parameter).
	Kind string `json:"kind"`
	// Entry is the entry's title (`action write_file src/a.go`), "source"
	// (the line that says what was read), or a diagnostic without its
	// position (`diagnostic error code message`; its param "at" is the
	// position).
	Entry string `json:"entry"`
	Param string `json:"param,omitempty"`
	// Old and New are the values before and after: a parameter's value,
	// an added or removed entry's parameters as a golden writes them, or a
	// moved entry's place (#N, from 1).
	Old string `json:"old,omitempty"`
	New string `json:"new,omitempty"`
}

// Diff returns the changes that turn old into new. Entries are matched in
// order by their title line (kind, name and path, or a diagnostic's code
// and message; a minimal line diff of the titles, and an entry left over
// on both sides with the same title has moved), then their parameters by
// name.
func Diff(old, new *Golden) []Change {
	out := []Change{} // JSON: [] when equal
	for _, o := range match(old.entries, new.entries, func(e entry) string { return e.title }) {
		switch {
		case o.j < 0:
			out = append(out, Change{Kind: "removed", Entry: old.entries[o.i].title, Old: old.entries[o.i].paramLines()})
			continue
		case o.i < 0:
			out = append(out, Change{Kind: "added", Entry: new.entries[o.j].title, New: new.entries[o.j].paramLines()})
			continue
		}
		a, b := old.entries[o.i], new.entries[o.j]
		if o.moved { // entries[0] is the source: #1 is the first entry after it
			out = append(out, Change{Kind: "moved", Entry: a.title, Old: "#" + strconv.Itoa(o.i), New: "#" + strconv.Itoa(o.j)})
		}
		for _, q := range match(a.params, b.params, func(p param) string { return p.name }) {
			switch {
			case q.j < 0:
				out = append(out, Change{Kind: "removed", Entry: a.title, Param: a.params[q.i].name, Old: a.params[q.i].value})
			case q.i < 0:
				out = append(out, Change{Kind: "added", Entry: a.title, Param: b.params[q.j].name, New: b.params[q.j].value})
			case a.params[q.i].value != b.params[q.j].value:
				out = append(out, Change{Kind: "changed", Entry: a.title, Param: a.params[q.i].name, Old: a.params[q.i].value, New: b.params[q.j].value})
			}
		}
	}
	return out
}

// paramLines returns an entry's parameters as a golden writes them.
func (e entry) paramLines() string {
	var b strings.Builder
	for _, p := range e.params {
		writeParam(&b, p.name, p.value)
	}
	return b.String()
}

// op pairs a[i] and b[j]; i < 0 is an item only in b, j < 0 one only in a.
type op struct {
	i, j  int
	moved bool
}

// match pairs the items of as and bs of equal keys, in order: those of a
// minimal line diff of the keys, then each one left over in as with the
// first of the same key left over in bs, which has moved.
func match[T any](as, bs []T, key func(T) string) []op {
	var a, b []string
	for _, x := range as {
		a = append(a, key(x))
	}
	for _, x := range bs {
		b = append(b, key(x))
	}
	var ops []op
	i, j := 0, 0
	for _, m := range linediff.Diff(a, b) {
		for ; i < m.A; i++ {
			ops = append(ops, op{i, -1, false})
		}
		for ; j < m.B; j++ {
			ops = append(ops, op{-1, j, false})
		}
		for ; i < m.A+m.Size; i, j = i+1, j+1 {
			ops = append(ops, op{i, j, false})
		}
	}
	for x := range ops {
		if ops[x].j >= 0 {
			continue
		}
		// i == -2 marks an item of bs paired here, dropped below.
		if y := slices.IndexFunc(ops, func(o op) bool { return o.i == -1 && b[o.j] == a[ops[x].i] }); y >= 0 {
			ops[x].j, ops[x].moved, ops[y].i = ops[y].j, true, -2
		}
	}
	return slices.DeleteFunc(ops, func(o op) bool { return o.i == -2 })
}

// Text renders changes for a reader, one line each marked + (added), -
// (removed), ~ (changed) or > (moved), followed by the parameters of an
// added or removed entry, or a short line diff of a changed value of
// several lines.
func Text(changes []Change) string {
	var b strings.Builder
	for _, c := range changes {
		mark := map[string]string{"added": "+", "removed": "-", "changed": "~", "moved": ">"}[c.Kind]
		b.WriteString(mark + " " + c.Entry)
		switch {
		case c.Kind == "moved":
			b.WriteString(": " + c.Old + " → " + c.New + "\n")
		case c.Param == "" && c.Kind != "changed":
			b.WriteString("\n" + c.Old + c.New)
		case c.Kind != "changed":
			b.WriteString(": " + word(c.Param) + ": " + inline(c.Old+c.New) + "\n")
		case strings.Contains(c.Old+c.New, "\n"):
			b.WriteString(": " + word(c.Param) + "\n")
			var d bytes.Buffer
			linediff.Unified(&d, "old", "new", []byte(c.Old), []byte(c.New), 1)
			_, hunks, _ := strings.Cut(d.String(), "\n+++ new\n")
			b.WriteString("    " + strings.ReplaceAll(strings.TrimSuffix(hunks, "\n"), "\n", "\n    ") + "\n")
		default:
			if c.Param != "" {
				b.WriteString(": " + word(c.Param))
			}
			b.WriteString(": " + inline(c.Old) + " → " + inline(c.New) + "\n")
		}
	}
	return b.String()
}
