package stream

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/stream/jsonargs"
)

// jsonForm describes a syntax whose calls are JSON after a start marker
// (hermes, mistral, kimi-k2, deepseek): one reader, jsonMarked, reads them
// all, so a syntax of this kind is a jsonForm and its registration. What
// follows a call's start marker is an envelope {"name": …, "arguments":
// {…}}, or, with sep, a header naming the tool and then the arguments;
// with array or named, also the forms those fields say.
type jsonForm struct {
	open string // a call's start marker
	// close ends a call; "" when a call ends with its JSON. With a close
	// marker, another envelope right after a call's JSON (after white
	// space or one comma) is the next call, and a JSON string where the
	// envelope belongs is read (a bad-json call) rather than left as text.
	close string
	array bool // the marker may be followed by a JSON array of envelopes
	// end is a marker that follows a call's JSON or the array's ] (after
	// white space): markup, where it comes (nemotron's </TOOLCALL>).
	end string
	// named: the marker may be followed by NAME[ARGS]{…},
	// NAME[CALL_ID]ID[ARGS]{…} or NAME{…} (Mistral's v11 form).
	named bool
	// sec are the opening and closing markers of an optional section
	// holding the calls, then other spellings of the pair (Kimi's singular
	// <|tool_call_section_…|>).
	sec [][2]string
	// special: the markers are special tokens, which no text holds: they
	// end an open thinking block, and a call's start marker or the
	// section's close marker ends a call whose close marker was left out.
	special bool
	// sep ends a header (the text after the start marker) that names the
	// tool; the JSON arguments follow it. "" for an envelope.
	sep string
	// name returns the tool's name in a header.
	name func(header string) string
	// id: the header is the call's id too (Event.CallID).
	id bool
	// bare reports a header that names no tool (Kimi's bare counter id,
	// 0): the schema's only tool is called, or the one its arguments
	// fit (jtools.infer); else the call names no tool.
	bare func(header string) bool
	// resume: reasoning that a call's marker ended resumes after the
	// calls (after the section, or after a call outside one), up to its
	// closing tag: Kimi-K2 calls from inside its thinking and goes on
	// thinking (llama.cpp's allow_toolcall_in_think).
	resume bool
	// reasoning: only a thinking block's closing tag ends it, even one the
	// chat template opened; markers inside it stay reasoning (DeepSeek
	// R1/V3.1, whose reference parsers split the reasoning at </think>).
	reasoning bool
	// fenced: the V3 form of DeepSeek may follow the separator: the
	// header is the call's type, and the name, a line ending and a ```json
	// fence come before the JSON (and a closing ``` after it).
	fenced bool
	// short: the array's elements are {"NAME": {…}}, read as a header
	// (after the '{', up to sep) naming the tool, the arguments and close
	// (Apertus).
	short bool
	// channel is the header of the text channel (Functionary v3.2's
	// >>>all): markup, the text following it. A row with a channel reads
	// a header only when it is a name followed by sep, and only when JSON
	// follows; else the marker and header are text.
	channel string
	// lead: the chat template wrote the first start marker, so the
	// stream begins with a header (unless it begins in thinking).
	lead bool
	// alts are other start markers, read as open; respond is a marker
	// opening a JSON object whose "response" string is text (generic).
	alts    []string
	respond string
	// markup: markers that wrap the answer (Granite's <response>): markup
	// where prose meets them, the text between them text.
	markup []string
	// python opens raw code for the schema's python tool, when it
	// declares one: the rest of the stream is the code argument of a
	// python call (llama.cpp's raw python). A tag prose meets, or, in a
	// row with a channel, the header of a call that no JSON follows.
	python string
	// think: the markers of the syntax's thinking blocks, read besides
	// <think> and <thinking> while Options.ThinkingTags is nil.
	think [2]string
}

// maxHeader bounds a call's header (the text before its separator).
const maxHeader = 256

