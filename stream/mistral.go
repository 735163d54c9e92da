package stream

import (
	"bytes"

	"github.com/plangram/plangram/ast"
)

// The mistral syntax's markup.
const (
	mistralCalls  = "[TOOL_CALLS]"
	mistralArgs   = "[ARGS]"
	mistralCallID = "[CALL_ID]"
	// mistralEnd: a mistral call has no closing marker (see jcall.abort).
	mistralEnd = ""
)

// Mistral registers the mistral syntax: [TOOL_CALLS][{"name": …,
// "arguments": {…}}, …] (Mistral 7B v0.3, Nemo) and the v11 form
// [TOOL_CALLS]NAME[ARGS]{…} (Mistral Small 3.1+, Devstral, Magistral),
// optionally with [CALL_ID]ID before [ARGS]; a detokenizer that drops the
// special tokens leaves [TOOL_CALLS]NAME{…}, which is read too. Each call
// ends with its JSON.
func (registry) Mistral() *Syntax {
	return &Syntax{Name: "mistral", Schema: "tools",
		Summary: `[TOOL_CALLS][{"name": …, "arguments": {…}}] and [TOOL_CALLS]NAME[ARGS]{…}`,
		Markers: staticMarkers(mistralCalls),
		open: func(c *config) (scanner, error) {
			return &mistral{x: newProse(c.opts, c.start, []string{mistralCalls}), c: newJCall(namesOf(c))}, nil
		}}
}

// mistral is the scanner of the mistral syntax.
type mistral struct {
	x   *prose
	c   *jcall
	st  uint8
	at  int // where [TOOL_CALLS] starts
	pos int
	arr bool // the call is an element of a [TOOL_CALLS][…] array
	// arrAt is where the array's [TOOL_CALLS] starts.
	arrAt ast.Pos
}

// mistral's states.
const (
	msText  = iota
	msAfter // after [TOOL_CALLS]
	msArray // between the elements of the array
	msName  // after the tool's name (v11)
	msID    // in [CALL_ID]…
	msJSON
)

func (m *mistral) keep() int {
	switch m.st {
	case msText:
		return m.x.keep()
	case msAfter:
		return m.at
	case msArray:
		return m.pos
	}
	return m.c.start
}

func (m *mistral) scan(p *Parser, eof bool) error {
	for {
		if more, err := m.step(p, eof); err != nil || !more {
			return err
		}
	}
}

