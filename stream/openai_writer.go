package stream

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
)

// OpenAIWriter writes a parser's events as an OpenAI Chat Completions
// stream: chat.completion.chunk objects as SSE "data:" lines, ending with
// "data: [DONE]", so that plangram can sit between a model server that
// streams raw text and any OpenAI client.
//
//   - Text becomes delta.content, Thinking delta.reasoning_content (empty
//     pieces, such as markup, are left out).
//   - A ToolCall becomes one delta.tool_calls element {index, id, type:
//     "function", function: {name, arguments}}: the call's index counts
//     complete calls from 0, its id is "call_" and the call's ID (stable
//     for a given input, whatever the chunking), and arguments is the JSON
//     object of its typed params (in schema order), sent whole: it is
//     valid JSON once the call is complete and checked. ToolCallStart and
//     ParamDelta are not sent, so a call that never completes (an
//     unterminated one) never reaches the client.
//   - End writes the last chunk, with finish_reason "tool_calls" when a
//     call was written and "stop" otherwise, then data: [DONE].
//   - Error events have no place in the chunk format; they are not
//     written (the CLI prints them to stderr).
//
// Write is an emit function for New. The first chunk's delta carries
// "role": "assistant", as OpenAI's does.
type OpenAIWriter struct {
	w       io.Writer
	id      string
	model   string
	created int64
	calls   int
	role    bool
	buf     bytes.Buffer
}

// NewOpenAIWriter returns a writer of chunks with the given completion
// id, model name and creation time (Unix seconds) in every chunk.
func NewOpenAIWriter(w io.Writer, id, model string, created int64) *OpenAIWriter {
	return &OpenAIWriter{w: w, id: id, model: model, created: created}
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
	Index    int        `json:"index"`
	ID       string     `json:"id"`
	Type     string     `json:"type"`
	Function oaFunction `json:"function"`
}

type oaFunction struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Write writes the chunk an event makes, if any.
func (o *OpenAIWriter) Write(e Event) error {
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
	case ToolCall:
		args, err := json.Marshal(e.Params)
		if err != nil {
			return fmt.Errorf("stream: openai chunk of call %d: %w", e.ID, err)
		}
		if e.Params == nil {
			args = []byte("{}")
		}
		d.ToolCalls = []oaToolCall{{Index: o.calls, ID: "call_" + strconv.Itoa(e.ID), Type: "function",
			Function: oaFunction{Name: e.Name, Arguments: string(args)}}}
		o.calls++
	case End:
		reason := "stop"
		if o.calls > 0 {
			reason = "tool_calls"
		}
		if err := o.chunk(oaDelta{}, &reason); err != nil {
			return err
		}
		_, err := io.WriteString(o.w, "data: [DONE]\n\n")
		return err
	default:
		return nil
	}
	return o.chunk(d, nil)
}

func (o *OpenAIWriter) chunk(d oaDelta, finish *string) error {
	if !o.role {
		o.role, d.Role = true, "assistant"
	}
	c := oaChunk{ID: o.id, Object: "chat.completion.chunk", Created: o.created, Model: o.model,
		Choices: []oaChoice{{Delta: d, FinishReason: finish}}}
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
