package stream

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/internal/view"
	"github.com/plangram/plangram/schema"
)

// maxName is the longest name read in a <name> or name="…" tag.
const maxName = 64

// mode is where the tools scanner is.
type mode uint8

const (
	inText    mode = iota
	inWrapper      // inside <function_calls>, between calls
	inCall         // inside a call, between parameters
	inValue        // inside a parameter value
)

// tool is a schema action under one of its names.
type tool struct {
	act    *schema.Action
	close  string                   // "</name>"
	params map[string]*schema.Param // by parameter name and alias
	opens  []opener                 // "<param>" tags
}

// opener is a tag that opens a known parameter.
type opener struct {
	param *schema.Param
	tag   string
}

func newTool(a *schema.Action, name string) *tool {
	tl := &tool{act: a, close: "</" + name + ">", params: map[string]*schema.Param{}}
	for _, sp := range a.Params {
		for _, n := range append([]string{sp.Name}, sp.Aliases...) {
			tl.params[n] = sp
			tl.opens = append(tl.opens, opener{sp, "<" + n + ">"})
		}
	}
	return tl
}

// textTag says what a marker recognised in text opens: a call (tool),
// a named call outside a wrapper (loose) or the <function_calls> wrapper
// (neither).
type textTag struct {
	tool  *tool
	loose bool
}

// tools is the scanner of the tools dialect.
type tools struct {
	x      *prose           // text and thinking blocks up to a marker
	info   []textTag        // per marker of x
	byName map[string]*tool // for <invoke name="…">
	names  toolNames        // what an unknown tool's error suggests
	max    int
	f      xmlForm
	reread int // bytes read again after an unterminated call (reopen)
	// The open wrapper: its position, its calls so far.
	wrapPos ast.Pos
	wrapN   int
	// afterLoose: text resumes right after a loose call, where the
	// wrapper's closing tag of a model that left out the opening one is
	// markup.
	afterLoose bool

	mode mode
	out  int // bytes before out are emitted or belong to the open call
	pos  int // scan cursor: bytes before pos are decided
	c    call
}

// toolMarkers are the tools syntax's markers: the opening tag of each
// action of the schema.
func toolMarkers(s *schema.Schema) []string {
	var m []string
	for _, a := range s.Actions {
		for _, n := range append([]string{a.Name}, a.Aliases...) {
			m = append(m, "<"+n+">")
		}
	}
	return m
}

// call is the call being read.
type call struct {
	id       int
	name     string
	tool     *tool // nil for an <invoke> of an unknown tool
	invoke   bool  // the named form (<invoke name="…">)
	wrapped  bool  // inside the wrapper
	start    int
	startPos ast.Pos
	end      string    // the call's closing tag
	stop     [3]string // the current value's closing tag, the call's, the start of a named parameter's opening tag
	stops    []string  // those of stop that end the current value now
	follow   []string  // raw value: tags that may follow its closing tag
	vals     []value
	errs     []Event
	given    []int // indexes in vals of the first value of each known parameter
	stray    int   // start of text between parameters, -1 when none
	strayEnd int
	strayPos ast.Pos
	sent     int             // the current value is emitted as ParamDelta up to here
	cand     int             // raw value: the candidate closing tag, -1 when none
	look     int             // raw value: lookahead cursor after the candidate
	rej      int             // raw value: the last closing tag ruled out, -1 when none
	rejNext  int             // raw value: where what followed rej starts
	over     bool            // over MaxCallSize: its bytes are emitted as Text
	names    map[string]bool // the names of vals (value.dup)
	raw      bool            // the current value is of a raw parameter
	edges    bool            // the current value loses a line ending at each edge
	lead     bool            // the current value's leading line ending is decided (or it has none to lose)
	exact    bool            // the current value's text is kept as written (see tools.exact)
	param    string          // the current value's name
}

// value is one parameter value of a call: the text between its tags.
type value struct {
	name       string
	param      *schema.Param // nil when the tool does not declare it
	start, end int
	startPos   ast.Pos
	span       ast.Span
	before     string // unclosed: what ended it
	dup        bool   // an earlier value of the call has the same name
}

