package stream

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/internal/jsonw"
)

// OpenAIWriter writes a parser's events as an OpenAI Chat Completions
// stream: chat.completion.chunk objects as SSE "data:" lines, ending with
// "data: [DONE]", so that plangram can sit between a model server that
// streams raw text and any OpenAI client.
//
//   - Text becomes delta.content, Thinking delta.reasoning_content (empty
//     pieces, such as markup, are left out).
//   - A call is streamed as OpenAI streams one: ToolCallStart writes a
//     delta.tool_calls element {index, id, type: "function", function:
//     {name, arguments: ""}}; each ParamDelta that is Exact (a string
//     value kept as written) writes the next fragment of
//     function.arguments; the ToolCall writes the rest. The fragments of a
//     complete call concatenate to valid JSON equal to the JSON object of
//     its typed params (the streamed members first, in the order they
//     came, then the others in schema order); a string argument cut by a
//     syntax error, which is not in the params, keeps the text streamed.
//     The index counts the calls
//     of a choice from 0; the id is the provider's call id (Event.CallID)
//     when the input gave one, else "call_" and the call's ID (stable for a
//     given input, whatever the chunking).
//   - A call that never completes (cut by the end of the stream, too
//     large) keeps the arguments written so far, unfinished, as OpenAI's
//     own stream does when it is cut; the choice's finish_reason is then
//     "length".
//   - End writes the last chunk of each choice, with finish_reason
//     "length" as above, "tool_calls" when a call was written and "stop"
//     otherwise, then data: [DONE].
//   - Event.Choice is the chunk's choice index (0 unless the input was an
//     OpenAI stream with several choices).
//   - Error events have no place in the chunk format; they are not
//     written (the CLI prints them to stderr).
//   - Text, names and arguments that are not UTF-8 have no place in it
//     either: they are written with U+FFFD, and NotUTF8 counts the events
//     concerned (the CLI warns, not-utf8-openai).
//
// Write is an emit function for New. The first chunk of each choice
// carries "role": "assistant", as OpenAI's does.
type OpenAIWriter struct {
	w       io.Writer
	id      string
	model   string
	created int64
	choices []*oaChoiceState // by first appearance
	calls   map[int]*oaCall  // open calls by Event.ID
	buf     bytes.Buffer
	frag    []byte
	lossy   int      // events written with bytes that are not UTF-8
	first   ast.Span // the first of them
	seq     int      // calls started
}

// CodeNotUTF8OpenAI is the code of the warning that the OpenAI chunk format
// got text, a name or arguments that are not UTF-8, written as U+FFFD.
const CodeNotUTF8OpenAI = "not-utf8-openai"

// NotUTF8 returns the number of events written so far whose text, name or
// arguments hold bytes that are not UTF-8, and the span of the first. The
// chunk format has no place for their exact bytes: they are written as
// U+FFFD, and the caller says so (the CLI prints a not-utf8-openai
// warning; docs/stream.md).
func (o *OpenAIWriter) NotUTF8() (n int, first ast.Span) { return o.lossy, o.first }

// notUTF8 reports whether what the chunks write of e holds bytes that are
// not UTF-8.
func notUTF8(e *Event) bool {
	switch e.Type {
	case Text, Thinking:
		return !utf8.ValidString(e.Text)
	case ParamDelta: // written only when Exact
		return e.Exact && (!utf8.ValidString(e.Text) || !utf8.ValidString(e.Param))
	case ToolCallStart:
		return !utf8.ValidString(e.Name) || !utf8.ValidString(e.CallID)
	case ToolCall:
		return !utf8.ValidString(e.Name) || !utf8.ValidString(e.CallID) || ast.HasInvalidUTF8(e.Params) || ast.HasInvalidName(e.Params)
	}
	return false
}

// oaChoiceState is what the writer knows of one choice.
type oaChoiceState struct {
	index int
	role  bool // the role was written
	calls int  // calls started
	done  int  // calls completed
}

// oaCall is a call being streamed.
type oaCall struct {
	index   int
	choice  *oaChoiceState
	members int    // members opened in the arguments
	open    string // the string member being streamed, when streaming
	// streaming: a string member is being streamed (open names it; the
	// empty string is a member name too)
	streaming bool
	sent      []string // the streamed members' names
	// text is the text streamed so far of the member being streamed (pend
	// included), appended to in place: a member streamed in n deltas costs
	// O(its length), not the O(n × length) of a string grown by +=
	text []byte
	pend []byte // an incomplete UTF-8 character held back
	// head is the call's first element while it is held: a call started
	// without an id is written at its first fragment, at its end, or
	// before any other chunk, whichever comes first, so that an id the
	// input gives after the name (and before any fragment) is the one
	// written.
	head  *oaToolCall
	order int // start order
}

