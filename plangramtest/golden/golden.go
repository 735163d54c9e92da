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
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/stream"
)

// Version is the format version, written in the header line
// `plangram-golden 1`. Unmarshal refuses a golden of a newer version
// rather than misread it.
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

// Entry is one action, tool call, or run of text or thinking.
type Entry struct {
	Kind, Name string
	// Key is the entry's path parameter, which with Kind and Name
	// identifies it when two goldens are compared.
	Key    string
	Params []Param
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

// FromStream feeds chunks to a stream parser of opts, with framing left
// out (Options.OmitFraming), and returns the golden of its events: text
// and thinking merged into one entry per run (errors do not end a run; a
// run of white space only is left out), each tool call, and the errors as
// diagnostics. Deltas and hunks are left
// out, their calls hold them, so the golden is the same however the input
// is cut into chunks.
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

// flatten adds v as the parameter name, or a list or object as one
// parameter per leaf, in order (object keys sorted). A value of another
// type goes through its JSON form.
func (e *Entry) flatten(name string, v any) {
	switch v := v.(type) {
	case string:
		e.Params = append(e.Params, Param{name, v})
		return
	case []any:
		for i, x := range v {
			e.flatten(fmt.Sprintf("%s[%d]", name, i), x)
		}
		if len(v) > 0 {
			return
		}
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(v)) {
			e.flatten(name+"."+k, v[k])
		}
		if len(v) > 0 {
			return
		}
	}
	raw, err := json.Marshal(v)
	if err != nil {
		e.Params = append(e.Params, Param{name, fmt.Sprint(v)})
		return
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var x any
	if dec.Decode(&x) == nil {
		switch x := x.(type) {
		case string:
			e.Params = append(e.Params, Param{name, x})
			return
		case []any, map[string]any:
			if !bytes.Equal(raw, []byte("[]")) && !bytes.Equal(raw, []byte("{}")) {
				e.flatten(name, x)
				return
			}
		}
	}
	e.Params = append(e.Params, Param{name, string(raw)})
}

// Title is the entry's first line in a golden: KIND NAME KEY.
func (e *Entry) Title() string {
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

// next splits the word that starts s (quoted or up to a space) from the
// rest after the space.
func next(s string) (string, string, error) {
	if strings.HasPrefix(s, `"`) {
		q, err := strconv.QuotedPrefix(s)
		if err != nil {
			return "", "", err
		}
		w, _ := strconv.Unquote(q)
		rest, _ := strings.CutPrefix(s[len(q):], " ")
		return w, rest, nil
	}
	w, rest, _ := strings.Cut(s, " ")
	return w, rest, nil
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
	lines := strings.Split(string(data), "\n")
	v, ok := strings.CutPrefix(lines[0], header)
	n, err := strconv.Atoi(v)
	switch {
	case !ok || err != nil || n < 1:
		return nil, fmt.Errorf("not a plangram golden file: the first line is not %q", fmt.Sprintf("%s%d", header, Version))
	case n > Version:
		return nil, fmt.Errorf("golden format version %d is newer than this plangram reads (%d): update plangram", n, Version)
	case len(lines) < 3 || lines[len(lines)-1] != "":
		return nil, fmt.Errorf("golden file cut short: no source line or no line ending at the end")
	}
	g := &Golden{Source: lines[1]}
	lines = lines[2 : len(lines)-1]
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		bad := func(why string, err error) error {
			if err != nil {
				why += ": " + err.Error()
			}
			return fmt.Errorf("golden line %d: %s: %q", i+3, why, line)
		}
		switch {
		case strings.HasPrefix(line, "diagnostic "):
			var d Diag
			rest := line[len("diagnostic "):]
			for _, w := range []*string{&d.Pos, &d.Severity, &d.Code} {
				if *w, rest, err = next(rest); err != nil {
					return nil, bad("bad diagnostic", err)
				}
			}
			if d.Message, err = unquote(rest); err != nil {
				return nil, bad("bad diagnostic message", err)
			}
			g.Diags = append(g.Diags, d)
		case strings.HasPrefix(line, "  "):
			if len(g.Entries) == 0 || len(g.Diags) > 0 {
				return nil, bad("a parameter outside an entry", nil)
			}
			var p Param
			name, rest := line[2:], ""
			if strings.HasPrefix(name, `"`) {
				q, err := strconv.QuotedPrefix(name)
				if err != nil {
					return nil, bad("bad parameter name", err)
				}
				name, rest = q, name[len(q):]
				p.Name, _ = strconv.Unquote(q)
			} else {
				p.Name, rest, _ = strings.Cut(name, ":")
				rest = ":" + rest
			}
			rest, ok := strings.CutPrefix(rest, ":")
			switch {
			case !ok:
				return nil, bad("no colon after the parameter name", nil)
			case rest == "":
				var b strings.Builder
				for i+1 < len(lines) && strings.HasPrefix(lines[i+1], "    |") {
					i++
					b.WriteString(lines[i][5:] + "\n")
				}
				p.Value = b.String()
				if i+1 < len(lines) && lines[i+1] == "    "+noNewline {
					i++
					p.Value = strings.TrimSuffix(p.Value, "\n")
				}
			case rest[0] != ' ':
				return nil, bad("no space after the colon", nil)
			default:
				if p.Value, err = unquote(rest[1:]); err != nil {
					return nil, bad("bad value", err)
				}
			}
			e := &g.Entries[len(g.Entries)-1]
			e.Params = append(e.Params, p)
		default:
			if len(g.Diags) > 0 || line == "" {
				return nil, bad("not an entry", nil)
			}
			var e Entry
			rest := line
			for _, w := range []*string{&e.Kind, &e.Name, &e.Key} {
				if *w, rest, err = next(rest); err != nil {
					return nil, bad("bad entry", err)
				}
			}
			g.Entries = append(g.Entries, e)
		}
	}
	return g, nil
}