func newTools(c *config, f xmlForm) *tools {
	t := &tools{byName: map[string]*tool{}, names: namesOf(c), max: c.opts.MaxCallSize, out: c.start, pos: c.start, f: f,
		c: call{names: map[string]bool{}}}
	if t.max <= 0 {
		t.max = DefaultMaxCallSize
	}
	var marks []string
	for _, a := range c.schema.Actions {
		for _, n := range append([]string{a.Name}, a.Aliases...) {
			tl := newTool(a, n)
			t.byName[n] = tl
			if f.bare {
				marks = append(marks, "<"+n+">")
				t.info = append(t.info, textTag{tool: tl})
			}
		}
	}
	bare := len(marks)
	if f.wrapOpen != "" {
		marks = append(marks, f.wrapOpen)
		t.info = append(t.info, textTag{})
	}
	if f.loose {
		marks = append(marks, f.callTag)
		t.info = append(t.info, textTag{loose: true})
	}
	t.x = newProse(c.opts, c.start, marks)
	t.x.literal = true
	// a bare tool's tag (<read_file>) does not end the template's thinking
	// block: reasoning mentions it too often
	t.x.ends = t.x.tags[bare:len(marks)]
	return t
}

func (t *tools) keep() int {
	switch {
	case t.mode == inText:
		return t.x.keep()
	case t.mode == inWrapper:
		return t.out
	case !t.c.over: // in a call
		return t.c.start
	}
	// an oversized call's text is emitted, but a value's last line ending
	// (up to two bytes before t.out) is still looked at (trimEOL)
	return max(t.c.start, t.out-2)
}

func (t *tools) scan(p *Parser, eof bool) error {
	for more := true; ; {
		var err error
		switch t.mode {
		case inValue:
			more, err = t.value(p, eof)
		case inWrapper:
			more, err = t.wrapper(p, eof)
		case inCall:
			more, err = t.params(p, eof)
		default:
			more, err = t.text(p, eof)
		}
		if err != nil || !more {
			return err
		}
	}
}

// text emits text and thinking blocks up to the next marker and enters
// what it opens.
func (t *tools) text(p *Parser, eof bool) (bool, error) {
	if t.afterLoose {
		if more, err := t.looseClose(p, eof); more || err != nil {
			return false, err
		}
	}
	t.x.out, t.x.pos = t.out, t.pos
	k, at, end, err := t.x.next(p, eof)
	t.out, t.pos = t.x.out, t.x.pos
	if err != nil || k < 0 {
		return false, err
	}
	switch tag := t.info[k]; {
	case tag.tool != nil:
		return true, t.open(p, tag.tool, "", false, false, at, end)
	case tag.loose:
		name, n, more := t.f.call(p.bytes(at, p.end()))
		switch {
		case n > 0:
			return true, t.open(p, t.byName[string(name)], string(name), true, false, at, at+n)
		case more && !eof:
			return false, nil
		case more: // the stream ends inside it (the text before it is emitted)
			t.out, t.pos = p.end(), p.end()
			return false, p.cutTag(at)
		}
		t.pos = at + 1 // not a call: its '<' is text
		return true, nil
	}
	t.mode, t.out, t.pos = inWrapper, end, end
	t.wrapPos, t.wrapN = p.pos(at), 0
	return true, p.text(t.wrapPos, end, true)
}

// looseClose reads, right after a loose call (outside a wrapper), the
// wrapper's closing tag after up to maxMarkerSpace bytes of white space
// as markup: Qwen3-Coder sometimes leaves out <tool_call> but not
// </tool_call>. more reports that the bytes cannot tell yet.
func (t *tools) looseClose(p *Parser, eof bool) (more bool, err error) {
	b := p.bytes(t.pos, p.end())
	i, ws := spaces(b, 0)
	full, part := match(b[i:], t.f.wrapClose)
	switch {
	case full:
		end := t.pos + i + len(t.f.wrapClose)
		err = p.text(p.pos(t.out), end, true)
		t.out, t.pos = end, end
	case (part || ws) && !eof:
		return true, nil
	}
	t.afterLoose = false
	return false, err
}

