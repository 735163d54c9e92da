package stream

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/schema"
	"github.com/plangram/plangram/stream/jsonargs"
)

// KindBadJSON is the error kind of JSON arguments that are not valid JSON,
// not an object, or followed by stray text inside the call's markup.
const KindBadJSON = "bad-json"

// KindNoName is the error kind of a JSON call that names no tool.
const KindNoName = "no-name"

// envelopeKeys are the members of a {"name": …, "arguments": {…}}
// envelope that hold the arguments.
var envelopeKeys = []string{"arguments", "parameters"}

// envelopeWrapper is the member of an OpenAI-style envelope {"type":
// "function", "function": {"name": …, "arguments": …}} that holds the
// envelope's members.
const envelopeWrapper = "function"

// envelopeID is the envelope member that holds the call's id
// ({"name": …, "arguments": {…}, "id": "…"}, Mistral's [TOOL_CALLS] array).
const envelopeID = "id"

// jtools looks up a schema's tools by name and alias (their parameters:
// paramNamed).
type jtools struct {
	acts  map[string]*schema.Action
	list  []*schema.Action // the tools in the schema's order
	names toolNames        // what an unknown tool's error suggests
}

func newJTools(names toolNames) *jtools {
	s := names.schema
	t := &jtools{acts: map[string]*schema.Action{}, list: s.Actions, names: names}
	for _, a := range s.Actions {
		for _, n := range append([]string{a.Name}, a.Aliases...) {
			if t.acts[n] == nil {
				t.acts[n] = a
			}
		}
	}
	return t
}

// only returns the name of the schema's one tool, "" when it declares
// several.
func (t *jtools) only() string {
	if len(t.list) == 1 {
		return t.list[0].Name
	}
	return ""
}

// infer returns the one tool that declares a parameter for every argument
// in args, "" when none or several do: a call that gives no name (Kimi's
// bare counter id) is named by its arguments only when that is certain.
func (t *jtools) infer(args []arg) string {
	found := ""
	for _, a := range t.list {
		if slices.ContainsFunc(args, func(v arg) bool { return paramNamed(a, v.key) == nil }) {
			continue // an argument the tool has no parameter for
		}
		if found != "" {
			return ""
		}
		found = a.Name
	}
	return found
}

// jcall reads the calls of a JSON-argument syntax: the syntax's scanner
// finds the markup and hands the JSON to it. One call is open at a time.
type jcall struct {
	tools    *jtools
	env, arg *jsonargs.Parser // the readers of an envelope and of bare arguments
	jp       *jsonargs.Parser // the current one
	// p is the stream parser while the reader reads (feed), which hands
	// each event to the call as it comes (collect); err is the first
	// error of handling one, after which the rest are not handled.
	p   *Parser
	err error

	id       int
	callID   string // the call's id given by the input (Event.CallID)
	name     string
	act      *schema.Action
	start    int
	startPos ast.Pos
	named1   bool        // the name is known
	noName   string      // the no-name error's message, when not the default
	nameEnd  int         // where the markup or member naming the tool ends
	sent     bool        // ToolCallStart was emitted
	held     []heldDelta // Delta events before the name was known
	vals     []arg       // complete arguments, in order
	partial  []arg       // the argument cut by the end of the stream
	errs     []Event     // the call's errors, emitted before it
	jpos     int         // the JSON read cursor
	stray    int         // start of stray text after the JSON, -1 when none
	strayEnd int
	end      int  // where the last call ended
	cut      bool // the end of the stream cut the JSON
	first    firsts
}

// firsts indexes a call's complete arguments for its deltas' Exact: the
// first index in vals of each key and, for a known tool, of each parameter
// given a value — so a delta costs O(1), not a pass over the arguments
// before it (quadratic with many arguments).
type firsts struct {
	n     int // vals indexed so far
	key   map[string]int
	param map[*schema.Param]int
}

// valOf returns the argument of a Value event.
func valOf(e jsonargs.Event) arg {
	return arg{key: e.Key, value: e.Value, json: e.Raw, span: e.Span, partial: e.Partial}
}

// addVal appends v to the call's complete arguments. The slice doubles
// when full: append grows a long slice by a quarter, so that the copies of
// a call with many arguments allocate about five times the final slice
// (BenchmarkHostile/hermes-many-params); doubling allocates twice it.
func (c *jcall) addVal(v arg) {
	if len(c.vals) == cap(c.vals) && len(c.vals) >= 256 {
		c.vals = append(make([]arg, 0, 2*len(c.vals)), c.vals...)
	}
	c.vals = append(c.vals, v)
}

