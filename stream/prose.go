package stream

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/schema"
)

// maxMarkerSpace is the most white space a space in a marker stands for.
const maxMarkerSpace = 32

// matchMarker matches b against marker m (see Syntax.Markers): it returns
// the length of the match, or whether b is a proper prefix of a match.
func matchMarker(b []byte, m string) (n int, full, part bool) {
	i := 0
	for j := 0; j < len(m); j++ {
		switch m[j] {
		case ' ':
			i, _ = spaces(b, i)
			if i == len(b) && j+1 < len(m) {
				return 0, false, true
			}
		case '*':
			if i == len(b) {
				return 0, false, true
			}
			if !isName(b[i]) {
				return 0, false, false
			}
			i++
		case '+':
			e, more := nameEnd(b, i)
			switch {
			case more:
				return 0, false, true
			case e == i:
				return 0, false, false
			}
			i = e
		default:
			if i == len(b) {
				return 0, false, true
			}
			if b[i] != m[j] {
				return 0, false, false
			}
			i++
		}
	}
	return i, true, false
}

// prose scans the text between a syntax's calls: it emits Text events,
// turns thinking blocks (<think>…</think>, Options.ThinkingTags) into
// Thinking events, and stops at the first of the syntax's markers. A
// syntax calls next in its text state and, once its call is read, resumes
// prose with skip.
type prose struct {
	tags   []string // the markers, then the thinking blocks' opening tags
	marks  int      // how many of tags are markers
	close  [][]string
	starts string // the characters tags start with (bytes.IndexAny: one is an IndexByte)
	hide   bool
	// literal: the markers are matched byte for byte (the tools
	// scanner's tags), not as patterns.
	literal bool
	// ends: the markers that end the thinking block the chat template
	// opened (pre), or any block when special.
	ends []string

	out, pos int // bytes before out are emitted; bytes before pos decided
	in       bool
	th       thinking
	// pre: the open thinking block is the one the chat template opened
	// (Options.InThinking); a call's marker ends it too.
	pre bool
	// special: the markers are special tokens (kimi-k2's, deepseek's),
	// which reasoning text cannot hold: a marker ends any thinking block,
	// as when the model calls from inside its thinking without </think>.
	special bool
	// cut: the last thinking block was ended by a marker, not its closing
	// tag (a syntax may resume it after the call, see jsonMarked.resume).
	cut bool
}

// newProse returns a prose scanner starting at offset start that stops at
// marks (markers as in Syntax.Markers).
func newProse(o Options, start int, marks []string) *prose {
	x := &prose{tags: append([]string(nil), marks...), marks: len(marks), hide: o.HideThinking, out: start, pos: start}
	names := o.ThinkingTags
	if names == nil {
		names = []string{"thinking", "think"}
	}
	var closes []string // the closing tags of the blocks Options.ThinkingTags names
	for _, n := range names {
		if n != "" {
			x.tags, closes = append(x.tags, "<"+n+">"), append(closes, "</"+n+">")
			x.close = append(x.close, closes[len(closes)-1:])
		}
	}
	for _, t := range x.tags {
		if _, n := utf8.DecodeRuneInString(t); n > 0 && !strings.Contains(x.starts, t[:n]) {
			x.starts += t[:n]
		}
	}
	x.ends = x.tags[:len(marks):len(marks)]
	if o.InThinking && len(closes) > 0 {
		x.in, x.pre = true, true
		x.th = thinking{start: start, startPos: ast.Pos{Offset: start, Line: 1, Col: start + 1}, content: start, close: closes}
	}
	return x
}

// think adds a thinking block that a syntax's markers open and close
// (Magistral's [THINK]…[/THINK], Command R7B's <|START_THINKING|>…), not
// a <NAME> tag; the block Options.InThinking opens ends at close too.
func (x *prose) think(open, close string) {
	x.tags, x.close = append(x.tags, open), append(x.close, []string{close})
	if !strings.Contains(x.starts, open[:1]) {
		x.starts += open[:1]
	}
	if x.pre {
		x.th.close = append(slices.Clip(x.th.close), close)
	}
}

// keep returns the earliest offset prose still needs.
func (x *prose) keep() int {
	if x.in {
		return x.th.start
	}
	return x.out
}