// wrapper reads between the calls of a <function_calls> wrapper: spaces,
// <invoke name="…"> or the closing tag. Anything else ends the wrapper.
func (t *tools) wrapper(p *Parser, eof bool) (bool, error) {
	b := p.bytes(t.pos, p.end())
	i := skipSpace(b)
	t.pos += i
	b = b[i:]
	if err := p.text(p.pos(t.out), t.pos, true); err != nil {
		return false, err
	}
	t.out = t.pos
	if len(b) == 0 {
		if eof && t.wrapN == 0 {
			t.mode = inText
			// (the white space after the tag was emitted already and may
			// have left the buffer: the raw is the tag)
			return false, p.send(&Event{Type: Error, Kind: KindCutTag, Raw: t.f.wrapOpen,
				Message: fmt.Sprintf("the stream ends after %s, before any call", t.f.wrapOpen),
				Span:    ast.Span{Start: t.wrapPos, End: p.pos(t.pos)}})
		}
		return false, nil
	}
	if b[0] == '<' {
		full, part := match(b, t.f.wrapClose)
		if full {
			at := t.pos
			t.mode, t.out, t.pos = inText, at+len(t.f.wrapClose), at+len(t.f.wrapClose)
			return true, p.text(p.pos(at), t.pos, true)
		}
		name, n, more := t.f.call(b)
		if n > 0 {
			return true, t.open(p, t.byName[string(name)], string(name), true, true, t.pos, t.pos+n)
		}
		if (part || more) && !eof {
			return false, nil
		}
		if part || more { // at eof: a cut call (a lone '<' too, inside the wrapper)
			at := t.pos
			t.mode, t.out, t.pos = inText, p.end(), p.end()
			return false, p.cutTag(at)
		}
	}
	t.mode = inText
	return true, nil
}

// open starts a call of tool tl (nil for an unknown tool called name)
// whose opening tag is [at, end): in the named form (<invoke name="…">)
// when invoke is set, inside the wrapper when wrapped is.
func (t *tools) open(p *Parser, tl *tool, name string, invoke, wrapped bool, at, end int) error {
	id := p.nextID()
	if wrapped {
		t.wrapN++
	}
	if tl != nil {
		name = tl.act.Name // not an alias
	}
	c := &t.c
	clear(c.names)
	*c = call{id: id, name: name, tool: tl, invoke: invoke, wrapped: wrapped, start: at, startPos: p.pos(at),
		stray: -1, cand: -1, vals: c.vals[:0], errs: c.errs[:0], follow: c.follow[:0], given: c.given[:0], names: c.names}
	c.end = t.f.callClose
	if !invoke {
		c.end = tl.close
	}
	t.mode, t.out, t.pos = inCall, at, end
	start := Event{Type: ToolCallStart, ID: c.id, Name: name, Span: ast.Span{Start: c.startPos, End: p.pos(end)}}
	if tl == nil {
		c.errs = append(c.errs, Event{Type: Error, ID: c.id, Name: name, Kind: KindUnknownTool,
			Message: t.names.unknown(name), Raw: p.str(at, end), Span: start.Span})
	}
	return p.send(&start)
}

// limit is the offset up to which the call may be read.
func (t *tools) limit(p *Parser) int {
	if t.c.over || t.c.start+t.max >= p.base+len(p.buf) {
		return p.end() // (no character straddles a limit not received yet)
	}
	return min(max(p.charStart(t.c.start+t.max), t.pos), p.end())
}

// params reads a call between its parameters.
func (t *tools) params(p *Parser, eof bool) (bool, error) {
	c := &t.c
	lim := t.limit(p)
	for {
		b := p.bytes(t.pos, lim)
		i := skipSpace(b)
		t.pos += i
		b = b[i:]
		if len(b) == 0 {
			return t.starve(p, eof, lim, t.pos)
		}
		if b[0] == '<' {
			full, part := match(b, c.end)
			if full {
				t.endStray(p)
				return true, t.finish(p, t.pos, t.pos+len(c.end))
			}
			name, n, more := named(b, "<")
			if c.invoke {
				name, n, more = t.f.param(b)
			}
			if n > 0 {
				t.endStray(p)
				t.openValue(p, string(name), n)
				return true, nil
			}
			if part || more {
				return t.starve(p, eof, lim, t.pos)
			}
		}
		if c.stray < 0 && !c.over {
			c.stray, c.strayPos = t.pos, p.pos(t.pos)
		}
		j := len(b)
		if k := bytes.IndexByte(b[1:], '<'); k >= 0 {
			j = k + 1
		}
		c.strayEnd = t.pos + len(bytes.TrimRight(b[:j], " \t\r\n"))
		t.pos += j
	}
}

