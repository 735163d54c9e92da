package stream

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/internal/jsonw"
	"github.com/plangram/plangram/schema"
	"github.com/plangram/plangram/stream/jsonargs"
)

// apiCall is a tool call of a provider API stream: its arguments arrive
// as JSON text in fragments (each a JSON string in an SSE event), read by
// the shared incremental JSON parser. Its positions map the decoded
// argument text back to the SSE bytes.
type apiCall struct {
	id       int
	name     string
	key      string // the provider's key: index, item id or block index
	callID   string // the provider's call id (call_…, toolu_…)
	choice   int    // the completion choice (openai-chat, n > 1)
	started  bool   // ToolCallStart was emitted
	startPos ast.Pos
	schema   *schema.Schema

	args    *jsonargs.Parser
	evs     []jsonargs.Event // events of the last Feed
	frag    []byte           // the fragment being fed, decoded
	text    strings.Builder  // the decoded argument text
	segs    []argSeg
	fed     bool
	done    bool // the arguments' JSON value is complete (or failed)
	vals    []arg
	keys    map[string]bool // the keys of vals
	errs    []Event
	ended   bool
	lastEnd ast.Pos // the end of the last fragment
	slot    int     // its index in openCalls.order, -1 when not there
	out     int     // openai-responses: the item's output index, -1 when none
}

// argSeg maps decoded argument bytes [arg, arg+n) to source bytes
// starting at src (one line): n source bytes for literal text, sn source
// bytes for one escape.
type argSeg struct {
	arg, n int
	src    ast.Pos
	sn     int
}

func newAPICall(p *Parser, s *schema.Schema, key string, at ast.Pos) *apiCall {
	c := &apiCall{id: p.nextID(), key: key, startPos: at, schema: s, slot: -1, out: -1}
	c.args = jsonargs.New(jsonargs.Options{}, func(e jsonargs.Event) { c.evs = append(c.evs, e) })
	return c
}

// start emits ToolCallStart once the call's name is known.
func (c *apiCall) start(p *Parser, sp ast.Span) error {
	if c.started || c.name == "" {
		return nil
	}
	c.started = true
	return p.send(&Event{Type: ToolCallStart, ID: c.id, CallID: c.callID, Choice: c.choice, Name: c.name, Span: sp})
}

// feedArgs feeds the arguments node n of event e: a JSON string holding
// a fragment of the arguments' text (what the APIs send), or an object
// written as it is (what some compatible servers send).
func (c *apiCall) feedArgs(p *Parser, e *sseEvent, n *jnode) error {
	switch {
	case n == nil || n.kind != '"' && n.kind != '{':
		return nil
	case n.kind == '{':
		return c.feedRaw(p, e, n.start, n.end)
	}
	c.frag = c.frag[:0]
	base := n.start + 1
	jsonargs.DecodeString(e.data[base:n.end-1], func(dec []byte, from, to int) {
		from, to = base+from, base+to
		c.segs = append(c.segs, argSeg{arg: c.text.Len() + len(c.frag), n: len(dec), src: e.pos(e.src(from)), sn: to - from})
		c.frag = append(c.frag, dec...)
	})
	return c.feed(p, e.dataSpan(n.start+1, n.end-1), e.pos(e.end))
}

// feedRaw feeds JSON text written as it is in event e (an object given
// whole, as Anthropic's content_block_start input), data bytes [from, to).
func (c *apiCall) feedRaw(p *Parser, e *sseEvent, from, to int) error {
	for at := from; at < to; { // one segment per data line
		end := to
		if i := bytes.IndexByte(e.data[at:to], '\n'); i >= 0 {
			end = at + i + 1
		}
		c.segs = append(c.segs, argSeg{arg: c.text.Len() + at - from, n: end - at, src: e.pos(e.src(at)), sn: end - at})
		at = end
	}
	c.frag = append(c.frag[:0], e.data[from:to]...)
	return c.feed(p, e.dataSpan(from, to), e.pos(e.end))
}

// feed reads the decoded fragment c.frag, whose source is sp, in the
// event ending at end. The call is finished as soon as its arguments'
// JSON value is complete: a client can run it before the stream ends.
func (c *apiCall) feed(p *Parser, sp ast.Span, end ast.Pos) error {
	if len(c.frag) == 0 {
		return nil
	}
	if c.args.Failed() {
		return nil // reported with the call, which has ended
	}
	c.lastEnd = sp.End
	c.text.Write(c.frag)
	rest := c.frag
	if !c.done {
		c.fed = true
		rest = rest[c.args.Feed(c.frag):]
		if err := c.drain(p); err != nil {
			return err
		}
		if c.args.Failed() {
			return c.finish(p, end)
		}
		if c.done && !c.ended {
			if err := c.finish(p, end); err != nil {
				return err
			}
		}
	}
	if len(rest) == skipSpace(rest) { // after the arguments' JSON value, white space is fine
		return nil
	}
	return p.send(&Event{Type: Error, ID: c.id, Choice: c.choice, Name: c.name, Kind: KindBadJSON, Severity: ast.Error,
		Message: "argument text after the complete JSON value", Raw: string(rest), Span: sp})
}

