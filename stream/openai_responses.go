package stream

import (
	"cmp"
	"strconv"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/schema"
)

// OpenAIResponses registers the openai-responses syntax: the Server-Sent
// Events of OpenAI's Responses API with "stream": true.
func (registry) OpenAIResponses() *Syntax {
	return &Syntax{Name: "openai-responses", Summary: "OpenAI Responses API SSE (response.output_text.delta, response.function_call_arguments.delta…)",
		Schema: "tools", Markers: staticMarkers("event: response.created", `data: {"type":"response.created"`),
		open: openAPI(func(c *config) sseHandler {
			return &openaiResponses{schema: c.opts.Schema, byOut: map[int]*apiCall{}}
		})}
}

// openaiResponses reads typed events: response.output_text.delta and
// response.refusal.delta (text), response.reasoning_summary_text.delta and
// response.reasoning_text.delta (thinking), response.output_item.added of
// a function_call item (a call: name, call_id), its
// response.function_call_arguments.delta fragments, and
// response.function_call_arguments.done or response.output_item.done
// (the call's end). Calls are keyed by item id, else output index. The
// other events (response.created, …, response.completed) are markup.
type openaiResponses struct {
	schema *schema.Schema
	calls  openCalls
	byOut  map[int]*apiCall // open calls by output index
}

func (o *openaiResponses) event(s *sse, p *Parser, e *sseEvent) error {
	if e.data == nil || string(e.data) == "[DONE]" {
		return s.cover(p, e, "", false)
	}
	root, typ, done, err := s.eventRoot(p, e)
	if done {
		return err
	}
	delta, _ := root.get("delta").str(e.data)
	switch typ {
	case "response.output_text.delta", "response.refusal.delta":
		return s.cover(p, e, delta, false)
	case "response.reasoning_summary_text.delta", "response.reasoning_text.delta":
		if !s.hide {
			return s.cover(p, e, delta, true)
		}
	case "response.output_item.added":
		item := root.get("item")
		if t, _ := item.get("type").str(e.data); t == "function_call" || t == "custom_tool_call" {
			key := "out:" + strconv.Itoa(root.get("output_index").int(e.data)) // the item id, else the output index
			if id, _ := item.get("id").str(e.data); id != "" {
				key = "id:" + id
			}
			c := newAPICall(p, o.schema, key, e.startPos)
			c.name, _ = item.get("name").str(e.data)
			c.callID, _ = item.get("call_id").str(e.data)
			c.out = root.get("output_index").int(e.data)
			if old := o.calls.get(key); old != nil {
				if err := o.endCall(p, old, e.pos(e.start)); err != nil {
					return err
				}
			}
			o.calls.add(c)
			if c.out >= 0 {
				o.byOut[c.out] = c
			}
			if err := c.start(p, e.span(e.start, e.end)); err != nil {
				return err
			}
			if err := c.feedArgs(p, e, item.get("arguments")); err != nil {
				return err
			}
		}
	case "response.function_call_arguments.delta", "response.custom_tool_call_input.delta":
		c := o.find(e, root)
		if c == nil {
			if err := s.fail(p, e, KindOrphanDelta, "arguments for a function_call item the stream did not add"); err != nil {
				return err
			}
			break
		}
		if err := c.feedArgs(p, e, root.get("delta")); err != nil {
			return err
		}
	case "response.function_call_arguments.done", "response.output_item.done":
		args := root.get("arguments")
		if typ == "response.output_item.done" {
			item := root.get("item")
			if t, _ := item.get("type").str(e.data); t != "function_call" {
				break
			}
			args = item.get("arguments")
			root = item
		}
		c := o.find(e, root)
		if c == nil {
			break // already ended by function_call_arguments.done
		}
		if !c.fed {
			if err := c.feedArgs(p, e, args); err != nil { // no delta came: the whole arguments
				return err
			}
		}
		if err := o.endCall(p, c, e.pos(e.end)); err != nil {
			return err
		}
	case "error":
		perr := cmp.Or(root.get("error"), root)
		if err := providerError(s, p, e, perr); err != nil {
			return err
		}
	case "response.failed", "response.incomplete":
		if err := o.end(p, e.pos(e.end)); err != nil {
			return err
		}
		if perr := root.get("response").get("error"); perr != nil && perr.kind == '{' {
			if err := providerError(s, p, e, perr); err != nil {
				return err
			}
		}
	case "response.completed":
		if err := o.end(p, e.pos(e.end)); err != nil {
			return err
		}
	}
	return s.cover(p, e, "", false)
}

// find returns the open call an event (or item) n concerns.
func (o *openaiResponses) find(e *sseEvent, n *jnode) *apiCall {
	for _, k := range []*jnode{n.get("item_id"), n.get("id")} {
		if v, ok := k.str(e.data); ok && v != "" {
			if c := o.calls.get("id:" + v); c != nil {
				return c
			}
		}
	}
	if idx := n.get("output_index").int(e.data); idx >= 0 {
		return o.byOut[idx]
	}
	return nil
}

func (o *openaiResponses) endCall(p *Parser, c *apiCall, at ast.Pos) error {
	o.calls.remove(c)
	if c.out >= 0 && o.byOut[c.out] == c {
		delete(o.byOut, c.out)
	}
	return c.finish(p, at)
}

func (o *openaiResponses) end(p *Parser, at ast.Pos) error {
	return o.calls.each(func(c *apiCall) error { return o.endCall(p, c, at) })
}