// notGiven reports whether sp is a parameter (not nil) no value gave yet.
func (t *tools) notGiven(sp *schema.Param) bool { return sp != nil && t.given(sp) < 0 }

// given returns the index of the value that gives parameter sp, or -1.
func (t *tools) given(sp *schema.Param) int {
	for _, i := range t.c.given {
		if t.c.vals[i].param == sp {
			return i
		}
	}
	return -1
}

// endStray records the text read between parameters, if any.
func (t *tools) endStray(p *Parser) {
	c := &t.c
	if c.stray < 0 {
		return
	}
	c.errs = append(c.errs, Event{Type: Error, ID: c.id, Name: c.name, Kind: KindStrayText,
		Message: "text between parameters is not part of any parameter",
		Raw:     p.str(c.stray, c.strayEnd), Span: ast.Span{Start: c.strayPos, End: p.pos(c.strayEnd)}})
	c.stray = -1
}

// openValue starts the value of parameter name, whose opening tag is n
// bytes long at t.pos.
func (t *tools) openValue(p *Parser, name string, n int) {
	c := &t.c
	start := t.pos + n
	v := value{name: name, start: start}
	c.rej = -1
	if !c.over { // an oversized call's values are not used
		v.startPos = p.pos(start)
	}
	if c.tool != nil {
		if sp := c.tool.params[name]; sp != nil {
			v.param, v.name = sp, sp.Name
		}
	}
	c.stop = [3]string{t.f.paramClose, c.end, t.f.paramPrefix}
	if !c.invoke {
		c.stop = [3]string{"</" + name + ">", c.end}
	}
	if v.param != nil && t.given(v.param) < 0 {
		c.given = append(c.given, len(c.vals))
	}
	v.dup = c.names[v.name]
	c.names[v.name] = true
	c.vals = append(c.vals, v)
	c.exact = t.exact()
	c.sent, c.cand, c.param = start, -1, v.name
	c.raw = v.param != nil && v.param.Raw
	c.edges = (c.raw || c.invoke) && !t.f.exactEdges
	c.lead = !c.edges
	switch {
	case c.raw:
		c.stops = c.stop[:1] // until a closing tag is ruled out (c.rej)
	case c.stop[2] != "":
		c.stops = c.stop[:]
	default:
		c.stops = c.stop[:2]
	}
	if c.raw {
		c.follow = append(c.follow[:0], c.end)
		for _, o := range c.tool.opens {
			if !c.invoke && t.given(o.param) < 0 {
				c.follow = append(c.follow, o.tag)
			}
		}
	}
	t.mode, t.pos = inValue, start
}