// NewOpenAIWriter returns a writer of chunks with the given completion
// id, model name and creation time (Unix seconds) in every chunk.
func NewOpenAIWriter(w io.Writer, id, model string, created int64) *OpenAIWriter {
	return &OpenAIWriter{w: w, id: id, model: model, created: created, calls: map[int]*oaCall{}}
}

type oaChunk struct {
	ID      string     `json:"id"`
	Object  string     `json:"object"`
	Created int64      `json:"created"`
	Model   string     `json:"model"`
	Choices []oaChoice `json:"choices"`
}

type oaChoice struct {
	Index        int     `json:"index"`
	Delta        oaDelta `json:"delta"`
	FinishReason *string `json:"finish_reason"`
}

type oaDelta struct {
	Role             string       `json:"role,omitempty"`
	Content          *string      `json:"content,omitempty"`
	ReasoningContent *string      `json:"reasoning_content,omitempty"`
	ToolCalls        []oaToolCall `json:"tool_calls,omitempty"`
}

type oaToolCall struct {
	Index    int         `json:"index"`
	ID       string      `json:"id,omitempty"`
	Type     string      `json:"type,omitempty"`
	Function *oaFunction `json:"function"`
}

type oaFunction struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments"`
}

// choice returns the state of choice i.
func (o *OpenAIWriter) choice(i int) *oaChoiceState {
	for _, c := range o.choices {
		if c.index == i {
			return c
		}
	}
	c := &oaChoiceState{index: i}
	o.choices = append(o.choices, c)
	return c
}

// Write writes the chunk an event makes, if any.
func (o *OpenAIWriter) Write(e *Event) error {
	if notUTF8(e) {
		if o.lossy == 0 {
			o.first = e.Span
		}
		o.lossy++
	}
	if err := o.flushStarts(e); err != nil {
		return err
	}
	var d oaDelta
	switch e.Type {
	case Text:
		if e.Text == "" {
			return nil
		}
		d.Content = &e.Text
	case Thinking:
		if e.Text == "" {
			return nil
		}
		d.ReasoningContent = &e.Text
	case ToolCallStart:
		tc := o.start(e)
		if e.CallID == "" {
			// the input may give the call's id later (Mistral's
			// [TOOL_CALLS] array writes it after the arguments): the
			// element waits for the call's first fragment or its end
			o.calls[e.ID].head = &tc
			return nil
		}
		d.ToolCalls = []oaToolCall{tc}
	case ParamDelta:
		c := o.calls[e.ID]
		if c == nil || !e.Exact || !c.delta(o, e.Param, e.Text) {
			return nil
		}
		if err := o.writeHead(c, ""); err != nil {
			return err
		}
		d.ToolCalls = []oaToolCall{{Index: c.index, Function: &oaFunction{Arguments: string(o.frag)}}}
	case ToolCall:
		c, tc := o.calls[e.ID], oaToolCall{Function: &oaFunction{}}
		if c == nil { // a call without its start (not made by a Parser): its first element
			tc = o.start(e)
			c = o.calls[e.ID]
		}
		if err := o.writeHead(c, e.CallID); err != nil {
			return err
		}
		if err := c.finish(o, e); err != nil {
			return fmt.Errorf("stream: openai chunk of call %d: %w", e.ID, err)
		}
		tc.Index, tc.Function.Arguments = c.index, string(o.frag)
		d.ToolCalls = []oaToolCall{tc}
		delete(o.calls, e.ID)
		c.choice.done++
	case End:
		if len(o.choices) == 0 {
			o.choice(0)
		}
		for _, ch := range o.choices {
			reason := "stop"
			switch {
			case ch.done < ch.calls:
				reason = "length"
			case ch.done > 0:
				reason = "tool_calls"
			}
			if err := o.chunk(ch.index, oaDelta{}, &reason); err != nil {
				return err
			}
		}
		_, err := io.WriteString(o.w, "data: [DONE]\n\n")
		return err
	default:
		return nil
	}
	return o.chunk(e.Choice, d, nil)
}

// flushStarts writes the held first elements of the open calls (see
// oaCall.head) before a chunk of anything else than their own call: the
// chunks keep the order of the events.
func (o *OpenAIWriter) flushStarts(e *Event) error {
	if len(o.calls) == 0 {
		return nil
	}
	switch e.Type {
	case ParamDelta, ToolCall, Error:
		if len(o.calls) == 1 && o.calls[e.ID] != nil {
			return nil
		}
	}
	var held []*oaCall
	for id, c := range o.calls {
		if c.head != nil && (id != e.ID || e.Type == Text || e.Type == Thinking || e.Type == End) {
			held = append(held, c)
		}
	}
	slices.SortFunc(held, func(a, b *oaCall) int { return a.order - b.order })
	for _, c := range held {
		if err := o.writeHead(c, ""); err != nil {
			return err
		}
	}
	return nil
}

