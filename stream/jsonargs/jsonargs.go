// Package jsonargs reads the JSON arguments of a tool call while they
// arrive, in any chunking, and reports them member by member.
//
// It is the one incremental JSON reader under every JSON-argument syntax
// of package stream (hermes, kimi-k2, deepseek, mistral, llama, harmony)
// and under the argument fragments of provider APIs. Fed the bytes of a
// JSON object, a Parser emits:
//
//   - Key when an argument's key has been read;
//   - Delta pieces of a string argument's decoded text as soon as they are
//     certain (escapes such as \n, \u00e9 and surrogate pairs are decoded
//     even when a chunk ends inside them), so that a "content" argument
//     streams into an editor;
//   - Value when an argument is complete: a string, a json.Number, a bool,
//     nil for null, or a json.RawMessage holding an object's or an array's
//     JSON text as written;
//   - Field for the other members of an envelope (Options.Envelope), such
//     as the "name" of {"name": …, "arguments": {…}};
//   - Error with the position of the offending byte: a syntax error, or
//     JSON that ends before the object is complete (unterminated, after a
//     Value marked Partial holding what was read of the open argument);
//   - Done when the top-level value is complete.
//
// Arguments may also be given as a JSON string holding the JSON object
// ("{\"path\": \"a.go\"}"), as models often write them: the string's
// decoded text is read as the arguments, and positions still point into
// the source bytes.
//
// The events of any chunking equal those of the whole input in one Feed
// once adjacent Delta events of one argument are merged. Every byte is
// looked at once: the work is linear in the input whatever the chunking,
// and the memory is that of the argument being read (its decoded text or,
// for an object, number or literal, its JSON text).
//
// Strings are decoded as encoding/json decodes them (a lone surrogate
// escape becomes U+FFFD), with two documented leniencies that lose no
// data: bytes that are not valid UTF-8 are passed through unchanged, and
// raw control characters (a literal newline or tab, which models write)
// are taken as written. On valid UTF-8 JSON the values agree with
// encoding/json.
package jsonargs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/internal/jsonw"
)

// Kind is the kind of an Event.
type Kind uint8

// Event kinds.
const (
	// Key: an argument's key was read (Key; Span is the quoted key).
	Key Kind = iota + 1
	// Delta: a piece of a string argument's decoded text (Key, Text; Span
	// is the source bytes the piece was decoded from).
	Delta
	// Value: an argument is complete (Key, Value, Raw, Span of the value).
	Value
	// Field: an envelope member other than the arguments is complete (Key,
	// Value, Raw, Span of the value).
	Field
	// Error: Code, Message, Span and the Raw text concerned.
	Error
	// Done: the top-level value is complete (Span of the whole value).
	Done
)

var kindNames = [...]string{"", "key", "delta", "value", "field", "error", "done"}

