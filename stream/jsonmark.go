package stream

import (
	"bytes"

	"github.com/plangram/plangram/ast"
)

// jsonForm describes a syntax whose calls are JSON after a start marker
// (hermes, mistral): one reader, jsonMarked, reads them all, so a syntax
// of this kind is a jsonForm and its registration.
type jsonForm struct {
	open string // the start marker
	// close ends a call; "" when a call ends with its JSON. With a close
	// marker, another envelope right after a call's JSON (after white
	// space or one comma) is the next call, and a JSON string where the
	// envelope belongs is read (a bad-json call) rather than left as text.
	close string
	array bool // the marker may be followed by a JSON array of envelopes
	// named: the marker may be followed by NAME[ARGS]{…},
	// NAME[CALL_ID]ID[ARGS]{…} or NAME{…} (Mistral's v11 form).
	named bool
}

// jsonSyntax registers the syntax name read by form f.
func jsonSyntax(name, summary string, f *jsonForm, markers ...string) *Syntax {
	return &Syntax{Name: name, Schema: "tools", Summary: summary, Markers: staticMarkers(markers...),
		open: func(c *config) (scanner, error) {
			return &jsonMarked{f: f, x: newProse(c.opts, c.start, []string{f.open}), c: newJCall(namesOf(c))}, nil
		}}
}

// Hermes registers the hermes syntax: <tool_call>{"name": …, "arguments":
// {…}}</tool_call>, the default tool-call format of the Hermes models and
// of the Qwen2.5 and Qwen3 chat templates, with any white space around
// the JSON and several calls in a row.
func (registry) Hermes() *Syntax {
	return jsonSyntax("hermes", `<tool_call>{"name": …, "arguments": {…}}</tool_call> (Hermes, Qwen2.5, Qwen3)`,
		&jsonForm{open: "<tool_call>", close: "</tool_call>"}, "<tool_call> {")
}

// Mistral registers the mistral syntax: [TOOL_CALLS][{"name": …,
// "arguments": {…}}, …] (Mistral 7B v0.3, Nemo) and the v11 form
// [TOOL_CALLS]NAME[ARGS]{…} (Mistral Small 3.1+, Devstral, Magistral),
// optionally with [CALL_ID]ID before [ARGS]; a detokenizer that drops the
// special tokens leaves [TOOL_CALLS]NAME{…}, which is read too. Each call
// ends with its JSON.
func (registry) Mistral() *Syntax {
	return jsonSyntax("mistral", `[TOOL_CALLS][{"name": …, "arguments": {…}}] and [TOOL_CALLS]NAME[ARGS]{…}`,
		&jsonForm{open: "[TOOL_CALLS]", array: true, named: true}, "[TOOL_CALLS]")
}

// The markup of the named form (Mistral v11) after the tool's name.
const (
	namedArgs   = "[ARGS]"
	namedCallID = "[CALL_ID]"
)

// jsonMarked is the scanner of a jsonForm syntax.
type jsonMarked struct {
	f   *jsonForm
	x   *prose
	c   *jcall
	st  uint8
	at  int // where the start marker starts
	pos int
	arr bool // the call is an element of an array
	// arrAt is where the array's start marker starts.
	arrAt ast.Pos
	// next: right after a call's JSON, where another call's JSON may
	// follow before the close marker (after white space or a comma).
	next bool
}

// jsonMarked's states.
const (
	jmText  = iota
	jmAfter // after the start marker
	jmArray // between the elements of the array
	jmName  // after the tool's name (named form)
	jmID    // in [CALL_ID]…
	jmJSON
	jmClose // after the JSON, up to the close marker
)

func (m *jsonMarked) keep() int {
	switch m.st {
	case jmText:
		return m.x.keep()
	case jmAfter:
		return m.at
	case jmArray:
		return m.pos
	}
	return m.c.start
}

func (m *jsonMarked) scan(p *Parser, eof bool) error {
	for {
		if more, err := m.step(p, eof); err != nil || !more {
			return err
		}
	}
}

