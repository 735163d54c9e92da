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
// order by kind, name and key (a minimal line diff of their titles; an
// entry left over on both sides with the same title has moved), then their
// parameters by name; diagnostics by severity, code and message.
func Diff(old, new *Golden) []Change {
	var out []Change
	if old.Source != new.Source {
		out = append(out, Change{Kind: "changed", Entry: "source", Old: old.Source, New: new.Source})
	}
	for _, o := range match(old.Entries, new.Entries, Entry.Title) {
		switch {
		case o.j < 0:
			out = append(out, Change{Kind: "removed", Entry: old.Entries[o.i].Title(), Old: params(old.Entries[o.i])})
			continue
		case o.i < 0:
			out = append(out, Change{Kind: "added", Entry: new.Entries[o.j].Title(), New: params(new.Entries[o.j])})
			continue
		}
		a, b := old.Entries[o.i], new.Entries[o.j]
		if o.moved {
			out = append(out, Change{Kind: "moved", Entry: a.Title(), Old: "#" + strconv.Itoa(o.i+1), New: "#" + strconv.Itoa(o.j+1)})
		}
		for _, pa := range a.Params {
			if k := slices.IndexFunc(b.Params, func(pb Param) bool { return pb.Name == pa.Name }); k < 0 {
				out = append(out, Change{Kind: "removed", Entry: a.Title(), Param: pa.Name, Old: pa.Value})
			} else if pa.Value != b.Params[k].Value {
				out = append(out, Change{Kind: "changed", Entry: a.Title(), Param: pa.Name, Old: pa.Value, New: b.Params[k].Value})
			}
		}
		for _, pb := range b.Params {
			if !slices.ContainsFunc(a.Params, func(pa Param) bool { return pa.Name == pb.Name }) {
				out = append(out, Change{Kind: "added", Entry: a.Title(), Param: pb.Name, New: pb.Value})
			}
		}
	}
	key := func(d Diag) string { return strings.TrimPrefix(d.String(), d.Pos+" ") }
	for _, o := range match(old.Diags, new.Diags, key) {
		switch {
		case o.j < 0:
			out = append(out, Change{Kind: "gone", Entry: "diagnostic " + old.Diags[o.i].String()})
		case o.i < 0:
			out = append(out, Change{Kind: "appeared", Entry: "diagnostic " + new.Diags[o.j].String()})
		case old.Diags[o.i].Pos != new.Diags[o.j].Pos:
			out = append(out, Change{Kind: "moved", Entry: "diagnostic " + key(old.Diags[o.i]), Old: old.Diags[o.i].Pos, New: new.Diags[o.j].Pos})
		}
	}
	return out
}

// op pairs a[i] and b[j]; i < 0 is a string only in b, j < 0 one only in a.
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
	for _, c := range linediff.Changes(linediff.Diff(a, b)) {
		for k := range c.I2 - c.I1 {
			if c.Tag == linediff.Same {
				ops = append(ops, op{c.I1 + k, c.J1 + k, false})
			} else {
				ops = append(ops, op{c.I1 + k, -1, false})
			}
		}
		for j := c.J1; j < c.J2 && c.Tag != linediff.Same; j++ {
			ops = append(ops, op{-1, j, false})
		}
	}
	for x := 0; x < len(ops); x++ {
		if ops[x].j >= 0 {
			continue
		}
		if y := slices.IndexFunc(ops, func(o op) bool { return o.i < 0 && b[o.j] == a[ops[x].i] }); y >= 0 {
			ops[x].j, ops[x].moved = ops[y].j, true
			ops = slices.Delete(ops, y, y+1)
			if y < x {
				x--
			}
		}
	}
	return ops
}

// params returns an entry's parameters as a golden writes them.
func params(e Entry) string {
	var b strings.Builder
	for _, p := range e.Params {
		writeParam(&b, "  ", p)
	}
	return b.String()
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
			b.WriteString(": ")
			writeParam(&b, "", Param{c.Param, c.Old + c.New})
		case strings.Contains(c.Old+c.New, "\n"):
			b.WriteString(": " + word(c.Param) + "\n")
			var d bytes.Buffer
			linediff.Unified(&d, "old", "new", []byte(c.Old), []byte(c.New), 1)
			_, hunks, _ := strings.Cut(d.String(), "\n+++ new\n")
			for _, l := range strings.SplitAfter(strings.TrimSuffix(hunks, "\n"), "\n") {
				b.WriteString("    " + l)
			}
			b.WriteString("\n")
		default:
			if c.Param != "" {
				b.WriteString(": " + word(c.Param))
			}
			b.WriteString(": " + inline(c.Old) + " → " + inline(c.New) + "\n")
		}
	}
	return b.String()
}