// String returns the kind's name (key, delta, value, field, error, done).
func (k Kind) String() string {
	if int(k) < len(kindNames) && k > 0 {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", int(k))
}

// Error codes (Event.Code).
const (
	// CodeSyntax: a byte that JSON does not allow where it stands. Reading
	// stops there (Feed consumes nothing more).
	CodeSyntax = "syntax"
	// CodeUnterminated: the input ended before the top-level value was
	// complete.
	CodeUnterminated = "unterminated"
	// CodeNotObject: the arguments are not a JSON object (nor a string
	// holding one). Reading stops there.
	CodeNotObject = "not-object"
	// CodeTooDeep: an object or array that opens past MaxDepth levels of
	// nesting. Reading stops there, as at a syntax error.
	CodeTooDeep = "too-deep"
)

// MaxDepth is how deeply objects and arrays may nest, counting the
// envelope's: encoding/json's own limit, so that every value the reader
// reports can be marshaled again (a deeper argument made the stream
// command stop with an error and lose the rest of the stream).
const MaxDepth = 10000

// Event is one thing the Parser decided. Span locates it in the source:
// byte offset, 1-based line and byte column, counted from Options.Start.
type Event struct {
	Kind Kind
	// Key is the argument's (or envelope member's) decoded key.
	Key string
	// Text is a Delta's decoded text.
	Text string
	// Value is the decoded value of a Value or Field: string, json.Number,
	// bool, nil (null) or json.RawMessage (an object or array as written).
	Value any
	// Raw is the JSON text of a number, literal, object or array value
	// (empty for a string, whose decoded text is Value), or the text an
	// Error concerns.
	Raw string
	// Partial marks the Value of the argument still open when the input
	// ended: Value holds its decoded text so far (a string) or Raw its
	// JSON text so far (Value nil).
	Partial bool
	// Code and Message describe an Error.
	Code    string
	Message string
	Span    ast.Span
}

// Options configure a Parser.
type Options struct {
	// Start is the position of the first byte fed; the zero value means
	// offset 0, line 1, column 1.
	Start ast.Pos
	// Envelope, when not empty, names the members of the top-level object
	// that hold the arguments, e.g. "arguments" and "parameters" for
	// {"name": "f", "arguments": {…}}: the first such member whose value is
	// an object (or a string holding one) gives the arguments; every other
	// member is reported as a Field. When empty, the top-level object is
	// the arguments.
	Envelope []string
	// Wrapper, when not empty (and Envelope is not), names a member of the
	// envelope whose object value is the envelope itself, as in OpenAI's
	// {"type": "function", "function": {"name": "f", "arguments": {…}}}:
	// the members of that object are read as the envelope's (its "name" a
	// Field, its arguments member the arguments), and the members around
	// it stay Fields. One level of wrapping is read, and only before the
	// arguments were taken.
	Wrapper string
}

// state is what the reader expects next.
type state uint8

const (
	stValue      state = iota // a value
	stKeyOrEnd                // after '{': a key or '}'
	stKey                     // after ',' in an object: a key
	stColon                   // after a key
	stObjNext                 // after a member: ',' or '}'
	stValueOrEnd              // after '[': a value or ']'
	stArrNext                 // after an element: ',' or ']'
	stString                  // inside a string
	stNumber                  // inside a number
	stLiteral                 // inside true, false or null
	stDone                    // the top-level value is complete
	stFailed                  // a syntax error stopped the reader
)

// wants says what the reader expects next in each state, for messages
// (in stLiteral: the literal being read).
var wants = [...]string{stValue: "a value", stKeyOrEnd: "a key", stKey: "a key", stColon: "':'", stObjNext: "',' or '}'",
	stValueOrEnd: "a value", stArrNext: "',' or ']'", stString: "the closing '\"'", stNumber: "more of the number",
	stDone: "nothing", stFailed: "nothing"}

// role is what the string being read is.
type role uint8

const (
	rOther  role = iota // inside a captured value, or a key
	rKey                // a member's key
	rArg                // an argument's string value: Delta and Value
	rNested             // a string holding the arguments as JSON
)

// Number sub-states: the part of the number being read.
const (
	nSign  = iota // after '-'
	nZero         // after a leading 0
	nInt          // in the integer digits
	nDot          // after '.'
	nFrac         // in the fraction digits
	nE            // after 'e' or 'E'
	nESign        // after the exponent's sign
	nExp          // in the exponent digits
)

// Parser is an incremental JSON argument reader. It is not safe for
// concurrent use.
type Parser struct {
	emit     func(Event)
	envelope []string
	wrapper  string
	up       *Parser // the parser whose nested string feeds this one

	st    state
	stack []byte // open containers: '{' or '['
	// The position of the next byte.
	off, line, col int
	started        bool
	startPos       ast.Pos // of the top-level value

	argsDepth int  // stack depth of the arguments object, 0 while not open
	argsSeen  bool // the envelope's arguments member was taken
	envDepth  int  // stack depth of the envelope's members when a Wrapper holds them, else 0
	wrapped   bool // the Wrapper member was read

	// The member being read at the arguments (or envelope) level.
	key       []byte
	keyS      string // key as a string, once read
	keyStart  ast.Pos
	memberLvl int  // stack depth the member lives at
	capture   bool // raw bytes are appended to raw
	raw       []byte
	valStart  ast.Pos
	isField   bool

	// The string being read.
	srole   role
	isKey   bool   // the string is a key
	sval    []byte // decoded text of a key or an argument
	esc     [12]byte
	nesc    int
	escPos  ast.Pos // of the pending escape's backslash
	sent    int     // bytes of sval already emitted as Delta
	piece   ast.Pos // source position where the next Delta starts
	nest    *nested
	numSt   uint8
	lit     string // the literal being read
	litN    int
	scratch [4]byte
}

// nested is a string holding the arguments as JSON.
type nested struct {
	child *Parser
	start ast.Pos // of the string's first content byte
	dec   int     // decoded bytes so far
	segs  []seg
}

// seg maps decoded bytes [dec, dec+n) of a nested string that do not come
// one for one from the source: an escape, or a raw newline.
type seg struct {
	dec, n     int
	start, end ast.Pos
}

// New returns a Parser that calls emit for each event.
func New(opts Options, emit func(Event)) *Parser {
	p := &Parser{emit: emit, envelope: opts.Envelope, wrapper: opts.Wrapper}
	p.Reset(opts.Start)
	return p
}

// Reset makes the parser ready for a new value whose first byte is at
// start (the zero value: offset 0, line 1, column 1), keeping its options
// and reusing its memory.
func (p *Parser) Reset(start ast.Pos) {
	if start.Line == 0 {
		start = ast.Pos{Offset: start.Offset, Line: 1, Col: 1}
	}
	*p = Parser{emit: p.emit, envelope: p.envelope, wrapper: p.wrapper, up: p.up,
		stack: p.stack[:0], key: p.key[:0], raw: p.raw[:0], sval: p.sval[:0],
		off: start.Offset, line: start.Line, col: start.Col}
}

// Pos returns the position of the next byte to be fed.
func (p *Parser) Pos() ast.Pos { return ast.Pos{Offset: p.off, Line: p.line, Col: p.col} }

// Done reports whether the top-level value is complete.
func (p *Parser) Done() bool { return p.st == stDone }

// Failed reports whether a syntax error stopped the reader.
func (p *Parser) Failed() bool { return p.st == stFailed }

// Feed reads the bytes of b up to the end of the top-level value and
// returns how many it consumed: all of b, or fewer when the value ended
// (Done) or a syntax error stopped the reader (Failed) inside b. White
// space before the value is consumed; white space after it is not.
func (p *Parser) Feed(b []byte) int {
	n := p.feed(b)
	p.flush()
	return n
}

// Close ends the input. A value still open is reported: the open
// argument's Value marked Partial, then an unterminated Error spanning the
// top-level value so far. Input of only white space is an empty object
// (Done, no error).
func (p *Parser) Close() {
	p.flush()
	end := p.Pos()
	switch {
	case p.st == stDone || p.st == stFailed:
		return
	case !p.started:
		p.st = stDone
		p.send(Event{Kind: Done, Span: ast.Span{Start: end, End: end}})
		return
	}
	if p.st == stString && p.srole == rNested {
		done := p.nest.child.st == stDone
		p.endNested()
		if !done { // the child reported where its value is cut
			p.st = stFailed
			return
		}
	}
	if p.st == stNumber && (p.numSt == nZero || p.numSt == nInt || p.numSt == nFrac || p.numSt == nExp) {
		p.endNumber() // a complete number: what is missing comes after it
		end = p.Pos()
	}
	if p.capture || p.st == stString && p.srole == rArg { // an argument or a field value is being read
		e := Event{Kind: Value, Key: p.keyS, Partial: true, Span: ast.Span{Start: p.valStart, End: end}}
		if p.isField {
			e.Kind = Field
		}
		if p.st == stString && p.srole == rArg {
			e.Value = string(p.sval)
		} else if p.capture {
			e.Raw = string(p.raw)
		}
		p.send(e)
	}
	want := wants[p.st]
	if p.st == stLiteral {
		want = p.lit
	}
	p.st = stFailed
	p.send(Event{Kind: Error, Code: CodeUnterminated, Message: "JSON ends before the value is complete (want " + want + ")",
		Span: ast.Span{Start: p.startPos, End: end}})
}

// send emits e; a nested string's parser forwards it to the parser of
// the string, its spans mapped to the source, but for its Done.
func (p *Parser) send(e Event) {
	switch {
	case p.up == nil:
		p.emit(e)
	case e.Kind != Done:
		e.Span = ast.Span{Start: p.up.mapPos(e.Span.Start.Offset), End: p.up.mapPos(e.Span.End.Offset)}
		p.up.send(e)
	}
}

// advance moves the position over b, appending it to the captured raw
// text when a value is captured.
func (p *Parser) advance(b []byte) {
	if p.capture {
		p.raw = append(p.raw, b...)
	}
	p.off += len(b)
	for {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			p.col += len(b)
			return
		}
		p.line++
		p.col = 1
		b = b[i+1:]
	}
}

