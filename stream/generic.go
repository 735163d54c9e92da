package stream

import (
	"cmp"

	"github.com/plangram/plangram/stream/jsonargs"
)

// Generic registers the generic syntax (llama.cpp's format for models
// without a tool-call format of their own): the answer is one JSON object,
// {"tool_call": {"name": …, "arguments": {…}}}, {"tool_calls": [{…}, …]}
// or {"response": "…"}, whose response is the text. auto picks it at
// {"tool_call": {"name" or {"tool_calls": [{"name": JSON that merely has
// a "response" is an answer's.
func (registry) Generic() *Syntax {
	f := &jsonForm{open: `{ "tool_calls" :`, alts: []string{`{ "tool_call" :`}, respond: `{ "response" :`, array: true, end: "}"}
	return jsonSyntax("generic", `{"tool_call": {"name": …, "arguments": {…}}}, {"tool_calls": […]} or {"response": "…"}`, f,
		`{ "tool_call" : { "name"`, `{ "tool_calls" : [ { "name"`)
}

// respond starts reading a response object at offset at: its "response"
// string streams as text, decoded; the rest of it is markup.
func (m *jsonMarked) respond(p *Parser, at int) {
	if m.resp == nil {
		m.resp = jsonargs.New(jsonargs.Options{}, m.onResp)
	}
	m.resp.Reset(p.pos(at))
	m.st, m.at, m.pos = jmResp, at, at
}

// response feeds the response object; once it ends (or breaks) text
// resumes after what was read.
func (m *jsonMarked) response(p *Parser, eof bool) (bool, error) {
	m.rp, m.rerr = p, nil
	m.pos += m.resp.Feed(p.bytes(m.pos, p.end()))
	if eof && !m.resp.Done() && !m.resp.Failed() {
		m.resp.Close()
	}
	m.rp = nil
	if m.rerr != nil || !m.resp.Done() && !m.resp.Failed() && !eof {
		return false, m.rerr
	}
	err := p.text(p.pos(m.at), m.pos, m.resp.Done()) // a broken object's rest is text
	m.x.skip(m.pos)
	m.st = jmText
	return true, err
}

// onResp handles an event of the response object's reader.
func (m *jsonMarked) onResp(e jsonargs.Event) {
	p := m.rp
	if m.rerr != nil || p == nil {
		return
	}
	text := e.Kind == jsonargs.Delta || e.Kind == jsonargs.Value && e.Raw != "" // a response that is no string: its JSON
	switch {
	case e.Kind == jsonargs.Error:
		kind := KindBadJSON
		if e.Code == jsonargs.CodeUnterminated {
			kind = KindUnterminated
		}
		m.rerr = p.send(&Event{Type: Error, Kind: kind, Message: "response: " + e.Message, Raw: e.Raw, Span: e.Span})
	case text && e.Key == "response":
		from, to := e.Span.Start.Offset, e.Span.End.Offset
		if m.rerr = p.text(p.pos(m.at), from, true); m.rerr == nil {
			raw := p.str(from, to)
			m.rerr = p.send(&Event{Type: Text, Text: cmp.Or(e.Text, raw), Raw: raw, Span: e.Span})
		}
		m.at = to
	}
}