// heldDelta is a Delta read before the call's name, with the number of
// complete arguments before it.
type heldDelta struct {
	e      jsonargs.Event
	before int
}

func newJCall(names toolNames) *jcall {
	c := &jcall{tools: newJTools(names), stray: -1}
	c.env = jsonargs.New(jsonargs.Options{Envelope: envelopeKeys, Wrapper: envelopeWrapper}, c.collect)
	c.arg = jsonargs.New(jsonargs.Options{}, c.collect)
	return c
}

// collect handles an event of the reader as soon as it is emitted, during
// feed: holding them until the reader returns would cost memory in
// proportion to the JSON fed at once, many times the bytes of an answer
// of many short arguments parsed in one chunk
// (BenchmarkHostile/hermes-many-params).
func (c *jcall) collect(e jsonargs.Event) {
	if c.err == nil && c.p != nil {
		c.err = c.handle(c.p, e)
	}
}

// begin opens a call whose source starts at offset at.
func (c *jcall) begin(p *Parser, at int) {
	f := c.first
	clear(f.key)
	clear(f.param)
	f.n = 0
	*c = jcall{tools: c.tools, env: c.env, arg: c.arg, held: c.held[:0], vals: c.vals[:0],
		partial: c.partial[:0], errs: c.errs[:0], id: p.nextID(), start: at, startPos: p.pos(at), stray: -1,
		first: f}
}

// earlier returns the index in vals of the first argument of key and, for
// a known tool, of the first one of parameter sp given a value, as bind
// counts them (-1 when
// none). The tool is known when a delta asks (its name came first).
func (c *jcall) earlier(key string, sp *schema.Param) (byKey, bySP int) {
	f := &c.first
	if f.key == nil {
		f.key, f.param = map[string]int{}, map[*schema.Param]int{}
	}
	for ; f.n < len(c.vals); f.n++ {
		v := &c.vals[f.n]
		if _, ok := f.key[v.key]; !ok {
			f.key[v.key] = f.n
		}
		if c.act == nil {
			continue
		}
		if s := c.param(v.key); s != nil && (v.value != nil || v.partial || s.TypeOrDefault() == schema.JSON) {
			if _, ok := f.param[s]; !ok {
				f.param[s] = f.n
			}
		}
	}
	byKey, bySP = -1, -1
	if i, ok := f.key[key]; ok {
		byKey = i
	}
	if i, ok := f.param[sp]; ok && sp != nil {
		bySP = i
	}
	return byKey, bySP
}

// param returns the call's tool's parameter called key, nil when the
// tool is unknown or has none.
func (c *jcall) param(key string) *schema.Param {
	if c.act == nil {
		return nil
	}
	return paramNamed(c.act, key)
}

// named sets the call's tool name, read from markup ending at offset end,
// and emits ToolCallStart.
func (c *jcall) named(p *Parser, name string, end int) error {
	c.setName(p, name, end)
	return c.sendStart(p)
}

// inferName names a call whose markup gave no name (see jtools.infer)
// from its complete arguments, when its JSON is whole and one tool
// fits them; nameEnd is where the markup that would have named it ends.
func (c *jcall) inferName(p *Parser, nameEnd int) {
	if c.named1 || !c.jp.Done() || c.jp.Failed() || c.cut {
		return
	}
	if name := c.tools.infer(c.vals); name != "" {
		c.setName(p, name, nameEnd)
		return
	}
	c.noName = fmt.Sprintf("the call's id %q names no tool and its arguments fit no one tool: its text follows as text", c.callID)
}

// setName sets the call's tool name, read from markup ending at offset
// end, without emitting ToolCallStart yet (an envelope's id may follow the
// name); the first name given is kept.
func (c *jcall) setName(p *Parser, name string, end int) {
	if c.named1 {
		return
	}
	c.named1, c.nameEnd = true, end
	c.name = name
	if a := c.tools.acts[name]; a != nil {
		c.act, c.name = a, a.Name
	}
	if c.act == nil {
		c.errs = append(c.errs, Event{Type: Error, ID: c.id, Name: c.name, Kind: KindUnknownTool,
			Message: c.tools.names.unknown(name), Raw: p.str(c.start, end), Span: ast.Span{Start: c.startPos, End: p.pos(end)}})
	}
}

