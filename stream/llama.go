package stream

import (
	"bytes"
	"slices"
	"strings"
)

// The llama syntax's markup. In markers a space stands for optional white
// space (see matchMarker).
const (
	llamaTag = "<|python_tag|>"
	// llamaPyStart and llamaPyEnd wrap Llama 4's pythonic calls.
	llamaPyStart = "<|python_start|>"
	llamaPyEnd   = " <|python_end|>"
	// llamaLine opens a call at the start of a line (where --syntax auto
	// hands over at a line's end, see llamaAuto).
	llamaLine = "\n { \"name\""
)

// llamaAuto are what --syntax auto takes for a llama call: the
// envelope's name, then its arguments ("parameters" or "arguments"),
// at a line start or anywhere (a call in the middle of a line is then
// text). Requiring the arguments' key keeps JSON that only has a
// "name" (a package.json in an answer) text.
var llamaAuto = []string{
	"\n { \"name\" : \"+\" , \"parameters\"", "\n { \"name\" : \"+\" , \"arguments\"",
	`{ "name" : "+" , "parameters"`, `{ "name" : "+" , "arguments"`,
}

// llamaJSON are the starts of a Llama 3.x JSON call: the envelope's first
// key is "name", the arguments' key, "type": "function" or "function": {
// (OpenAI's wrapper {"type": "function", "function": {"name": …}}, which
// some models write).
var llamaJSON = []string{`{ "name"`, `{ "parameters"`, `{ "arguments"`, `{ "type" : "function"`, `{ "function" : {`}

