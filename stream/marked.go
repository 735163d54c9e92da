package stream

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/plangram/plangram/ast"
)

// markedForm is a tool-call syntax of special tokens: calls inside an
// optional section, each a header naming the tool, a separator and the
// JSON arguments (kimi-k2, deepseek).
type markedForm struct {
	// secOpen and secClose are the section's markers; secAlt are other
	// spellings of each, pairwise (Kimi's singular <|tool_call_section_…|>).
	secOpen, secClose   string
	secAlt              [][2]string
	callOpen, callClose string
	sep                 string // ends the header
	// name returns the tool's name in a header.
	name func(header string) string
	// id: the header is the call's id too (Event.CallID).
	id bool
	// bare reports a header that names no tool (Kimi's bare counter id,
	// 0): the schema's only tool is called, or the one its arguments
	// fit (jtools.infer); else the call names no tool.
	bare func(header string) bool
	// fenced: the V3 form of DeepSeek may follow the separator: the
	// header is the call's type, and the name, a line ending and a ```json
	// fence come before the JSON (and a closing ``` after it).
	fenced bool
}

// maxHeader bounds a call's header (the text before its separator).
const maxHeader = 256

// marked is the scanner of a markedForm syntax.
type marked struct {
	f   *markedForm
	x   *prose
	c   *jcall
	st  uint8
	sec bool // inside the section
	pos int
	hdr int // start of the header, then of the name line
	hs  string
	fen bool // the JSON is in a ``` fence
	// infer: the header named no tool; the arguments will (jtools.infer),
	// the header ending at inferAt.
	infer   bool
	inferAt int
	// loose: text resumes after a call outside a section, where a
	// section's closing marker (of a section ended by prose) is markup.
	loose bool
}

// marked's states.
const (
	mkText    = iota
	mkSection // between the calls of a section
	mkHeader  // reading the header up to the separator
	mkAfter   // after the separator (fenced forms)
	mkName    // fenced: the name line
	mkFence   // fenced: the opening fence
	mkJSON
	mkFenceEnd // fenced: the closing fence
	mkClose    // up to the call's closing marker
)

func newMarked(f *markedForm, c *config) *marked {
	x := newProse(c.opts, c.start, append(f.secOpens(), f.callOpen))
	x.special = true
	return &marked{f: f, x: x, c: newJCall(namesOf(c))}
}

// secOpens returns the section's opening markers, secCloses its closing
// ones, in the same order.
func (f *markedForm) secOpens() []string {
	m := []string{f.secOpen}
	for _, a := range f.secAlt {
		m = append(m, a[0])
	}
	return m
}

func (f *markedForm) secCloses() []string {
	m := []string{f.secClose}
	for _, a := range f.secAlt {
		m = append(m, a[1])
	}
	return m
}

func (m *marked) keep() int {
	switch m.st {
	case mkText:
		return m.x.keep()
	case mkSection:
		return m.pos
	}
	return m.c.start
}

func (m *marked) scan(p *Parser, eof bool) error {
	for {
		if more, err := m.step(p, eof); err != nil || !more {
			return err
		}
	}
}

