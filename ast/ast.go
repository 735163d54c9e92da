package ast

import (
	"bytes"
	"cmp"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/plangram/plangram/internal/jsonw"
)

// Document is the root of every parsed input, whatever its dialect.
//
// Nothing of the source is dropped: every byte belongs to an action's head
// block, an argument block, a stray block (Blocks) or a prose node (Prose).
// The plan dialect keeps its headings, lists, blank lines and paragraphs as
// Prose nodes of those kinds (Prose.Kind) and reads Title, Metadata,
// Rationale, Memos and the actions from them.
type Document struct {
	Dialect string `json:"dialect"`
	// Title, Metadata, Rationale and Memos are set by the plan dialect.
	Title     string  `json:"title,omitempty"`
	Metadata  Params  `json:"metadata,omitempty"`
	Rationale *string `json:"rationale,omitempty"`
	Memos     []*Memo `json:"memos,omitempty"`

	Actions []*Action `json:"actions"`
	// Blocks holds fenced blocks that belong to no action (for example argument
	// blocks before the first act).
	Blocks []*Block `json:"blocks,omitempty"`
	// Prose holds the text between blocks, in source order.
	Prose       []*Prose      `json:"prose,omitempty"`
	Diagnostics []*Diagnostic `json:"diagnostics"`
	Span        Span          `json:"span"`
}

// MarshalJSON writes empty lists as [] rather than null so consumers can
// iterate without checks.
// It writes directly (WriteJSON), without HTML escaping: plans are full of
// code, so < > & stay readable in the output.
func (d *Document) MarshalJSON() ([]byte, error) {
	return marshalWith(d.WriteJSON)
}

// marshalWith returns what write writes, compact.
func marshalWith(write func(*jsonw.W)) ([]byte, error) {
	w := &jsonw.W{}
	write(w)
	if err := w.Err(); err != nil {
		return nil, err
	}
	return w.B, nil
}

// Memo is one `[+] fact` or `[-] fact` line of a plan's Memos section.
type Memo struct {
	Add  bool   `json:"add"` // true for [+], false for [-]
	Text string `json:"text"`
	Span Span   `json:"span"`
}

// Block is a fenced block. Content is kept byte for byte: it is exactly
// source[ContentSpan.Start.Offset:ContentSpan.End.Offset].
type Block struct {
	Fence string `json:"fence"` // the opening fence run, e.g. "~~~~~"
	Info  string `json:"info"`  // the trimmed rest of the opening fence line
	// Label is the heading that introduces the block, where a dialect uses one
	// (e.g. "FIND:" in a plan's EDIT action).
	Label   string `json:"label,omitempty"`
	Content string `json:"content"`
	// ContentBase64 is set only when Content is not valid UTF-8 (a JSON
	// string cannot carry such bytes: "content" shows U+FFFD in their place):
	// the exact content bytes in standard, padded base64. SetContentBase64
	// fills it; grammar.Parse does for every block it returns, and the JSON
	// writer writes it for any block whose content is not valid UTF-8
	// (exact.go: every string from the input gets such a member).
	ContentBase64 string `json:"content_base64,omitempty"`
	Unclosed      bool   `json:"unclosed,omitempty"`
	Span          Span   `json:"span"`         // whole lines, opening fence line to closing fence line (with its line ending)
	ContentSpan   Span   `json:"content_span"` // the content bytes
}

// SetContentBase64 sets ContentBase64 from Content when Content is not
// valid UTF-8, and clears it otherwise.
func (b *Block) SetContentBase64() {
	b.ContentBase64 = ""
	if !utf8.ValidString(b.Content) {
		b.ContentBase64 = base64.StdEncoding.EncodeToString([]byte(b.Content))
	}
}

// ExactContent returns the block's content bytes: decoded from
// ContentBase64 when it is set (a block read back from JSON), else Content.
func (b *Block) ExactContent() string {
	if b.ContentBase64 != "" {
		if raw, err := base64.StdEncoding.DecodeString(b.ContentBase64); err == nil {
			return string(raw)
		}
	}
	return b.Content
}

// Action is one operation of a plan: a fenced act with its argument blocks,
// a `### ACTION` section of a Markdown plan, or a streamed tool call.
type Action struct {
	Name string `json:"name"`
	// Args are the inline arguments (acts dialect: words after the action
	// name and further lines of the act block).
	Args []string `json:"args"`
	// ArgSpans are the source spans of Args, index for index.
	ArgSpans []Span `json:"arg_spans,omitempty"`
	Params   Params `json:"params"`
	// Blocks are the argument blocks in order (not the act block itself).
	Blocks []*Block `json:"blocks"`
	// Head is the block or heading that names the action (the act block in
	// the acts dialect).
	Head     *Block `json:"head,omitempty"`
	NameSpan Span   `json:"name_span"`
	Span     Span   `json:"span"`
}

// MarshalJSON writes empty lists and params as [] and {}.
func (a *Action) MarshalJSON() ([]byte, error) {
	return marshalWith(a.WriteJSON)
}

// Prose is text outside any block, kept with its span. Its Kind says what a
// dialect made of it ("text", "heading", "list", "break", ...).
type Prose struct {
	Kind string `json:"kind,omitempty"`
	Text string `json:"text"`
	Span Span   `json:"span"`
}