// sendStart emits ToolCallStart once the name is known (its span ends
// where the name does), then the argument pieces read before it.
func (c *jcall) sendStart(p *Parser) error {
	if c.sent || !c.named1 {
		return nil
	}
	c.sent = true
	sp := ast.Span{Start: c.startPos, End: p.pos(c.nameEnd)}
	if err := p.send(&Event{Type: ToolCallStart, ID: c.id, CallID: c.callID, Name: c.name, Span: sp}); err != nil {
		return err
	}
	for _, h := range c.held {
		if err := c.delta(p, h.e, h.before); err != nil {
			return err
		}
	}
	c.held = c.held[:0]
	return nil
}

// json starts reading the call's JSON at offset off: an envelope
// ({"name": …, "arguments": {…}}) or bare arguments.
func (c *jcall) json(p *Parser, off int, envelope bool) {
	c.jp = c.arg
	if envelope {
		c.jp = c.env
	}
	c.jp.Reset(p.pos(off))
	c.jpos = off
}

// feed reads the JSON from c.jpos on and reports whether it is over
// (complete, or stopped by a syntax error). At eof an open value is
// closed: its complete arguments and the one it cuts are kept for the
// unterminated error.
func (c *jcall) feed(p *Parser, eof bool) (bool, error) {
	if c.jp.Done() || c.jp.Failed() {
		return true, nil
	}
	c.p, c.err = p, nil
	n := c.jp.Feed(p.bytes(c.jpos, p.end()))
	c.jpos += n
	if eof && !c.jp.Done() && !c.jp.Failed() {
		c.jp.Close()
		c.cut = true
	}
	c.p = nil
	if c.err != nil {
		return false, c.err
	}
	return c.jp.Done() || c.jp.Failed(), nil
}

// handle turns an event of the reader into the call's.
func (c *jcall) handle(p *Parser, e jsonargs.Event) error {
	if e.Kind == jsonargs.Key || e.Kind == jsonargs.Delta || e.Kind == jsonargs.Value {
		if err := c.sendStart(p); err != nil {
			return err
		}
	}
	switch e.Kind {
	case jsonargs.Field:
		switch {
		case e.Key == "name" || e.Key == "tool_name": // tool_name: Command R7B
			s, ok := e.Value.(string)
			if !ok {
				c.fail(p, KindBadJSON, "the call's name is not a JSON string", e.Span)
				return nil
			}
			// ToolCallStart waits for the arguments: an id may come first
			c.setName(p, s, e.Span.End.Offset)
		case e.Key == envelopeID || e.Key == "tool_call_id":
			if s, ok := e.Value.(string); ok && c.callID == "" && !e.Partial {
				c.callID = s
			}
		case e.Key == envelopeWrapper:
			// not read as the wrapper: not an object, or a second one
			c.fail(p, KindBadJSON, fmt.Sprintf("%q is not read: the call is one JSON object holding its name and arguments", e.Key), e.Span)
		case slices.Contains(envelopeKeys, e.Key) && e.Value != nil:
			c.fail(p, KindBadJSON, fmt.Sprintf("%q is not a JSON object", e.Key), e.Span)
		}
	case jsonargs.Delta:
		if !c.sent {
			c.held = append(c.held, heldDelta{e, len(c.vals)})
			return nil
		}
		return c.delta(p, e, len(c.vals))
	case jsonargs.Value:
		if e.Partial {
			c.partial = append(c.partial, valOf(e))
		} else {
			c.addVal(valOf(e))
		}
	case jsonargs.Error:
		if e.Code == jsonargs.CodeUnterminated {
			return nil // the call's own unterminated error says it
		}
		c.errs = append(c.errs, Event{Type: Error, ID: c.id, Name: c.name, Kind: KindBadJSON,
			Message: "arguments: " + e.Message, Raw: e.Raw, Span: e.Span})
	}
	return nil
}

