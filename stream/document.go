package stream

import (
	"cmp"
	"context"
	"fmt"
	"strings"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
)

// ReadDocument reads src, a whole reply in the tools syntax, as a document
// (grammar.DialectTools): the stream parser over src as one chunk, with
// opts.Schema as its schema (nil: the built-in tools registry). It is what
// grammar.Options.ReadTools is set to, so that the document commands
// (`plangram check --dialect tools`, parse, …) read the dialect with the
// one parser that reads it (docs/stream.md, "Tool calls as a document").
//
// Each ToolCall event is an action: its name, the name's span within the
// call's opening tag, its params as the event gives them (a value that
// failed its type stays as written, beside its error) and its span. Each
// Error event is a diagnostic: its Kind is the code, with its severity,
// message and span. Text and thinking are prose nodes of kind "text" and
// "thinking", holding their source text. filename is not used: positions
// are in the spans. The error is ctx's or the parser's (an unusable
// schema).
func ReadDocument(ctx context.Context, filename string, src []byte, opts grammar.Options) (*ast.Document, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	lines := ast.NewLines(src)
	doc := &ast.Document{Dialect: grammar.DialectTools, Span: lines.Span(0, len(src))}
	starts := map[int]ast.Span{} // each open call's opening tag, by ID
	emit := func(e *Event) error {
		switch e.Type {
		case ToolCallStart:
			starts[e.ID] = e.Span
		case ToolCall:
			if err := ctx.Err(); err != nil {
				return err
			}
			a := &ast.Action{Name: e.Name, Params: e.Params, Span: e.Span, NameSpan: nameSpan(lines, src, starts[e.ID], e.Name)}
			if a.Params == nil {
				a.Params = ast.Params{}
			}
			delete(starts, e.ID)
			doc.Actions = append(doc.Actions, a)
		case Error:
			if opts.Silenced != nil && opts.Silenced(e.Kind, e.Span.Start.Line) {
				return nil
			}
			doc.Diagnostics = append(doc.Diagnostics, &ast.Diagnostic{Severity: e.Severity, Code: e.Kind, Message: e.Message, Span: e.Span})
		case Text, Thinking:
			raw := cmp.Or(e.Raw, e.Text)
			if raw == "" {
				return nil
			}
			kind := "text"
			if e.Type == Thinking {
				kind = "thinking"
			}
			// The parser cuts text at wrapper tags (<function_calls>):
			// adjacent pieces of one kind are one prose node.
			if n := len(doc.Prose); n > 0 && doc.Prose[n-1].Kind == kind && doc.Prose[n-1].Span.End.Offset == e.Span.Start.Offset {
				last := doc.Prose[n-1]
				last.Text += raw
				last.Span.End = e.Span.End
				return nil
			}
			doc.Prose = append(doc.Prose, &ast.Prose{Kind: kind, Text: raw, Span: e.Span})
		}
		return nil
	}
	p, err := New(Options{Syntax: grammar.DialectTools, Schema: opts.Schema, ToolsHint: documentToolsHint}, emit)
	if err != nil {
		return nil, fmt.Errorf("tools dialect: %w", err)
	}
	if _, err := p.Write(src); err != nil {
		return nil, fmt.Errorf("tools dialect: %w", err)
	}
	if err := p.Close(); err != nil {
		return nil, fmt.Errorf("tools dialect: %w", err)
	}
	ast.SortDiagnostics(doc.Diagnostics)
	return doc, nil
}

// documentToolsHint is how a document command is given the model's tools
// (Options.ToolsHint): its --schema flag takes an action schema, which
// `plangram schema --tools FILE` makes of a tools registry.
const documentToolsHint = "as an action schema with --schema FILE, which `plangram schema --tools FILE` makes of a tools registry"

// nameSpan returns the span of the tool's name within its call's opening
// tag open (`<read_file>`, `<invoke name="read_file">`): its first
// occurrence there, or open itself when the tag does not spell it (an
// unknown start).
func nameSpan(lines *ast.Lines, src []byte, open ast.Span, name string) ast.Span {
	s, e := open.Start.Offset, open.End.Offset
	if name == "" || s < 0 || e > len(src) || s >= e {
		return open
	}
	i := strings.Index(string(src[s:e]), name)
	if i < 0 {
		return open
	}
	return lines.Span(s+i, s+i+len(name))
}