// jsonSyntax registers the syntax name read by form f; without markers,
// --syntax auto never picks it.
func jsonSyntax(name, summary string, f *jsonForm, markers ...string) *Syntax {
	s := &Syntax{Name: name, Schema: "tools", Summary: summary,
		open: func(c *config) (scanner, error) {
			marks := append(append(append(f.secOpens(), f.open), f.alts...), f.markup...)
			py := f.python != "" && c.schema.Lookup(pyTool) != nil
			if py && f.channel == "" {
				marks = append(marks, f.python)
			}
			if f.respond != "" {
				marks = append(marks, f.respond)
			}
			x := newProse(c.opts, c.start, marks)
			x.special = f.special && !f.reasoning
			if f.reasoning {
				x.ends = nil
			}
			if f.think[0] != "" && c.opts.ThinkingTags == nil {
				x.think(f.think[0], f.think[1])
			}
			return &jsonMarked{f: f, x: x, c: newJCall(namesOf(c)), lead: f.lead && !c.opts.InThinking, py: py}, nil
		}}
	if len(markers) > 0 {
		s.Markers = staticMarkers(markers...)
	}
	return s
}

// secOpens returns the section's opening markers, secCloses its closing
// ones, in the same order (none without a section).
func (f *jsonForm) secOpens() []string  { return f.secMarks(0) }
func (f *jsonForm) secCloses() []string { return f.secMarks(1) }

func (f *jsonForm) secMarks(side int) []string {
	m := make([]string, len(f.sec))
	for i, pair := range f.sec {
		m[i] = pair[side]
	}
	return m
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
	return jsonSyntax("mistral", `[TOOL_CALLS][{"name": …, "arguments": {…}}] and [TOOL_CALLS]NAME[ARGS]{…}`, mistralForm(), "[TOOL_CALLS]")
}

// mistralForm is the mistral and magistral syntaxes' form: its reasoning
// is [THINK]…[/THINK], special tokens of Mistral's tokenizer (vLLM's
// mistral reasoning parser reads them).
func mistralForm() *jsonForm {
	return &jsonForm{open: "[TOOL_CALLS]", array: true, named: true, think: [2]string{"[THINK]", "[/THINK]"}}
}

// KimiK2 registers the kimi-k2 syntax (Kimi K2's chat template):
// <|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:IDX
// <|tool_call_argument_begin|>{json}<|tool_call_end|>…
// <|tool_calls_section_end|>.
func (registry) KimiK2() *Syntax {
	f := &jsonForm{sec: [][2]string{{"<|tool_calls_section_begin|>", "<|tool_calls_section_end|>"},
		{"<|tool_call_section_begin|>", "<|tool_call_section_end|>"}}, special: true,
		open: "<|tool_call_begin|>", close: "<|tool_call_end|>", sep: "<|tool_call_argument_begin|>",
		name: kimiName, id: true, bare: kimiBare, resume: true}
	return jsonSyntax("kimi-k2", "<|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:IDX<|tool_call_argument_begin|>{…}<|tool_call_end|>",
		f, append(f.secOpens(), f.open)...)
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
	return strings.Trim(kimiName(id), "0123456789") == ""
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
	f := &jsonForm{sec: [][2]string{{dsCallsBegin, dsCallsEnd}}, special: true, reasoning: true, open: dsCallBegin, close: dsCallEnd,
		sep: dsSep, name: func(h string) string { return h }, fenced: true}
	return jsonSyntax("deepseek", "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}<｜tool▁call▁end｜> (V3.1; V3's function<｜tool▁sep｜>NAME ```json)",
		f, dsCallsBegin, dsCallBegin)
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
	sec  bool // inside the section
	hdr  int  // start of the header, then of the name line
	hs   string
	fen  bool // the JSON is in a ``` fence
	// infer: the header named no tool; the arguments will (jtools.infer),
	// the header ending at inferAt.
	infer   bool
	inferAt int
	// loose: text resumes after a call outside a section, where a
	// section's closing marker (of a section ended by prose) is markup.
	loose bool
	lead  bool // the stream begins with a header (jsonForm.lead)
	resp  *jsonargs.Parser
	rp    *Parser // the Parser during resp's Feed, and its first error
	rerr  error
	// a broken element of the array followed to its end (brokenEnd)
	n    nest
	skip int
	// think: the calls' marker ended a thinking block, which resumes
	// after them (jsonForm.resume)
	think bool
	py    bool // the schema declares the python tool (jsonForm.python)
}

