package stream

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/plangram/plangram/internal/jsonw"
	"github.com/plangram/plangram/stream/jsonargs"
)

// KindBadPython is the error kind of a pythonic call (llama syntax,
// [f(a=1)]) that is not a Python call of keyword arguments with literal
// values.
const KindBadPython = "bad-python"

// maxPyName bounds the name of a pythonic call, so that a '[' at a line
// start is decided after a bounded look-ahead.
const maxPyName = 128

// pyCallStart matches b, bytes at a '[' (or after <|python_start|>), against
// the start of a pythonic call: '[', white space, a name, white space, '('.
// It returns the offsets of the name and of the byte after '(' in b, or
// whether b may still become one (part) when it is not (yet) one.
func pyCallStart(b []byte, bracket bool) (name [2]int, n int, full, part bool) {
	i := 0
	if bracket {
		if len(b) == 0 {
			return name, 0, false, true
		}
		if b[0] != '[' {
			return name, 0, false, false
		}
		i = 1
	}
	for i < len(b) && isSpace(b[i]) && i < maxMarkerSpace {
		i++
	}
	name[0] = i
	for i < len(b) && isPyName(b[i], i == name[0]) && i-name[0] < maxPyName {
		i++
	}
	name[1] = i
	if i == len(b) {
		return name, 0, false, true
	}
	if name[1] == name[0] || !isPyName(b[i], false) && !isSpace(b[i]) && b[i] != '(' {
		return name, 0, false, false
	}
	i, _ = spaces(b, i)
	if i == len(b) {
		return name, 0, false, true
	}
	if b[i] != '(' {
		return name, 0, false, false
	}
	return name, i + 1, true, false
}

// isPyName reports whether c may be in a call's or keyword's name (a
// Python identifier, dotted names allowed for calls).
func isPyName(c byte, first bool) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || !first && ('0' <= c && c <= '9' || c == '.')
}

// pycall reads the arguments of one pythonic call, NAME(k=v, …), after
// its '(': keyword arguments whose values are Python literals. String
// values stream as deltas as they are decoded; other values (numbers,
// True/False/None, lists, dicts, tuples) are converted to JSON when
// complete. It reports to the jcall that holds the call.
type pycall struct {
	c   *jcall
	st  uint8
	pos int // the read cursor

	key      string
	keyStart int
	vstart   int // the value's first byte

	// a string value
	q      byte
	triple bool
	dstart int    // source start of the decoded text not yet emitted
	dec    []byte // decoded text not yet emitted
	sval   []byte // the decoded value so far

	n nest // a compound value
}

// nest follows brackets and quoted strings (in single or double quotes,
// with backslash escapes) to where a bracketed value ends: a pythonic
// call's list, dict or tuple value, and a broken call in a list of calls
// (brokenEnd).
type nest struct {
	depth int
	inq   byte // the quote of the string it is in
	esc   bool
}

// end reads b and returns the index after the bracket that closes the
// first one opened, or -1 when b ends before it.
func (n *nest) end(b []byte) int {
	for i, c := range b {
		switch {
		case n.esc:
			n.esc = false
		case n.inq != 0:
			switch c {
			case '\\':
				n.esc = true
			case n.inq:
				n.inq = 0
			}
		case c == '\'' || c == '"':
			n.inq = c
		case c == '[' || c == '{' || c == '(':
			n.depth++
		case c == ']' || c == '}' || c == ')':
			n.depth--
			if n.depth <= 0 {
				return i + 1
			}
		}
	}
	return -1
}

// maxSkip bounds how far a broken call in a list of calls is followed to
// its end (brokenEnd).
const maxSkip = 4096

// brokenEnd follows a call of a list that broke at a syntax error, from
// its start (offset start; *pos and n the progress so far), to its end:
// the bracket that closes its first one, so that the calls after it in
// the list are still read. It returns that end, or -1 when the call has
// no end within maxSkip bytes of its start (or before the end of the
// stream); wait: more bytes are needed to tell.
func brokenEnd(p *Parser, n *nest, pos *int, start int, eof bool) (end int, wait bool) {
	b, cut := window(p.bytes(*pos, p.end()), start+maxSkip-*pos)
	if i := n.end(b); i >= 0 {
		return *pos + i, false
	}
	*pos += len(b)
	return -1, !cut && !eof && *pos < start+maxSkip
}

// pycall's states.
const (
	pyArgs   = iota // before a keyword or ')'
	pyKey           // in a keyword
	pyEq            // after a keyword: '='
	pyValue         // before a value
	pyStr           // in a string value
	pyNested        // in a list, dict or tuple value
	pyScalar        // in a number or a name (True, None…)
	pyAfter         // after a value: ',' or ')'
	pyDone          // the call's ')' was read
	pyFailed        // a syntax error ended the call
)