// step advances the scanner once; false means more bytes are needed.
func (m *marked) step(p *Parser, eof bool) (bool, error) {
	f := m.f
	switch m.st {
	case mkText:
		if m.loose {
			if more, err := m.sectionEnd(p, eof); more || err != nil {
				return false, err
			}
		}
		k, at, end, err := m.x.next(p, eof)
		if err != nil || k < 0 {
			return false, err
		}
		if k <= len(f.secAlt) {
			m.sec, m.st, m.pos = true, mkSection, end
			return true, p.text(p.pos(at), end, true)
		}
		m.open(p, at, end)
	case mkSection:
		b := p.bytes(m.pos, p.end())
		i := skipSpace(b)
		if err := p.text(p.pos(m.pos), m.pos+i, true); err != nil {
			return false, err
		}
		m.pos += i
		b = b[i:]
		if full, part := match(b, f.callOpen); full {
			m.open(p, m.pos, m.pos+len(f.callOpen))
			return true, nil
		} else if part && !eof {
			return false, nil
		}
		for _, sc := range f.secCloses() {
			if full, part := match(b, sc); full {
				end := m.pos + len(sc)
				m.sec = false
				return true, m.text(p, end, p.text(p.pos(m.pos), end, true))
			} else if part && !eof {
				return false, nil
			}
		}
		if len(b) == 0 && !eof {
			return false, nil
		}
		// Other text inside the section is markup when a call or the
		// section's end follows within maxHeader bytes (stray tokens, as
		// vLLM treats them); more of it ends the section, and it is prose.
		tags := append([]string{f.callOpen}, f.secCloses()...)
		w, cut := window(b, maxHeader+longest(tags))
		i, k := find(w, tags, eof || cut)
		switch {
		case k >= 0 && i <= maxHeader:
			raw := p.str(m.pos, m.pos+len(bytes.TrimRight(b[:i], " \t\r\n")))
			sp := p.span(m.pos, m.pos+len(raw))
			if err := p.text(sp.Start, m.pos+i, true); err != nil {
				return false, err
			}
			m.pos += i
			return true, p.send(&Event{Type: Error, Kind: KindStrayText, Severity: ast.Warning, Raw: raw, Span: sp,
				Message: "text inside the tool-call section is not a call: it is left out of the text"})
		case k < 0 && !eof && i <= maxHeader:
			return false, nil
		}
		m.sec = false
		return true, m.text(p, m.pos, nil)
	case mkHeader:
		b, cut := window(p.bytes(m.pos, p.end()), m.hdr+maxHeader+len(f.sep)-m.pos)
		i, k := find(b, []string{f.sep}, eof || cut)
		if m.pos+i-m.hdr > maxHeader {
			m.pos = m.hdr + maxHeader // the same span whatever the chunking
			return true, m.bad(p, fmt.Sprintf("no %s within 256 bytes of the call's header", f.sep))
		}
		m.pos += i
		if k < 0 {
			return m.starve(p, eof)
		}
		m.hs = strings.TrimSpace(string(p.bytes(m.hdr, m.pos)))
		m.pos += len(f.sep)
		if f.id {
			m.c.callID = m.hs
		}
		if f.bare != nil && f.bare(m.hs) {
			if only := m.c.tools.only(); only != "" {
				return true, m.json(p, m.pos, only, m.pos-len(f.sep))
			}
			m.infer, m.inferAt = true, m.pos-len(f.sep)
			m.fen = false
			m.c.json(p, m.pos, false)
			m.st = mkJSON
			return true, nil
		}
		if !f.fenced {
			return true, m.json(p, m.pos, f.name(m.hs), m.pos-len(f.sep))
		}
		m.st = mkAfter
	case mkAfter:
		b := p.bytes(m.pos, p.end())
		i := p.spaces(m.pos)
		if i == len(b) {
			return m.starve(p, eof)
		}
		if b[i] == '{' || b[i] == '"' { // V3.1: NAME<sep>{json}
			return true, m.json(p, m.pos+i, f.name(m.hs), m.pos)
		}
		m.st, m.hdr = mkName, m.pos
	case mkName:
		b, _ := window(p.bytes(m.pos, p.end()), m.hdr+maxHeader+1-m.pos)
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			if m.pos+len(b)-m.hdr > maxHeader {
				m.pos = m.hdr + maxHeader
				return true, m.bad(p, "the tool's name is not followed by a line ending within 256 bytes")
			}
			m.pos += len(b)
			return m.starve(p, eof)
		}
		m.pos += i
		name := strings.TrimSpace(string(p.bytes(m.hdr, m.pos)))
		if err := m.c.named(p, name, m.pos); err != nil {
			return false, err
		}
		m.st = mkFence
	case mkFence:
		b := p.bytes(m.pos, p.end())
		i := p.spaces(m.pos)
		if i == len(b) {
			return m.starve(p, eof)
		}
		if b[i] == '{' || b[i] == '"' {
			m.fen = false
			m.c.json(p, m.pos+i, false)
			m.st = mkJSON
			return true, nil
		}
		full, part := match(b[i:], "```")
		if !full {
			if part && !eof {
				return false, nil
			}
			return true, m.bad(p, "want a ```json fence or the JSON arguments")
		}
		line, _ := window(b[i:], maxHeader+1)
		j := bytes.IndexByte(line, '\n')
		if j < 0 {
			if len(line) > maxHeader {
				return true, m.bad(p, "the fence's line does not end within 256 bytes")
			}
			return m.starve(p, eof)
		}
		m.fen = true
		m.c.json(p, m.pos+i+j+1, false)
		m.st = mkJSON
	case mkJSON:
		done, err := m.c.feed(p, eof)
		if err != nil || !done {
			return false, err
		}
		m.pos, m.st = m.c.jpos, mkClose
		if m.fen && !m.c.jp.Failed() {
			m.st = mkFenceEnd
		}
	case mkFenceEnd:
		b := p.bytes(m.pos, p.end())
		i := p.spaces(m.pos)
		full, part := match(b[i:], "```")
		switch {
		case full:
			m.pos += i + 3
		case (part || i == len(b)) && !eof:
			return false, nil
		}
		m.st = mkClose
	case mkClose:
		// The markers are special tokens: the next call's opening marker or
		// the section's closing one ends a call whose closing marker the
		// model left out (Kimi-K2-Thinking calls so from its thinking).
		closes := append([]string{f.callClose, f.callOpen}, f.secCloses()...)
		at, k := closeAfter(p, m.c, m.pos, closes, eof)
		if k < 0 {
			m.pos = at
			return m.starve(p, eof)
		}
		if m.infer {
			m.infer = false
			m.c.inferName(p, m.inferAt)
		}
		end := at + len(f.callClose)
		if k > 0 {
			end = at
			m.c.errs = append(m.c.errs, Event{Type: Error, ID: m.c.id, Kind: KindUnterminated, Severity: ast.Warning,
				Message: fmt.Sprintf("the call is not closed by %s: the marker %s after it ends it", f.callClose, closes[k]),
				Span:    p.span(at, at)})
		}
		err := m.c.finish(p, end)
		return true, m.after(p, err)
	}
	return true, nil
}

