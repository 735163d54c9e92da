package stream

import (
	"fmt"
	"strconv"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/schema"
)

// OpenAIChat registers the openai-chat syntax: the Server-Sent Events of
// OpenAI's Chat Completions API with "stream": true (and of the servers
// that copy it: vLLM, llama.cpp, Ollama, OpenRouter, DeepSeek…).
func (registry) OpenAIChat() *Syntax {
	return &Syntax{Name: "openai-chat", Summary: "OpenAI Chat Completions SSE (data: {choices[].delta…}, data: [DONE])",
		Schema: "tools", Markers: staticMarkers(`data: {"id":"chatcmpl-`, `data: {"choices":[`, `data: {"object":"chat.completion.chunk"`),
		open: openAPI(func(c *config) sseHandler { return &openaiChat{schema: c.opts.Schema, calls: map[string]*apiCall{}} })}
}

// openAPI returns the open function of an SSE syntax.
func openAPI(h func(c *config) sseHandler) func(c *config) (scanner, error) {
	return func(c *config) (scanner, error) { return newSSE(h(c), c), nil }
}

// openaiChat reads chat.completion.chunk objects: each choice's delta
// carries content (text), reasoning_content or reasoning (thinking), and
// tool_calls fragments keyed by index — the first with the call's id and
// function name, the next with pieces of function.arguments — and the
// choice's finish_reason ends its calls. data: [DONE] ends the stream.
type openaiChat struct {
	schema *schema.Schema // nil: calls are not typed (no registry given)
	calls  map[string]*apiCall
	order  []*apiCall // open calls in start order
}

func (o *openaiChat) event(s *sse, p *Parser, e *sseEvent) error {
	if e.data == nil || string(e.data) == "[DONE]" {
		if e.data != nil {
			if err := o.endAll(p, e.pos(e.end)); err != nil {
				return err
			}
		}
		return s.cover(p, e, "", false)
	}
	root, done, err := s.eventRoot(p, e)
	if done {
		return err
	}
	if perr := root.get("error"); perr != nil {
		if err := providerError(s, p, e, perr); err != nil {
			return err
		}
		return s.cover(p, e, "", false)
	}
	// What the event says to the reader, per choice in the order given:
	// thinking before text within a choice.
	var pieces []chatPiece
	add := func(choice int, text string, thinking bool) {
		if text == "" {
			return
		}
		if n := len(pieces); n > 0 && pieces[n-1].choice == choice && pieces[n-1].thinking == thinking {
			pieces[n-1].text += text
			return
		}
		pieces = append(pieces, chatPiece{choice, text, thinking})
	}
	only := -1 // the one choice the event concerns, -1 when none or several
	choices := root.get("choices")
	if choices != nil && choices.kind == '[' {
		for i, ch := range choices.vals {
			index := max(ch.get("index").int(e.data), 0)
			if i == 0 {
				only = index
			} else if only != index {
				only = -1
			}
			delta := ch.get("delta")
			var text, thinking string
			for _, k := range []string{"reasoning_content", "reasoning"} {
				if t, ok := delta.get(k).str(e.data); ok {
					thinking += t
				}
			}
			if t, ok := delta.get("content").str(e.data); ok {
				text += t
			}
			if t, ok := delta.get("refusal").str(e.data); ok {
				text += t
			}
			if !s.hide {
				add(index, thinking, true)
			}
			add(index, text, false)
			choice := strconv.Itoa(index)
			if tcs := delta.get("tool_calls"); tcs != nil && tcs.kind == '[' {
				for i, tc := range tcs.vals {
					idx := tc.get("index").int(e.data)
					if idx < 0 {
						idx = i
					}
					if err := o.fragment(p, e, index, choice+"."+strconv.Itoa(idx), tc.get("id"), tc.get("function")); err != nil {
						return err
					}
				}
			}
			if fc := delta.get("function_call"); fc != nil { // the deprecated single call
				if err := o.fragment(p, e, index, choice+".fc", nil, fc); err != nil {
					return err
				}
			}
			if fr := ch.get("finish_reason"); fr != nil && fr.kind == '"' {
				if err := o.endChoice(p, choice, e.pos(e.end)); err != nil {
					return err
				}
			}
		}
	}
	// The event's bytes: the last piece it carries covers them (the others
	// come before it with an empty span at the event's start), else markup.
	if len(pieces) == 0 {
		return s.coverChoice(p, e, "", false, max(only, 0))
	}
	for _, pc := range pieces[:len(pieces)-1] {
		if err := s.piece(p, e, pc.text, pc.thinking, pc.choice); err != nil {
			return err
		}
	}
	last := pieces[len(pieces)-1]
	return s.coverChoice(p, e, last.text, last.thinking, last.choice)
}

// chatPiece is text or thinking of one choice carried by an event.
type chatPiece struct {
	choice   int
	text     string
	thinking bool
}

// fragment reads one tool_calls element of call key.
func (o *openaiChat) fragment(p *Parser, e *sseEvent, choice int, key string, id, fn *jnode) error {
	c := o.calls[key]
	if c == nil {
		c = newAPICall(p, o.schema, key, e.startPos)
		c.choice = choice
		o.calls[key] = c
		o.order = append(o.order, c)
	}
	if v, ok := id.str(e.data); ok && c.callID == "" {
		c.callID = v
	}
	if v, ok := fn.get("name").str(e.data); ok && !c.started {
		c.name += v
	}
	if err := c.start(p, e.span(e.start, e.end)); err != nil {
		return err
	}
	return c.feedArgs(p, e, fn.get("arguments"))
}

// endChoice ends the open calls of a choice, in start order.
func (o *openaiChat) endChoice(p *Parser, choice string, at ast.Pos) error {
	kept := o.order[:0]
	var done []*apiCall
	for _, c := range o.order {
		if len(c.key) > len(choice) && c.key[:len(choice)+1] == choice+"." {
			done = append(done, c)
			delete(o.calls, c.key)
			continue
		}
		kept = append(kept, c)
	}
	o.order = kept
	for _, c := range done {
		if err := c.finish(p, at); err != nil {
			return err
		}
	}
	return nil
}

func (o *openaiChat) endAll(p *Parser, at ast.Pos) error {
	for _, c := range o.order {
		if err := c.finish(p, at); err != nil {
			return err
		}
	}
	o.order = o.order[:0]
	clear(o.calls)
	return nil
}

// end: calls still open when the stream ends without a finish_reason or
// [DONE] are finished there (their arguments are unterminated unless
// their JSON is complete).
func (o *openaiChat) end(s *sse, p *Parser, at ast.Pos) error { return o.endAll(p, at) }

// providerError reports an error object the API sent in the stream.
func providerError(s *sse, p *Parser, e *sseEvent, perr *jnode) error {
	msg, _ := perr.get("message").str(e.data)
	if msg == "" {
		msg, _ = perr.str(e.data)
	}
	for _, k := range []string{"type", "code"} {
		if t, ok := perr.get(k).str(e.data); ok && t != "" && t != "error" {
			msg = t + ": " + msg
			break
		}
	}
	return s.fail(p, e, 0, KindProviderError, fmt.Sprintf("the API reported an error: %s", msg),
		e.span(e.start, e.end), string(e.data))
}
