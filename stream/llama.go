package stream

import "bytes"

// The llama syntax's markup. In llamaLine and llamaCall a space stands
// for optional white space (see matchMarker).
const (
	llamaTag = "<|python_tag|>"
	// llamaLine opens a call at the start of a line.
	llamaLine = "\n { \"name\""
	// llamaCall is a call's start at the start of the stream or after a
	// call.
	llamaCall = ` { "name"`
	// llamaNext is the next call after a call and a ';'.
	llamaNext = ` ; { "name"`
	// llamaAuto is what --syntax auto takes for a llama call at the start
	// of the stream (one in the middle of a line is then text).
	llamaAuto = `{ "name"`
)

// Llama registers the llama syntax: the JSON tool calls of Llama 3.x,
// {"name": …, "parameters": {…}} ("arguments" is read too), optionally
// after <|python_tag|>, several separated by ';' or white space. A call
// starts at <|python_tag|> or at a '{' that begins the stream or a line
// (after white space) and is followed by "name"; any other '{' is text.
// Each call ends with its JSON. The pythonic form [f(a=1)] of Llama 4 is
// not read (it is text).
func (registry) Llama() *Syntax {
	return &Syntax{Name: "llama", Schema: "tools",
		Summary: `{"name": …, "parameters": {…}} at a line start or after <|python_tag|> (Llama 3.x)`,
		Markers: staticMarkers(llamaTag, llamaLine, llamaAuto),
		open: func(c *config) (scanner, error) {
			return &llama{x: newProse(c.opts, c.start, []string{llamaTag, llamaLine}), c: newJCall(c.schema), pos: c.start}, nil
		}}
}

// llama is the scanner of the llama syntax.
type llama struct {
	x   *prose
	c   *jcall
	st  uint8
	at  int // where <|python_tag|> starts
	pos int
}

// llama's states.
const (
	llInit  = iota // at the start: a call may begin at once
	llText         // prose
	llTag          // after <|python_tag|>
	llJSON         // in a call's JSON
	llAfter        // after a call: another may follow
)

func (l *llama) keep() int {
	switch l.st {
	case llText:
		return l.x.keep()
	case llTag:
		return l.at
	case llJSON:
		return l.c.start
	}
	return l.pos
}

func (l *llama) scan(p *Parser, eof bool) error {
	for {
		more, err := l.step(p, eof)
		if err != nil || !more {
			return err
		}
	}
}

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
		marks := []string{llamaCall}
		if l.st == llAfter {
			marks = append(marks, llamaNext)
		} else if p.pos(l.pos).Col != 1 {
			marks = []string{llamaLine} // --syntax auto stopped at a line's end
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
				l.c.begin(p, brace)
				l.c.json(p, brace, true)
				l.st = llJSON
				return true, nil
			}
		}
		l.x.skip(l.pos)
		l.st = llText
	case llText:
		k, at, end, err := l.x.next(p, eof)
		if err != nil || k < 0 {
			return false, err
		}
		if k == 1 { // a line starts with {"name"
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
		i := skipSpace(b)
		switch {
		case i < len(b) && b[i] == '{':
			l.c.begin(p, l.at)
			l.c.json(p, l.pos+i, true)
			l.st = llJSON
		case i < len(b): // not a JSON call: the tag is text
			if err := p.text(p.pos(l.at), l.pos+i, false); err != nil {
				return false, err
			}
			l.x.skip(l.pos + i)
			l.st = llText
		case !eof:
			return false, nil
		default:
			l.c.begin(p, l.at)
			return false, l.text(l.c.abort(p, p.end(), llamaEnd))
		}
	case llJSON:
		done, err := l.c.feed(p, eof)
		if err != nil || !done {
			return false, err
		}
		if l.c.cut {
			return false, l.text(l.c.abort(p, p.end(), llamaEnd))
		}
		err = l.c.finish(p, l.c.jpos)
		l.pos = l.c.jpos
		if l.c.jp.Failed() {
			return true, l.text(err)
		}
		l.st = llAfter
		return true, err
	}
	return true, nil
}

// llamaEnd: a llama call has no closing marker (see jcall.abort).
const llamaEnd = ""

// text resumes text after the last call (a call may start there when it
// is the start of a line: a JSON syntax error at a line's '{' ends the
// call before it).
func (l *llama) text(err error) error {
	l.st = llInit
	l.pos = max(l.c.end, l.pos)
	return err
}
