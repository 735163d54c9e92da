package stream

import (
	"fmt"
	"strings"

	"github.com/plangram/plangram/ast"
)

// The harmony format's tokens (gpt-oss).
const (
	hmStart     = "<|start|>"
	hmChannel   = "<|channel|>"
	hmMessage   = "<|message|>"
	hmEnd       = "<|end|>"
	hmCall      = "<|call|>"
	hmReturn    = "<|return|>"
	hmConstrain = "<|constrain|>"
)

// hmEnders end a message's body: the first three are part of it, the
// others begin the next message.
var hmEnders = []string{hmEnd, hmCall, hmReturn, hmStart, hmChannel}

// Harmony registers the harmony syntax (OpenAI's gpt-oss): messages
// <|start|>assistant<|channel|>CHANNEL<|message|>…<|end|>; the analysis
// channel is thinking, final (and commentary without a recipient) is
// text, and a message with a recipient (to=functions.NAME, in the role
// part or after the channel, optionally <|constrain|>json) is a call whose
// body is the JSON arguments, ended by <|call|>.
func (registry) Harmony() *Syntax {
	return &Syntax{Name: "harmony", Schema: "tools",
		Summary: "<|channel|>analysis<|message|>…<|end|>, <|channel|>commentary to=functions.NAME <|constrain|>json<|message|>{…}<|call|> (gpt-oss)",
		Markers: staticMarkers(hmStart, hmChannel),
		open: func(c *config) (scanner, error) {
			return &harmony{start: c.start, x: newProse(c.opts, c.start, []string{hmStart, hmChannel, hmEnd, hmCall, hmReturn}), c: newJCall(namesOf(c)), hide: c.opts.HideThinking}, nil
		}}
}

// harmony is the scanner of the harmony syntax.
type harmony struct {
	x     *prose
	c     *jcall
	hide  bool
	st    uint8
	at    int // where the message's header starts
	pos   int
	think bool // the body is thinking (analysis channel)
	mute  bool // the body is markup (a message to a built-in tool)
	// start is where the scanner begins; begun is set once the stream's
	// first bytes were checked for a header the template began.
	start int
	begun bool
}

// harmony's states.
const (
	hmText = iota
	hmHeader
	hmBody
	hmJSON
	hmClose
)

func (h *harmony) keep() int {
	switch h.st {
	case hmText:
		return h.x.keep()
	case hmHeader:
		return h.at
	case hmBody:
		return h.pos
	}
	return h.c.start
}

func (h *harmony) scan(p *Parser, eof bool) error { return steps(p, eof, h.step) }