// jsonMarked's states.
const (
	jmText     = iota
	jmSection  // between the calls of a section
	jmAfter    // after the start marker of an envelope form
	jmArray    // between the elements of the array
	jmName     // after the tool's name (named form)
	jmID       // in [CALL_ID]…
	jmHeader   // reading the header up to the separator
	jmSep      // after the separator (fenced forms)
	jmNameLine // fenced: the name line
	jmFence    // fenced: the opening fence
	jmJSON
	jmFenceEnd // fenced: the closing fence
	jmClose    // after the JSON, up to the close marker
	jmResp     // in a response object (jsonForm.respond)
	jmSkip     // after an array element's syntax error, up to its end
	jmCode     // raw python code, up to the end of the stream
)

func (m *jsonMarked) keep() int {
	switch m.st {
	case jmText:
		return m.x.keep()
	case jmAfter:
		return m.at
	case jmArray, jmSection:
		return m.pos
	case jmResp:
		return m.at
	}
	return m.c.start
}

func (m *jsonMarked) scan(p *Parser, eof bool) error { return steps(p, eof, m.step) }

// steps is the scan of a scanner that advances by step until step needs
// more bytes (false) or fails.
func steps(p *Parser, eof bool, step func(p *Parser, eof bool) (bool, error)) error {
	for {
		if more, err := step(p, eof); err != nil || !more {
			return err
		}
	}
}