// mapPos returns the source position of decoded offset x; end says x ends
// a span (it is placed after the byte before it).
func (c *apiCall) mapPos(x int, end bool) ast.Pos {
	if len(c.segs) == 0 {
		return c.startPos
	}
	if end && x > 0 {
		x--
	}
	i, found := slices.BinarySearchFunc(c.segs, x, func(s argSeg, x int) int {
		switch {
		case x < s.arg:
			return 1
		case x >= s.arg+s.n:
			return -1
		}
		return 0
	})
	if !found {
		if i >= len(c.segs) {
			return c.lastEnd
		}
		return c.segs[i].src
	}
	s := c.segs[i]
	d := x - s.arg
	if s.n != s.sn { // an escape: its start, or its end
		d = 0
		if end {
			d = s.sn
		}
	} else if end {
		d++
	}
	return ast.Pos{Offset: s.src.Offset + d, Line: s.src.Line, Col: s.src.Col + d}
}

func (c *apiCall) mapSpan(sp ast.Span) ast.Span {
	return ast.Span{Start: c.mapPos(sp.Start.Offset, false), End: c.mapPos(sp.End.Offset, sp.End.Offset > sp.Start.Offset)}
}

// drain turns the JSON parser's events into stream events.
func (c *apiCall) drain(p *Parser) error {
	evs := c.evs
	c.evs = c.evs[:0]
	for _, je := range evs {
		switch je.Kind {
		case jsonargs.Delta:
			if je.Text == "" {
				continue
			}
			if err := p.send(&Event{Type: ParamDelta, ID: c.id, Choice: c.choice, Name: c.name, Param: je.Key, Text: je.Text,
				Span: c.mapSpan(je.Span), Exact: c.exact(je.Key)}); err != nil {
				return err
			}
		case jsonargs.Value:
			raw := je.Raw
			if raw == "" {
				raw, _ = je.Value.(string)
			}
			// a partial value (cut by the end) is for the unterminated error only
			c.vals = append(c.vals, arg{key: je.Key, value: je.Value, raw: raw, json: je.Raw, span: c.mapSpan(je.Span), partial: je.Partial})
			if !je.Partial {
				if c.keys == nil {
					c.keys = map[string]bool{}
				}
				c.keys[je.Key] = true
			}
		case jsonargs.Error:
			kind := KindBadJSON
			msg := "arguments: " + je.Message
			raw := je.Raw
			if je.Code == jsonargs.CodeUnterminated {
				kind, raw = KindUnterminated, c.text.String()
				msg = "arguments end before their JSON value is complete: " + je.Message
			}
			c.errs = append(c.errs, Event{Type: Error, ID: c.id, Name: c.name, Kind: kind, Severity: ast.Error,
				Message: msg, Raw: raw, Span: c.mapSpan(je.Span)})
			c.done = true
		case jsonargs.Done:
			c.done = true
		}
	}
	return nil
}

// exact reports whether a string argument key is kept as decoded in the
// call's params (see Event.Exact): no schema, a tool the schema does not
// declare, or a string (or json) parameter; and no earlier argument of
// the same key (the first is kept).
func (c *apiCall) exact(key string) bool {
	if c.keys[key] {
		return false
	}
	if c.schema == nil {
		return true
	}
	act := c.schema.Lookup(c.name)
	if act == nil {
		return true
	}
	sp := paramNamed(act, key) // given earlier under its name or an alias: a duplicate
	return sp != nil && keepsString(sp) && !c.keys[sp.Name] && !slices.ContainsFunc(sp.Aliases, func(a string) bool { return c.keys[a] })
}

