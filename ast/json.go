package ast

import (
	"fmt"
	"io"

	"github.com/plangram/plangram/internal/jsonw"
)

// WriteJSON writes doc as `plangram parse` prints it, byte for byte what
// JSON(doc) returns: indented by two spaces (one line when compact), no
// HTML escaping, ending in a newline. It writes directly, without
// reflection, through a 64 KiB buffer, so memory stays near the size of
// the tree rather than of the output.
func WriteJSON(out io.Writer, doc *Document, compact bool) error {
	// W holds up to FlushSize bytes before it writes them on, so out needs
	// no buffer of its own. B starts at that size for a document of many
	// actions (growing to it would allocate it twice over) and small for a
	// small one.
	size := 4 << 10
	if doc != nil && len(doc.Actions) > 16 {
		size = jsonw.FlushSize + 1024
	}
	w := &jsonw.W{B: make([]byte, 0, size), Indent: !compact, Out: out}
	if doc == nil {
		w.Null()
	} else {
		doc.WriteJSON(w)
	}
	w.B = append(w.B, '\n')
	return w.Flush()
}

// AppendJSON appends doc's JSON to dst (compact or indented as JSON
// indents it, without the final newline).
func AppendJSON(dst []byte, doc *Document, compact bool) ([]byte, error) {
	w := &jsonw.W{B: dst, Indent: !compact}
	doc.WriteJSON(w)
	return w.B, w.Err()
}

// WriteJSON writes the document as one JSON value to w: empty action and
// diagnostic lists as [], the other empty fields left out.
func (d *Document) WriteJSON(w *jsonw.W) {
	w.BeginObject()
	w.KeyString("dialect", d.Dialect)
	if d.Title != "" {
		WriteExactString(w, "title", d.Title)
	}
	if len(d.Metadata) > 0 {
		WriteParams(w, "metadata", d.Metadata)
	}
	if d.Rationale != nil {
		WriteExactString(w, "rationale", *d.Rationale)
	}
	if len(d.Memos) > 0 {
		w.Key("memos")
		jsonw.Array(w, d.Memos, func(m *Memo, w *jsonw.W) {
			if m == nil {
				w.Null()
				return
			}
			w.BeginObject()
			w.Key("add")
			w.Bool(m.Add)
			WriteExactString(w, "text", m.Text)
			writeSpan(w, "span", m.Span)
			w.EndObject()
		})
	}
	w.Key("actions")
	jsonw.Array(w, d.Actions, (*Action).WriteJSON)
	if len(d.Blocks) > 0 {
		w.Key("blocks")
		jsonw.Array(w, d.Blocks, (*Block).WriteJSON)
	}
	if len(d.Prose) > 0 {
		w.Key("prose")
		jsonw.Array(w, d.Prose, (*Prose).WriteJSON)
	}
	w.Key("diagnostics")
	jsonw.Array(w, d.Diagnostics, (*Diagnostic).WriteJSON)
	writeSpan(w, "span", d.Span)
	w.EndObject()
}

// WriteJSON writes the action as one JSON value to w: empty args and
// blocks as [], empty params as {}.
func (a *Action) WriteJSON(w *jsonw.W) {
	if a == nil {
		w.Null()
		return
	}
	w.BeginObject()
	WriteExactString(w, "name", a.Name)
	w.Key("args")
	jsonw.Array(w, a.Args, func(s string, w *jsonw.W) { w.String(s) })
	writeArgsBase64(w, a.Args)
	if len(a.ArgSpans) > 0 {
		w.Key("arg_spans")
		jsonw.Array(w, a.ArgSpans, Span.WriteJSON)
	}
	WriteParams(w, "params", a.Params)
	w.Key("blocks")
	jsonw.Array(w, a.Blocks, (*Block).WriteJSON)
	if a.Head != nil {
		w.Key("head")
		a.Head.WriteJSON(w)
	}
	writeSpan(w, "name_span", a.NameSpan)
	writeSpan(w, "span", a.Span)
	w.EndObject()
}

// WriteJSON writes the block as one JSON value to w.
func (b *Block) WriteJSON(w *jsonw.W) {
	if b == nil {
		w.Null()
		return
	}
	w.BeginObject()
	w.KeyString("fence", b.Fence)
	WriteExactString(w, "info", b.Info)
	if b.Label != "" {
		WriteExactString(w, "label", b.Label)
	}
	switch {
	case b.ContentBase64 != "": // read back from JSON
		w.KeyString("content", b.Content)
		w.KeyString("content"+Base64Suffix, b.ContentBase64)
	default:
		WriteExactString(w, "content", b.Content)
	}
	if b.Unclosed {
		w.Key("unclosed")
		w.Bool(true)
	}
	writeSpan(w, "span", b.Span)
	writeSpan(w, "content_span", b.ContentSpan)
	w.EndObject()
}

// WriteJSON writes the prose node as one JSON value to w.
func (p *Prose) WriteJSON(w *jsonw.W) {
	if p == nil {
		w.Null()
		return
	}
	w.BeginObject()
	if p.Kind != "" {
		w.KeyString("kind", p.Kind)
	}
	WriteExactString(w, "text", p.Text)
	writeSpan(w, "span", p.Span)
	w.EndObject()
}

// WriteJSON writes the diagnostic as one JSON value to w.
func (d *Diagnostic) WriteJSON(w *jsonw.W) {
	if d == nil {
		w.Null()
		return
	}
	w.BeginObject()
	w.KeyString("severity", d.Severity.String())
	w.KeyString("code", d.Code)
	w.KeyString("message", d.Message)
	writeSpan(w, "span", d.Span)
	if len(d.Related) > 0 {
		w.Key("related")
		jsonw.Array(w, d.Related, func(r Related, w *jsonw.W) {
			w.BeginObject()
			w.KeyString("message", r.Message)
			writeSpan(w, "span", r.Span)
			w.EndObject()
		})
	}
	if d.Detail != "" {
		w.KeyString("detail", d.Detail)
	}
	w.EndObject()
}

// WriteJSON writes the params as one object in list order: a param's span
// is not part of it. A name that is not valid UTF-8 is written as
// jsonw.NameSuffixes says (see WriteParams).
func (ps Params) WriteJSON(w *jsonw.W) {
	ks := paramSuffixes(ps)
	w.BeginObject()
	for i, p := range ps {
		w.KeyN(p.Name, jsonw.Suffix(ks, i))
		ok := w.Err() == nil
		w.Value(p.Value)
		if ok && w.Err() != nil {
			w.Wrap(fmt.Sprintf("param %q", p.Name))
		}
	}
	w.EndObject()
}

// WriteJSON writes the span as one JSON value to w.
func (s Span) WriteJSON(w *jsonw.W) {
	w.BeginObject()
	w.Key("start")
	s.Start.WriteJSON(w)
	w.Key("end")
	s.End.WriteJSON(w)
	w.EndObject()
}

// WriteJSON writes the position as one JSON value to w.
func (p Pos) WriteJSON(w *jsonw.W) {
	w.BeginObject()
	w.Key("offset")
	w.Int(int64(p.Offset))
	w.Key("line")
	w.Int(int64(p.Line))
	w.Key("col")
	w.Int(int64(p.Col))
	w.EndObject()
}

// writeSpan writes the object member key: s.
func writeSpan(w *jsonw.W, key string, s Span) {
	w.Key(key)
	s.WriteJSON(w)
}