// window returns b cut to at most n bytes, and whether it was cut. A
// marker or a line ending is looked for only as far as it may be: the
// same decision in every chunking, and no byte scanned again and again.
func window(b []byte, n int) ([]byte, bool) {
	if len(b) > max(n, 0) {
		return b[:max(n, 0)], true
	}
	return b, false
}

// longest returns the length of the longest of tags.
func longest(tags []string) int {
	n := 0
	for _, t := range tags {
		n = max(n, len(t))
	}
	return n
}

// open starts a call whose opening marker is [at, end).
func (m *marked) open(p *Parser, at, end int) {
	m.c.begin(p, at)
	m.st, m.pos, m.hdr, m.infer = mkHeader, end, end, false
}

// json reads the arguments from offset off of a call named name, whose
// name ends at offset nameEnd.
func (m *marked) json(p *Parser, off int, name string, nameEnd int) error {
	if err := m.c.named(p, name, nameEnd); err != nil {
		return err
	}
	m.fen = false
	m.c.json(p, off, false)
	m.st = mkJSON
	return nil
}

// bad records a malformed call's markup and looks for its closing marker.
func (m *marked) bad(p *Parser, msg string) error {
	m.c.fail(p, KindBadJSON, msg, p.span(m.c.start, m.pos))
	m.c.json(p, m.pos, false)
	m.c.jp.Fail()
	m.st = mkClose
	return nil
}

// starve waits for more bytes; at eof the open call is unterminated.
func (m *marked) starve(p *Parser, eof bool) (bool, error) {
	if !eof {
		return false, nil
	}
	if m.st == mkJSON {
		return true, nil // feed closes the JSON
	}
	if m.st == mkClose && m.c.complete() {
		if m.infer {
			m.c.inferName(p, m.inferAt)
		}
		m.infer = false
		return false, m.after(p, m.c.finishUnclosed(p, p.end(), m.f.callClose))
	}
	m.infer = false
	return false, m.after(p, m.c.abort(p, p.end(), m.f.callClose))
}

// after resumes after a call: in its section, or in text.
func (m *marked) after(p *Parser, err error) error {
	m.pos = m.c.end
	if m.sec {
		m.st = mkSection
		return err
	}
	m.loose = true
	return m.text(p, m.pos, err)
}