// begin starts reading arguments at offset off (after the '(').
func (y *pycall) begin(off int) {
	*y = pycall{c: y.c, dec: y.dec[:0], sval: y.sval[:0], pos: off, st: pyArgs}
}

// feed reads the available bytes and reports whether the call is over
// (its ')' read, or a syntax error). At eof an open call is cut (the
// caller aborts it).
func (y *pycall) feed(p *Parser, eof bool) (bool, error) {
	end := p.end()
	for y.st != pyDone && y.st != pyFailed {
		b := p.bytes(y.pos, end)
		switch y.st {
		case pyArgs, pyEq, pyValue, pyAfter:
			i := skipSpace(b)
			y.pos += i
			if i == len(b) {
				return false, nil
			}
			c := b[i]
			switch y.st {
			case pyArgs:
				switch {
				case c == ')':
					y.pos++
					y.st = pyDone
				case isPyName(c, true):
					y.st, y.keyStart = pyKey, y.pos
				default:
					y.fail(p, "want a keyword argument (name=value) or ')'")
				}
			case pyEq:
				if c != '=' {
					y.fail(p, fmt.Sprintf("want '=' after keyword %s", y.key))
					break
				}
				y.pos++
				y.st = pyValue
			case pyValue:
				y.vstart = y.pos
				switch c {
				case '\'', '"':
					if len(b)-i < 3 && !eof {
						return false, nil // a triple quote?
					}
					y.q, y.triple = c, len(b)-i >= 3 && b[i+1] == c && b[i+2] == c
					y.pos++
					if y.triple {
						y.pos += 2
					}
					y.dstart, y.dec, y.sval = y.pos, y.dec[:0], y.sval[:0]
					y.st = pyStr
				case '[', '{', '(':
					y.n = nest{}
					y.st = pyNested
				case ',', ')', ']', '}', '=':
					y.fail(p, fmt.Sprintf("want a value for keyword %s", y.key))
				default:
					y.st = pyScalar
				}
			case pyAfter:
				switch c {
				case ',':
					y.pos++
					y.st = pyArgs
				case ')':
					y.pos++
					y.st = pyDone
				default:
					y.fail(p, "want ',' or ')' after a value")
				}
			}
		case pyKey:
			i := 0
			for i < len(b) && isPyName(b[i], false) && b[i] != '.' {
				i++
			}
			y.pos += i
			if i == len(b) && !eof {
				return false, nil
			}
			y.key = p.str(y.keyStart, y.pos)
			y.st = pyEq
		case pyStr:
			if err := y.str(p, b, eof); err != nil {
				return false, err
			}
			if y.st == pyStr {
				return false, nil
			}
		case pyNested:
			i := y.n.end(b)
			if i < 0 {
				y.pos += len(b)
				return false, nil
			}
			y.pos += i
			y.value(p)
		case pyScalar:
			i := 0
			for i < len(b) && (isPyName(b[i], false) || b[i] == '+' || b[i] == '-') {
				i++
			}
			y.pos += i
			if i == len(b) && !eof {
				return false, nil
			}
			if y.pos == y.vstart {
				y.fail(p, fmt.Sprintf("want a value for keyword %s", y.key))
				break
			}
			y.value(p)
		}
		if y.pos == end && y.st != pyDone && y.st != pyFailed {
			return false, nil
		}
	}
	return true, nil
}

// cut records the string value the end of the stream cut short, as
// decoded so far, for the call's unterminated error.
func (y *pycall) cut(p *Parser) {
	if y.st == pyStr {
		s := string(append(y.sval, y.dec...))
		y.c.partial = append(y.c.partial, arg{key: y.key, value: s, span: p.span(y.vstart, p.end()), partial: true})
	}
}

// fail ends the call at the byte at y.pos, which is not what the call's
// grammar allows there.
func (y *pycall) fail(p *Parser, msg string) {
	to := y.pos
	if to < p.end() {
		_, n := utf8.DecodeRune(p.bytes(to, p.end()))
		to += n
	}
	y.c.fail(p, KindBadPython, "pythonic call: "+msg, p.span(y.pos, to))
	y.st = pyFailed
}