// Param is one named, typed parameter value of an action (or one metadata
// entry of a plan). Value holds string, bool, int64, float64, []string,
// []any, map[string]any or a dialect's JSON-marshalable struct.
type Param struct {
	Name  string `json:"name"`
	Value any    `json:"value"`
	Span  *Span  `json:"span,omitempty"`
}

// Params is an ordered list of parameters. It marshals to a JSON object whose
// keys keep the list order (schema order), not alphabetical order.
type Params []Param

// Get returns the value of the named parameter.
func (ps Params) Get(name string) (any, bool) {
	if i := slices.IndexFunc(ps, func(p Param) bool { return p.Name == name }); i >= 0 {
		return ps[i].Value, true
	}
	return nil, false
}

// String returns the named parameter if it is a string, else "".
func (ps Params) String(name string) string {
	v, _ := ps.Get(name)
	s, _ := v.(string)
	return s
}

// Set replaces the named parameter's value or appends it.
func (ps *Params) Set(name string, v any, span *Span) {
	if i := slices.IndexFunc(*ps, func(p Param) bool { return p.Name == name }); i >= 0 {
		(*ps)[i].Value, (*ps)[i].Span = v, span
		return
	}
	*ps = append(*ps, Param{Name: name, Value: v, Span: span})
}

// MarshalJSON writes the params as one object in list order.
func (ps Params) MarshalJSON() ([]byte, error) {
	return marshalWith(ps.WriteJSON)
}

// UnmarshalJSON reads an object, keeping key order.
func (ps *Params) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return fmt.Errorf("params: want a JSON object")
	}
	*ps = (*ps)[:0]
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		var v any
		if err := dec.Decode(&v); err != nil {
			return err
		}
		*ps = append(*ps, Param{Name: tok.(string), Value: v})
	}
	_, err = dec.Token()
	return err
}

// Severity ranks a diagnostic.
type Severity int

// Severities, most severe first.
const (
	Error Severity = iota
	Warning
	Info
)

var severityNames = [...]string{"error", "warning", "info"}

func (s Severity) String() string {
	if s < 0 || int(s) >= len(severityNames) {
		return fmt.Sprintf("severity(%d)", int(s))
	}
	return severityNames[s]
}

// MarshalText writes the severity's name.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a severity name.
func (s *Severity) UnmarshalText(b []byte) error {
	i := slices.Index(severityNames[:], string(b))
	if i < 0 {
		return fmt.Errorf("unknown severity %q", b)
	}
	*s = Severity(i)
	return nil
}

// Related points at a second place a diagnostic concerns.
type Related struct {
	Message string `json:"message"`
	Span    Span   `json:"span"`
}

// Diagnostic is a problem found in the input. Code is a stable kebab-case
// identifier, one of the registry's (Codes, LookupCode), which
// docs/diagnostics.md lists; Detail is an optional
// multi-line explanation (such as an AST diff) printed under the message.
type Diagnostic struct {
	Severity Severity  `json:"severity"`
	Code     string    `json:"code"`
	Message  string    `json:"message"`
	Span     Span      `json:"span"`
	Related  []Related `json:"related,omitempty"`
	Detail   string    `json:"detail,omitempty"`
}

// Format renders the diagnostic as `FILE:LINE:COL: severity: message [code]`,
// the shape editors' problem matchers read, followed by indented Detail lines.
func (d *Diagnostic) Format(file string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s:%d:%d: %s: %s", file, d.Span.Start.Line, d.Span.Start.Col, d.Severity, d.Message)
	if d.Code != "" {
		fmt.Fprintf(&b, " [%s]", d.Code)
	}
	for _, r := range d.Related {
		fmt.Fprintf(&b, "\n%s:%d:%d: note: %s", file, r.Span.Start.Line, r.Span.Start.Col, r.Message)
	}
	if d.Detail != "" {
		for _, line := range strings.Split(strings.TrimRight(d.Detail, "\n"), "\n") {
			b.WriteString("\n    ")
			b.WriteString(line)
		}
	}
	return b.String()
}

// HasErrors reports whether any diagnostic is an error.
func (d *Document) HasErrors() bool {
	return slices.ContainsFunc(d.Diagnostics, func(x *Diagnostic) bool { return x.Severity == Error })
}

// Add appends a diagnostic. Its message is valid UTF-8 from the start
// (EscapeInvalidUTF8): a byte of the input that is not UTF-8, formatted in
// as it is, becomes \xNN, so a consumer handed the diagnostic before the
// document is complete (grammar.EditEvents) reads the text every output
// shows.
func (d *Document) Add(sev Severity, code string, span Span, format string, args ...any) *Diagnostic {
	diag := &Diagnostic{Severity: sev, Code: code, Message: EscapeInvalidUTF8(fmt.Sprintf(format, args...)), Span: span}
	d.Diagnostics = append(d.Diagnostics, diag)
	return diag
}

// SortDiagnostics orders diagnostics by position, then severity, keeping the
// order of equal ones.
func SortDiagnostics(ds []*Diagnostic) {
	slices.SortStableFunc(ds, func(a, b *Diagnostic) int {
		return cmp.Or(cmp.Compare(a.Span.Start.Offset, b.Span.Start.Offset), cmp.Compare(a.Severity, b.Severity))
	})
}

// JSON encodes v as `plangram parse` prints it: indented by two spaces,
// without HTML escaping, ending in a newline. Golden files use it too, so
// they hold exactly what the CLI prints.
func JSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