func (p *Parser) advance1(c byte) {
	if p.capture {
		p.raw = append(p.raw, c)
	}
	p.off++
	if c == '\n' {
		p.line++
		p.col = 1
	} else {
		p.col++
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipSpace(b []byte) int { return len(b) - len(bytes.TrimLeft(b, " \t\n\r")) }

// feed is Feed without emitting the pending Delta.
func (p *Parser) feed(b []byte) int {
	i := 0
	for i < len(b) {
		switch p.st {
		case stDone, stFailed:
			return i
		case stString:
			i += p.str(b[i:])
			continue
		case stNumber:
			if p.number(b[i]) {
				p.advance1(b[i])
				i++
			}
			continue
		case stLiteral:
			if b[i] != p.lit[p.litN] {
				p.fail(b[i:], "want "+p.lit)
				return i
			}
			p.advance1(b[i])
			i++
			if p.litN++; p.litN == len(p.lit) {
				var v any
				switch p.lit {
				case "true":
					v = true
				case "false":
					v = false
				}
				p.complete(v)
			}
			continue
		}
		c := b[i]
		if isSpace(c) {
			j := i + 1 + skipSpace(b[i+1:])
			p.advance(b[i:j])
			i = j
			continue
		}
		if !p.structural(b[i:]) {
			return i
		}
		i++
	}
	return i
}

// structural reads b[0], which is not white space, outside strings,
// numbers and literals. It returns false when it stops the reader.
func (p *Parser) structural(b []byte) bool {
	c := b[0]
	switch p.st {
	case stValue, stValueOrEnd:
		if c == ']' && p.st == stValueOrEnd {
			return p.close(c)
		}
		return p.begin(b)
	case stKeyOrEnd, stKey:
		if c == '}' && p.st == stKeyOrEnd {
			return p.close(c)
		}
		if c != '"' {
			p.fail(b, "want a key")
			return false
		}
		p.srole, p.isKey = rOther, true
		if len(p.stack) == p.level() && !p.capture {
			p.key = p.key[:0]
			p.keyStart = p.Pos()
			p.srole = rKey
		}
		p.st = stString
		p.advance1(c)
		return true
	case stColon:
		if c != ':' {
			p.fail(b, "want ':'")
			return false
		}
		p.advance1(c)
		p.st = stValue
		return true
	case stObjNext, stArrNext:
		want := byte('}')
		if p.st == stArrNext {
			want = ']'
		}
		switch c {
		case ',':
			p.advance1(c)
			p.st = stKey
			if want == ']' {
				p.st = stValue
			}
			return true
		case want:
			return p.close(c)
		}
		p.fail(b, "want ',' or '"+string(want)+"'")
		return false
	}
	return false
}

// level returns the stack depth whose members are reported: that of the
// arguments object, or the envelope's while no arguments are open (1, or
// 2 inside a Wrapper member).
func (p *Parser) level() int {
	if p.argsDepth > 0 {
		return p.argsDepth
	}
	if p.envDepth > 0 {
		return p.envDepth
	}
	return 1
}

// begin starts the value whose first byte is b[0].
func (p *Parser) begin(b []byte) bool {
	c := b[0]
	d := len(p.stack)
	if d == 0 {
		p.started = true
		p.startPos = p.Pos()
		switch c {
		case '{':
			if len(p.envelope) == 0 {
				p.argsDepth = 1
			}
			return p.open(c)
		case '"':
			return p.openNested(c)
		}
		p.st = stFailed
		raw, _ := badByte(c)
		p.send(Event{Kind: Error, Code: CodeNotObject, Message: "the arguments are not a JSON object",
			Raw: raw, Span: p.span1(b[0])})
		return false
	}
	if d == p.level() && p.stack[d-1] == '{' && !p.capture {
		p.memberLvl = d
		p.valStart = p.Pos()
		p.isField = p.argsDepth <= 0
		if p.isField && !p.argsSeen && slices.Contains(p.envelope, string(p.key)) && (c == '{' || c == '"') {
			p.argsSeen = true
			if c == '"' {
				return p.openNested(c)
			}
			p.argsDepth = d + 1
			return p.open(c)
		}
		if p.isField && !p.argsSeen && !p.wrapped && d == 1 && c == '{' && p.wrapper != "" && string(p.key) == p.wrapper {
			p.wrapped, p.envDepth = true, d+1
			return p.open(c)
		}
		if c == '"' && !p.isField {
			p.srole, p.st = rArg, stString
			p.sval, p.sent = p.sval[:0], 0
			p.advance1(c)
			p.piece = p.Pos()
			return true
		}
		p.capture = true
		p.raw = p.raw[:0]
	}
	switch c {
	case '{', '[':
		return p.open(c)
	case '"':
		p.srole, p.st = rOther, stString
		p.advance1(c)
		return true
	case 't', 'f', 'n':
		p.lit, p.litN, p.st = "null", 1, stLiteral
		if c == 't' {
			p.lit = "true"
		} else if c == 'f' {
			p.lit = "false"
		}
		p.advance1(c)
		return true
	case '-':
		p.numSt, p.st = nSign, stNumber
		p.advance1(c)
		return true
	}
	if '0' <= c && c <= '9' {
		p.numSt, p.st = nInt, stNumber
		if c == '0' {
			p.numSt = nZero
		}
		p.advance1(c)
		return true
	}
	p.capture = false
	p.fail(b, "want a value")
	return false
}

func (p *Parser) open(c byte) bool {
	if len(p.stack) >= MaxDepth {
		p.flush()
		p.st = stFailed
		p.send(Event{Kind: Error, Code: CodeTooDeep, Message: fmt.Sprintf("JSON nested deeper than %d levels", MaxDepth),
			Raw: string(c), Span: p.span1(c)})
		return false
	}
	p.stack = append(p.stack, c)
	p.advance1(c)
	p.st = stKeyOrEnd
	if c == '[' {
		p.st = stValueOrEnd
	}
	return true
}

func (p *Parser) close(c byte) bool {
	p.advance1(c)
	d := len(p.stack)
	p.stack = p.stack[:d-1]
	if d == p.argsDepth && d > 1 {
		p.argsDepth = -1 // the envelope's arguments are closed: later members are fields
	}
	if d == p.envDepth {
		p.envDepth = 0 // the Wrapper member is closed: the members around it are fields
	}
	var v any
	if p.capture && len(p.stack) == p.memberLvl {
		v = json.RawMessage(p.raw)
	}
	p.complete(v)
	return true
}

// complete ends the value just read (its decoded value is v).
func (p *Parser) complete(v any) {
	d := len(p.stack)
	switch {
	case d == 0:
		p.st = stDone
		p.send(Event{Kind: Done, Span: ast.Span{Start: p.startPos, End: p.Pos()}})
		return
	case p.capture && d == p.memberLvl:
		p.capture = false
		e := Event{Kind: Value, Key: p.keyS, Value: v, Raw: string(p.raw), Span: ast.Span{Start: p.valStart, End: p.Pos()}}
		if p.isField {
			e.Kind = Field
		}
		if s, ok := v.(string); ok {
			e.Value, e.Raw = s, ""
		} else if _, ok := v.(json.RawMessage); ok {
			e.Value = json.RawMessage(e.Raw)
		}
		p.send(e)
	}
	p.st = stObjNext
	if p.stack[d-1] == '[' {
		p.st = stArrNext
	}
}

// number reads c as part of a number; at a byte that ends the number it
// completes the value and returns false without consuming c.
func (p *Parser) number(c byte) bool {
	digit := '0' <= c && c <= '9'
	switch p.numSt {
	case nSign:
		if digit {
			p.numSt = nInt
			if c == '0' {
				p.numSt = nZero
			}
			return true
		}
	case nZero, nInt:
		switch {
		case digit && p.numSt == nInt:
			return true
		case c == '.':
			p.numSt = nDot
			return true
		case c == 'e' || c == 'E':
			p.numSt = nE
			return true
		case digit:
		default:
			return p.endNumber()
		}
	case nDot, nFrac:
		if digit {
			p.numSt = nFrac
			return true
		}
		if p.numSt == nFrac {
			if c == 'e' || c == 'E' {
				p.numSt = nE
				return true
			}
			return p.endNumber()
		}
	case nE, nESign:
		if digit {
			p.numSt = nExp
			return true
		}
		if p.numSt == nE && (c == '+' || c == '-') {
			p.numSt = nESign
			return true
		}
	case nExp:
		if digit {
			return true
		}
		return p.endNumber()
	}
	p.fail([]byte{c}, "a number")
	return false
}

func (p *Parser) endNumber() bool {
	var v any
	if p.capture && len(p.stack) == p.memberLvl {
		v = json.Number(p.raw)
	}
	p.complete(v)
	return false
}

// fail stops the reader at b[0] with a syntax error.
func (p *Parser) fail(b []byte, want string) {
	st := p.st
	// What was decoded before the error, also inside a nested string's
	// child, whatever the chunking.
	p.flush()
	p.st = stFailed
	raw, got := badByte(b[0])
	msg := fmt.Sprintf("unexpected %s: %s", got, want)
	if st == stNumber {
		msg = fmt.Sprintf("unexpected %s in %s", got, want)
	}
	p.send(Event{Kind: Error, Code: CodeSyntax, Message: msg, Raw: raw, Span: p.span1(b[0])})
}

// span1 is the span of the byte c at the current position. Errors point
// at one byte, whatever the chunking (a byte of a multi-byte character
// would need the next chunk).
func (p *Parser) span1(c byte) ast.Span {
	s := p.Pos()
	e := ast.Pos{Offset: s.Offset + 1, Line: s.Line, Col: s.Col + 1}
	if c == '\n' {
		e.Line, e.Col = s.Line+1, 1
	}
	return ast.Span{Start: s, End: e}
}

// badByte returns an unexpected byte as the Raw text of its error (empty
// for a byte of a multi-byte character) and as shown in the message.
func badByte(c byte) (raw, shown string) {
	if c >= 0x80 {
		return "", fmt.Sprintf("byte 0x%02X", c)
	}
	return string(c), fmt.Sprintf("%q", string(c))
}

// str reads string bytes from b up to and including the closing quote and
// returns how many it consumed.
func (p *Parser) str(b []byte) int {
	i := 0
	for i < len(b) && p.st == stString {
		if p.nesc > 0 {
			if !p.escape(b[i]) {
				return i
			}
			i++
			continue
		}
		c := b[i]
		switch c {
		case '"':
			if p.srole == rArg {
				p.flushArg(true)
			}
			p.advance1(c)
			p.endString()
			return i + 1
		case '\\':
			p.escPos = p.Pos()
			p.esc[0], p.nesc = c, 1
			p.advance1(c)
			i++
			continue
		}
		j := i + 1
		for j < len(b) && b[j] != '"' && b[j] != '\\' && b[j] != '\n' {
			j++
		}
		if c == '\n' && p.srole == rNested {
			start := p.Pos()
			p.advance1(c)
			p.nest.segs = append(p.nest.segs, seg{dec: p.nest.dec, n: 1, start: start, end: p.Pos()})
			p.text(b[i:i+1], false)
			i++
			continue
		}
		p.text(b[i:j], true)
		i = j
	}
	return i
}

// text takes decoded bytes of the string; adv says they are the source
// bytes too (the position moves over them). A nested string's text goes to
// its child parser.
func (p *Parser) text(t []byte, adv bool) {
	if adv {
		p.advance(t)
	}
	switch p.srole {
	case rKey:
		p.key = append(p.key, t...)
	case rArg:
		p.sval = append(p.sval, t...)
	case rNested:
		n := p.nest
		n.dec += len(t)
		n.child.feed(t)
	}
}

// escape reads c as the next byte of the pending escape; it returns false
// when c is not consumed (the escape was decided without it).
func (p *Parser) escape(c byte) bool {
	e := p.esc[:p.nesc]
	switch {
	case p.nesc == 1:
		if c == 'u' {
			p.esc[1], p.nesc = c, 2
			p.advance1(c)
			return true
		}
		r, ok := simpleEscape(c)
		if !ok {
			p.fail([]byte{c}, `want an escape (\" \\ \/ \b \f \n \r \t \uXXXX)`)
			return false
		}
		p.advance1(c)
		p.scratch[0] = r
		p.decoded(p.scratch[:1], 2)
		return true
	case p.nesc < 6 || 7 < p.nesc && p.nesc < 12:
		if unhex(c) < 0 {
			p.fail([]byte{c}, `want a hex digit in \uXXXX`)
			return false
		}
		p.esc[p.nesc] = c
		p.nesc++
		p.advance1(c)
		if p.nesc == 6 {
			r := hex4(e[2:6], c)
			if !utf16.IsSurrogate(r) {
				p.decoded(utf8.AppendRune(p.scratch[:0], r), 6)
			}
		} else if p.nesc == 12 {
			r1, r2 := hex4(e[2:6], 0), hex4(e[8:11], c)
			if r := utf16.DecodeRune(r1, r2); r != utf8.RuneError {
				p.decoded(utf8.AppendRune(p.scratch[:0], r), 12)
			} else {
				p.lone()
				return p.replay(e[6:11], c)
			}
		}
		return true
	case p.nesc == 6:
		if c != '\\' {
			p.lone()
			return false
		}
	case p.nesc == 7:
		if c != 'u' {
			p.lone()
			return p.replay(e[6:7], c)
		}
	}
	p.esc[p.nesc] = c
	p.nesc++
	p.advance1(c)
	return true
}

// lone decodes a surrogate escape that has no pair as U+FFFD.
func (p *Parser) lone() {
	p.decodedAt(utf8.AppendRune(p.scratch[:0], utf8.RuneError), p.escPos, p.escAfter6())
}

// escAfter6 is the position just after the first six bytes of the escape
// (escapes hold no newline).
func (p *Parser) escAfter6() ast.Pos {
	e := p.escPos
	e.Offset += 6
	e.Col += 6
	return e
}

// replay re-reads the escape bytes that follow a lone surrogate (already
// consumed as source bytes) and then c, which is not consumed yet.
func (p *Parser) replay(rest []byte, c byte) bool {
	pos := p.escAfter6()
	var buf [6]byte
	n := copy(buf[:], rest)
	p.nesc = 0
	// The bytes were consumed already: rewind the position to re-read
	// them, the capture keeps them once.
	capture := p.capture
	p.capture = false
	if capture {
		p.raw = p.raw[:len(p.raw)-n]
	}
	p.off, p.line, p.col = pos.Offset, pos.Line, pos.Col
	p.capture = capture
	if n > 0 {
		p.escPos = p.Pos()
		p.esc[0], p.nesc = buf[0], 1
		p.advance1(buf[0])
		for _, b := range buf[1:n] {
			if !p.escape(b) {
				return false
			}
		}
	}
	return p.escape(c)
}

// decoded takes the text an escape of n source bytes decodes to.
func (p *Parser) decoded(t []byte, n int) {
	e := p.escPos
	e.Offset += n
	e.Col += n
	p.decodedAt(t, p.escPos, e)
}

func (p *Parser) decodedAt(t []byte, start, end ast.Pos) {
	p.nesc = 0
	if p.srole == rNested {
		p.nest.segs = append(p.nest.segs, seg{dec: p.nest.dec, n: len(t), start: start, end: end})
	}
	p.text(t, false)
}

// simpleEscape returns the byte a one-letter escape \c stands for.
func simpleEscape(c byte) (byte, bool) {
	i := strings.IndexByte("\"\\/bfnrt", c)
	if i < 0 {
		return 0, false
	}
	return "\"\\/\b\f\n\r\t"[i], true
}

// DecodeString decodes the body of a JSON string literal (the bytes
// between its quotes) that a JSON reader has found valid, as the Parser
// decodes strings (a lone surrogate escape becomes U+FFFD; bytes that are
// not UTF-8 pass unchanged). It calls piece for each run of decoded bytes
// with the body offsets [from, to) it comes from: a run of literal bytes,
// or one escape (a surrogate pair is one escape). dec is only valid
// during the call. It is what a reader that holds a whole string (an SSE
// event's JSON) shares with the incremental Parser.
func DecodeString(body []byte, piece func(dec []byte, from, to int)) {
	var buf [utf8.UTFMax]byte
	lit := 0
	for i := 0; i < len(body); {
		if body[i] != '\\' || i+1 >= len(body) {
			i++
			continue
		}
		if lit < i {
			piece(body[lit:i], lit, i)
		}
		n := 2
		var r rune
		c := body[i+1]
		if b, ok := simpleEscape(c); ok {
			r = rune(b)
		} else if c == 'u' && i+6 <= len(body) {
			r, n = hex4(body[i+2:i+6], 0), 6
			if utf16.IsSurrogate(r) {
				r2 := rune(-1)
				if i+12 <= len(body) && body[i+6] == '\\' && body[i+7] == 'u' {
					r2 = hex4(body[i+8:i+12], 0)
				}
				if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
					r, n = d, 12
				} else {
					r = utf8.RuneError
				}
			}
		} else { // not valid JSON: kept as written
			i += 2
			continue
		}
		if r < 0 {
			r = utf8.RuneError // a bad hex digit (not valid JSON)
		}
		k := utf8.EncodeRune(buf[:], r)
		piece(buf[:k], i, i+n)
		i += n
		lit = i
	}
	if lit < len(body) {
		piece(body[lit:], lit, len(body))
	}
}

func unhex(c byte) rune {
	switch {
	case '0' <= c && c <= '9':
		return rune(c - '0')
	case 'a' <= c && c <= 'f':
		return rune(c - 'a' + 10)
	case 'A' <= c && c <= 'F':
		return rune(c - 'A' + 10)
	}
	return -1
}

// hex4 decodes four hex digits: h (three or four bytes) and, when h has
// three, last.
func hex4(h []byte, last byte) rune {
	var r rune
	for _, c := range h {
		r = r<<4 | unhex(c)
	}
	if len(h) == 3 {
		r = r<<4 | unhex(last)
	}
	return r
}

// endString ends the string whose closing quote was just read.
func (p *Parser) endString() {
	switch p.srole {
	case rKey:
		p.st, p.isKey = stColon, false
		p.keyS = string(p.key)
		if p.argsDepth > 0 {
			p.send(Event{Kind: Key, Key: p.keyS, Span: ast.Span{Start: p.keyStart, End: p.Pos()}})
		}
		return
	case rArg:
		end := p.Pos()
		p.st = stObjNext
		p.send(Event{Kind: Value, Key: p.keyS, Value: string(p.sval), Span: ast.Span{Start: p.valStart, End: end}})
		return
	case rNested:
		p.endNested()
		p.complete(nil)
		return
	}
	if p.isKey {
		p.st, p.isKey = stColon, false
		return
	}
	var v any
	if p.capture && len(p.stack) == p.memberLvl {
		var s string
		if err := jsonw.Unmarshal(p.raw, &s); err == nil {
			v = s
		}
	}
	p.complete(v)
}

// flush emits the argument string's decoded text not yet emitted as a
// Delta: all of it but a pending escape and an incomplete UTF-8 sequence
// at its end.
func (p *Parser) flush() {
	if p.st == stString && p.srole == rNested {
		p.nest.child.flush()
		return
	}
	if p.st == stString && p.srole == rArg {
		p.flushArg(false)
	}
}

// flushArg emits the argument string's pending Delta; final says the
// string is closed.
func (p *Parser) flushArg(final bool) {
	end := p.Pos()
	n := len(p.sval)
	if !final {
		if p.nesc > 0 {
			end = p.escPos
		} else if k := partialRune(p.sval[p.sent:]); k > 0 {
			n -= k
			end.Offset -= k
			end.Col -= k
		}
	}
	if n <= p.sent {
		return
	}
	t := string(p.sval[p.sent:n])
	p.sent = n
	p.send(Event{Kind: Delta, Key: p.keyS, Text: t, Span: ast.Span{Start: p.piece, End: end}})
	p.piece = end
}

// partialRune returns the length of an incomplete UTF-8 sequence at the
// end of b, or 0.
func partialRune(b []byte) int {
	for k := 1; k <= 3 && k <= len(b); k++ {
		if utf8.RuneStart(b[len(b)-k]) {
			if !utf8.FullRune(b[len(b)-k:]) {
				return k
			}
			return 0
		}
	}
	return 0
}

// openNested starts a string that holds the arguments (or, at the top
// level of an envelope parser, the envelope) as JSON.
func (p *Parser) openNested(c byte) bool {
	p.advance1(c)
	env := p.envelope
	if len(p.stack) > 0 {
		env = nil
	}
	if p.nest == nil {
		p.nest = &nested{child: &Parser{up: p}}
	}
	n := p.nest
	n.child.envelope, n.child.wrapper = env, ""
	if env != nil {
		n.child.wrapper = p.wrapper
	}
	n.child.Reset(ast.Pos{})
	n.start, n.dec, n.segs = p.Pos(), 0, n.segs[:0]
	p.srole, p.st = rNested, stString
	return true
}

// endNested closes the child parser of a nested string.
func (p *Parser) endNested() {
	if c := p.nest.child; c.st != stFailed {
		c.Close()
	}
}

// mapPos returns the source position of the nested string's decoded
// offset x.
func (p *Parser) mapPos(x int) ast.Pos {
	n := p.nest
	k := sort.Search(len(n.segs), func(i int) bool { return n.segs[i].dec > x }) - 1
	base, d := n.start, x
	if k >= 0 {
		s := n.segs[k]
		if x < s.dec+s.n {
			return s.start
		}
		base, d = s.end, x-s.dec-s.n
	}
	return ast.Pos{Offset: base.Offset + d, Line: base.Line, Col: base.Col + d}
}

// Fail stops the reader as a syntax error would, without an event: the
// caller reports why the value cannot be read.
func (p *Parser) Fail() { p.st = stFailed }
