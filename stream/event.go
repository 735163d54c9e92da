package stream

import (
	"fmt"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/internal/jsonw"
	"github.com/plangram/plangram/schema"
)

// Type is the kind of an Event.
type Type uint8

// Event types, named in JSON by their snake_case String.
const (
	// Text is prose for the reader. Text is what to show and Raw the source
	// bytes; they differ for markup (a <function_calls> wrapper's tags),
	// whose Text is empty, and for a provider API's SSE event. With
	// Options.OmitFraming, no Text event has an empty Text.
	Text Type = iota + 1
	// Thinking is a piece of a thinking block: Text is thinking content,
	// Raw the source bytes including the block's tags where this piece has
	// them (with Options.OmitFraming, the content alone).
	Thinking
	// ToolCallStart announces a call (ID, Name) as soon as its opening tag
	// is read. In the edit-format syntaxes its Params are the call's paths
	// (path, and move_to for a rename), read from its header.
	ToolCallStart
	// ParamDelta is source text of parameter Param of call ID, emitted as
	// soon as it can no longer turn into the parameter's end.
	ParamDelta
	// ToolCall is a complete call: ID, Name, typed Params, Raw source text.
	ToolCall
	// Error is a problem: Severity, Kind, Message, Span and the Raw text
	// concerned; ID is set when it concerns a call.
	Error
	// End is the last event of a stream; Syntax names the syntax that
	// read it.
	End
	// Hunk is a complete hunk of an edit-format call (every hunk in the
	// udiff syntax, an update_file chunk in apply-patch), emitted as soon as the line
	// after it shows it is complete: ID and Name are its call's, Param is
	// "hunks", Params its fields (old, new, context, line numbers), Raw
	// its source. Its JSON name is "hunk".
	Hunk
)

var typeNames = [...]string{"", "text", "thinking", "tool_call_start", "param_delta", "tool_call", "error", "end", "hunk"}

// String returns the type's JSON name (text, thinking, tool_call_start,
// param_delta, tool_call, error, end, hunk).
func (t Type) String() string {
	if int(t) < len(typeNames) && t > 0 {
		return typeNames[t]
	}
	return fmt.Sprintf("type(%d)", int(t))
}

// MarshalText writes the type's JSON name.
func (t Type) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// Error kinds (Event.Kind), stable identifiers documented in docs/stream.md.
const (
	KindUnterminated   = "unterminated"    // a thinking block or a call is open at the end of the stream
	KindTooLarge       = "too-large"       // a call grew over Options.MaxCallSize
	KindBadValue       = "bad-value"       // a value does not convert to its parameter's type
	KindMissingParam   = "missing-param"   // a required parameter is missing
	KindUnknownParam   = "unknown-param"   // a parameter the tool does not declare
	KindDuplicateParam = "duplicate-param" // a parameter given twice
	KindUnclosedParam  = "unclosed-param"  // a parameter ended by its call's closing tag
	KindStrayText      = "stray-text"      // text between a call's parameters
	KindUnknownTool    = "unknown-tool"    // an <invoke> of a tool the schema does not declare
	KindRawClose       = "raw-close"       // a raw parameter closed at its last closing tag by its call's closing tag (a warning)
	KindCutTag         = "cut-tag"         // the stream ends inside a call's opening tag
	// KindPathWhitespace: a path value has white space around it on its
	// line, which is dropped (a warning; schema.CodePathWhitespace).
	KindPathWhitespace = schema.CodePathWhitespace
)

