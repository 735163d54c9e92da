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
	// parameters), moved (an entry to another place among the others, or
	// a diagnostic to another position), changed (a parameter, or the
	// source), appeared or gone (a diagnostic).
	Kind string `json:"kind"`
	// Entry is the entry's title (`action write_file src/a.go`), "source",
	// or the diagnostic (`diagnostic 3:1 error code message`; without its
	// position when it moved).
	Entry string `json:"entry"`
	Param string `json:"param,omitempty"`
	// Old and New are the values before and after: a parameter's value,
	// an added or removed entry's parameters as a golden writes them, a
	// moved entry's place (#N, from 1) or a moved diagnostic's position.
	Old string `json:"old,omitempty"`
	New string `json:"new,omitempty"`
}

// Diff returns the changes that turn old into new. Entries are matched in
// order by their title line (kind, name and path; a minimal line diff of
// the titles, and an entry left over on both sides with the same title has
// moved), then their parameters by name; diagnostics by severity, code and
// message.
func Diff(old, new *Golden) []Change {
	out := []Change{} // JSON: [] when equal
	if old.source != new.source {
		out = append(out, Change{Kind: "changed", Entry: "source", Old: old.source, New: new.source})
	}
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
		if o.moved {
			out = append(out, Change{Kind: "moved", Entry: a.title, Old: "#" + strconv.Itoa(o.i+1), New: "#" + strconv.Itoa(o.j+1)})
		}
		for _, pa := range a.params {
			if k := slices.IndexFunc(b.params, func(pb param) bool { return pb.name == pa.name }); k < 0 {
				out = append(out, Change{Kind: "removed", Entry: a.title, Param: pa.name, Old: pa.value})
			} else if pa.value != b.params[k].value {
				out = append(out, Change{Kind: "changed", Entry: a.title, Param: pa.name, Old: pa.value, New: b.params[k].value})
			}
		}
		for _, pb := range b.params {
			if !slices.ContainsFunc(a.params, func(pa param) bool { return pa.name == pb.name }) {
				out = append(out, Change{Kind: "added", Entry: a.title, Param: pb.name, New: pb.value})
			}
		}
	}
	key := func(d string) string {
		_, k, _ := strings.Cut(d, " ") // without the position
		return k
	}
	for _, o := range match(old.diags, new.diags, key) {
		switch {
		case o.j < 0:
			out = append(out, Change{Kind: "gone", Entry: "diagnostic " + old.diags[o.i]})
		case o.i < 0:
			out = append(out, Change{Kind: "appeared", Entry: "diagnostic " + new.diags[o.j]})
		default:
			from, k, _ := strings.Cut(old.diags[o.i], " ")
			if to, _, _ := strings.Cut(new.diags[o.j], " "); from != to {
				out = append(out, Change{Kind: "moved", Entry: "diagnostic " + k, Old: from, New: to})
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

// Text renders changes for a reader, one line each marked + (added,
// appeared), - (removed, gone), ~ (changed) or > (moved), followed by the
// parameters of an added or removed entry, or a short line diff of a
// changed value of several lines.
func Text(changes []Change) string {
	var b strings.Builder
	for _, c := range changes {
		mark := map[string]string{"added": "+", "appeared": "+", "removed": "-", "gone": "-", "changed": "~", "moved": ">"}[c.Kind]
		b.WriteString(mark + " " + c.Entry)
		switch {
		case c.Kind == "moved":
			b.WriteString(": " + c.Old + " → " + c.New + "\n")
		case c.Param == "" && c.Entry != "source":
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