func (m *mistral) step(p *Parser, eof bool) (bool, error) {
	switch m.st {
	case msText:
		k, at, end, err := m.x.next(p, eof)
		if err != nil || k < 0 {
			return false, err
		}
		m.st, m.at, m.pos = msAfter, at, end
	case msAfter:
		b := p.bytes(m.pos, p.end())
		i := p.spaces(m.pos)
		switch {
		case i == len(b) && !eof:
			return false, nil
		case i == len(b):
			m.c.begin(p, m.at)
			return false, m.text(m.c.abort(p, p.end(), mistralEnd))
		case b[i] == '[':
			end := m.pos + i + 1
			m.arrAt = p.pos(m.at)
			m.st, m.pos = msArray, end
			return true, p.text(p.pos(m.at), end, true)
		case b[i] == '{':
			m.arr = false
			m.c.begin(p, m.at)
			m.c.json(p, m.pos+i, true)
			m.st = msJSON
		case isName(b[i]) && i == 0:
			j, more := nameEnd(b, i)
			if more && !eof {
				return false, nil
			}
			m.arr = false
			m.c.begin(p, m.at)
			m.pos += j
			// ToolCallStart waits for [ARGS]: a [CALL_ID] may come first
			m.c.setName(p, string(b[i:j]), m.pos)
			m.st = msName
		default: // not a call: the marker is text
			if err := p.text(p.pos(m.at), m.pos, false); err != nil {
				return false, err
			}
			return true, m.text(nil)
		}
	case msArray:
		b := p.bytes(m.pos, p.end())
		i := skipSpace(b)
		if i == len(b) {
			err := p.text(p.pos(m.pos), m.pos+i, true)
			m.pos += i
			if !eof || err != nil {
				return false, err
			}
			m.x.skip(m.pos)
			m.st = msText
			return true, p.send(&Event{Type: Error, Kind: KindUnterminated, Message: "the [TOOL_CALLS] array is not closed by ]",
				Span: ast.Span{Start: m.arrAt, End: p.pos(m.pos)}})
		}
		switch b[i] {
		case '{':
			if err := p.text(p.pos(m.pos), m.pos+i, true); err != nil {
				return false, err
			}
			m.arr = true
			m.c.begin(p, m.pos+i)
			m.c.json(p, m.pos+i, true)
			m.st = msJSON
		case ',', ']':
			end := m.pos + i + 1
			if err := p.text(p.pos(m.pos), end, true); err != nil {
				return false, err
			}
			m.pos = end
			if b[i] == ']' {
				m.x.skip(end)
				m.st = msText
			}
		default: // the array ends: text resumes
			if err := p.text(p.pos(m.pos), m.pos+i, true); err != nil {
				return false, err
			}
			m.x.skip(m.pos + i)
			m.st = msText
		}
	case msName:
		b := p.bytes(m.pos, p.end())
		switch {
		case len(b) == 0:
			return m.starve(p, eof)
		case b[0] == '{' || b[0] == '"':
			return true, m.args(p)
		}
		for _, tag := range []string{mistralArgs, mistralCallID} {
			full, part := match(b, tag)
			if full {
				m.pos += len(tag)
				if tag == mistralArgs {
					return true, m.args(p)
				}
				m.st = msID
				return true, nil
			}
			if part && !eof {
				return false, nil
			}
		}
		return true, m.bad(p, "want [ARGS] or the JSON arguments after the tool's name")
	case msID:
		// the id is at most maxHeader bytes: [ARGS] is looked for no further
		b, _ := window(p.bytes(m.pos, p.end()), maxHeader+len(mistralArgs))
		j := bytes.Index(b, []byte(mistralArgs))
		if j > maxHeader {
			j = -1
		}
		if j < 0 {
			if len(b) == maxHeader+len(mistralArgs) { // none can start within the bound now
				return true, m.bad(p, "no [ARGS] within 256 bytes after [CALL_ID]")
			}
			return m.starve(p, eof)
		}
		m.c.callID = string(bytes.TrimSpace(b[:j]))
		m.pos += j + len(mistralArgs)
		return true, m.args(p)
	case msJSON:
		done, err := m.c.feed(p, eof)
		if err != nil || !done {
			return false, err
		}
		if m.c.cut {
			return false, m.text(m.c.abort(p, p.end(), mistralEnd))
		}
		return true, m.finish(p, m.c.jpos)
	}
	return true, nil
}

// finish ends the call at offset end: back to the array or to text.
func (m *mistral) finish(p *Parser, end int) error {
	err := m.c.finish(p, end)
	m.pos = end
	if m.arr && !m.c.jp.Failed() {
		m.st = msArray
		return err
	}
	return m.text(err)
}

// args starts the call's JSON arguments at m.pos.
func (m *mistral) args(p *Parser) error {
	m.c.json(p, m.pos, false)
	m.st = msJSON
	return m.c.sendStart(p)
}

// bad fails the call at m.pos, where its arguments are missing.
func (m *mistral) bad(p *Parser, msg string) error {
	m.c.fail(p, KindBadJSON, msg, p.span(m.pos, m.pos))
	m.c.json(p, m.pos, false)
	m.c.jp.Fail()
	return m.finish(p, m.pos)
}

// starve waits for more bytes; at eof the open call is unterminated.
func (m *mistral) starve(p *Parser, eof bool) (bool, error) {
	if !eof {
		return false, nil
	}
	return false, m.text(m.c.abort(p, p.end(), mistralEnd))
}

// text resumes text after the last call.
func (m *mistral) text(err error) error {
	m.st = msText
	m.x.skip(max(m.c.end, m.pos))
	return err
}