// value reads a parameter value. A value ends at its closing tag; one of a
// raw parameter only where that tag is followed by optional spaces and the
// call's closing tag or a tag opening a parameter not given yet. Once such a
// closing tag was ruled out (c.rej), the call's closing tag also ends a raw
// value: at its last closing tag (recover). A raw value, and any value of
// a named call, loses one line ending right after its opening tag and one
// right before its closing tag.
func (t *tools) value(p *Parser, eof bool) (bool, error) {
	c := &t.c
	end := p.end()
	lim := end
	if !c.over && c.start+t.max < lim {
		lim = t.limit(p)
	}
	if !c.lead {
		v := &c.vals[len(c.vals)-1]
		b := p.bytes(t.pos, lim)
		n := 0
		switch {
		case len(b) > 0 && b[0] == '\n':
			n = 1
		case len(b) > 1 && b[0] == '\r' && b[1] == '\n':
			n = 2
		case len(b) == 0 || len(b) == 1 && b[0] == '\r':
			if !eof && lim == end {
				return t.starve(p, eof, lim, t.pos)
			}
		}
		c.lead = true
		if n > 0 {
			v.start += n
			t.pos, c.sent = v.start, v.start
			if !c.over {
				v.startPos = p.pos(v.start)
			}
		}
	}
	for {
		if c.cand < 0 {
			// the first of c.stops (the usual chunk of a value holds no tag)
			b, i, k, part := p.bytes(t.pos, lim), -1, -1, false
			for k < 0 && !part {
				j := bytes.IndexByte(b[i+1:], '<') // (every tag of the XML forms starts with '<')
				if j < 0 {
					i = len(b)
					break
				}
				i += j + 1
				k, part = prefix(b[i:], c.stops)
			}
			t.pos += i
			if k < 0 && t.pos == end && !eof && !c.over && p.buf[end-1-p.base] != '\n' && p.buf[end-1-p.base] != '\r' { // (t.pos <= lim <= end)
				// the usual chunk of a value: no tag starts in it and it
				// does not end in a line ending, so all of it is the
				// value's text (held at a ruled-out closing tag, which a
				// line ending may precede)
				if c.edges && c.rej >= 0 {
					return false, nil
				}
				return false, t.delta(p, end)
			}
			to := t.pos
			if c.edges {
				if c.rej >= 0 {
					to = c.rej
				}
				to = t.trimEOL(p, to, to == t.pos && k < 0)
			}
			if err := t.delta(p, to); err != nil {
				return false, err
			}
			if k < 0 {
				return t.starve(p, eof, lim, t.pos)
			}
			if k == 2 { // a tag opening a parameter not given yet may end an unclosed value
				name, n, more := t.f.param(p.bytes(t.pos, lim))
				switch {
				case n > 0 && (c.tool == nil || t.notGiven(c.tool.params[string(name)])):
					return true, t.endValue(p, 2)
				case more:
					return t.starve(p, eof, lim, t.pos)
				}
				t.pos++
				continue
			}
			if !c.raw {
				return true, t.endValue(p, k)
			}
			if k == 1 {
				return true, t.recover(p)
			}
			c.cand, c.look = t.pos, t.pos+len(c.stop[0])
		}
		b := p.bytes(c.look, lim)
		i := skipSpace(b)
		c.look += i
		b = b[i:]
		if len(b) == 0 {
			return t.starve(p, eof, lim, c.cand)
		}
		if b[0] == '<' {
			k, part := prefix(b, c.follow)
			if k >= 0 {
				return true, t.endValue(p, 0)
			}
			if c.invoke { // a named parameter not given yet
				name, n, more := t.f.param(b)
				if n > 0 && t.notGiven(c.tool.params[string(name)]) {
					return true, t.endValue(p, 0)
				}
				part = part || more
			}
			if part {
				return t.starve(p, eof, lim, c.cand)
			}
		}
		c.rej, c.rejNext, c.stops = c.cand, c.look, c.stop[:2]
		t.pos, c.cand = c.look, -1
	}
}

// trimEOL returns to less the line ending (LF or CRLF) just before it,
// within the current value; with open set (more bytes may follow to) also
// less a final CR.
func (t *tools) trimEOL(p *Parser, to int, open bool) int {
	if t.c.over && to <= t.out {
		return to // an oversized call's bytes before t.out are emitted (and may be gone)
	}
	b := p.bytes(max(t.c.vals[len(t.c.vals)-1].start, to-2), to)
	switch n := len(b); {
	case n > 0 && b[n-1] == '\r' && open:
		return to - 1
	case n > 1 && b[n-2] == '\r' && b[n-1] == '\n':
		return to - 2
	case n > 0 && b[n-1] == '\n':
		return to - 1
	}
	return to
}

// recover ends the call at its closing tag at t.pos while its raw value is
// open: the value ends at its last closing tag (c.rej), with a warning
// naming what followed it, which belongs to no parameter.
func (t *tools) recover(p *Parser) error {
	c := &t.c
	at := t.pos
	t.pos = c.rej
	if err := t.endValue(p, 0); err != nil {
		return err
	}
	v := &c.vals[len(c.vals)-1]
	from := c.rej + len(c.stop[0])
	if !c.over {
		c.errs = append(c.errs, Event{Type: Error, ID: c.id, Name: c.name, Param: v.name, Kind: KindRawClose, Severity: ast.Warning,
			Message: fmt.Sprintf("parameter %s ends at its last %s, which is followed by %s; the text up to %s belongs to no parameter",
				v.name, c.stop[0], describe(p.bytes(c.rejNext, at)), c.end),
			Raw: p.str(from, at), Span: p.span(from, at)})
	}
	return t.finish(p, at, at+len(c.end))
}