// delta emits a piece of a string argument; before is the number of
// complete arguments read before it (exactness depends on them).
func (c *jcall) delta(p *Parser, e jsonargs.Event, before int) error {
	param := e.Key
	exact := true
	var sp *schema.Param
	if c.act != nil {
		sp = c.param(e.Key)
		exact = sp != nil && keepsString(sp)
		if sp != nil {
			param = sp.Name
		}
	}
	if exact {
		byKey, bySP := c.earlier(e.Key, sp)
		if sp == nil {
			exact = byKey < 0 || byKey >= before
		} else {
			exact = bySP < 0 || bySP >= before // a duplicate: the first is kept
		}
	}
	return p.send(&Event{Type: ParamDelta, ID: c.id, Name: c.name, Param: param, Text: e.Text, Span: e.Span, Exact: exact})
}

// keepsString reports whether a JSON string argument of parameter sp is
// kept as decoded (see Event.Exact): string and json parameters.
func keepsString(sp *schema.Param) bool {
	t := sp.TypeOrDefault()
	return t == schema.String || t == schema.JSON
}

// fail records an error of the call on the source span sp.
func (c *jcall) fail(p *Parser, kind, msg string, sp ast.Span) {
	c.errs = append(c.errs, Event{Type: Error, ID: c.id, Name: c.name, Kind: kind, Message: msg,
		Raw: p.str(sp.Start.Offset, sp.End.Offset), Span: sp})
}

// strayText records bytes [from, to) inside the call's markup that belong
// to nothing; consecutive pieces make one error.
func (c *jcall) strayText(from, to int) {
	if c.stray < 0 {
		c.stray = from
	}
	c.strayEnd = to
}

func (c *jcall) endStray(p *Parser) {
	if c.stray < 0 {
		return
	}
	end := c.stray + len(bytes.TrimRight(p.bytes(c.stray, c.strayEnd), " \t\r\n"))
	c.fail(p, KindBadJSON, "text after the arguments is not part of the call", p.span(c.stray, end))
	c.stray = -1
}

// close ends the call, whose source is [c.start, end), for finish and
// abort: it returns the call's span and source.
func (c *jcall) close(p *Parser, end int) (ast.Span, string, error) {
	if err := c.sendStart(p); err != nil {
		return ast.Span{}, "", err
	}
	c.end = end
	c.endStray(p)
	return ast.Span{Start: c.startPos, End: p.pos(end)}, p.str(c.start, end), nil
}

// finish ends the call, whose source is [c.start, end): its errors, then
// the ToolCall; a call that never named its tool is reported and its
// source emitted as text.
func (c *jcall) finish(p *Parser, end int) error {
	sp, raw, err := c.close(p, end)
	if err != nil {
		return err
	}
	if !c.sent {
		msg := cmp.Or(c.noName, "the call names no tool: its text follows as text")
		c.errs = append(c.errs, Event{Type: Error, ID: c.id, CallID: c.callID, Kind: KindNoName, Message: msg, Raw: raw, Span: sp})
		if err := c.sendErrs(p); err != nil {
			return err
		}
		return p.send(&Event{Type: Text, Text: raw, Raw: raw, Span: sp})
	}
	params := c.build(p, c.vals, sp)
	if err := c.sendErrs(p); err != nil {
		return err
	}
	return p.send(&Event{Type: ToolCall, ID: c.id, CallID: c.callID, Name: c.name, Params: params, Raw: raw, Span: sp})
}

// abort ends a call cut by the end of the stream at end (closing is the
// marker it lacks, "" for a call that ends with its JSON): its JSON errors,
// an unterminated error whose Params hold what was read (the argument cut
// short with its text so far), then its source as markup (unterminated).
func (c *jcall) abort(p *Parser, end int, closing string) error {
	sp, raw, err := c.close(p, end)
	if err != nil {
		return err
	}
	var params ast.Params
	if c.act != nil || c.sent {
		errs := len(c.errs)
		params = c.build(p, append(c.vals, c.partial...), sp)
		c.errs = c.errs[:errs] // the call is not complete: its checks do not apply
	}
	if err := c.sendErrs(p); err != nil {
		return err
	}
	msg := fmt.Sprintf("the stream ends before the call's closing %s", closing)
	if closing == "" {
		msg = "the stream ends inside the call's JSON arguments"
	}
	return unterminated(p, Event{ID: c.id, Name: c.name, Params: params, Message: msg, Raw: raw, Span: sp})
}

// complete reports whether the call's JSON is complete and nothing stray
// followed it: at the end of the stream such a call stands without its
// closing marker (see finishUnclosed).
func (c *jcall) complete() bool {
	return c.jp.Done() && !c.jp.Failed() && !c.cut && c.stray < 0
}