// writeHead writes the held first element of call c, if any, with the
// call's id: callID when the input gave it by the end of the call, else
// the one known at its start.
func (o *OpenAIWriter) writeHead(c *oaCall, callID string) error {
	if c.head == nil {
		return nil
	}
	tc := *c.head
	c.head = nil
	if callID != "" {
		tc.ID = callID
	}
	return o.chunk(c.choice.index, oaDelta{ToolCalls: []oaToolCall{tc}}, nil)
}

// start opens call e and returns its first tool_calls element.
func (o *OpenAIWriter) start(e *Event) oaToolCall {
	ch := o.choice(e.Choice)
	o.seq++
	c := &oaCall{index: ch.calls, choice: ch, order: o.seq}
	ch.calls++
	o.calls[e.ID] = c
	id := cmp.Or(e.CallID, "call_"+strconv.Itoa(e.ID))
	return oaToolCall{Index: c.index, ID: id, Type: "function", Function: &oaFunction{Name: e.Name}}
}

// delta puts into o.frag the arguments fragment that streams text of the
// string member param, and reports whether there is one.
func (c *oaCall) delta(o *OpenAIWriter, param, text string) bool {
	o.frag = o.frag[:0]
	if !c.streaming || param != c.open {
		if slices.Contains(c.sent, param) {
			return false // its text is written whole with the call
		}
		o.frag = c.closeOpen(o.frag)
		o.frag = c.member(o.frag, param)
		o.frag = append(o.frag, '"')
		c.open, c.streaming = param, true
		c.sent = append(c.sent, param)
		c.text = c.text[:0]
	}
	c.text = append(c.text, text...)
	o.frag = c.appendText(o.frag, text)
	return len(o.frag) > 0
}

// appendText appends text, JSON-escaped without its quotes, to dst; an
// incomplete UTF-8 character at its end is held back until the next text
// completes it (escaping a character cut in two would not give the
// escaping of the whole).
func (c *oaCall) appendText(dst []byte, text string) []byte {
	b := append(c.pend, text...)
	n := incomplete(b)
	c.pend = append(c.pend[:0:0], b[len(b)-n:]...)
	b = b[:len(b)-n]
	if len(b) == 0 {
		return dst
	}
	s := jsonw.AppendString(nil, string(b))
	return append(dst, s[1:len(s)-1]...)
}

// closeOpen ends the string member being streamed.
func (c *oaCall) closeOpen(dst []byte) []byte {
	if !c.streaming {
		return dst
	}
	if len(c.pend) > 0 {
		s := jsonw.AppendString(nil, string(c.pend))
		dst = append(dst, s[1:len(s)-1]...)
		c.pend = c.pend[:0]
	}
	c.open, c.streaming = "", false
	return append(dst, '"')
}

// member opens member name: its key after "{" or ",".
func (c *oaCall) member(dst []byte, name string) []byte {
	if c.members == 0 {
		dst = append(dst, '{')
	} else {
		dst = append(dst, ',')
	}
	c.members++
	dst = jsonw.AppendString(dst, name)
	return append(dst, ':')
}

// finish puts into o.frag the rest of the arguments of the complete call
// e: the rest of the member being streamed, the members not streamed, the
// closing brace.
func (c *oaCall) finish(o *OpenAIWriter, e *Event) error {
	o.frag = o.frag[:0]
	if c.streaming {
		sent := c.text
		v, _ := e.Params.Get(c.open)
		if s, ok := v.(string); ok && len(s) >= len(sent) && s[:len(sent)] == string(sent) {
			// sent ends with the held-back bytes: write them again with
			// the rest of the final value
			held := len(c.pend)
			c.pend = c.pend[:0]
			o.frag = c.appendText(o.frag, s[len(sent)-held:])
		}
		o.frag = c.closeOpen(o.frag)
	}
	for _, p := range e.Params {
		if slices.Contains(c.sent, p.Name) {
			continue
		}
		o.frag = c.member(o.frag, p.Name)
		w := jsonw.W{B: o.frag}
		w.Value(p.Value)
		if err := w.Err(); err != nil {
			return fmt.Errorf("param %q: %w", p.Name, err)
		}
		o.frag = w.B
	}
	if c.members == 0 {
		o.frag = append(o.frag, '{')
	}
	o.frag = append(o.frag, '}')
	return nil
}

func (o *OpenAIWriter) chunk(choice int, d oaDelta, finish *string) error {
	ch := o.choice(choice)
	if !ch.role {
		ch.role, d.Role = true, "assistant"
	}
	c := oaChunk{ID: o.id, Object: "chat.completion.chunk", Created: o.created, Model: o.model,
		Choices: []oaChoice{{Index: choice, Delta: d, FinishReason: finish}}}
	o.buf.Reset()
	o.buf.WriteString("data: ")
	enc := json.NewEncoder(&o.buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(c); err != nil {
		return fmt.Errorf("stream: openai chunk: %w", err)
	}
	o.buf.WriteByte('\n') // Encode ended the line; an empty line ends the event
	_, err := o.w.Write(o.buf.Bytes())
	return err
}