// finish ends the call at the end of the SSE event that ends it (at):
// the arguments' errors, then the ToolCall, unless the arguments are
// unterminated (the stream or the call ended inside them): then only the
// unterminated error, carrying the text read.
func (c *apiCall) finish(p *Parser, at ast.Pos) error {
	if c.ended {
		return nil
	}
	c.ended = true
	if err := c.start(p, ast.Span{Start: c.startPos, End: c.startPos}); err != nil {
		return err
	}
	if !c.done {
		c.args.Close()
		if err := c.drain(p); err != nil {
			return err
		}
	}
	end := ast.Span{Start: at, End: at}
	if c.name == "" {
		c.errs = append(c.errs, Event{Type: Error, ID: c.id, Kind: KindBadEvent, Severity: ast.Error,
			Message: "tool call without a name", Span: end})
	}
	cut := slices.IndexFunc(c.errs, func(e Event) bool { return e.Kind == KindUnterminated })
	n := len(c.errs)
	params := c.bind(end)
	if cut >= 0 { // the error carries what was read; the call's checks do not apply
		c.errs = c.errs[:n]
		c.errs[cut].Params = params
	}
	slices.SortStableFunc(c.errs, func(a, b Event) int { return a.Span.Start.Offset - b.Span.Start.Offset })
	for i := range c.errs {
		c.errs[i].Choice = c.choice
		if err := p.send(&c.errs[i]); err != nil {
			return err
		}
	}
	if cut >= 0 {
		return nil
	}
	return p.send(&Event{Type: ToolCall, ID: c.id, CallID: c.callID, Choice: c.choice, Name: c.name, Params: params, Raw: c.text.String(),
		Span: ast.Span{Start: c.startPos, End: at}})
}

// bind types the call's arguments by the schema (binder.bind). Without a
// schema (no registry was given) or for a tool the schema does not declare
// (unknown-tool), the arguments are kept as decoded JSON, in their order.
func (c *apiCall) bind(end ast.Span) ast.Params {
	var act *schema.Action
	if c.schema != nil {
		act = c.schema.Lookup(c.name)
		if act == nil && c.name != "" {
			c.errs = append(c.errs, Event{Type: Error, ID: c.id, Name: c.name, Kind: KindUnknownTool,
				Message: toolNames{schema: c.schema}.unknown(c.name), Span: ast.Span{Start: c.startPos, End: c.startPos}})
		}
	}
	for i := range c.vals {
		if act != nil {
			c.vals[i].param = paramNamed(act, c.vals[i].key)
		}
	}
	typed := func(sp *schema.Param, a *arg) (any, error) {
		v, err := typedJSON(sp, a)
		if err != nil {
			v = plainValue(a) // kept as written (decoded), as plangram parse keeps it
		}
		return v, err
	}
	return binder{act: act, id: c.id, name: c.name, missing: end, typed: typed, plain: plainValue, errs: &c.errs}.bind(c.vals)
}

// plainValue is an untyped argument's value: strings, bools and null as
// they are, numbers as json.Number, objects and arrays decoded.
func plainValue(v *arg) any {
	if r, ok := v.value.(json.RawMessage); ok {
		var x any
		if err := jsonw.Unmarshal(r, &x); err != nil { // exact bytes (docs/acts.md)
			return string(r)
		}
		return x
	}
	return v.value
}

// openCalls is the set of a stream's open calls, keyed by the provider's
// key, in start order: adding, finding and removing a call cost O(1)
// (amortised), so that many calls open at once, or ended one by one in any
// order, stay linear.
type openCalls struct {
	byKey map[string]*apiCall
	order []*apiCall // start order; nil where a call was removed
	dead  int        // how many of order are nil
}

func (o *openCalls) get(key string) *apiCall { return o.byKey[key] }

func (o *openCalls) add(c *apiCall) {
	if o.byKey == nil {
		o.byKey = map[string]*apiCall{}
	}
	if old := o.byKey[c.key]; old != nil {
		o.remove(old)
	}
	o.byKey[c.key] = c
	c.slot = len(o.order)
	o.order = append(o.order, c)
}

func (o *openCalls) remove(c *apiCall) {
	if c.slot < 0 || c.slot >= len(o.order) || o.order[c.slot] != c {
		return
	}
	if o.byKey[c.key] == c {
		delete(o.byKey, c.key)
	}
	o.order[c.slot] = nil
	c.slot = -1
	o.dead++
	if o.dead > len(o.order)/2 { // compact: each call moves O(1) times on average
		kept := o.order[:0]
		for _, x := range o.order {
			if x != nil {
				x.slot = len(kept)
				kept = append(kept, x)
			}
		}
		clear(o.order[len(kept):])
		o.order, o.dead = kept, 0
	}
}

// all returns the open calls in start order.
func (o *openCalls) all() []*apiCall {
	out := make([]*apiCall, 0, len(o.order)-o.dead)
	for _, c := range o.order {
		if c != nil {
			out = append(out, c)
		}
	}
	return out
}

// each calls f on the open calls in start order, up to the first error.
func (o *openCalls) each(f func(*apiCall) error) error {
	for _, c := range o.all() {
		if err := f(c); err != nil {
			return err
		}
	}
	return nil
}