func (m *jsonMarked) step(p *Parser, eof bool) (bool, error) {
	f := m.f
	switch m.st {
	case jmText:
		k, at, end, err := m.x.next(p, eof)
		if err != nil || k < 0 {
			return false, err
		}
		m.st, m.at, m.pos = jmAfter, at, end
	case jmAfter:
		// The marker opens a call when JSON (or, in the named form, a
		// name) follows it; anything else (another syntax's <tool_call>NAME)
		// leaves it as text.
		b := p.bytes(m.pos, p.end())
		i := p.spaces(m.pos)
		switch {
		case i == len(b) && !eof:
			return false, nil
		case i == len(b):
			m.c.begin(p, m.at)
			return false, m.text(m.c.abort(p, p.end(), f.close))
		case f.array && b[i] == '[':
			end := m.pos + i + 1
			m.arrAt = p.pos(m.at)
			m.st, m.pos = jmArray, end
			return true, p.text(p.pos(m.at), end, true)
		case b[i] == '{' || b[i] == '"' && f.close != "":
			m.arr = false
			m.c.begin(p, m.at)
			m.c.json(p, m.pos+i, true)
			m.st = jmJSON
		case f.named && isName(b[i]) && i == 0:
			j, more := nameEnd(b, i)
			if more && !eof {
				return false, nil
			}
			m.arr = false
			m.c.begin(p, m.at)
			m.pos += j
			// ToolCallStart waits for [ARGS]: a [CALL_ID] may come first
			m.c.setName(p, string(b[i:j]), m.pos)
			m.st = jmName
		default: // not a call: the marker is text
			if f.close == "" {
				i = 0
			}
			if err := p.text(p.pos(m.at), m.pos+i, false); err != nil {
				return false, err
			}
			m.pos += i
			return true, m.text(nil)
		}
	case jmArray:
		b := p.bytes(m.pos, p.end())
		i := skipSpace(b)
		if i == len(b) {
			err := p.text(p.pos(m.pos), m.pos+i, true)
			m.pos += i
			if !eof || err != nil {
				return false, err
			}
			m.x.skip(m.pos)
			m.st = jmText
			return true, p.send(&Event{Type: Error, Kind: KindUnterminated, Message: "the " + f.open + " array is not closed by ]",
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
			m.st = jmJSON
		case ',', ']':
			end := m.pos + i + 1
			if err := p.text(p.pos(m.pos), end, true); err != nil {
				return false, err
			}
			m.pos = end
			if b[i] == ']' {
				m.x.skip(end)
				m.st = jmText
			}
		default: // the array ends: text resumes
			if err := p.text(p.pos(m.pos), m.pos+i, true); err != nil {
				return false, err
			}
			m.x.skip(m.pos + i)
			m.st = jmText
		}
	case jmName:
		b := p.bytes(m.pos, p.end())
		switch {
		case len(b) == 0:
			return m.starve(p, eof)
		case b[0] == '{' || b[0] == '"':
			return true, m.args(p)
		}
		for _, tag := range []string{namedArgs, namedCallID} {
			full, part := match(b, tag)
			if full {
				m.pos += len(tag)
				if tag == namedArgs {
					return true, m.args(p)
				}
				m.st = jmID
				return true, nil
			}
			if part && !eof {
				return false, nil
			}
		}
		return true, m.bad(p, "want [ARGS] or the JSON arguments after the tool's name")
	case jmID:
		// the id is at most maxHeader bytes: [ARGS] is looked for no further
		b, _ := window(p.bytes(m.pos, p.end()), maxHeader+len(namedArgs))
		j := bytes.Index(b, []byte(namedArgs))
		if j > maxHeader {
			j = -1
		}
		if j < 0 {
			if len(b) == maxHeader+len(namedArgs) { // none can start within the bound now
				return true, m.bad(p, "no [ARGS] within 256 bytes after [CALL_ID]")
			}
			return m.starve(p, eof)
		}
		m.c.callID = string(bytes.TrimSpace(b[:j]))
		m.pos += j + len(namedArgs)
		return true, m.args(p)
	case jmJSON:
		done, err := m.c.feed(p, eof)
		if err != nil || !done {
			return false, err
		}
		if f.close != "" {
			m.st, m.pos, m.next = jmClose, m.c.jpos, m.c.complete()
			return true, nil
		}
		if m.c.cut {
			return false, m.text(m.c.abort(p, p.end(), f.close))
		}
		return true, m.finish(p, m.c.jpos)
	case jmClose:
		if m.next {
			more, err := m.another(p, eof)
			if err != nil || more {
				return false, err
			}
			if m.st == jmJSON {
				return true, nil
			}
		}
		at, k := closeAfter(p, m.c, m.pos, []string{f.close}, eof)
		if k >= 0 {
			return true, m.text(m.c.finish(p, at+len(f.close)))
		}
		m.pos = at
		if !eof {
			return false, nil
		}
		if m.c.complete() {
			return false, m.text(m.c.finishUnclosed(p, p.end(), f.close))
		}
		return false, m.text(m.c.abort(p, p.end(), f.close))
	}
	return true, nil
}

// another looks right after a call's JSON for the JSON of another call
// before the close marker ({…}, {…} or {…}\n{…}, as models sometimes
// write several calls in one <tool_call>): it ends the call there and
// starts the next one. more reports that the bytes so far cannot tell
// yet. The look is bounded, so no byte is scanned more than a bounded
// number of times.
func (m *jsonMarked) another(p *Parser, eof bool) (more bool, err error) {
	b := p.bytes(m.pos, p.end())
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
		m.next = false
		return false, nil
	}
	if err := m.c.finish(p, m.pos); err != nil {
		return false, err
	}
	if err := p.text(p.pos(m.pos), m.pos+i, true); err != nil {
		return false, err
	}
	m.c.begin(p, m.pos+i)
	m.c.json(p, m.pos+i, true)
	m.st, m.next = jmJSON, false
	return false, nil
}

// finish ends a call without a close marker at offset end: back to the
// array or to text.
func (m *jsonMarked) finish(p *Parser, end int) error {
	err := m.c.finish(p, end)
	m.pos = end
	if m.arr && !m.c.jp.Failed() {
		m.st = jmArray
		return err
	}
	return m.text(err)
}

// args starts the call's JSON arguments at m.pos.
func (m *jsonMarked) args(p *Parser) error {
	m.c.json(p, m.pos, false)
	m.st = jmJSON
	return m.c.sendStart(p)
}

// bad fails the call at m.pos, where its arguments are missing.
func (m *jsonMarked) bad(p *Parser, msg string) error {
	m.c.fail(p, KindBadJSON, msg, p.span(m.pos, m.pos))
	m.c.json(p, m.pos, false)
	m.c.jp.Fail()
	return m.finish(p, m.pos)
}

// starve waits for more bytes; at eof the open call is unterminated.
func (m *jsonMarked) starve(p *Parser, eof bool) (bool, error) {
	if !eof {
		return false, nil
	}
	return false, m.text(m.c.abort(p, p.end(), m.f.close))
}

// text resumes text after the last call.
func (m *jsonMarked) text(err error) error {
	m.st = jmText
	m.x.skip(max(m.c.end, m.pos))
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