// finishUnclosed ends a complete call (see complete) that the stream ends
// before its closing marker: models stop, and servers strip stop tokens,
// right after the JSON, so the call stands, with an unterminated warning
// at the end of the stream.
func (c *jcall) finishUnclosed(p *Parser, end int, closing string) error {
	c.errs = append(c.errs, Event{Type: Error, ID: c.id, Kind: KindUnterminated, Severity: ast.Warning,
		Message: fmt.Sprintf("the stream ends before the call's closing %s; its JSON arguments are complete", closing),
		Span:    p.span(end, end)})
	return c.finish(p, end)
}

func (c *jcall) sendErrs(p *Parser) error {
	slices.SortStableFunc(c.errs, func(a, b Event) int { return a.Span.Start.Offset - b.Span.Start.Offset })
	for i := range c.errs {
		c.errs[i].Name = c.name
		if err := p.send(&c.errs[i]); err != nil {
			return err
		}
	}
	c.errs = c.errs[:0]
	return nil
}

// build converts the arguments to typed parameters in schema order,
// recording errors; call is the call's span (missing parameters).
func (c *jcall) build(p *Parser, vals []arg, call ast.Span) ast.Params {
	for i := range vals {
		v := &vals[i]
		v.param, v.raw = c.param(v.key), p.str(v.span.Start.Offset, v.span.End.Offset)
	}
	return binder{act: c.act, id: c.id, name: c.name, missing: ast.Span{Start: call.End, End: call.End}, typed: typedJSON, errs: &c.errs}.bind(vals)
}

// typedJSON is jsonValue for bind: a value that does not convert is kept
// as decoded.
func typedJSON(sp *schema.Param, a *arg) (any, error) {
	v, err := jsonValue(sp, jsonargs.Event{Kind: jsonargs.Value, Key: a.key, Value: a.value, Raw: a.json, Partial: a.partial})
	if err != nil {
		return a.value, err
	}
	return v, nil
}

// jsonValue converts a JSON argument to its parameter's type: a string
// parameter (string, path, resource, enum) takes a JSON string; bool, int
// and number take their JSON type or a string that converts; list takes
// an array (or a string, one item per line); json takes any value; a
// string parameter also takes a number, as the text written. A
// partial value (cut by the end of the stream) is kept as read.
func jsonValue(sp *schema.Param, v jsonargs.Event) (any, error) {
	if v.Partial {
		if s, ok := v.Value.(string); ok {
			return s, nil
		}
		return v.Raw, nil
	}
	t := sp.TypeOrDefault()
	switch x := v.Value.(type) {
	case string:
		if t == schema.JSON {
			return x, nil
		}
		return sp.Value(x)
	case json.Number:
		switch t {
		case schema.Int, schema.Number, schema.JSON:
			return sp.Value(string(x))
		case schema.String:
			return string(x), nil // a string parameter keeps a number as its text
		}
	case bool:
		if t == schema.Bool || t == schema.JSON {
			return x, nil
		}
	case json.RawMessage:
		switch t {
		case schema.JSON:
			return sp.Value(string(x))
		case schema.List:
			if strings.HasPrefix(string(x), "[") {
				return sp.Value(string(x))
			}
		}
	case nil:
		if t == schema.JSON || sp.Nullable {
			return nil, nil
		}
	}
	return nil, fmt.Errorf("want %s, got %s", wantType(sp), jsonKind(v))
}

func wantType(sp *schema.Param) string {
	switch t := sp.TypeOrDefault(); t {
	case schema.String, schema.Path, schema.Resource:
		return "a JSON string (" + string(t) + ")"
	case schema.Enum:
		return "a JSON string, one of " + strings.Join(sp.Enum, ", ")
	case schema.Bool:
		return "true or false"
	case schema.Int:
		return "an integer"
	case schema.Number:
		return "a number"
	case schema.List:
		return "a JSON array"
	}
	return "a JSON value"
}

func jsonKind(v jsonargs.Event) string {
	switch x := v.Value.(type) {
	case json.Number:
		return "number " + string(x)
	case bool:
		return fmt.Sprint(x)
	case json.RawMessage:
		if strings.HasPrefix(string(x), "[") {
			return "an array"
		}
		return "an object"
	case nil:
		return "null"
	}
	return "a string"
}
