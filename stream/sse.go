package stream

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/plangram/plangram/ast"
)

// Error kinds of the provider API syntaxes (openai-chat, openai-responses,
// anthropic).
const (
	// KindBadEvent: an SSE event whose data is not the JSON the API sends.
	KindBadEvent = "bad-event"
	// KindProviderError: the API reported an error in the stream.
	KindProviderError = "provider-error"
	// KindOrphanDelta: an argument fragment or a call end for a call the
	// stream never started.
	KindOrphanDelta = "orphan-delta"
)

// sseEvent is one dispatched Server-Sent Event: the source bytes
// [start, end) (its lines, the blank line that ends it included), its
// event name and its data (the data lines' values joined by "\n").
type sseEvent struct {
	start, end int
	name       string
	data       []byte
	dataLines  []dataLine // where each data line's value starts
	lineStarts []int      // offsets just after each '\n' in [start, end)
	startPos   ast.Pos
}

// dataLine maps the data value's bytes from offset data on to the source
// bytes from offset src on.
type dataLine struct{ data, src int }

// src returns the source offset of data offset d.
func (e *sseEvent) src(d int) int {
	i := len(e.dataLines) - 1
	for i > 0 && e.dataLines[i].data > d {
		i--
	}
	return e.dataLines[i].src + d - e.dataLines[i].data
}

// pos returns the position of source offset off within the event.
func (e *sseEvent) pos(off int) ast.Pos {
	i, _ := slices.BinarySearch(e.lineStarts, off+1)
	if i == 0 {
		return ast.Pos{Offset: off, Line: e.startPos.Line, Col: e.startPos.Col + off - e.start}
	}
	ls := e.lineStarts[i-1]
	return ast.Pos{Offset: off, Line: e.startPos.Line + i, Col: off - ls + 1}
}

func (e *sseEvent) span(from, to int) ast.Span { return ast.Span{Start: e.pos(from), End: e.pos(to)} }

// dataSpan returns the span of data bytes [from, to).
func (e *sseEvent) dataSpan(from, to int) ast.Span {
	return ast.Span{Start: e.pos(e.src(from)), End: e.pos(e.src(max(to-1, from)) + min(1, to-from))}
}

// sseHandler is what an API syntax does with each event: decide the
// events it carries. It must emit the events inside it first, then cover
// its bytes with cover (exactly once), so that events come in offset
// order and the raw text rebuilds the input.
type sseHandler interface {
	event(s *sse, p *Parser, e *sseEvent) error
	// end is called once at the end of the stream, after the last event:
	// calls still open are unterminated.
	end(p *Parser, at ast.Pos) error
}

// sse is the scanner shared by the API syntaxes: it reads an SSE byte
// stream (https://html.spec.whatwg.org/multipage/server-sent-events.html)
// in any chunking — lines end in LF, CRLF or CR, a line starting with ':'
// is a comment, "field: value" lines with one optional space after the
// colon, an empty line dispatches the event — and hands each event to
// the syntax's handler. Bytes after the last empty line are an event too
// when the stream ends.
type sse struct {
	h    sseHandler
	hide bool // Options.HideThinking

	start int // the current event's first byte
	pos   int // the next byte to read: the start of an undecided line
	look  int // bytes [pos, pos+look) hold no line ending
	name  []byte
	data  []byte
	lines []dataLine
	nl    []int
	any   bool // the event has a data field
	jr    jreader
	cur   sseEvent
	// odd holds the event's lines whose field SSE does not define (not
	// data, event, id or retry): ignored as the SSE standard says, and
	// reported, since a misspelt "data" would otherwise drop a delta
	// without a word.
	odd []oddLine
}

// oddLine is a field line [from, to) of an unknown field.
type oddLine struct {
	from, to int
	field    string
}

func (s *sse) keep() int { return s.start }

func (s *sse) scan(p *Parser, eof bool) error {
	for {
		b := p.bytes(s.pos, p.end())
		i := -1
		if s.look < len(b) { // bytes before look hold no line ending
			if i = bytes.IndexAny(b[s.look:], "\r\n"); i >= 0 {
				i += s.look
			}
		}
		if i < 0 || b[i] == '\r' && i+1 == len(b) && !eof {
			if i < 0 {
				s.look = len(b)
			} else {
				s.look = i
			}
			if !eof {
				return nil
			}
			if len(b) > 0 {
				s.line(b, s.pos)
				s.pos += len(b)
			}
			if s.pos > s.start {
				if err := s.dispatch(p, s.pos); err != nil {
					return err
				}
			}
			return s.h.end(p, p.pos(s.pos))
		}
		n := 1
		if b[i] == '\r' && i+1 < len(b) && b[i+1] == '\n' {
			n = 2
		}
		lineStart := s.pos
		s.pos += i + n
		s.look = 0
		if n == 2 || b[i] == '\n' {
			s.nl = append(s.nl, s.pos) // positions count LF line endings only
		}
		if i == 0 {
			if err := s.dispatch(p, s.pos); err != nil {
				return err
			}
			continue
		}
		s.line(b[:i], lineStart)
	}
}

