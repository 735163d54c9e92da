// Package golden is the golden-file format of plangram: a stable, readable
// rendering of what a parser made of a model's reply (a document's actions
// or a stream's merged events, with their parameters and diagnostics),
// read back into a model that Diff compares action by action. `plangram
// test`, `plangram diff` and package plangramtest share it;
// docs/testing.md documents it.
package golden

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/stream"
)

// Version is the format version of the header line `plangram-golden 1`;
// Unmarshal refuses a newer one rather than misread it.
const Version = 1

const header = "plangram-golden "

// Golden is what a golden file pins.
type Golden struct {
	// Source says what was read: "document DIALECT" or "stream SYNTAX".
	Source string
	// Entries are a document's actions (kind "action", after a "plan"
	// entry holding a plan's title, metadata, rationale and memos), or a
	// stream's merged text and thinking and its tool calls (kind "call").
	Entries []Entry
	Diags   []Diag
}

// Entry is one action, tool call, or run of text or thinking. Key, its
// path parameter, identifies it with Kind and Name when goldens differ.
type Entry struct {
	Kind, Name, Key string
	Params          []Param
}

// Param is one parameter with its value as text: a string as it is, other
// values as JSON, nested lists and objects flattened into one parameter
// per leaf (`edits[0].find`, `hunks[1].old`).
type Param struct{ Name, Value string }

// Diag is a diagnostic (a stream's error event) with its position
// (LINE:COL), severity, code and message.
type Diag struct{ Pos, Severity, Code, Message string }

// FromDocument returns the golden of a parsed document.
func FromDocument(doc *ast.Document) *Golden {
	g := &Golden{Source: "document " + doc.Dialect}
	if doc.Title != "" || len(doc.Metadata) > 0 || doc.Rationale != nil || len(doc.Memos) > 0 {
		e := Entry{Kind: "plan"}
		e.flatten("title", doc.Title)
		for _, p := range doc.Metadata {
			e.flatten("metadata."+p.Name, p.Value)
		}
		if doc.Rationale != nil {
			e.flatten("rationale", *doc.Rationale)
		}
		for i, m := range doc.Memos {
			e.flatten(fmt.Sprintf("memos[%d]", i), map[bool]string{true: "[+] ", false: "[-] "}[m.Add]+m.Text)
		}
		g.Entries = append(g.Entries, e)
	}
	for _, a := range doc.Actions {
		g.Entries = append(g.Entries, entry("action", a.Name, a.Params))
	}
	for _, d := range doc.Diagnostics {
		g.Diags = append(g.Diags, Diag{d.Span.Start.String(), d.Severity.String(), d.Code, d.Message})
	}
	return g
}

// FromStream feeds chunks to a stream parser of opts (framing left out)
// and returns the golden of its events: text and thinking merged into one
// entry per run (errors do not end a run; white space alone is left out),
// the tool calls (their deltas and hunks left out), the errors as
// diagnostics: the same however the input is cut into chunks.
func FromStream(opts stream.Options, chunks ...[]byte) (*Golden, error) {
	g := &Golden{}
	opts.OmitFraming = true
	p, err := stream.New(opts, func(ev *stream.Event) error {
		switch ev.Type {
		case stream.Text, stream.Thinking:
			if n := len(g.Entries); n > 0 && g.Entries[n-1].Kind == ev.Type.String() {
				g.Entries[n-1].Params[0].Value += ev.Text
			} else {
				g.Entries = append(g.Entries, Entry{Kind: ev.Type.String(), Params: []Param{{"text", ev.Text}}})
			}
		case stream.ToolCall:
			g.Entries = append(g.Entries, entry("call", ev.Name, ev.Params))
		case stream.Error:
			g.Diags = append(g.Diags, Diag{ev.Span.Start.String(), ev.Severity.String(), ev.Kind, ev.Message})
		case stream.End:
			g.Source = "stream " + ev.Syntax
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, c := range chunks {
		if _, err := p.Write(c); err != nil {
			return nil, err
		}
	}
	if err := p.Close(); err != nil {
		return nil, err
	}
	g.Entries = slices.DeleteFunc(g.Entries, func(e Entry) bool { return e.Kind == "text" && strings.TrimSpace(e.Params[0].Value) == "" })
	return g, nil
}

func entry(kind, name string, ps ast.Params) Entry {
	e := Entry{Kind: kind, Name: name, Key: ps.String("path")}
	for _, p := range ps {
		e.flatten(p.Name, p.Value)
	}
	return e
}

// flatten adds v as the parameter name: a string as it is, a list or
// object as one parameter per leaf (object keys sorted), another value in
// its JSON form.
func (e *Entry) flatten(name string, v any) {
	if s, ok := v.(string); ok {
		e.Params = append(e.Params, Param{name, s})
		return
	}
	raw, _ := json.Marshal(v)
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var x any
	_ = dec.Decode(&x)
	switch x := x.(type) {
	case string:
		raw = []byte(x)
	case []any:
		for i, y := range x {
			e.flatten(fmt.Sprintf("%s[%d]", name, i), y)
		}
		if len(x) > 0 {
			return
		}
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			e.flatten(name+"."+k, x[k])
		}
		if len(x) > 0 {
			return
		}
	}
	e.Params = append(e.Params, Param{name, string(raw)})
}

// Title is the entry's first line in a golden: KIND NAME KEY.
func (e Entry) Title() string {
	s := e.Kind
	if e.Name != "" || e.Key != "" {
		s += " " + word(e.Name)
	}
	if e.Key != "" {
		s += " " + word(e.Key)
	}
	return s
}

// String is the diagnostic's line in a golden (without "diagnostic ").
func (d Diag) String() string {
	return d.Pos + " " + d.Severity + " " + word(d.Code) + " " + inline(d.Message)
}

// Marshal renders g in the golden format (docs/testing.md): the header
// line, the source line, each entry's title line followed by its
// parameters indented by two spaces, then one `diagnostic` line each.
func (g *Golden) Marshal() []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "%s%d\n%s\n", header, Version, g.Source)
	for _, e := range g.Entries {
		b.WriteString(e.Title() + "\n")
		for _, p := range e.Params {
			writeParam(&b, "  ", p)
		}
	}
	for _, d := range g.Diags {
		b.WriteString("diagnostic " + d.String() + "\n")
	}
	return []byte(b.String())
}