// describe names what b starts with, for a message: a tag, or a short
// quote of text.
func describe(b []byte) string {
	if len(b) > 0 && b[0] == '<' {
		if j := bytes.IndexByte(b[:min(len(b), maxName+3)], '>'); j > 0 {
			return "the tag " + string(b[:j+1])
		}
	}
	line, _, _ := bytes.Cut(b, []byte{'\n'})
	if n := 24; len(line) > n {
		for n > 0 && !utf8.RuneStart(line[n]) {
			n--
		}
		return fmt.Sprintf("text %q…", line[:n])
	}
	return fmt.Sprintf("text %q", line)
}

// endValue ends the current value at t.pos, where its closing tag starts
// (or, unclosed, the call's or the next parameter's).
//
// by says what ends it: 0 its closing tag, 1 the call's closing tag
// (unclosed), 2 the opening tag of the next parameter (unclosed).
func (t *tools) endValue(p *Parser, by int) error {
	c := &t.c
	v := &c.vals[len(c.vals)-1]
	end := t.pos
	if c.edges {
		end = t.trimEOL(p, end, false)
	}
	if err := t.delta(p, end); err != nil {
		return err
	}
	v.end = end
	if !c.over {
		v.span = ast.Span{Start: v.startPos, End: p.pos(end)}
	}
	c.cand = -1
	t.mode = inCall
	switch by {
	case 1:
		v.before = c.end
		return t.finish(p, t.pos, t.pos+len(c.end))
	case 2:
		v.before = "the next parameter"
	default:
		t.pos += len(c.stop[0])
	}
	return nil
}

// delta emits the current value's text up to offset to as a ParamDelta,
// whose start the line tracker is at (the previous delta's end, as a
// rule). The event is built in place, only its own fields set, so that a
// stream in small chunks costs little a chunk.
func (t *tools) delta(p *Parser, to int) error {
	c := &t.c
	if c.over {
		return t.flush(p, to)
	}
	if to <= c.sent {
		return nil
	}
	e := &p.ev
	if p.full {
		*e, p.full = Event{}, false
	}
	seg := p.bytes(c.sent, to)
	e.Type, e.ID, e.Name, e.Param, e.Text, e.Exact = ParamDelta, c.id, c.name, c.param, view.String(seg), c.exact
	e.Span.Start = p.pos(c.sent)
	if c.sent == p.off && bytes.IndexByte(seg, '\n') < 0 { // the usual delta: the line tracker moves along its line
		p.off, e.Span.End = to, ast.Pos{Offset: to, Line: p.line, Col: to - p.start + 1}
	} else {
		e.Span.End = p.pos(to)
	}
	c.sent = to
	if err := p.emit(e); err != nil {
		return fmt.Errorf("stream: emit: %w", err)
	}
	return nil
}

// exact reports whether the current value's text is kept as written in
// the call's params (see Event.Exact): a string value that is neither
// trimmed nor unescaped, of the first occurrence of its parameter, which
// is not nullable (its text null is null).
func (t *tools) exact() bool {
	c := &t.c
	i := len(c.vals) - 1
	v := &c.vals[i]
	if c.tool == nil {
		return t.f.rawText && !v.dup
	}
	sp := v.param
	return sp != nil && t.given(sp) == i && sp.TypeOrDefault() == schema.String &&
		(sp.Raw || t.f.rawText) && sp.Entities != "unescape" && !sp.Nullable
}

// flush emits an oversized call's bytes up to offset to as Text.
func (t *tools) flush(p *Parser, to int) error {
	if to <= t.out {
		return nil
	}
	start := t.c.startPos
	if t.out != t.c.start {
		start = p.pos(t.out)
	}
	t.out = to
	return p.text(start, to, false)
}

// starve handles a call that cannot be decided with the bytes up to lim;
// hold is the offset up to which its bytes are decided.
func (t *tools) starve(p *Parser, eof bool, lim, hold int) (bool, error) {
	c := &t.c
	switch {
	case c.over:
		if eof {
			hold = p.end()
			t.mode, t.pos = inText, hold
		}
		return false, t.flush(p, hold)
	case lim < p.end():
		c.over, c.stray = true, -1
		err := p.send(&Event{Type: Error, ID: c.id, Name: c.name, Kind: KindTooLarge,
			Message: fmt.Sprintf("call is larger than %d bytes: its text follows as text", t.max),
			Span:    ast.Span{Start: c.startPos, End: p.pos(hold)}})
		if err != nil {
			return false, err
		}
		return true, t.flush(p, hold)
	case !eof:
		return false, nil
	}
	end := p.end()
	if t.mode == inValue && c.rej >= 0 && t.reread+end-c.rejNext <= end {
		return true, t.reopen(p, end)
	}
	t.mode, t.out, t.pos = inText, end, end
	return false, t.cut(p, end, "")
}