// Event is one thing the parser decided. Which fields are set depends on
// Type (see the constants); Span is always set and locates the event in the
// whole stream (byte offset, 1-based line, 1-based byte column).
type Event struct {
	Type Type
	// ID numbers calls 1, 2, 3… in stream order, the same whatever the
	// chunking. It is set on ToolCallStart, ParamDelta, ToolCall and on an
	// Error that concerns a call.
	ID      int
	Name    string     // the tool or action name
	Param   string     // ParamDelta, and an Error about one parameter
	Text    string     // Text, Thinking, ParamDelta
	Params  ast.Params // ToolCall: the typed parameters in schema order; Hunk: the hunk's fields; ToolCallStart of an edit-format call: its paths; the unterminated Error of a JSON call: what was read
	Raw     string     // the source text (Text, Thinking, ToolCall) or the text an Error concerns
	Kind    string     // Error: one of the Kind constants, or a diagnostic code in the acts dialect
	Message string     // Error
	// Severity of an Error: ast.Error in the XML syntaxes but for raw-close,
	// a warning; the acts dialect passes on its diagnostics' severities (an
	// unknown action is a warning, as in `plangram parse`).
	Severity ast.Severity
	Span     ast.Span
	// Syntax is the name of the syntax that read the stream (End only):
	// under "auto", the one detected, or "auto" when none was.
	Syntax string
	// Action is the acts dialect's parsed action (inline arguments and
	// blocks) on its ToolCall event; it is not part of the JSON form.
	Action *ast.Action
	// CallID is the call's id given by the provider API (tool_calls[].id,
	// call_id, content_block.id: the openai-chat, openai-responses and
	// anthropic syntaxes) or by the model's markup (mistral's [CALL_ID]
	// or "id", kimi-k2's functions.NAME:IDX), on ToolCallStart and
	// ToolCall; empty when the stream gives none. JSON: "call_id" ("id"
	// is ID).
	CallID string
	// Choice is the index of the completion choice an event belongs to
	// (OpenAI Chat Completions with n > 1); 0 everywhere else. JSON:
	// "choice", left out when 0.
	Choice int
	// Exact marks a ParamDelta whose Text is exactly the next piece of the
	// parameter's value in the ToolCall (a string value kept as decoded
	// or written): the Exact deltas of a parameter concatenate to a prefix
	// of its final value, unless a syntax error (bad-json, bad-python)
	// cuts the value short, which then is not in the call's params. Others
	// (a value that is trimmed, unescaped, converted to another type, or
	// not kept) may differ from it. Not part of the JSON form;
	// OpenAIWriter streams Exact deltas only.
	Exact bool
}

// MarshalJSON writes the event with snake_case fields, leaving out the ones
// its type does not use. A text event has "raw" only when it differs from
// "text". An Error event is of type "error" when its Severity is ast.Error
// and "diagnostic" otherwise (a warning, note or info), with the same
// fields. It is AppendJSON's output.
func (e Event) MarshalJSON() ([]byte, error) {
	return e.AppendJSON(nil)
}

// AppendJSON appends the event's JSON object (one line, no line ending) to
// dst, written directly, byte for byte what encoding/json makes of it with
// HTML escaping off: tags stay readable ("<path>", not "\u003cpath\u003e").
func (e *Event) AppendJSON(dst []byte) ([]byte, error) {
	w := &jsonw.W{B: dst}
	e.WriteJSON(w)
	return w.B, w.Err()
}

// WriteJSON writes the event's JSON object to w (see MarshalJSON).
func (e *Event) WriteJSON(w *jsonw.W) {
	w.BeginObject()
	typ := e.Type.String()
	if e.Type == Error && e.Severity != ast.Error {
		typ = "diagnostic" // a warning, note or info: "error" counts errors only
	}
	w.KeyString("type", typ)
	if e.Choice != 0 {
		w.Key("choice")
		w.Int(int64(e.Choice))
	}
	if e.ID != 0 {
		w.Key("id")
		w.Int(int64(e.ID))
	}
	// Strings from the input that are not valid UTF-8 get their exact
	// bytes beside them (name_base64, …; docs/acts.md, "Exact bytes in JSON").
	if e.CallID != "" {
		ast.WriteExactString(w, "call_id", e.CallID)
	}
	if e.Name != "" {
		ast.WriteExactString(w, "name", e.Name)
	}
	if e.Param != "" {
		ast.WriteExactString(w, "param", e.Param)
	}
	raw := e.Raw
	switch e.Type {
	case Text, Thinking, ParamDelta:
		ast.WriteExactString(w, "text", e.Text)
		if e.Type == Text && e.Raw == e.Text {
			raw = ""
		}
	case ToolCall, Hunk:
		ast.WriteParams(w, "params", e.Params)
	case ToolCallStart, Error:
		if e.Params != nil { // an edit-format call's paths; an unterminated JSON call's, what was read
			ast.WriteParams(w, "params", e.Params)
		}
	}
	if e.Type == Error {
		w.KeyString("severity", e.Severity.String())
	}
	if e.Kind != "" {
		w.KeyString("kind", e.Kind)
	}
	if e.Message != "" {
		w.KeyString("message", e.Message)
	}
	if raw != "" {
		ast.WriteExactString(w, "raw", raw)
	}
	if e.Syntax != "" {
		w.KeyString("syntax", e.Syntax)
	}
	w.Key("span")
	e.Span.WriteJSON(w)
	w.EndObject()
}