// text resumes text at offset off.
func (m *marked) text(p *Parser, off int, err error) error {
	m.st = mkText
	m.x.skip(off)
	return err
}

// sectionEnd reads, right after a call outside a section, a section's
// closing marker after up to maxMarkerSpace bytes of white space as
// markup (the section was ended by prose, or its opening marker left
// out). more reports that the bytes cannot tell yet.
func (m *marked) sectionEnd(p *Parser, eof bool) (more bool, err error) {
	b := p.bytes(m.pos, p.end())
	i, ws := spaces(b, 0)
	for _, sc := range m.f.secCloses() {
		full, part := match(b[i:], sc)
		switch {
		case full:
			m.loose = false
			end := m.pos + i + len(sc)
			m.x.skip(end)
			return false, p.text(p.pos(m.pos), end, true)
		case part && !eof:
			return true, nil
		}
	}
	if ws && !eof {
		return true, nil
	}
	m.loose = false
	return false, nil
}

// KimiK2 registers the kimi-k2 syntax (Kimi K2's chat template):
// <|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:IDX
// <|tool_call_argument_begin|>{json}<|tool_call_end|>…
// <|tool_calls_section_end|>.
func (registry) KimiK2() *Syntax {
	f := &markedForm{secOpen: "<|tool_calls_section_begin|>", secClose: "<|tool_calls_section_end|>",
		secAlt:   [][2]string{{"<|tool_call_section_begin|>", "<|tool_call_section_end|>"}},
		callOpen: "<|tool_call_begin|>", callClose: "<|tool_call_end|>", sep: "<|tool_call_argument_begin|>",
		name: kimiName, id: true, bare: kimiBare}
	return &Syntax{Name: "kimi-k2", Schema: "tools",
		Summary: "<|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:IDX<|tool_call_argument_begin|>{…}<|tool_call_end|>",
		Markers: staticMarkers(append(f.secOpens(), f.callOpen)...),
		open:    func(c *config) (scanner, error) { return newMarked(f, c), nil }}
}

// kimiName returns the tool of a Kimi call id, functions.NAME:IDX.
func kimiName(id string) string {
	if i := strings.LastIndexByte(id, ':'); i >= 0 {
		id = id[:i]
	}
	return strings.TrimPrefix(id, "functions.")
}

// kimiBare reports a Kimi call id that names no tool: a bare counter (0,
// functions.1, :2) as some Kimi models and fine-tunes write it.
func kimiBare(id string) bool {
	s := kimiName(id)
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// The DeepSeek tokens: full-width vertical bars (U+FF5C) and U+2581 for
// the spaces.
const (
	dsCallsBegin = "<\uff5ctool\u2581calls\u2581begin\uff5c>"
	dsCallsEnd   = "<\uff5ctool\u2581calls\u2581end\uff5c>"
	dsCallBegin  = "<\uff5ctool\u2581call\u2581begin\uff5c>"
	dsCallEnd    = "<\uff5ctool\u2581call\u2581end\uff5c>"
	dsSep        = "<\uff5ctool\u2581sep\uff5c>"
)

// DeepSeek registers the deepseek syntax: DeepSeek V3 and R1
// (<｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME, a line ending, a
// ```json fenced object, <｜tool▁call▁end｜>) and V3.1
// (<｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{json}<｜tool▁call▁end｜>), inside
// <｜tool▁calls▁begin｜>…<｜tool▁calls▁end｜>.
func (registry) DeepSeek() *Syntax {
	f := &markedForm{secOpen: dsCallsBegin, secClose: dsCallsEnd, callOpen: dsCallBegin, callClose: dsCallEnd,
		sep: dsSep, name: func(h string) string { return h }, fenced: true}
	return &Syntax{Name: "deepseek", Schema: "tools",
		Summary: "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}<｜tool▁call▁end｜> (V3.1; V3's function<｜tool▁sep｜>NAME ```json)",
		Markers: staticMarkers(dsCallsBegin, dsCallBegin),
		open:    func(c *config) (scanner, error) { return newMarked(f, c), nil }}
}