// str reads string bytes b (from y.pos): it decodes them, emitting the
// decoded text as a delta when it waits for more bytes or at the closing
// quote, then adds the value.
func (y *pycall) str(p *Parser, b []byte, eof bool) error {
	i := 0
	for i < len(b) {
		c := b[i]
		switch {
		case c == y.q:
			if y.triple {
				if len(b)-i < 3 && !eof {
					goto wait
				}
				if len(b)-i < 3 || b[i+1] != c || b[i+2] != c {
					y.dec = append(y.dec, c)
					i++
					continue
				}
			}
			if err := y.flush(p, y.pos+i); err != nil {
				return err
			}
			y.pos += i + 1
			if y.triple {
				y.pos += 2
			}
			y.c.addVal(arg{key: y.key, value: string(y.sval), span: p.span(y.vstart, y.pos)})
			y.st = pyAfter
			return nil
		case c == '\\':
			r, n, ok := pyEscape(b[i:], eof)
			if !ok {
				goto wait
			}
			y.dec = append(y.dec, r...)
			i += n
		case c == '\n' && !y.triple:
			if err := y.flush(p, y.pos+i); err != nil {
				return err
			}
			y.pos += i
			y.fail(p, "a line ending inside a string (a Python string in quotes is one line)")
			return nil
		default:
			j := i + 1
			for j < len(b) && b[j] != y.q && b[j] != '\\' && b[j] != '\n' {
				j++
			}
			y.dec = append(y.dec, b[i:j]...)
			i = j
		}
	}
wait:
	if err := y.flush(p, y.pos+i); err != nil {
		return err
	}
	y.pos += i
	return nil
}

// flush emits the decoded text from y.dstart to offset to as a delta.
func (y *pycall) flush(p *Parser, to int) error {
	if len(y.dec) == 0 {
		y.dstart = to
		return nil
	}
	text := string(y.dec)
	y.sval = append(y.sval, y.dec...)
	y.dec = y.dec[:0]
	e := jsonargs.Event{Kind: jsonargs.Delta, Key: y.key, Text: text, Span: p.span(y.dstart, to)}
	y.dstart = to
	return y.c.delta(p, e, len(y.c.vals))
}

// pyEscape decodes the escape b starts with (b[0] is '\\') as Python
// does: \n \t \r \a \b \f \v \\ \' \" \<newline>, octal \ooo, \xhh,
// \uhhhh, \Uhhhhhhhh; an unknown escape keeps its backslash. ok is false
// when more bytes are needed to decide it (never at eof).
func pyEscape(b []byte, eof bool) (dec []byte, n int, ok bool) {
	if len(b) < 2 {
		if !eof {
			return nil, 0, false
		}
		return b, len(b), true
	}
	if i := strings.IndexByte("ntrabfv", b[1]); i >= 0 {
		return []byte{"\n\t\r\a\b\f\v"[i]}, 2, true
	}
	switch c := b[1]; c {
	case '\\', '\'', '"':
		return []byte{c}, 2, true
	case '\n':
		return nil, 2, true
	case 'x', 'u', 'U':
		k := map[byte]int{'x': 2, 'u': 4, 'U': 8}[c]
		if len(b) < 2+k && !eof {
			return nil, 0, false
		}
		if len(b) >= 2+k {
			if v, err := strconv.ParseUint(string(b[2:2+k]), 16, 32); err == nil && v <= utf8.MaxRune {
				return utf8.AppendRune(nil, rune(v)), 2 + k, true
			}
		}
		return b[:2], 2, true // not an escape Python accepts: kept as written
	}
	if '0' <= b[1] && b[1] <= '7' {
		i := 1
		for i < len(b) && i < 4 && '0' <= b[i] && b[i] <= '7' {
			i++
		}
		if i < 4 && i == len(b) && !eof {
			return nil, 0, false
		}
		v, _ := strconv.ParseUint(string(b[1:i]), 8, 32)
		return utf8.AppendRune(nil, rune(v)), i, true
	}
	return b[:2], 2, true
}

// value adds the non-string value [y.vstart, y.pos), converted from its
// Python literal to JSON; one that is not a literal is an error and is
// not added.
func (y *pycall) value(p *Parser) {
	y.st = pyAfter
	raw := p.str(y.vstart, y.pos)
	sp := p.span(y.vstart, y.pos)
	js, ok := pyLiteral(raw)
	if !ok {
		y.c.fail(p, KindBadPython, fmt.Sprintf("pythonic call: the value of %s is not a Python literal", y.key), sp)
		y.c.errs[len(y.c.errs)-1].Param = y.key
		return
	}
	var v any
	switch js {
	case "true":
		v = true
	case "false":
		v = false
	case "null":
	default:
		switch js[0] {
		case '[', '{':
			v = json.RawMessage(js)
		case '"':
			var s string
			if jsonw.Unmarshal([]byte(js), &s) == nil {
				v = s
			}
		default:
			v = json.Number(js)
		}
	}
	y.c.addVal(arg{key: y.key, value: v, json: js, span: sp})
}