// noNewline ends a block value whose last line has no line ending.
const noNewline = `\ no newline at end`

// writeParam writes `NAME: VALUE`, or for a value of several lines
// `NAME:` and each line after `|`, byte for byte, further indented.
func writeParam(b *strings.Builder, indent string, p Param) {
	b.WriteString(indent + word(p.Name) + ":")
	if !strings.Contains(p.Value, "\n") {
		b.WriteString(" " + inline(p.Value) + "\n")
		return
	}
	b.WriteString("\n")
	for rest := p.Value; rest != ""; {
		line, after, found := strings.Cut(rest, "\n")
		b.WriteString(indent + "  |" + line + "\n")
		if !found {
			b.WriteString(indent + "  " + noNewline + "\n")
		}
		rest = after
	}
}

// inline returns s as it is when it reads back unchanged: not empty, no
// white space around it, printable, not starting with a quote; else
// Go-quoted.
func inline(s string) string {
	if s == "" || s != strings.TrimSpace(s) || s[0] == '"' || !utf8.ValidString(s) || strings.ContainsFunc(s, func(r rune) bool { return !strconv.IsPrint(r) }) {
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

// next splits the word that starts s (quoted, or up to sep) from the rest
// after sep.
func next(s string, sep byte) (w, rest string, err error) {
	if strings.HasPrefix(s, `"`) {
		q, err := strconv.QuotedPrefix(s)
		w, _ = strconv.Unquote(q)
		rest, _ = strings.CutPrefix(s[len(q):], string(sep))
		return w, rest, err
	}
	w, rest, _ = strings.Cut(s, string(sep))
	return w, rest, nil
}

// three splits the first three words of s from the rest.
func three(s string) (w [3]string, rest string, err error) {
	for k := 0; k < 3 && err == nil; k++ {
		w[k], s, err = next(s, ' ')
	}
	return w, s, err
}

// unquote reads a value written by inline.
func unquote(s string) (string, error) {
	if strings.HasPrefix(s, `"`) {
		return strconv.Unquote(s)
	}
	return s, nil
}

// Unmarshal reads a golden written by Marshal. A file without the header
// line, of a newer format version, or not in the format is an error.
func Unmarshal(data []byte) (*Golden, error) {
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
	var block *Param // the value whose lines are read
	for i, raw := range lines[1:] {
		line, ok := strings.CutSuffix(raw, "\n")
		if rest, more := strings.CutPrefix(raw, "    |"); more && block != nil {
			block.Value += rest
			continue
		} else if line == "    "+noNewline && block != nil {
			block.Value = strings.TrimSuffix(block.Value, "\n")
		}
		var words [3]string
		switch block = nil; {
		case raw == "" || line == "    "+noNewline:
		case !ok:
			err = errors.New("no line ending")
		case i == 0:
			g.Source = line
		case strings.HasPrefix(line, "diagnostic "):
			var rest string
			if words, rest, err = three(line[len("diagnostic "):]); err == nil {
				rest, err = unquote(rest)
			}
			g.Diags = append(g.Diags, Diag{words[0], words[1], words[2], rest})
		case strings.HasPrefix(line, "  ") && len(g.Entries) > 0 && len(g.Diags) == 0:
			e := &g.Entries[len(g.Entries)-1]
			p := Param{}
			var rest string
			if p.Name, rest, err = next(line[2:], ':'); err == nil && rest != "" {
				p.Value, err = unquote(strings.TrimPrefix(rest, " "))
			}
			e.Params = append(e.Params, p)
			if rest == "" {
				block = &e.Params[len(e.Params)-1]
			}
		case !strings.HasPrefix(line, " ") && line != "" && len(g.Diags) == 0:
			words, _, err = three(line)
			g.Entries = append(g.Entries, Entry{Kind: words[0], Name: words[1], Key: words[2]})
		default:
			err = errors.New("not a golden line")
		}
		if err != nil {
			return nil, fmt.Errorf("golden line %d: %q: %w", i+2, line, err)
		}
	}
	return g, nil
}