func (h *harmony) step(p *Parser, eof bool) (bool, error) {
	switch h.st {
	case hmText:
		if !h.begun {
			// The generation prompt ends with <|start|>assistant: the
			// output may go on with the header (" to=functions.f<|channel|>…").
			b := p.bytes(h.start, p.end())
			i, _ := spaces(b, 0)
			full, part := match(b[i:], "to=")
			if part && !eof && i < maxMarkerSpace {
				return false, nil
			}
			h.begun = true
			if full {
				h.st, h.at, h.pos = hmHeader, h.start, h.start+i+3
				return true, nil
			}
		}
		k, at, end, err := h.x.next(p, eof)
		if err != nil || k < 0 {
			return false, err
		}
		if k >= 2 { // a stray end token (after a message whose header was prefilled): markup
			h.x.skip(end)
			return true, p.text(p.pos(at), end, true)
		}
		h.st, h.at, h.pos = hmHeader, at, end
	case hmHeader:
		// A header's end must start within maxHeader bytes of the header:
		// look no further, so that a long header is decided the same way
		// in every chunking and no byte is scanned twice per header.
		b, cut := window(p.bytes(h.pos, p.end()), h.at+maxHeader+longest(hmHeaderEnds)-h.pos)
		i, k := find(b, hmHeaderEnds, eof || cut)
		long := h.pos+i-h.at > maxHeader
		if long {
			k = -1
		}
		if k > 0 {
			return true, h.noMessage(p, h.pos+i)
		}
		if k < 0 && (long || eof) {
			// not a message header: its first token is text
			end := p.end()
			if long {
				end = h.at + len(hmStart)
				if strings.HasPrefix(string(p.bytes(h.at, h.pos)), hmChannel) {
					end = h.at + len(hmChannel)
				}
			} else {
				if _, to := hmHeaderFields(string(p.bytes(h.at, end))); to != "" {
					h.c.begin(p, h.at) // a call cut in its header
					return false, h.after(h.c.abort(p, end, hmMessage))
				}
				if strings.Contains(string(p.bytes(h.at, end)), hmChannel) {
					return true, h.noMessage(p, end) // the header names a channel: its message
				}
			}
			if err := p.text(p.pos(h.at), end, false); err != nil {
				return false, err
			}
			h.st = hmText
			h.x.skip(end)
			return true, nil
		}
		if k < 0 {
			h.pos += i
			return false, nil
		}
		end := h.pos + i + len(hmMessage)
		channel, to := hmHeaderFields(string(p.bytes(h.at, h.pos+i)))
		h.pos = end
		h.mute = false
		if to != "" && !hmToolMessage(string(p.bytes(h.at, end))) && !strings.HasPrefix(to, "functions.") {
			// a built-in tool (python, browser.search…), not a function
			// the client declared: no call, the message is markup
			h.think, h.mute, h.st = false, true, hmBody
			sp := p.span(h.at, end)
			if err := h.emit(p, h.at, end, ""); err != nil {
				return false, err
			}
			return true, p.send(&Event{Type: Error, Kind: KindUnknownTool, Severity: ast.Warning, Raw: p.str(h.at, end), Span: sp,
				Message: fmt.Sprintf("a message to the built-in tool %s is not a function call: it is left out of the text", to)})
		}
		if to != "" && !hmToolMessage(string(p.bytes(h.at, end))) {
			h.c.begin(p, h.at)
			if err := h.c.named(p, strings.TrimPrefix(to, "functions."), end); err != nil {
				return false, err
			}
			h.c.json(p, end, false)
			h.st = hmJSON
			return true, nil
		}
		h.think = channel == "analysis"
		h.st = hmBody
		return true, h.emit(p, h.at, end, "")
	case hmBody:
		b := p.bytes(h.pos, p.end())
		i, k := find(b, hmEnders, eof)
		at := h.pos + i
		body := string(b[:i])
		if h.mute {
			body = ""
		}
		if err := h.emit(p, h.pos, at, body); err != nil {
			return false, err
		}
		h.pos = at
		switch {
		case k < 0 && !eof:
			return false, nil
		case k < 0:
			h.st = hmText
			h.x.skip(at)
			return false, nil
		case k < 3:
			end := at + len(hmEnders[k])
			if err := h.emit(p, at, end, ""); err != nil {
				return false, err
			}
			h.pos = end
		}
		h.st = hmText
		h.x.skip(h.pos)
	case hmJSON:
		if h.c.jpos == h.pos { // an empty body is no arguments
			b := p.bytes(h.pos, p.end())
			i := p.spaces(h.pos)
			switch {
			case i > maxMarkerSpace: // a long run of white space: the JSON reader takes it
			case i == len(b) && !eof:
				return false, nil
			case i < len(b) && b[i] == '<':
				j, k := find(b[i:], []string{hmCall, hmEnd}, eof)
				if j == 0 && k < 0 && !eof {
					return false, nil // a cut token
				}
				if j == 0 && k >= 0 {
					h.c.jp.Fail() // no JSON: nothing to read
					h.st, h.pos = hmClose, h.pos+i
					return true, nil
				}
			}
		}
		done, err := h.c.feed(p, eof)
		if err != nil || !done {
			return false, err
		}
		h.st, h.pos = hmClose, h.c.jpos
	case hmClose:
		closes := []string{hmCall, hmEnd}
		at, k := closeAfter(p, h.c, h.pos, closes, eof)
		if k >= 0 {
			return true, h.after(h.c.finish(p, at+len(closes[k])))
		}
		h.pos = at
		if !eof {
			return false, nil
		}
		if h.c.complete() {
			// <|call|> is a stop token that servers often leave out
			return false, h.after(h.c.finish(p, p.end()))
		}
		return false, h.after(h.c.abort(p, p.end(), hmCall))
	}
	return true, nil
}