// step advances the scanner once; false means more bytes are needed.
func (m *jsonMarked) step(p *Parser, eof bool) (bool, error) {
	f := m.f
	switch m.st {
	case jmText:
		if m.lead {
			m.lead = false
			m.open(p, m.x.pos, m.x.pos)
			return true, nil
		}
		if m.loose {
			if more, err := m.sectionEnd(p, eof); more || err != nil {
				return false, err
			}
		}
		if m.think { // the thinking block the calls' marker ended resumes, unless only white space follows
			at := m.x.pos
			if i := p.spaces(at); at+i == p.end() && !eof {
				return false, nil
			} else if at+i < p.end() {
				m.x.in, m.x.th = true, thinking{start: at, startPos: p.pos(at), content: at, close: m.x.th.close}
			}
			m.think = false
		}
		k, at, end, err := m.x.next(p, eof)
		if err != nil || k < 0 {
			return false, err
		}
		m.think, m.x.cut = f.resume && m.x.cut, false
		switch {
		case f.respond != "" && k == m.x.marks-1:
			m.respond(p, at)
		case m.py && m.x.tags[k] == f.python:
			m.c.begin(p, at)
			return true, m.code(p, end)
		case slices.Contains(f.markup, m.x.tags[k]):
			m.x.skip(end)
			return true, p.text(p.pos(at), end, true)
		case k < len(f.sec):
			m.sec, m.st, m.pos = true, jmSection, end
			return true, p.text(p.pos(at), end, true)
		case f.sep != "" && !f.short:
			m.open(p, at, end)
		default:
			m.st, m.at, m.pos = jmAfter, at, end
		}
	case jmSection:
		b := p.bytes(m.pos, p.end())
		i := skipSpace(b)
		if err := p.text(p.pos(m.pos), m.pos+i, true); err != nil {
			return false, err
		}
		m.pos += i
		b = b[i:]
		if full, part := match(b, f.open); full {
			m.open(p, m.pos, m.pos+len(f.open))
			return true, nil
		} else if part && !eof {
			return false, nil
		}
		for _, sc := range f.secCloses() {
			if full, part := match(b, sc); full {
				end := m.pos + len(sc)
				m.sec = false
				err := p.text(p.pos(m.pos), end, true)
				m.pos = end
				return true, m.text(err)
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
		tags := append([]string{f.open}, f.secCloses()...)
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
		return true, m.text(nil)
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
			return false, m.after(m.c.abort(p, p.end(), f.close))
		case f.array && b[i] == '[':
			end := m.pos + i + 1
			m.arrAt = p.pos(m.at)
			m.st, m.pos = jmArray, end
			return true, p.text(p.pos(m.at), end, true)
		case b[i] == '{' || b[i] == '"' && f.close != "":
			m.arr = false
			m.c.begin(p, m.at)
			m.json(p, m.pos+i, true, false)
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
			if f.short {
				m.open(p, m.pos+i, m.pos+i+1)
				return true, nil
			}
			m.c.begin(p, m.pos+i)
			m.json(p, m.pos+i, true, false)
		case ',', ']':
			end := m.pos + i + 1
			if err := p.text(p.pos(m.pos), end, true); err != nil {
				return false, err
			}
			m.pos = end
			if b[i] == ']' {
				m.x.skip(end)
				m.st, m.loose = jmText, f.end != ""
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
		return true, m.bad(p, "want [ARGS] or the JSON arguments after the tool's name", m.pos)
	case jmID:
		// the id is at most maxHeader bytes: [ARGS] is looked for no further
		b, _ := window(p.bytes(m.pos, p.end()), maxHeader+len(namedArgs))
		j := bytes.Index(b, []byte(namedArgs))
		if j > maxHeader {
			j = -1
		}
		if j < 0 {
			if len(b) == maxHeader+len(namedArgs) { // none can start within the bound now
				return true, m.bad(p, "no [ARGS] within 256 bytes after [CALL_ID]", m.pos)
			}
			return m.starve(p, eof)
		}
		m.c.callID = string(bytes.TrimSpace(b[:j]))
		m.pos += j + len(namedArgs)
		return true, m.args(p)
	case jmHeader:
		if f.channel != "" {
			b := p.bytes(m.hdr, p.end())
			j, more := nameEnd(b, 0)
			if more && !eof {
				return false, nil
			}
			if j == 0 || j == len(b) || b[j] != f.sep[0] {
				return true, m.notCall(p, m.hdr, false)
			}
		}
		b, cut := window(p.bytes(m.pos, p.end()), m.hdr+maxHeader+len(f.sep)-m.pos)
		i, k := find(b, []string{f.sep}, eof || cut)
		if m.pos+i-m.hdr > maxHeader {
			m.pos = m.hdr + maxHeader // the same span whatever the chunking
			return true, m.bad(p, fmt.Sprintf("no %s within 256 bytes of the call's header", f.sep), m.c.start)
		}
		m.pos += i
		if k < 0 {
			return m.starve(p, eof)
		}
		m.hs = strings.TrimSpace(string(p.bytes(m.hdr, m.pos)))
		m.pos += len(f.sep)
		if f.channel != "" && m.hs == f.channel {
			return true, m.notCall(p, m.pos, true)
		}
		if f.id {
			m.c.callID = m.hs
		}
		if f.bare != nil && f.bare(m.hs) {
			if only := m.c.tools.only(); only != "" {
				return true, m.named(p, m.pos, only, m.pos-len(f.sep))
			}
			m.infer, m.inferAt = true, m.pos-len(f.sep)
			m.json(p, m.pos, false, false)
			return true, nil
		}
		if !f.fenced && f.channel == "" {
			return true, m.named(p, m.pos, f.name(m.hs), m.pos-len(f.sep))
		}
		m.st = jmSep
	case jmSep:
		b := p.bytes(m.pos, p.end())
		i := p.spaces(m.pos)
		switch {
		case i == len(b) && (!eof || f.channel == ""):
			return m.starve(p, eof)
		case i < len(b) && (b[i] == '{' || b[i] == '"'): // V3.1: NAME<sep>{json}
			return true, m.named(p, m.pos+i, f.name(m.hs), m.pos)
		case m.py && m.hs == f.python && i < len(b):
			return true, m.code(p, m.pos)
		case f.channel != "":
			return true, m.notCall(p, m.hdr, false)
		}
		m.st, m.hdr = jmNameLine, m.pos
	case jmNameLine:
		b, _ := window(p.bytes(m.pos, p.end()), m.hdr+maxHeader+1-m.pos)
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			if m.pos+len(b)-m.hdr > maxHeader {
				m.pos = m.hdr + maxHeader
				return true, m.bad(p, "the tool's name is not followed by a line ending within 256 bytes", m.c.start)
			}
			m.pos += len(b)
			return m.starve(p, eof)
		}
		m.pos += i
		name := strings.TrimSpace(string(p.bytes(m.hdr, m.pos)))
		if err := m.c.named(p, name, m.pos); err != nil {
			return false, err
		}
		m.st = jmFence
	case jmFence:
		b := p.bytes(m.pos, p.end())
		i := p.spaces(m.pos)
		if i == len(b) {
			return m.starve(p, eof)
		}
		if b[i] == '{' || b[i] == '"' {
			m.json(p, m.pos+i, false, false)
			return true, nil
		}
		full, part := match(b[i:], "```")
		if !full {
			if part && !eof {
				return false, nil
			}
			return true, m.bad(p, "want a ```json fence or the JSON arguments", m.c.start)
		}
		line, _ := window(b[i:], maxHeader+1)
		j := bytes.IndexByte(line, '\n')
		if j < 0 {
			if len(line) > maxHeader {
				return true, m.bad(p, "the fence's line does not end within 256 bytes", m.c.start)
			}
			return m.starve(p, eof)
		}
		m.json(p, m.pos+i+j+1, false, true)
	case jmResp:
		return m.response(p, eof)
	case jmJSON:
		done, err := m.c.feed(p, eof)
		if err != nil || !done {
			return false, err
		}
		if f.close == "" {
			if m.c.cut {
				return false, m.after(m.c.abort(p, p.end(), f.close))
			}
			return true, m.finish(p, m.c.jpos)
		}
		m.pos, m.st = m.c.jpos, jmClose
		m.next = f.sep == "" && m.c.complete()
		if f.sep == "" && m.c.jp.Failed() { // followed to its closing brace (jmSkip), so that a sibling after it is read
			m.st, m.n, m.skip = jmSkip, nest{}, m.c.start
		}
		if m.fen && !m.c.jp.Failed() {
			m.st = jmFenceEnd
		}
	case jmCode:
		if !eof {
			return false, nil
		}
		return false, m.codeEnd(p)
	case jmSkip:
		end, wait := brokenEnd(p, &m.n, &m.skip, m.c.start, eof)
		switch {
		case wait:
			return false, nil
		case !m.arr: // an envelope before its close marker: the marker and a string where it belongs bound it
			b := p.bytes(m.c.start, max(end, m.c.start))
			lead := bytes.TrimLeft(bytes.TrimPrefix(b, []byte(f.open)), " \t\r\n")
			m.st, m.next = jmClose, end >= 0 && lead[0] == '{' && !bytes.Contains(b, []byte(f.close))
			if m.next {
				m.pos = end
			}
			return true, nil
		case end < 0: // no end in sight: the call ends where it broke
			return true, m.after(m.c.finish(p, m.pos))
		}
		return true, m.finish(p, end)
	case jmFenceEnd:
		b := p.bytes(m.pos, p.end())
		i := p.spaces(m.pos)
		full, part := match(b[i:], "```")
		switch {
		case full:
			m.pos += i + 3
		case (part || i == len(b)) && !eof:
			return false, nil
		}
		m.st = jmClose
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
		closes := []string{f.close}
		if f.special {
			// The markers are special tokens: the next call's opening marker
			// or the section's closing one ends a call whose closing marker
			// the model left out (Kimi-K2-Thinking calls so from its thinking).
			closes = append(append(closes, f.open), f.secCloses()...)
		}
		at, k := closeAfter(p, m.c, m.pos, closes, eof)
		if k < 0 {
			m.pos = at
			return m.starve(p, eof)
		}
		if m.infer {
			m.infer = false
			m.c.inferName(p, m.inferAt)
		}
		end := at + len(f.close)
		if k > 0 {
			end = at
			m.c.errs = append(m.c.errs, Event{Type: Error, ID: m.c.id, Kind: KindUnterminated, Severity: ast.Warning,
				Message: fmt.Sprintf("the call is not closed by %s: the marker %s after it ends it", f.close, closes[k]),
				Span:    p.span(at, at)})
		}
		return true, m.finish(p, end)
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
	m.json(p, m.pos+i, true, false)
	m.next = false
	return false, nil
}

// pyTool is the tool raw python code calls (jsonForm.python).
const pyTool = "python"

// code starts the raw python code at offset at, the call begun: its bytes
// up to the end of the stream are the python tool's code argument.
func (m *jsonMarked) code(p *Parser, at int) error {
	m.st, m.pos = jmCode, at
	return m.c.named(p, pyTool, at)
}

// codeEnd ends the raw python code at the end of the stream.
func (m *jsonMarked) codeEnd(p *Parser) error {
	code, sp := p.str(m.pos, p.end()), p.span(m.pos, p.end())
	m.c.addVal(arg{key: "code", value: code, span: sp})
	err := p.send(&Event{Type: ParamDelta, ID: m.c.id, Name: pyTool, Param: "code", Text: code, Span: sp, Exact: true})
	if err != nil {
		return err
	}
	return m.after(m.c.finish(p, p.end()))
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

// notCall ends a start marker whose header is no call's (a row with a
// channel): the call's id is the next call's, and prose resumes at to,
// the bytes before it markup (the channel's header) or text (the marker;
// the header is then read again as prose: a name and white space).
func (m *jsonMarked) notCall(p *Parser, to int, markup bool) error {
	p.ids--
	m.st = jmText
	m.x.skip(to)
	return p.text(p.pos(m.c.start), to, markup)
}

// open starts a header-form call whose opening marker is [at, end).
func (m *jsonMarked) open(p *Parser, at, end int) {
	m.c.begin(p, at)
	m.st, m.pos, m.hdr, m.infer = jmHeader, end, end, false
}

// named reads the arguments from offset off of a call named name, whose
// name ends at offset nameEnd.
func (m *jsonMarked) named(p *Parser, off int, name string, nameEnd int) error {
	if err := m.c.named(p, name, nameEnd); err != nil {
		return err
	}
	m.json(p, off, false, false)
	return nil
}

// json starts reading the call's JSON (an envelope, else bare arguments)
// at offset off, in a ``` fence when fen.
func (m *jsonMarked) json(p *Parser, off int, envelope, fen bool) {
	m.c.json(p, off, envelope)
	m.st, m.fen = jmJSON, fen
}

// args starts the call's JSON arguments at m.pos.
func (m *jsonMarked) args(p *Parser) error {
	m.json(p, m.pos, false, false)
	return m.c.sendStart(p)
}

// finish ends a call without a close marker at offset end: back to the
// array or to text. An element of the array that broke at a syntax error
// ends at its closing brace (jmSkip), so that the calls after it are read.
func (m *jsonMarked) finish(p *Parser, end int) error {
	if m.arr && m.c.jp.Failed() && m.st != jmSkip {
		m.st, m.n, m.skip, m.pos = jmSkip, nest{}, m.c.start, end
		return nil
	}
	err := m.c.finish(p, end)
	if m.arr {
		m.pos, m.st = end, jmArray
		return err
	}
	return m.after(err)
}

// bad records a malformed call's markup [from, m.pos), where its
// arguments are missing; the call ends there, or at its close marker.
func (m *jsonMarked) bad(p *Parser, msg string, from int) error {
	m.c.fail(p, KindBadJSON, msg, p.span(from, m.pos))
	m.c.json(p, m.pos, false)
	m.c.jp.Fail()
	if m.f.close == "" {
		return m.finish(p, m.pos)
	}
	m.st = jmClose
	return nil
}

// starve waits for more bytes; at eof the open call is unterminated, or
// complete without its close marker.
func (m *jsonMarked) starve(p *Parser, eof bool) (bool, error) {
	if !eof {
		return false, nil
	}
	if m.st == jmClose && m.c.complete() {
		if m.infer {
			m.c.inferName(p, m.inferAt)
		}
		m.infer = false
		return false, m.after(m.c.finishUnclosed(p, p.end(), m.f.close))
	}
	m.infer = false
	return false, m.after(m.c.abort(p, p.end(), m.f.close))
}

// after resumes after a call: in its section, or in text.
func (m *jsonMarked) after(err error) error {
	m.pos = m.c.end
	if m.sec {
		m.st = jmSection
		return err
	}
	m.loose = len(m.f.sec) > 0 || m.f.end != ""
	return m.text(err)
}

// text resumes text at m.pos, or after the last call.
func (m *jsonMarked) text(err error) error {
	m.st = jmText
	m.x.skip(max(m.c.end, m.pos))
	return err
}

// sectionEnd reads, right after a call outside a section, a section's
// closing marker (or the form's end marker) after up to maxMarkerSpace
// bytes of white space as markup (the section was ended by prose, or its
// opening marker left out). more reports that the bytes cannot tell yet.
func (m *jsonMarked) sectionEnd(p *Parser, eof bool) (more bool, err error) {
	b := p.bytes(m.pos, p.end())
	i, ws := spaces(b, 0)
	ends := m.f.secCloses()
	if m.f.end != "" {
		ends = append(ends, m.f.end)
	}
	for _, sc := range ends {
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

// Granite registers the granite syntax (IBM Granite 3.x):
// <|tool_call|>[{"name": …, "arguments": {…}}, …], the array ending the
// calls.
func (registry) Granite() *Syntax {
	return jsonSyntax("granite", `<|tool_call|>[{"name": …, "arguments": {…}}] (Granite 3.x)`,
		&jsonForm{open: "<|tool_call|>", array: true, special: true, markup: []string{"<response>", "</response>"}}, "<|tool_call|>")
}

// NemotronV2 registers the nemotron-v2 syntax (NVIDIA Nemotron Nano v2):
// <TOOLCALL>[{"name": …, "arguments": {…}}, …]</TOOLCALL>.
func (registry) NemotronV2() *Syntax {
	return jsonSyntax("nemotron-v2", `<TOOLCALL>[{"name": …, "arguments": {…}}]</TOOLCALL> (Nemotron Nano v2)`,
		&jsonForm{open: "<TOOLCALL>", array: true, end: "</TOOLCALL>"}, "<TOOLCALL>")
}

// LFM2 registers the lfm2 syntax (Liquid LFM2 with JSON tools):
// <|tool_call_start|>[{"name": …, "arguments": {…}}, …]<|tool_call_end|>.
func (registry) LFM2() *Syntax {
	return jsonSyntax("lfm2", `<|tool_call_start|>[{"name": …, "arguments": {…}}]<|tool_call_end|> (LFM2)`,
		&jsonForm{open: "<|tool_call_start|>", array: true, end: "<|tool_call_end|>", special: true}, "<|tool_call_start|>")
}

// Apriel registers the apriel syntax (ServiceNow Apriel 1.5):
// <tool_calls>[{"name": …, "arguments": {…}}, …]</tool_calls>.
func (registry) Apriel() *Syntax {
	return jsonSyntax("apriel", `<tool_calls>[{"name": …, "arguments": {…}}]</tool_calls> (Apriel 1.5)`,
		&jsonForm{open: "<tool_calls>", array: true, end: "</tool_calls>", markup: []string{"[BEGIN FINAL RESPONSE]", "[END FINAL RESPONSE]"}}, "<tool_calls> [")
}

// FireFunctionV2 registers the firefunction-v2 syntax (Fireworks'
// FireFunction v2): functools[{"name": …, "arguments": {…}}, …]. It has
// no marker for auto: a marker starting with a letter would hold back
// that letter at the end of every chunk of every stream auto reads.
func (registry) FireFunctionV2() *Syntax {
	return jsonSyntax("firefunction-v2", `functools[{"name": …, "arguments": {…}}] (FireFunction v2)`,
		&jsonForm{open: "functools", array: true})
}

// FunctionaryV31 registers the functionary-v3.1 syntax (MeetKai
// Functionary v3.1 on Llama 3.1): <function=NAME>{…}</function>.
func (registry) FunctionaryV31() *Syntax {
	f := &jsonForm{open: "<function=", sep: ">", close: "</function>", name: func(h string) string { return h }, python: "<|python_tag|>"}
	return jsonSyntax("functionary-v3.1", "<function=NAME>{…}</function> (Functionary v3.1)", f, "<function=+> {")
}

// XiaomiMiMo registers the xiaomi-mimo syntax (Xiaomi MiMo): hermes's
// <tool_call>\n{"name": …, "arguments": {…}}\n</tool_call>. It has no
// marker for auto, which reads these calls as hermes (the same bytes).
func (registry) XiaomiMiMo() *Syntax {
	return jsonSyntax("xiaomi-mimo", `<tool_call>{"name": …, "arguments": {…}}</tool_call> (Xiaomi MiMo; hermes's form)`,
		&jsonForm{open: "<tool_call>", close: "</tool_call>"})
}

// CommandR7B registers the command-r7b syntax (Cohere Command R7B):
// <|START_ACTION|>[{"tool_call_id": …, "tool_name": …, "parameters":
// {…}}, …]<|END_ACTION|>, its reasoning <|START_THINKING|>…<|END_THINKING|>.
func (registry) CommandR7B() *Syntax {
	return jsonSyntax("command-r7b", `<|START_ACTION|>[{"tool_call_id": …, "tool_name": …, "parameters": {…}}]<|END_ACTION|> (Command R7B)`,
		&jsonForm{open: "<|START_ACTION|>", array: true, end: "<|END_ACTION|>", special: true, markup: []string{"<|START_RESPONSE|>", "<|END_RESPONSE|>"},
			think: [2]string{"<|START_THINKING|>", "<|END_THINKING|>"}}, "<|START_ACTION|>", "<|START_THINKING|>")
}

// Magistral registers the magistral syntax (Mistral's Magistral reasoning
// models): [THINK]…[/THINK] reasoning, then mistral's calls. auto picks it
// at [THINK].
func (registry) Magistral() *Syntax {
	return jsonSyntax("magistral", `[THINK]…[/THINK] then [TOOL_CALLS][{"name": …, "arguments": {…}}] or [TOOL_CALLS]NAME[ARGS]{…} (Magistral)`,
		mistralForm(), "[THINK]")
}

// Apertus registers the apertus syntax (Swiss AI Apertus):
// <|tools_prefix|>[{"NAME": {…}}, …]<|tools_suffix|>, its reasoning
// <|inner_prefix|>…<|inner_suffix|>.
func (registry) Apertus() *Syntax {
	f := &jsonForm{open: "<|tools_prefix|>", array: true, short: true, sep: ":", close: "}", end: "<|tools_suffix|>", special: true,
		name: func(h string) string { return strings.Trim(h, `"`) }, think: [2]string{"<|inner_prefix|>", "<|inner_suffix|>"}}
	return jsonSyntax("apertus", `<|tools_prefix|>[{"NAME": {…}}]<|tools_suffix|> (Apertus)`, f, "<|tools_prefix|>", "<|inner_prefix|>")
}

// FunctionaryV32 registers the functionary-v3.2 syntax (MeetKai
// Functionary v3.2): >>>NAME\n{…} calls and >>>all\n text, the stream
// starting after the >>> its chat template writes. It has no marker for
// auto: >>> starts Python prompts and nested quotes in prose.
func (registry) FunctionaryV32() *Syntax {
	f := &jsonForm{open: ">>>", sep: "\n", channel: "all", lead: true, name: func(h string) string { return h }, python: pyTool}
	return jsonSyntax("functionary-v3.2", `>>>NAME\n{…} and >>>all\ntext (Functionary v3.2)`, f)
}