// endPre ends the thinking block the chat template opened
// (Options.InThinking) when the syntax reads a call before prose did (a
// call at the very start of the stream): a call ends that block, as its
// marker does in prose (see thinking).
func (x *prose) endPre() {
	if x.pre {
		x.in, x.pre = false, false
	}
}

// skip resumes prose at offset off, the end of what the syntax read.
func (x *prose) skip(off int) { x.out, x.pos = off, off }

// next emits text and thinking up to the next marker and returns the
// marker's index in marks and its extent [at, end). k < 0 means more bytes
// are needed (at eof: everything was emitted, an open thinking block
// reported as unterminated).
func (x *prose) next(p *Parser, eof bool) (k, at, end int, err error) {
	for {
		if x.in {
			more, err := x.thinking(p, eof)
			if err != nil || !more {
				return -1, 0, 0, err
			}
		}
		b := p.bytes(x.pos, p.end())
		i, k, n := x.find(b, eof)
		at := x.pos + i
		if err := p.text(p.pos(x.out), at, false); err != nil {
			return -1, 0, 0, err
		}
		x.out, x.pos = at, at
		if k == cutMarker {
			x.out, x.pos = p.end(), p.end()
			return -1, 0, 0, p.cutTag(at)
		}
		if k < 0 {
			return -1, 0, 0, nil
		}
		if k < x.marks {
			return k, at, at + n, nil
		}
		x.in, x.pos = true, at+n
		x.th = thinking{start: at, startPos: p.pos(at), content: at + n, close: x.close[k-x.marks]}
	}
}

// cutMarker is find's k for a marker cut off by the end of the stream.
const cutMarker = -2

// find returns the index in b of the first tag, its index in x.tags and
// its length; k < 0 when there is none, i being where a tag may still
// start (held back) or len(b). At eof, a proper prefix of a marker longer
// than one byte (not counting white space) at the end of b is k ==
// cutMarker.
func (x *prose) find(b []byte, eof bool) (i, k, n int) {
	for i := 0; ; i++ {
		j := bytes.IndexAny(b[i:], x.starts)
		if j < 0 {
			return len(b), -1, 0
		}
		i += j
		for k, t := range x.tags {
			n, full, part := len(t), false, false
			switch {
			case x.literal && len(b) > i+1 && len(t) > 1 && b[i+1] != t[1]:
				continue // the usual mismatch, told by the second byte alone
			case x.literal:
				full, part = match(b[i:], t)
			default:
				n, full, part = matchMarker(b[i:], t)
			}
			if full {
				return i, k, n
			}
			if part && !eof {
				return i, -1, 0
			}
			if part && k < x.marks && len(bytes.Trim(b[i:], " \t\n\r")) > 1 { // two bytes other than white space
				return i, cutMarker, 0
			}
		}
	}
}

// thinking emits the open thinking block up to its closing tag, or up to
// a marker (in the template's block, or any when special: the block is then
// cut), and reports whether it ended; at eof an open block is reported as
// unterminated.
func (x *prose) thinking(p *Parser, eof bool) (bool, error) {
	th := &x.th
	stops := th.close
	if x.pre || x.special {
		stops = append(stops[:len(stops):len(stops)], x.ends...)
	}
	i, k := find(p.bytes(x.pos, p.end()), stops, eof)
	at := x.pos + i
	x.pos = at
	if k >= 0 && k < len(th.close) {
		x.pos += len(th.close[k]) // a closing tag is part of the block, a marker is not
	}
	err := x.emit(p, x.pos, at)
	if k < 0 && eof && err == nil {
		err = p.send(&Event{Type: Error, Kind: KindUnterminated,
			Message: fmt.Sprintf("thinking block is not closed by %s", th.close[0]),
			Raw:     p.str(th.start, at), Span: ast.Span{Start: th.startPos, End: p.pos(at)}})
	}
	if k >= 0 || eof {
		x.in, x.pre, x.cut = false, false, k >= len(th.close)
	}
	return k >= 0, err
}

