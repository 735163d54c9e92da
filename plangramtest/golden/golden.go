// Package golden is the golden-file format of plangram: a stable, readable
// rendering of what a parser made of a model's reply (a document's actions
// or a stream's merged events, with their parameters and diagnostics), and
// Diff, which compares two goldens action by action. `plangram test`,
// `plangram diff` and package plangramtest share it; docs/testing.md
// documents it.
package golden

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/internal/jsonw"
	"github.com/plangram/plangram/internal/linediff"
	"github.com/plangram/plangram/stream"
)

// Version is the format version of the header line `plangram-golden 1`;
// Parse refuses a newer one rather than misread it.
const Version = 1

const header = "plangram-golden "

// Document returns the golden of a parsed document: its actions and its
// diagnostics.
func Document(doc *ast.Document) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "%s%d\ndocument %s\n", header, Version, doc.Dialect)
	for _, a := range doc.Actions {
		writeEntry(&b, "action", a.Name, a.Params)
	}
	for _, d := range doc.Diagnostics {
		writeDiag(&b, d.Span.Start.String(), d.Severity, d.Code, d.Message)
	}
	return []byte(b.String())
}

// Stream feeds chunks to a stream parser of opts (framing left out) and
// returns the golden of its events: text and thinking merged into one
// entry per run without the white space around it (errors do not end a
// run; a run of text of white space alone is left out), the tool calls
// (their deltas and hunks left out), the errors as diagnostics: the same
// however the input is cut into chunks.
func Stream(opts stream.Options, chunks ...string) ([]byte, error) {
	var body, diags, text strings.Builder
	kind, syntax := "", "" // kind is the type of the run in text
	endRun := func() {
		if t := strings.TrimSpace(text.String()); t != "" || kind == "thinking" {
			body.WriteString(kind + "\n")
			writeParam(&body, "text", t)
		}
		kind = ""
		text.Reset()
	}
	opts.OmitFraming = true
	p, err := stream.New(opts, func(ev *stream.Event) error {
		switch ev.Type {
		case stream.Text, stream.Thinking:
			if kind != ev.Type.String() {
				endRun()
				kind = ev.Type.String()
			}
			text.WriteString(ev.Text)
		case stream.ToolCall:
			endRun()
			writeEntry(&body, "call", ev.Name, ev.Params)
		case stream.Error:
			writeDiag(&diags, ev.Span.Start.String(), ev.Severity, ev.Kind, ev.Message)
		case stream.End:
			endRun()
			syntax = ev.Syntax
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, c := range chunks {
		if _, err := p.Write([]byte(c)); err != nil {
			return nil, err
		}
	}
	if err := p.Close(); err != nil {
		return nil, err
	}
	return fmt.Appendf(nil, "%s%d\nstream %s\n%s%s", header, Version, syntax, body.String(), diags.String()), nil
}

// writeEntry writes an action or tool call: the line `KIND NAME PATH` (PATH,
// its path param, left out when there is none), then its params.
func writeEntry(b *strings.Builder, kind, name string, ps ast.Params) {
	b.WriteString(kind + " " + word(name))
	if path := ps.String("path"); path != "" {
		b.WriteString(" " + word(path))
	}
	b.WriteString("\n")
	for _, p := range ps {
		writeParam(b, p.Name, p.Value)
	}
}

// writeParam writes the line `  NAME: VALUE` of a string (inline), one
// for each leaf of a list or object (object keys sorted), or for another
// value its JSON.
func writeParam(b *strings.Builder, name string, v any) {
	if s, ok := v.(string); ok && isBlock(s) {
		// Lines of text, one golden line each, so that a golden's own
		// diff shows which lines of a file's content changed.
		text, lf := strings.CutSuffix(s, "\n")
		b.WriteString("  " + word(name) + ": |\n")
		for l := range strings.SplitSeq(text, "\n") {
			b.WriteString("    |" + l + "\n")
		}
		if !lf {
			b.WriteString(noNewline + "\n")
		}
		return
	} else if ok {
		b.WriteString("  " + word(name) + ": " + inline(s) + "\n")
		return
	}
	raw, _ := json.Marshal(v)
	x, _ := jsonw.DecodeExact(raw)
	switch x := x.(type) {
	case string:
		raw = []byte(x)
	case []any:
		for i, y := range x {
			writeParam(b, fmt.Sprintf("%s[%d]", name, i), y)
		}
		if len(x) > 0 {
			return
		}
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			writeParam(b, name+"."+k, x[k])
		}
		if len(x) > 0 {
			return
		}
	}
	writeParam(b, name, string(raw))
}

func writeDiag(b *strings.Builder, pos string, sev ast.Severity, code, msg string) {
	fmt.Fprintf(b, "diagnostic %s %s %s\n  at: %s\n", sev, word(code), inline(msg), pos)
}

// noNewline ends a block value (isBlock) whose last line has no line
// ending.
const noNewline = `    \ no newline at end`

// isBlock reports whether s is written as a block: more than one line (or
// one with its line ending) of printable characters and tabs.
func isBlock(s string) bool {
	return strings.Contains(s, "\n") && utf8.ValidString(s) &&
		!strings.ContainsFunc(s, func(r rune) bool { return r != '\n' && r != '\t' && !strconv.IsPrint(r) })
}

// inline returns s as it is when it reads back unchanged: not empty, no
// white space around it, one line of printable characters, not starting
// with a quote, not the block mark |; else Go-quoted.
func inline(s string) string {
	if s == "" || s == "|" || s != strings.TrimSpace(s) || s[0] == '"' || !utf8.ValidString(s) || strings.ContainsFunc(s, func(r rune) bool { return !strconv.IsPrint(r) }) {
		return strconv.Quote(s)
	}
	return s
}

// word is inline for a word of a line: quoted also with a space or colon.
func word(s string) string {
	if strings.ContainsAny(s, " :") {
		return strconv.Quote(s)
	}
	return inline(s)
}

// unquote reads back what inline or word wrote.
func unquote(s string) string {
	if u, err := strconv.Unquote(s); err == nil && strings.HasPrefix(s, `"`) {
		return u
	}
	return s
}

// Golden is a golden file read by Parse.
type Golden struct {
	entries []entry
}

// entry is a line of a golden after the header (the source line, an
// action, a tool call, a run of text or thinking, a diagnostic) and the
// params indented below it.
type entry struct {
	title  string
	params []param
}

type param struct{ name, value string }

// Parse reads a golden written by Document or Stream. A file without the
// header line, of a newer format version, or not in the format is an
// error.
func Parse(data []byte) (*Golden, error) {
	lines := strings.SplitAfter(string(data), "\n")
	v, ok := strings.CutPrefix(lines[0], header)
	n, err := strconv.Atoi(strings.TrimSuffix(v, "\n"))
	switch {
	case !ok || err != nil || n < 1:
		return nil, fmt.Errorf("not a plangram golden file: the first line is not %q", fmt.Sprintf("%s%d", header, Version))
	case n > Version:
		return nil, fmt.Errorf("golden format version %d is newer than this plangram reads (%d): update plangram", n, Version)
	}
	g := &Golden{}
	var block *param // the block value being read
	for i, raw := range lines[1:] {
		line, ok := strings.CutSuffix(raw, "\n")
		n := len(g.entries) - 1
		if text, in := strings.CutPrefix(line, "    |"); in && ok && block != nil {
			block.value += text + "\n"
			continue
		} else if line == noNewline && block != nil && block.value != "" {
			block.value, block = strings.TrimSuffix(block.value, "\n"), nil
			continue
		}
		block = nil
		switch {
		case raw == "" || !ok: // after the last line ending, or a last line without one
			ok = raw == ""
		case line != "" && line[0] != ' ':
			g.entries = append(g.entries, entry{title: line})
		case n < 0:
			ok = false
		default: // `  NAME: VALUE`, NAME Go-quoted when it holds a space or colon
			p := strings.TrimPrefix(line, "  ")
			k := strings.IndexByte(p, ':')
			if strings.HasPrefix(p, `"`) {
				q, _ := strconv.QuotedPrefix(p) // "" when not quoted right
				k = len(q)
			}
			if ok = len(p) < len(line) && k >= 0 && strings.HasPrefix(p[k:], ": "); ok {
				ps := append(g.entries[n].params, param{unquote(p[:k]), unquote(p[k+2:])})
				if g.entries[n].params = ps; p[k+2:] == "|" {
					block = &ps[len(ps)-1]
					block.value = ""
				}
			}
		}
		if !ok {
			return nil, fmt.Errorf("golden line %d: %q: not in the golden format (docs/testing.md)", i+2, line)
		}
	}
	return g, nil
}

// Change is one difference Diff found.
type Change struct {
	// Kind is added or removed (an entry, or with Param one of its
	// parameters), moved (an entry to another place among the others) or
	// changed (a parameter).
	Kind string `json:"kind"`
	// Entry is the entry's title line (`action write_file src/a.go`,
	// `diagnostic error code message`, `document acts`).
	Entry string `json:"entry"`
	Param string `json:"param,omitempty"`
	// Old and New are the values before and after: a parameter's value,
	// an added or removed entry's parameters as a golden writes them, or a
	// moved entry's place (#N, from 1).
	Old string `json:"old,omitempty"`
	New string `json:"new,omitempty"`
}

// Diff returns the changes that turn old into new. Entries are matched in
// order by their title line (kind, name and path, or a diagnostic's
// severity, code and message; a minimal line diff of the titles, and an
// entry left over on both sides with the same title has moved), then
// their parameters by name.
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
		if o.moved { // entries[0] is the source line: #1 is the first entry after it
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
	left := map[string][]int{} // the ops of items only in bs, by key, in order
	for y, o := range ops {
		if o.i == -1 {
			left[b[o.j]] = append(left[b[o.j]], y)
		}
	}
	for x := range ops {
		if ops[x].j >= 0 {
			continue
		}
		// i == -2 marks an item of bs paired here, dropped below.
		if ys := left[a[ops[x].i]]; len(ys) > 0 {
			y := ys[0]
			left[a[ops[x].i]] = ys[1:]
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
		if c.Param != "" {
			b.WriteString(": " + word(c.Param))
		}
		switch {
		case c.Param == "" && c.Kind != "moved": // an entry, with its params
			b.WriteString("\n" + c.Old + c.New)
		case c.Kind == "added" || c.Kind == "removed":
			b.WriteString(": " + inline(c.Old+c.New) + "\n")
		case strings.Contains(c.Old+c.New, "\n"):
			var d bytes.Buffer
			linediff.Unified(&d, "old", "new", []byte(c.Old), []byte(c.New), 1)
			_, hunks, _ := strings.Cut(d.String(), "\n+++ new\n")
			b.WriteString("\n    " + strings.ReplaceAll(strings.TrimSuffix(hunks, "\n"), "\n", "\n    ") + "\n")
		default: // a param changed, an entry moved
			b.WriteString(": " + inline(c.Old) + " → " + inline(c.New) + "\n")
		}
	}
	return b.String()
}
