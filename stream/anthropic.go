package stream

import (
	"strconv"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/schema"
)

// Anthropic registers the anthropic syntax: the Server-Sent Events of
// Anthropic's Messages API with "stream": true.
func (registry) Anthropic() *Syntax {
	return &Syntax{Name: "anthropic", Summary: "Anthropic Messages SSE (content_block_start/delta/stop: text_delta, thinking_delta, input_json_delta)",
		Schema: "tools", Markers: staticMarkers("event: message_start", `data: {"type":"message_start"`),
		open: openAPI(func(c *config) sseHandler { return &anthropic{schema: c.opts.Schema, starts: map[string]inputAt{}} })}
}

// anthropic reads message_start, content_block_start (a text, thinking or
// tool_use block; tool_use with the call's id and name),
// content_block_delta (text_delta, thinking_delta, input_json_delta with
// partial_json, signature_delta), content_block_stop (ends the block's
// call), message_delta, message_stop, ping and error events. Blocks are
// keyed by their index, so calls may interleave.
type anthropic struct {
	schema *schema.Schema
	calls  openCalls
	starts map[string]inputAt // tool_use blocks whose start gave a non-empty input
}

// inputAt is the JSON text of a content_block_start's input, kept in case
// no input_json_delta follows.
type inputAt struct {
	ev       *sseEvent
	from, to int
}

func (a *anthropic) event(s *sse, p *Parser, e *sseEvent) error {
	if e.data == nil {
		return s.cover(p, e, "", false)
	}
	root, typ, done, err := s.eventRoot(p, e)
	if done {
		return err
	}
	key := strconv.Itoa(root.get("index").int(e.data))
	switch typ {
	case "message_start":
		if err := a.end(p, e.pos(e.start)); err != nil { // a new message: its indexes start again
			return err
		}
	case "content_block_start":
		cb := root.get("content_block")
		switch t, _ := cb.get("type").str(e.data); t {
		case "tool_use", "server_tool_use":
			c := newAPICall(p, a.schema, key, e.startPos)
			c.name, _ = cb.get("name").str(e.data)
			c.callID, _ = cb.get("id").str(e.data)
			if old := a.calls.get(key); old != nil {
				if err := a.endBlock(p, key, e.pos(e.start)); err != nil {
					return err
				}
			}
			a.calls.add(c)
			if err := c.start(p, e.span(e.start, e.end)); err != nil {
				return err
			}
			if in := cb.get("input"); in != nil && in.kind == '{' && len(in.vals) > 0 {
				ev := *e
				ev.data = append([]byte(nil), e.data...)
				ev.dataLines = append([]dataLine(nil), e.dataLines...)
				ev.lineStarts = append([]int(nil), e.lineStarts...)
				a.starts[key] = inputAt{ev: &ev, from: in.start, to: in.end}
			}
		case "text":
			t, _ := cb.get("text").str(e.data)
			return s.cover(p, e, t, false)
		case "thinking":
			t, _ := cb.get("thinking").str(e.data)
			if t != "" && !s.hide {
				return s.cover(p, e, t, true)
			}
		}
	case "content_block_delta":
		d := root.get("delta")
		switch t, _ := d.get("type").str(e.data); t {
		case "text_delta":
			t, _ := d.get("text").str(e.data)
			return s.cover(p, e, t, false)
		case "thinking_delta":
			t, _ := d.get("thinking").str(e.data)
			if s.hide {
				break
			}
			return s.cover(p, e, t, true)
		case "input_json_delta":
			c := a.calls.get(key)
			if c == nil {
				if err := s.fail(p, e, KindOrphanDelta, "input_json_delta for content block "+key+", which is not an open tool_use block"); err != nil {
					return err
				}
				break
			}
			delete(a.starts, key)
			if err := c.feedArgs(p, e, d.get("partial_json")); err != nil {
				return err
			}
		}
	case "content_block_stop":
		if err := a.endBlock(p, key, e.pos(e.end)); err != nil {
			return err
		}
	case "error":
		if err := providerError(s, p, e, root.get("error")); err != nil {
			return err
		}
	}
	return s.cover(p, e, "", false)
}

// endBlock ends the call of content block key, if it is one.
func (a *anthropic) endBlock(p *Parser, key string, at ast.Pos) error {
	c := a.calls.get(key)
	if c == nil {
		return nil
	}
	a.calls.remove(c)
	if in, ok := a.starts[key]; ok && !c.fed {
		delete(a.starts, key)
		if err := c.feedRaw(p, in.ev, in.from, in.to); err != nil {
			return err
		}
	}
	return c.finish(p, at)
}

func (a *anthropic) end(p *Parser, at ast.Pos) error {
	return a.calls.each(func(c *apiCall) error { return a.endBlock(p, c.key, at) })
}
