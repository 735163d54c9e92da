// Package golden is the golden-file format of plangram: a stable, readable
// rendering of what a parser made of a model's reply (a document's actions
// or a stream's merged events, with their parameters and diagnostics), and
// Diff, which compares two goldens action by action. `plangram test`,
// `plangram diff` and package plangramtest share it; docs/testing.md
// documents it.
package golden

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/internal/jsonw"
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
	if s, ok := v.(string); ok {
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
	fmt.Fprintf(b, "diagnostic %s %s %s %s\n", pos, sev, word(code), inline(msg))
}

// inline returns s as it is when it reads back unchanged: not empty, no
// white space around it, one line of printable characters, not starting
// with a quote; else Go-quoted.
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

// entry is one action, tool call, or run of text or thinking: its title
// line (`action write_file src/a.go`) and its params; the source line, a
// "source" entry of one param with no name; or a diagnostic, its line
// without the position and an "at" param with it.
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
	for i, raw := range lines[1:] {
		line, ok := strings.CutSuffix(raw, "\n")
		n := len(g.entries) - 1
		switch {
		case raw == "" || !ok: // after the last line ending, or a last line without one
			ok = raw == ""
		case i == 0:
			g.entries = append(g.entries, entry{"source", []param{{"", line}}})
		case strings.HasPrefix(line, "diagnostic "):
			at, rest, _ := strings.Cut(line[len("diagnostic "):], " ")
			g.entries = append(g.entries, entry{"diagnostic " + rest, []param{{"at", at}}})
		case line != "" && line[0] != ' ':
			g.entries = append(g.entries, entry{title: line})
		case n < 1: // a param of no entry or of the source line
			ok = false
		default: // `  NAME: VALUE`, NAME Go-quoted when it holds a space or colon
			p := strings.TrimPrefix(line, "  ")
			k := strings.IndexByte(p, ':')
			if strings.HasPrefix(p, `"`) {
				q, _ := strconv.QuotedPrefix(p) // "" when not quoted right
				k = len(q)
			}
			if ok = len(p) < len(line) && k >= 0 && strings.HasPrefix(p[k:], ": "); ok {
				g.entries[n].params = append(g.entries[n].params, param{unquote(p[:k]), unquote(p[k+2:])})
			}
		}
		if !ok {
			return nil, fmt.Errorf("golden line %d: %q: not in the golden format (docs/testing.md)", i+2, line)
		}
	}
	return g, nil
}