// after returns to text after a call.
func (h *harmony) after(err error) error {
	h.st = hmText
	h.x.skip(h.c.end)
	return err
}

// emit sends the message bytes [from, to): body text s, or markup when s
// is empty (a header or an end token), as thinking in the analysis
// channel, else as text.
func (h *harmony) emit(p *Parser, from, to int, s string) error {
	if to <= from {
		return nil
	}
	if !h.think {
		return p.text(p.pos(from), to, s == "")
	}
	sp := p.span(from, to) // moves the line tracker on, hidden or not
	if h.hide {
		return nil
	}
	return p.send(&Event{Type: Thinking, Text: s, Raw: p.str(from, to), Span: sp})
}

// hmHeaderEnds end a message header: <|message|>, or (a header the model
// wrote without it) an end token or the next message.
var hmHeaderEnds = []string{hmMessage, hmEnd, hmCall, hmReturn, hmStart}

// noMessage reads a message whose header [h.at, at) has no <|message|>
// (the model left it out): as openai/harmony's non-strict parser, the
// header's channel is the channel and the rest of it the content. A
// header naming a recipient is left as text.
func (h *harmony) noMessage(p *Parser, at int) error {
	hdr := string(p.bytes(h.at, at))
	channel, to := hmHeaderFields(hdr)
	body := 0
	if j := strings.Index(hdr, hmChannel); j >= 0 {
		body = j + len(hmChannel)
		body += len(hdr[body:]) - len(strings.TrimLeft(hdr[body:], " \t\r\n"))
		body += len(channel)
	} else if strings.HasPrefix(hdr, hmStart) {
		body = len(hmStart) + len("assistant")
		if !strings.HasPrefix(hdr[len(hmStart):], "assistant") {
			body = len(hmStart)
		}
	}
	if to != "" {
		body = len(hdr)
	}
	body = len(hdr) - len(strings.TrimLeft(hdr[body:], " \t\r\n"))
	h.think = channel == "analysis" && to == ""
	if err := h.emit(p, h.at, h.at+body, ""); err != nil {
		return err
	}
	h.st, h.pos = hmBody, h.at+body
	return nil
}

// hmToolMessage reports whether a message header is a tool's output to
// the assistant (to=assistant, or a role other than assistant), not a
// call.
func hmToolMessage(hdr string) bool {
	_, to := hmHeaderFields(hdr)
	if to == "assistant" {
		return true
	}
	if rest, ok := strings.CutPrefix(hdr, hmStart); ok {
		role := rest
		if i := strings.IndexAny(role, " \t\r\n<"); i >= 0 {
			role = role[:i]
		}
		return role != "" && role != "assistant"
	}
	return false
}

// hmHeaderFields returns the channel and the recipient of a message
// header (the bytes before <|message|>).
func hmHeaderFields(h string) (channel, to string) {
	word := func(s string) string {
		s = strings.TrimLeft(s, " \t\r\n")
		if i := strings.IndexAny(s, " \t\r\n<"); i >= 0 {
			s = s[:i]
		}
		return s
	}
	if i := strings.LastIndex(h, hmChannel); i >= 0 { // a stray header may come before
		channel = word(h[i+len(hmChannel):])
	}
	if i := strings.Index(h, "to="); i >= 0 {
		to = word(h[i+3:])
	}
	return channel, to
}