// llamaMarks are the prose markers of the llama syntax: the tags, then the
// line starts that may begin a call (a JSON call, a pythonic list, a bare
// pythonic call of one of the tools), then, from index mid on, a pythonic
// list in the middle of a line whose first call is one of the tools
// ("[ NAME (").
func llamaMarks(t *jtools) (m []string, mid int) {
	m = []string{llamaTag, llamaPyStart}
	for _, j := range llamaJSON {
		m = append(m, "\n "+j)
	}
	m = append(m, "\n [ *")
	names := make([]string, 0, len(t.acts))
	for n := range t.acts {
		if pyIdent(n) {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	for _, n := range names {
		m = append(m, "\n "+n+" (")
	}
	mid = len(m)
	for _, n := range names {
		m = append(m, "[ "+n+" (")
	}
	return m, mid
}

// pyIdent reports whether s is a Python identifier (ASCII).
func pyIdent(s string) bool {
	for i := range len(s) {
		if !isPyName(s[i], i == 0) || s[i] == '.' {
			return false
		}
	}
	return s != "" && len(s) <= maxPyName
}

// Llama registers the llama syntax: the JSON tool calls of Llama 3.x,
// {"name": …, "parameters": {…}} ("arguments" is read too, the keys in any
// order), optionally after <|python_tag|>, several separated by ';' or
// white space; and the pythonic calls of Llama 3.2/4 and others,
// [f(a=1, b="x"), g()], optionally between <|python_start|> and
// <|python_end|>. A call starts at a tag, or at a '{' or '[' that begins
// the stream or a line (after white space) and is followed by a call's
// start; anything else is text. A pythonic call without the brackets is
// read after a tag, and at a line start when it calls one of the schema's
// tools (see pyStart).
func (registry) Llama() *Syntax {
	return &Syntax{Name: "llama", Schema: "tools",
		Summary: `{"name": …, "parameters": {…}} or [f(a=1)] at a line start, after <|python_tag|> or <|python_start|> (Llama 3.x, 4)`,
		Markers: staticMarkers(append([]string{llamaTag, llamaPyStart}, llamaAuto...)...),
		open: func(c *config) (scanner, error) {
			jc := newJCall(namesOf(c))
			marks, mid := llamaMarks(jc.tools)
			l := &llama{x: newProse(c.opts, c.start, marks), c: jc, pos: c.start, mid: mid}
			l.y.c = l.c
			return l, nil
		}}
}

// llama is the scanner of the llama syntax.
type llama struct {
	x   *prose
	c   *jcall
	y   pycall
	st  uint8
	at  int // where <|python_tag|> or <|python_start|> starts
	pos int
	// bare: the pythonic calls are not in a [...] list; known: only calls
	// of the schema's tools are read (a bare call at a line start).
	bare, known bool
	// mid is the index of the first mid-line list marker in the prose
	// markers (see llamaMarks).
	mid int
	// restart: the last call's JSON broke; a call may start where it broke
	// (see text).
	restart bool
	// a broken pythonic call followed to its end (brokenEnd)
	n    nest
	skip int
}

// llama's states.
const (
	llInit   = iota // at the start: a call may begin at once
	llText          // prose
	llTag           // after <|python_tag|> or <|python_start|>
	llJSON          // in a call's JSON
	llAfter         // after a call: another may follow
	llPyCall        // in a pythonic call's arguments
	llPyList        // in a pythonic list, after a call: ',' or ']'
	llPyEnd         // after a pythonic list: <|python_end|> may follow
	llMid           // at a '[' in a line, a tool's name and '(' after it
	llPySkip        // after a pythonic call's syntax error, up to its end
)

func (l *llama) keep() int {
	switch l.st {
	case llText:
		return l.x.keep()
	case llTag:
		return l.at
	case llJSON, llPyCall, llPySkip:
		return l.c.start
	}
	return l.pos
}

func (l *llama) scan(p *Parser, eof bool) error { return steps(p, eof, l.step) }

func (l *llama) step(p *Parser, eof bool) (bool, error) {
	switch l.st {
	case llInit, llAfter:
		if l.st == llInit && l.pos == p.end() && !eof {
			return false, nil
		}
		// The start of the stream (when it starts a line: --syntax auto
		// may begin anywhere) or the end of a call: a call may follow,
		// after white space (and a ';' after a call).
		b := p.bytes(l.pos, p.end())
		var marks []string
		if l.st == llInit && !l.restart && p.pos(l.pos).Col != 1 {
			marks = []string{llamaLine} // --syntax auto stopped at a line's end
		} else {
			for _, j := range llamaJSON {
				marks = append(marks, " "+j)
				if l.st == llAfter {
					marks = append(marks, " ; "+j)
				}
			}
		}
		for _, m := range marks {
			n, full, part := matchMarker(b, m)
			if part && !eof {
				return false, nil
			}
			if full {
				brace := l.pos + bytes.IndexByte(b[:n], '{')
				if err := p.text(p.pos(l.pos), brace, l.st == llAfter); err != nil {
					return false, err
				}
				l.x.endPre()
				l.c.begin(p, brace)
				l.c.json(p, brace, true)
				l.st, l.restart = llJSON, false
				return true, nil
			}
		}
		if len(marks) > 1 { // a pythonic list, or a bare call of a tool
			i := min(p.spaces(l.pos), maxMarkerSpace)
			started, wait, err := l.pyStart(p, l.pos+i, eof, l.st == llAfter, false, false)
			if err == nil && !wait && !started {
				started, wait, err = l.pyStart(p, l.pos+i, eof, l.st == llAfter, true, true)
			}
			if err != nil || wait {
				return false, err
			}
			if started {
				l.restart = false
				return true, nil
			}
		}
		l.x.skip(l.pos)
		l.st, l.restart = llText, false
	case llText:
		k, at, end, err := l.x.next(p, eof)
		if err != nil || k < 0 {
			return false, err
		}
		if k >= l.mid { // "[tool(" in a line
			l.st, l.pos = llMid, at
			return true, nil
		}
		if k >= 2 { // a line starts with what may be a call
			l.x.skip(at + 1)
			l.pos = at + 1
			if err := p.text(p.pos(at), at+1, false); err != nil {
				return false, err
			}
			l.st = llInit
			return true, nil
		}
		l.st, l.at, l.pos = llTag, at, end
	case llTag:
		b := p.bytes(l.pos, p.end())
		i := p.spaces(l.pos)
		switch {
		case i < len(b) && b[i] == '{':
			l.c.begin(p, l.at)
			l.c.json(p, l.pos+i, true)
			l.st = llJSON
		case i < len(b) && (b[i] == '[' || isPyName(b[i], true)):
			// a pythonic list, or a bare call of any tool: f(a=1),
			// brave_search.call(query="x")
			started, wait, err := l.pyStart(p, l.pos+i, eof, true, b[i] != '[', false)
			if err != nil || wait {
				return false, err
			}
			if !started {
				return true, l.tagText(p, l.pos+i)
			}
		case i < len(b): // not a call: the tag is text
			return true, l.tagText(p, l.pos+i)
		case !eof:
			return false, nil
		default:
			l.c.begin(p, l.at)
			return false, l.text(l.c.abort(p, p.end(), ""))
		}
	case llJSON:
		done, err := l.c.feed(p, eof)
		if err != nil || !done {
			return false, err
		}
		if l.c.cut {
			return false, l.text(l.c.abort(p, p.end(), ""))
		}
		err = l.c.finish(p, l.c.jpos)
		l.pos = l.c.jpos
		if l.c.jp.Failed() {
			l.restart = true
			return true, l.text(err)
		}
		l.st = llAfter
		return true, err
	case llPyCall:
		done, err := l.y.feed(p, eof)
		if err != nil {
			return false, err
		}
		if !done {
			if eof {
				l.y.cut(p)
				return false, l.text(l.c.abort(p, p.end(), ")"))
			}
			return false, nil
		}
		if l.y.st == pyFailed {
			l.st, l.n, l.skip = llPySkip, nest{}, l.c.start
			return true, nil
		}
		err = l.c.finish(p, l.y.pos)
		l.pos, l.st = l.y.pos, llPyList
		return true, err
	case llPySkip:
		// A broken call ends at its ')': the calls after it are read.
		end, wait := brokenEnd(p, &l.n, &l.skip, l.c.start, eof)
		if wait {
			return false, nil
		}
		if end < 0 { // no end in sight: the call ends where it broke
			return true, l.text(l.c.finish(p, l.y.pos))
		}
		err := l.c.finish(p, end)
		l.pos, l.st = end, llPyList
		return true, err
	case llPyList:
		b := p.bytes(l.pos, p.end())
		i := p.spaces(l.pos)
		switch {
		case i == len(b) && !eof:
			return false, nil
		case i < len(b) && b[i] == ',':
			j := i + 1 + p.spaces(l.pos+i+1)
			name, n, full, part := pyCallStart(b[j:], false)
			if part && !eof {
				return false, nil
			}
			if !full || l.known && l.c.tools.acts[string(b[j+name[0]:j+name[1]])] == nil {
				break
			}
			if err := p.text(p.pos(l.pos), l.pos+j, true); err != nil {
				return false, err
			}
			return true, l.pyCall(p, l.pos+j, name, n)
		case i < len(b) && b[i] == ']' && !l.bare:
			if err := p.text(p.pos(l.pos), l.pos+i+1, true); err != nil {
				return false, err
			}
			l.pos += i + 1
			l.st = llPyEnd
			return true, nil
		}
		if l.bare { // bare calls end: <|python_end|> may follow
			l.st = llPyEnd
			return true, nil
		}
		// Anything else ends the list: text from here.
		l.x.skip(l.pos)
		l.st = llText
	case llMid:
		b := p.bytes(l.pos, p.end())
		name, n, full, part := pyCallStart(b, true)
		kw, more := false, false
		if full {
			kw, more = pyKeywordNext(b[n:])
		}
		if (part || more) && !eof {
			return false, nil
		}
		if !full || !kw || l.c.tools.acts[string(b[name[0]:name[1]])] == nil {
			// not a call: the '[' is text
			if err := p.text(p.pos(l.pos), l.pos+1, false); err != nil {
				return false, err
			}
			l.x.skip(l.pos + 1)
			l.st = llText
			return true, nil
		}
		return true, l.startPy(p, l.pos, name, n, false, false, false)
	case llPyEnd:
		n, full, part := matchMarker(p.bytes(l.pos, p.end()), llamaPyEnd)
		if part && !eof {
			return false, nil
		}
		if full {
			if err := p.text(p.pos(l.pos), l.pos+n, true); err != nil {
				return false, err
			}
			l.pos += n
		}
		l.st = llAfter
	}
	return true, nil
}

// pyKeywordNext reports whether b, the bytes after a call's '(', starts
// as the arguments of a tool call do: ')' or a keyword and '=' (white
// space allowed), not code such as print(x) or f(a == b); more: b ends
// before that is decided.
func pyKeywordNext(b []byte) (kw, more bool) {
	i, _ := spaces(b, 0)
	switch {
	case i == len(b):
		return false, true
	case b[i] == ')':
		return true, false
	case !isPyName(b[i], true):
		return false, false
	}
	j := i
	for j < len(b) && isPyName(b[j], j == i) && b[j] != '.' && j-i < maxPyName {
		j++
	}
	k, _ := spaces(b, j)
	switch {
	case k == len(b):
		return false, true
	case b[k] != '=':
		return false, false
	case k+1 == len(b):
		return false, true // = or ==
	}
	return b[k+1] != '=', false
}

// pyStart starts a pythonic list at offset at (its '['), when a call
// follows, or, with bare, a bare pythonic call (no [...] around it): after
// a tag, of any tool (Llama 3.1's built-in NAME.call(…) names the tool
// NAME); at a line start only of a tool the schema knows (known), so that
// prose such as print(x) or main() stays text. The bytes from l.at (a
// tag) or l.pos to the call are markup (after a call or a tag, white space
// included) or text.
func (l *llama) pyStart(p *Parser, at int, eof, markup, bare, known bool) (started, wait bool, err error) {
	b := p.bytes(at, p.end())
	name, n, full, part := pyCallStart(b, !bare)
	if part && !eof {
		return false, true, nil
	}
	if !full {
		return false, false, nil
	}
	if !bare {
		return true, false, l.startPy(p, at, name, n, markup, false, false)
	}
	switch kw, more := pyKeywordNext(b[n:]); {
	case more && !eof:
		return false, true, nil
	case !kw:
		return false, false, nil
	}
	nm := string(b[name[0]:name[1]])
	if known && l.c.tools.acts[nm] == nil {
		return false, false, nil
	}
	if !known && l.c.tools.acts[nm] == nil && strings.HasSuffix(nm, ".call") {
		name[1] -= len(".call")
	}
	return true, false, l.startPy(p, at, name, n, markup, true, known)
}

// startPy starts the pythonic call whose name is at name (relative to at)
// in the buffer: the bytes before it since l.at (a tag) or l.pos are
// written as markup when markup or after a tag, else as text up to at and
// markup from there; bare and known say how the call was found (without
// a list; by a declared tool's name).
func (l *llama) startPy(p *Parser, at int, name [2]int, n int, markup, bare, known bool) error {
	from := l.pos
	if l.st == llTag {
		from = l.at
	} else if !markup {
		if err := p.text(p.pos(l.pos), at, false); err != nil {
			return err
		}
		from = at
	}
	if err := p.text(p.pos(from), at+name[0], true); err != nil {
		return err
	}
	l.bare, l.known = bare, known
	return l.pyCall(p, at, name, n)
}

// pyCall starts the pythonic call whose name is b[name[0]:name[1]] and
// whose arguments start at b[n:], b being the bytes from offset at.
func (l *llama) pyCall(p *Parser, at int, name [2]int, n int) error {
	l.x.endPre()
	l.c.begin(p, at+name[0])
	l.y.begin(at + n)
	l.st = llPyCall
	return l.c.named(p, p.str(at+name[0], at+name[1]), at+n)
}

// tagText emits a tag not followed by a call, up to offset to, as text.
func (l *llama) tagText(p *Parser, to int) error {
	if err := p.text(p.pos(l.at), to, false); err != nil {
		return err
	}
	l.x.skip(to)
	l.st = llText
	return nil
}

// text resumes text after the last call (a call may start there when it
// is the start of a line: a JSON syntax error at a line's '{' ends the
// call before it; or when the call's JSON broke (restart) at what starts
// a call, as when a model begins its call again: {"name": "f",
// "parameters": {{"name": "f", …}).
func (l *llama) text(err error) error {
	l.st = llInit
	l.pos = max(l.c.end, l.pos)
	return err
}
