package stream

import (
	"fmt"
	"slices"
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
		open: openAPI(func(c *config) sseHandler { return &openaiChat{schema: c.opts.Schema, choices: map[int]*openCalls{}} })}
}

// openAPI returns the open function of an SSE syntax.
func openAPI(h func(c *config) sseHandler) func(c *config) (scanner, error) {
	return func(c *config) (scanner, error) {
		return &sse{h: h(c), hide: c.opts.HideThinking, start: c.start, pos: c.start}, nil
	}
}

// openaiChat reads chat.completion.chunk objects: each choice's delta
// carries content (text), reasoning_content or reasoning (thinking), and
// tool_calls fragments keyed by index — the first with the call's id and
// function name, the next with pieces of function.arguments — and the
// choice's finish_reason ends its calls. data: [DONE] ends the stream.
type openaiChat struct {
	schema *schema.Schema // nil: calls are not typed (no registry given)
	// choices holds each choice's open calls, keyed by choice.index: a
	// finish_reason ends its choice's calls only.
	choices map[int]*openCalls
	done    bool // data: [DONE] came, and no event after it yet
}

func (o *openaiChat) event(s *sse, p *Parser, e *sseEvent) error {
	if e.data == nil || string(e.data) == "[DONE]" {
		if e.data != nil {
			o.done = true
			if err := o.end(p, e.pos(e.end)); err != nil {
				return err
			}
		}
		return s.cover(p, e, "", false)
	}
	if o.done { // read on: nothing is dropped, but the stream was said to be over
		o.done = false
		if err := p.send(&Event{Type: Error, Kind: KindBadEvent, Severity: ast.Warning, Span: e.span(e.start, e.start),
			Message: "an event after data: [DONE], which ends the stream: it is read as the stream goes on"}); err != nil {
			return err
		}
	}
	root, _, done, err := s.eventRoot(p, e)
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
			index, err := badIndex(p, e, ch.get("index"), 0, "choices[].index")
			if err != nil {
				return err
			}
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
					idx, err := badIndex(p, e, tc.get("index"), i, "tool_calls[].index")
					if err != nil {
						return err
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
			if fr := ch.get("finish_reason"); fr != nil && fr.kind == '"' && o.choices[index] != nil { // ends the choice's calls
				set := o.choices[index]
				delete(o.choices, index)
				if err := set.each(func(c *apiCall) error { return c.finish(p, e.pos(e.end)) }); err != nil {
					return err
				}
			}
		}
	}
	// The event's bytes: the last piece it carries covers them (the others
	// come before it with an empty span at the event's start), else markup.
	if len(pieces) == 0 {
		return s.emit(p, e, "", false, max(only, 0), true)
	}
	for _, pc := range pieces[:len(pieces)-1] {
		if err := s.emit(p, e, pc.text, pc.thinking, pc.choice, false); err != nil {
			return err
		}
	}
	last := pieces[len(pieces)-1]
	return s.emit(p, e, last.text, last.thinking, last.choice, true)
}

// chatPiece is text or thinking of one choice carried by an event.
type chatPiece struct {
	choice   int
	text     string
	thinking bool
}

// badIndex returns the value of an index member n: a non-negative
// integer, else def — missing, or reported with a warning when it is
// something else (negative, fractional, a string, too large).
func badIndex(p *Parser, e *sseEvent, n *jnode, def int, what string) (int, error) {
	if n == nil {
		return def, nil
	}
	if v := n.int(e.data); v >= 0 {
		return v, nil
	}
	raw := string(e.data[n.start:n.end])
	return def, p.send(&Event{Type: Error, Kind: KindBadEvent, Severity: ast.Warning, Raw: raw, Span: e.dataSpan(n.start, n.end),
		Message: fmt.Sprintf("%s %s is not a non-negative integer: %d is used", what, raw, def)})
}

// fragment reads one tool_calls element of call key.
//
// A fragment that names another call than the one open under its key — a
// different id, or a name after that call's arguments are complete —
// starts a new call (some servers give every call index 0); the open one
// is finished first.
func (o *openaiChat) fragment(p *Parser, e *sseEvent, choice int, key string, id, fn *jnode) error {
	set := o.choices[choice]
	if set == nil {
		set = &openCalls{}
		o.choices[choice] = set
	}
	c := set.get(key)
	idv, _ := id.str(e.data)
	name, _ := fn.get("name").str(e.data)
	if c != nil && (idv != "" && c.callID != "" && idv != c.callID || c.ended && name != "" && name != c.name) {
		if err := c.finish(p, e.pos(e.start)); err != nil {
			return err
		}
		set.remove(c)
		c = nil
	}
	if c == nil {
		c = newAPICall(p, o.schema, key, e.startPos)
		c.choice = choice
		set.add(c)
	}
	if idv != "" && c.callID == "" {
		c.callID = idv
	}
	if v, ok := fn.get("name").str(e.data); ok && !c.started {
		c.name += v
	}
	if err := c.start(p, e.span(e.start, e.end)); err != nil {
		return err
	}
	return c.feedArgs(p, e, fn.get("arguments"))
}

// end ends every open call, in start order (ids grow with it): at a
// finish_reason, [DONE] or the end of the stream.
func (o *openaiChat) end(p *Parser, at ast.Pos) error {
	var all []*apiCall
	for _, set := range o.choices {
		all = append(all, set.all()...)
	}
	clear(o.choices)
	slices.SortFunc(all, func(a, b *apiCall) int { return a.id - b.id })
	for _, c := range all {
		if err := c.finish(p, at); err != nil {
			return err
		}
	}
	return nil
}

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
	return s.fail(p, e, KindProviderError, "the API reported an error: "+msg)
}