// emit sends the open block's bytes [x.out, to), whose content ends at
// textEnd, as a Thinking event (none when hiding them), and moves x.out to
// to.
func (x *prose) emit(p *Parser, to, textEnd int) error {
	from := x.out
	if to <= from {
		return nil
	}
	x.out = to
	if x.hide {
		return nil
	}
	lo := max(from, x.th.content)
	if p.omit { // the content alone: the block's tags are framing
		if from, to = lo, textEnd; to <= from {
			return nil
		}
	}
	raw := p.str(from, to)
	text := ""
	if textEnd > lo {
		text = raw[lo-from : textEnd-from]
	}
	return p.send(&Event{Type: Thinking, Text: text, Raw: raw, Span: p.span(from, to)})
}

// auto is the scanner of --syntax auto: prose until the first marker of
// any registered syntax, then that syntax's scanner from the marker on.
type auto struct {
	handoff
	opts  Options
	syns  []*Syntax
	owner []int // per marker: its syntax in syns
	syn   *Syntax
}

// handoff is the state of a scanner that reads prose (x) until it hands
// the rest of the stream to another scanner (d, nil until then).
type handoff struct {
	x *prose
	d scanner
}

func (h *handoff) keep() int {
	if h.d != nil {
		return h.d.keep()
	}
	return h.x.keep()
}

func newAuto(o Options) (*auto, error) {
	a := &auto{opts: o}
	var marks []string
	schemas := map[string]*schema.Schema{} // by Syntax.Schema: most syntaxes share one, parsed once
	for _, syn := range Syntaxes() {
		if syn.Markers == nil {
			continue
		}
		s := schemas[syn.Schema]
		if s == nil {
			var err error
			if s, err = schemaFor(syn, o); err != nil {
				return nil, err
			}
			schemas[syn.Schema] = s
		}
		for _, m := range syn.Markers(s) {
			marks = append(marks, m)
			a.owner = append(a.owner, len(a.syns))
		}
		a.syns = append(a.syns, syn)
	}
	a.x = newProse(o, 0, marks)
	a.x.pre = false // a marker inside thinking never decides the syntax
	return a, nil
}

func (a *auto) scan(p *Parser, eof bool) error {
	if a.d == nil {
		k, at, _, err := a.x.next(p, eof)
		if err != nil || k < 0 {
			return err
		}
		a.syn = a.syns[a.owner[k]]
		o := a.opts
		o.InThinking = false // any thinking block before the marker is over
		if a.d, err = open(a.syn, o, at); err != nil {
			return err
		}
	}
	return a.d.scan(p, eof)
}

// leading is a scanner for a syntax without thinking blocks of its own
// (acts): a reasoning block at the very start of the stream (after white
// space), or the one Options.InThinking opens, becomes Thinking events;
// the syntax's scanner reads the rest from the block's end on.
type leading struct {
	handoff // x has no markers: its tags are the thinking blocks' opening tags
	open    func(start int) scanner
}

func newLeading(o Options, start int, open func(start int) scanner) *leading {
	return &leading{handoff: handoff{x: newProse(o, start, nil)}, open: open}
}

func (l *leading) scan(p *Parser, eof bool) error {
	if l.d == nil && !l.x.in {
		b := p.bytes(l.x.pos, p.end())
		b = b[:min(len(b), maxMarkerSpace+16)] // bounded: no rescan of a long run of spaces
		i := skipSpace(b)
		k, part := prefix(b[i:], l.x.tags)
		switch {
		case i > maxMarkerSpace:
			l.d = l.open(l.x.out)
		case k >= 0:
			at := l.x.pos + i
			if err := p.text(p.pos(l.x.out), at, false); err != nil {
				return err
			}
			end := at + len(l.x.tags[k])
			l.x.in, l.x.out, l.x.pos = true, at, end
			l.x.th = thinking{start: at, startPos: p.pos(at), content: end, close: l.x.close[k]}
		case (part || i == len(b)) && !eof:
			return nil
		default:
			l.d = l.open(l.x.out)
		}
	}
	if l.d == nil {
		if _, err := l.x.thinking(p, eof); err != nil {
			return err
		}
		if l.x.in {
			return nil
		}
		l.d = l.open(l.x.pos)
	}
	return l.d.scan(p, eof)
}

// thinking is an open thinking block.
type thinking struct {
	start    int
	startPos ast.Pos
	content  int      // offset just after the opening tag
	close    []string // the closing tag
}
