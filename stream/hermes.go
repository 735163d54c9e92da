package stream

// The hermes syntax's markup.
const (
	hermesOpen  = "<tool_call>"
	hermesClose = "</tool_call>"
)

// Hermes registers the hermes syntax: <tool_call>{"name": …, "arguments":
// {…}}</tool_call>, the default tool-call format of the Hermes models and
// of the Qwen2.5 and Qwen3 chat templates, with any white space around
// the JSON and several calls in a row.
func (registry) Hermes() *Syntax {
	return &Syntax{Name: "hermes", Schema: "tools",
		Summary: `<tool_call>{"name": …, "arguments": {…}}</tool_call> (Hermes, Qwen2.5, Qwen3)`,
		Markers: staticMarkers("<tool_call> {"),
		open: func(c *config) (scanner, error) {
			return &hermes{x: newProse(c.opts, c.start, []string{hermesOpen}), c: newJCall(namesOf(c))}, nil
		}}
}

// hermes is the scanner of the hermes syntax.
type hermes struct {
	x   *prose
	c   *jcall
	st  uint8 // 0 text, 1 after <tool_call>, 2 in the JSON, 3 after it
	at  int   // where <tool_call> starts
	pos int
	// next: right after a call's JSON, where another call's JSON may
	// follow inside the same <tool_call> (after white space or a comma).
	next bool
}

func (h *hermes) keep() int {
	switch h.st {
	case 0:
		return h.x.keep()
	case 1:
		return h.at
	}
	return h.c.start
}

func (h *hermes) scan(p *Parser, eof bool) error {
	for {
		switch h.st {
		case 0:
			k, at, end, err := h.x.next(p, eof)
			if err != nil || k < 0 {
				return err
			}
			h.st, h.at, h.pos = 1, at, end
		case 1:
			// <tool_call> opens a call when JSON follows it; anything else
			// (another syntax's <tool_call>NAME) leaves it as text.
			b := p.bytes(h.pos, p.end())
			i := p.spaces(h.pos)
			switch {
			case i < len(b) && (b[i] == '{' || b[i] == '"'):
				h.c.begin(p, h.at)
				h.c.json(p, h.pos+i, true)
				h.st = 2
			case i < len(b):
				if err := p.text(p.pos(h.at), h.pos+i, false); err != nil {
					return err
				}
				h.x.skip(h.pos + i)
				h.st = 0
			case !eof:
				return nil
			default:
				h.c.begin(p, h.at)
				return h.end(p, h.c.abort(p, p.end(), hermesClose))
			}
		case 2:
			done, err := h.c.feed(p, eof)
			if err != nil || !done {
				return err
			}
			h.st, h.pos, h.next = 3, h.c.jpos, h.c.complete()
		case 3:
			if h.next {
				more, err := h.another(p, eof)
				if err != nil || more {
					return err
				}
				if h.st == 2 {
					continue
				}
			}
			at, k := closeAfter(p, h.c, h.pos, []string{hermesClose}, eof)
			if k < 0 {
				h.pos = at
				if !eof {
					return nil
				}
				if h.c.complete() {
					return h.end(p, h.c.finishUnclosed(p, p.end(), hermesClose))
				}
				return h.end(p, h.c.abort(p, p.end(), hermesClose))
			}
			if err := h.end(p, h.c.finish(p, at+len(hermesClose))); err != nil {
				return err
			}
		}
	}
}

// another looks right after a call's JSON for the JSON of another call in
// the same <tool_call> ({…}, {…} or {…}\n{…}, as models sometimes write
// several calls): it ends the call there and starts the next one. more
// reports that the bytes so far cannot tell yet. The look is bounded, so
// no byte is scanned more than a bounded number of times.
func (h *hermes) another(p *Parser, eof bool) (more bool, err error) {
	b := p.bytes(h.pos, p.end())
	const limit = 2*maxMarkerSpace + 1
	i, comma := 0, false
	for i < len(b) && i < limit && (isSpace(b[i]) || b[i] == ',' && !comma) {
		comma = comma || b[i] == ','
		i++
	}
	switch {
	case i == len(b) && i < limit && !eof:
		return true, nil
	case i == len(b) || b[i] != '{':
		h.next = false
		return false, nil
	}
	if err := h.c.finish(p, h.pos); err != nil {
		return false, err
	}
	if err := p.text(p.pos(h.pos), h.pos+i, true); err != nil {
		return false, err
	}
	h.c.begin(p, h.pos+i)
	h.c.json(p, h.pos+i, true)
	h.st, h.next = 2, false
	return false, nil
}

// end returns to text after the call.
func (h *hermes) end(p *Parser, err error) error {
	h.st = 0
	h.x.skip(h.c.end)
	return err
}

// closeAfter looks for the call's closing marker (one of closes) from
// offset pos on, after its JSON: it returns the marker's offset and index
// in closes, or (how far the bytes are decided, -1). Text before the
// marker other than white space is stray (reported once), unless the JSON
// stopped at a syntax error.
func closeAfter(p *Parser, c *jcall, pos int, closes []string, eof bool) (int, int) {
	b := p.bytes(pos, p.end())
	i, k := find(b, closes, eof)
	if j := skipSpace(b[:i]); j < i && !c.jp.Failed() {
		c.strayText(pos+j, pos+i)
	}
	return pos + i, k
}