// cut ends the call at offset end, which the stream ends before its
// closing tag (msg: why, "" for the usual message): an unterminated error
// with the parameters read so far (see unterminated).
func (t *tools) cut(p *Parser, end int, msg string) error {
	c := &t.c
	if n := len(c.vals); n > 0 && c.vals[n-1].end < c.vals[n-1].start {
		v := &c.vals[n-1] // the value cut short: its text so far
		v.end, v.span = max(end, v.start), ast.Span{Start: v.startPos, End: p.pos(max(end, v.start))}
	}
	raw := p.str(c.start, end)
	sp := ast.Span{Start: c.startPos, End: p.pos(end)}
	errs := len(c.errs)
	params := t.build(raw, sp)
	c.errs = c.errs[:errs] // the call is not complete: its checks do not apply
	if msg == "" {
		msg = fmt.Sprintf("the stream ends before the call's closing %s", c.end)
	}
	return unterminated(p, Event{ID: c.id, Name: c.name, Params: params, Message: msg, Raw: raw, Span: sp})
}

// unterminated sends the error e of a call that the stream ends before
// its end: the tool's name and the parameters read so far, the one cut
// short included (as Cline reports a partial tool use), then the call's
// bytes as markup: a call cut off is neither a call to run nor text to
// show. Every syntax ends a cut call so.
func unterminated(p *Parser, e Event) error {
	e.Type, e.Kind = Error, KindUnterminated
	if err := p.send(&e); err != nil {
		return err
	}
	return p.text(e.Span.Start, e.Span.End.Offset, true)
}

// reopen handles a call left open at the end of the stream (end) in a raw
// value whose closing tag was ruled out: the call is unterminated up to
// what followed its last closing tag, and the stream is read again from
// there as text, so that later calls are not lost. The bytes read again add
// up to at most the stream's length (t.reread), which keeps the work linear.
func (t *tools) reopen(p *Parser, end int) error {
	c := &t.c
	stop := c.rejNext
	t.reread += end - stop
	v := &c.vals[len(c.vals)-1]
	v.end, v.span = c.rej, ast.Span{Start: v.startPos, End: p.pos(c.rej)}
	msg := fmt.Sprintf("call is not closed by %s; its %s ends at its last %s, which is followed by %s: what follows is read again",
		c.end, v.name, c.stop[0], describe(p.bytes(stop, end)))
	t.mode, t.out, t.pos = inText, stop, stop
	return t.cut(p, stop, msg)
}

// finish ends the call whose closing tag is [at, end): its errors, then the
// ToolCall.
func (t *tools) finish(p *Parser, at, end int) error {
	c := &t.c
	t.mode, t.pos = inText, end
	if c.wrapped {
		t.mode = inWrapper
	} else {
		t.afterLoose = t.f.loose && c.invoke && t.f.wrapClose != ""
	}
	if c.over {
		return t.flush(p, end)
	}
	t.out = end
	closing := p.span(at, end)
	raw := p.str(c.start, end)
	params := t.build(raw, closing)
	slices.SortStableFunc(c.errs, func(a, b Event) int { return a.Span.Start.Offset - b.Span.Start.Offset })
	for i := range c.errs {
		if err := p.send(&c.errs[i]); err != nil {
			return err
		}
	}
	return p.send(&Event{Type: ToolCall, ID: c.id, Name: c.name, Params: params, Raw: raw,
		Span: ast.Span{Start: c.startPos, End: closing.End}})
}