// line reads one field line (without its line ending) at offset at.
func (s *sse) line(b []byte, at int) {
	if at == 0 && len(b) >= 3 && string(b[:3]) == "\ufeff" {
		b, at = b[3:], 3 // a byte order mark starting the stream is not part of the field
		if len(b) == 0 {
			return
		}
	}
	if b[0] == ':' {
		return // comment
	}
	field, value := b, []byte(nil)
	vat := at + len(b)
	if c := bytes.IndexByte(b, ':'); c >= 0 {
		field, value = b[:c], b[c+1:]
		vat = at + c + 1
		if len(value) > 0 && value[0] == ' ' {
			value = value[1:]
			vat++
		}
	}
	switch string(field) {
	case "event":
		s.name = append(s.name[:0], value...)
	case "data":
		if s.any {
			s.data = append(s.data, '\n')
		}
		s.any = true
		s.lines = append(s.lines, dataLine{data: len(s.data), src: vat})
		s.data = append(s.data, value...)
	case "id", "retry":
	default:
		s.odd = append(s.odd, oddLine{from: at, to: at + len(b), field: string(field[:min(len(field), maxName)])})
	}
}

// dispatch hands the event ending at offset end to the handler.
func (s *sse) dispatch(p *Parser, end int) error {
	e := &s.cur
	*e = sseEvent{start: s.start, end: end, name: string(s.name), data: s.data,
		dataLines: s.lines, lineStarts: s.nl, startPos: p.pos(s.start)}
	if !s.any {
		e.data = nil
	}
	for _, l := range s.odd {
		if err := p.send(&Event{Type: Error, Kind: KindBadEvent, Severity: ast.Warning, Raw: p.str(l.from, l.to), Span: e.span(l.from, l.to),
			Message: fmt.Sprintf("SSE line with the unknown field %q is ignored (the fields are data, event, id and retry)", l.field)}); err != nil {
			return err
		}
	}
	s.odd = s.odd[:0]
	err := s.h.event(s, p, e)
	p.pos(end)
	s.start = end
	s.name, s.data, s.lines, s.nl, s.any = s.name[:0], s.data[:0], s.lines[:0], s.nl[:0], false
	return err
}

// cover emits the event's bytes as a Text event (text is what it says to
// the reader, "" for markup) or, with thinking set, as a Thinking event.
func (s *sse) cover(p *Parser, e *sseEvent, text string, thinking bool) error {
	return s.emit(p, e, text, thinking, 0, true)
}

// emit emits text or thinking of completion choice choice carried by
// event e: covering its bytes (cover), or coming before the event that
// covers them, with an empty span at the event's start.
func (s *sse) emit(p *Parser, e *sseEvent, text string, thinking bool, choice int, cover bool) error {
	if thinking && s.hide {
		return nil
	}
	ev := Event{Type: Text, Text: text, Span: e.span(e.start, e.start), Choice: choice}
	if cover {
		ev.Raw, ev.Span = p.str(e.start, e.end), e.span(e.start, e.end)
	}
	if thinking {
		ev.Type = Thinking
	}
	return p.send(&ev)
}

// fail emits an Error about the whole event.
func (s *sse) fail(p *Parser, e *sseEvent, kind, msg string) error {
	return p.send(&Event{Type: Error, Kind: kind, Message: msg, Severity: ast.Error, Raw: string(e.data), Span: e.span(e.start, e.end)})
}

// eventRoot reads the event's data as JSON for a provider's event
// handler: data that is not JSON is reported (bad-event) and the event's
// bytes are covered, and done is true with the error to return. typ is
// the data's "type", else the event's name.
func (s *sse) eventRoot(p *Parser, e *sseEvent) (root *jnode, typ string, done bool, err error) {
	root, off, msg := s.jr.parse(e.data)
	if root == nil {
		at := e.pos(e.src(min(off, max(len(e.data)-1, 0))))
		if len(e.dataLines) == 0 {
			at = e.startPos
		}
		if err := p.send(&Event{Type: Error, Kind: KindBadEvent, Message: "event data is not JSON: " + msg, Severity: ast.Error,
			Raw: string(e.data), Span: ast.Span{Start: at, End: e.pos(e.end)}}); err != nil {
			return nil, "", true, err
		}
		return nil, "", true, s.cover(p, e, "", false)
	}
	if typ, _ = root.get("type").str(e.data); typ == "" {
		typ = e.name
	}
	return root, typ, false, nil
}