// build converts the call's values (raw is the call's source) to typed
// parameters (binder.bind), recording errors.
func (t *tools) build(raw string, closing ast.Span) ast.Params {
	c := &t.c
	args := make([]arg, len(c.vals))
	for i := range c.vals {
		v := &c.vals[i]
		s := raw[v.start-c.start : v.end-c.start]
		if v.before != "" {
			c.errs = append(c.errs, Event{Type: Error, ID: c.id, Name: c.name, Param: v.name, Kind: KindUnclosedParam,
				Message: fmt.Sprintf("parameter %s is not closed before %s", v.name, v.before), Raw: s, Span: v.span})
		}
		args[i] = arg{key: v.name, param: v.param, value: s, raw: s, span: v.span}
	}
	b := binder{id: c.id, name: c.name, missing: closing, typed: t.typed, errs: &c.errs, plain: func(a *arg) any {
		if t.f.rawText {
			return a.raw
		}
		return strings.TrimSpace(a.raw)
	}}
	if c.tool != nil {
		b.act = c.tool.act
	}
	return b.bind(args)
}

// typed converts a value's text to its parameter's type; a json or list
// parameter also takes a Python literal, and a json one plain text. A
// value that does not convert is kept trimmed, as plangram parse keeps it.
func (t *tools) typed(sp *schema.Param, a *arg) (any, error) {
	if t.f.rawText && sp.TypeOrDefault() == schema.String && !sp.Raw {
		// kept as written, like a raw value; the entity policy applies
		sp = &schema.Param{Name: sp.Name, Type: schema.String, Raw: true, Entities: sp.Entities, Nullable: sp.Nullable}
	}
	val, err := convert(sp, a.raw)
	if err == nil {
		return val, nil
	}
	s := strings.TrimSpace(a.raw)
	if ty := sp.TypeOrDefault(); ty == schema.JSON || ty == schema.List {
		if js, ok := pyLiteral(s); ok {
			if v, e := convert(sp, js); e == nil {
				return v, nil
			}
		}
		if ty == schema.JSON && (s == "" || !strings.ContainsRune("{[\"", rune(s[0]))) {
			// a json parameter takes any value: text that does not try
			// to be JSON, or no text, is a string (an untyped property,
			// an anyOf of string and other types); broken JSON stays an
			// error
			return s, nil
		}
	}
	return s, err
}

// find returns the first index in b at which one of tags starts and the
// tag's index; else (i, -1) where b[i:] is a proper prefix of a tag
// (unless eof: no more bytes will come), or (len(b), -1).
func find(b []byte, tags []string, eof bool) (int, int) {
	c, mixed := tags[0][0], false // tags that do not share their first byte ('<', or '[' for [/THINK])
	for _, t := range tags[1:] {
		mixed = mixed || t[0] != c
	}
	for i := 0; ; i++ {
		var j int
		if mixed {
			j = bytes.IndexFunc(b[i:], func(r rune) bool {
				return slices.ContainsFunc(tags, func(t string) bool { return rune(t[0]) == r })
			})
		} else {
			j = bytes.IndexByte(b[i:], c)
		}
		if j < 0 {
			return len(b), -1
		}
		i += j
		k, part := prefix(b[i:], tags)
		if k >= 0 {
			return i, k
		}
		if part && !eof {
			return i, -1
		}
	}
}

// prefix returns the index of the tag b starts with, or -1 and whether b
// is a proper prefix of one of tags.
func prefix(b []byte, tags []string) (int, bool) {
	part := false
	for k, tag := range tags {
		if len(b) > 1 && len(tag) > 1 && b[1] != tag[1] {
			continue // the usual mismatch, told by the second byte alone
		}
		full, p := match(b, tag)
		if full {
			return k, false
		}
		part = part || p
	}
	return -1, part
}

// match reports whether b starts with tag, or is a proper prefix of it.
func match(b []byte, tag string) (full, part bool) {
	if len(b) >= len(tag) {
		return string(b[:len(tag)]) == tag, false
	}
	return false, string(b) == tag[:len(b)]
}

// named matches b against pre NAME>, NAME being 1 to maxName name bytes.
// It returns the name and the length matched, or whether more bytes could
// still make b match.
func named(b []byte, pre string) (name []byte, n int, more bool) {
	i, ok, more := seq(b, 0, pre)
	if !ok {
		return nil, 0, more
	}
	j, more := nameEnd(b, i)
	if more || j == i {
		return nil, 0, more
	}
	if n, ok, more = seq(b, j, ">"); !ok {
		return nil, 0, more
	}
	return b[i:j], n, false
}

func isName(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-' || c == '.' || c == ':'
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipSpace(b []byte) int { return len(b) - len(bytes.TrimLeft(b, " \t\n\r")) }
