package stream

import (
	"github.com/plangram/plangram/schema"
)

// xmlForm says which XML call forms a syntax reads. The tools scanner
// reads them all: Cline-style <TOOL> calls (bare), and named calls, whose
// opening tag names the tool (<invoke name="…">, <function=…>), inside a
// wrapper (<function_calls>) or, when loose, also outside one.
type xmlForm struct {
	bare      bool   // <TOOL>…</TOOL> calls in text
	wrapOpen  string // the wrapper of named calls; "" for none
	wrapClose string
	// call matches a named call's opening tag at the start of b: the
	// tool's name and the tag's length, or whether more bytes could still
	// make it match.
	call      func(b []byte) (name []byte, n int, more bool)
	callTag   string // the fixed start of call's tag (loose calls)
	loose     bool   // named calls also outside the wrapper
	callClose string
	// param matches a parameter's opening tag in a named call, as call.
	param       func(b []byte) (name []byte, n int, more bool)
	paramPrefix string // the fixed start of param's tag
	paramClose  string
	// rawText keeps string values as written (less the line ending at
	// each edge) instead of trimming them: Qwen3-Coder's, GLM's, MiniMax's
	// and Anthropic's <invoke> values are raw text typed by the schema.
	rawText bool
	// exactEdges keeps the line endings at a value's edges too: GLM's
	// template writes <arg_value>v</arg_value> with nothing around v, so
	// a line ending there is the value's (a file's last newline).
	exactEdges bool
	// thinking names the syntax's thinking blocks when
	// Options.ThinkingTags is nil (the default: <think> and <thinking>).
	thinking []string
}

// The <function_calls><invoke name="…"><parameter name="…"> markup.
const (
	wrapperOpen  = "<function_calls>"
	wrapperClose = "</function_calls>"
	invokeOpen   = `<invoke name=`
	invokeClose  = "</invoke>"
	paramOpen    = `<parameter name=`
	paramClose   = "</parameter>"
)

// invokeForm is the <invoke> form inside the wrapper open … close.
func invokeForm(open, close string) xmlForm {
	return xmlForm{wrapOpen: open, wrapClose: close,
		call:        func(b []byte) ([]byte, int, bool) { return attrNamed(b, invokeOpen) },
		callClose:   invokeClose,
		param:       func(b []byte) ([]byte, int, bool) { return attrNamed(b, paramOpen) },
		paramPrefix: paramOpen, paramClose: paramClose}
}

// functionForm is Qwen3-Coder's <function=NAME><parameter=P> form
// inside the wrapper open … close, loose: a <function=…> outside the
// wrapper is a call too; values are raw text typed by the schema.
func functionForm(open, close string) xmlForm {
	const fn, prm = "<function=", "<parameter="
	return xmlForm{wrapOpen: open, wrapClose: close,
		call:        func(b []byte) ([]byte, int, bool) { return named(b, fn) },
		callTag:     fn,
		loose:       true,
		callClose:   "</function>",
		param:       func(b []byte) ([]byte, int, bool) { return named(b, prm) },
		paramPrefix: prm, paramClose: "</parameter>", rawText: true}
}

// attrNamed matches pre NAME> where NAME is in double quotes, single
// quotes or none (pre ends in "name="), as MiniMax's reference parser
// reads it.
func attrNamed(b []byte, pre string) ([]byte, int, bool) {
	name, j, ok, more := quotedName(b, pre)
	if !ok {
		return nil, 0, more
	}
	k, ok, more := seq(b, j, ">")
	if !ok {
		return nil, 0, more
	}
	return name, k, false
}

// quotedName reads, at the start of b, pre and then a name, bare or in
// double or single quotes (`<function=name`, `<parameter="name"`): it
// returns the name and the offset after it (and its closing quote). ok is
// false when b does not start so; more then says whether more bytes could
// still make it. attrNamed and dsmlParamTag read their tags with it.
func quotedName(b []byte, pre string) (name []byte, end int, ok, more bool) {
	i, ok, more := seq(b, 0, pre)
	if !ok {
		return nil, 0, false, more
	}
	if name, end, ok, more = quoted(b, i); ok && len(name) == 0 {
		return nil, 0, false, false
	}
	return name, end, ok, more
}

// quoted reads at b[i:] a name of up to maxName name bytes, possibly
// empty, bare or in double or single quotes, as quotedName.
func quoted(b []byte, i int) (name []byte, end int, ok, more bool) {
	if i == len(b) {
		return nil, 0, false, true
	}
	q := ""
	if b[i] == '"' || b[i] == '\'' {
		q = string(b[i])
		i++
	}
	j, more := nameEnd(b, i)
	if more {
		return nil, 0, false, true
	}
	k, ok, more := seq(b, j, q)
	if !ok {
		return nil, 0, false, more
	}
	return b[i:j], k, true, false
}

// xmlSyntax returns a syntax read by the tools scanner with form f.
func xmlSyntax(name, summary string, f xmlForm, markers func(*schema.Schema) []string) *Syntax {
	return &Syntax{Name: name, Schema: "tools", Summary: summary, Markers: markers,
		open: func(c *config) (scanner, error) {
			if c.opts.ThinkingTags == nil {
				c.opts.ThinkingTags = f.thinking
			}
			return newTools(c, f), nil
		}}
}

// Tools registers the tools syntax.
func (registry) Tools() *Syntax {
	f := invokeForm(wrapperOpen, wrapperClose)
	f.bare = true
	return xmlSyntax("tools", "Cline-style tags <TOOL><PARAM>…</PARAM></TOOL>, also <function_calls><invoke …>", f, toolMarkers)
}

// AnthropicXML registers the anthropic-xml syntax: the
// <function_calls><invoke …> form of the tools syntax only.
func (registry) AnthropicXML() *Syntax {
	f := invokeForm(wrapperOpen, wrapperClose)
	// Anthropic's prompt-tool format: "spaces for string values are not
	// stripped"
	f.rawText = true
	return xmlSyntax("anthropic-xml", `<function_calls><invoke name="…"><parameter name="…">…</parameter></invoke></function_calls>`,
		f, staticMarkers(wrapperOpen))
}

// MiniMax registers the minimax syntax: <invoke> calls in a
// <minimax:tool_call> wrapper (MiniMax-M2).
func (registry) MiniMax() *Syntax {
	const open = "<minimax:tool_call>"
	f := invokeForm(open, "</minimax:tool_call>")
	f.rawText = true // as vLLM's minimax_m2 parser: one line ending off each edge
	return xmlSyntax("minimax", `<minimax:tool_call><invoke name="…"><parameter name="…">…</parameter></invoke></minimax:tool_call>`,
		f, staticMarkers(open))
}

// Qwen3Coder registers the qwen3-coder syntax (Qwen3-Coder's chat
// template): <tool_call><function=NAME><parameter=P>value</parameter>…
// </function></tool_call>; like vLLM's parser, a <function=…> outside a
// <tool_call> is a call too.
func (registry) Qwen3Coder() *Syntax {
	return xmlSyntax("qwen3-coder", "<tool_call><function=NAME><parameter=P>value</parameter></function></tool_call>",
		functionForm("<tool_call>", "</tool_call>"), staticMarkers("<tool_call> <function=", "<function=+> <"))
}

// GLM registers the glm syntax (GLM-4.5/4.6/4.7):
// <tool_call>NAME<arg_key>k</arg_key><arg_value>v</arg_value>…</tool_call>,
// with or without white space between the parts.
func (registry) GLM() *Syntax {
	const tc = "<tool_call>"
	f := xmlForm{call: glmCall, callTag: tc, loose: true, callClose: "</tool_call>",
		param: glmParam, paramPrefix: "<arg_key>", paramClose: "</arg_value>", rawText: true, exactEdges: true}
	return xmlSyntax("glm", "<tool_call>NAME<arg_key>K</arg_key><arg_value>V</arg_value></tool_call>", f,
		staticMarkers("<tool_call> *"))
}

// DeepSeek-V3.2's DSML markup: <invoke> calls whose tags carry the
// ｜DSML｜ prefix (U+FF5C FULLWIDTH VERTICAL LINE around DSML), as its
// chat encoding writes them.
const (
	dsmlOpen       = "<｜DSML｜function_calls>"
	dsmlClose      = "</｜DSML｜function_calls>"
	dsmlInvoke     = "<｜DSML｜invoke name="
	dsmlInvokeEnd  = "</｜DSML｜invoke>"
	dsmlParam      = "<｜DSML｜parameter name="
	dsmlParamClose = "</｜DSML｜parameter>"
)

// DeepSeekDSML registers the deepseek-dsml syntax (DeepSeek-V3.2):
// <｜DSML｜function_calls><｜DSML｜invoke name="NAME"><｜DSML｜parameter
// name="P" string="true">value</｜DSML｜parameter>…</｜DSML｜invoke>
// </｜DSML｜function_calls>. It is the <invoke> form of the tools scanner
// with DSML's tags; a value is raw text typed by the schema (the string
// attribute, which says whether the model wrote the value as a string or
// as JSON, is read but the schema's type decides).
func (registry) DeepSeekDSML() *Syntax {
	f := xmlForm{wrapOpen: dsmlOpen, wrapClose: dsmlClose,
		call:        func(b []byte) ([]byte, int, bool) { return attrNamed(b, dsmlInvoke) },
		callClose:   dsmlInvokeEnd,
		param:       dsmlParamTag,
		paramPrefix: dsmlParam, paramClose: dsmlParamClose, rawText: true}
	return xmlSyntax("deepseek-dsml", `<｜DSML｜function_calls><｜DSML｜invoke name="…"><｜DSML｜parameter name="…" string="true">…</｜DSML｜parameter></｜DSML｜invoke></｜DSML｜function_calls>`,
		f, staticMarkers(dsmlOpen))
}

// dsmlParamTag matches a DSML parameter's opening tag at the start of b:
// <｜DSML｜parameter name="P" string="true|false">, the string attribute
// optional (and its value any name), the name quoted or not.
func dsmlParamTag(b []byte) ([]byte, int, bool) {
	name, j, ok, more := quotedName(b, dsmlParam)
	if !ok {
		return nil, 0, more
	}
	// white space, an optional string="…" attribute, white space, '>'
	for attr := true; ; attr = false {
		k, more := spaces(b, j)
		if more {
			return nil, 0, true
		}
		if e, ok, more := seq(b, k, ">"); ok {
			return name, e, false
		} else if more {
			return nil, 0, true
		}
		if !attr || k == j {
			return nil, 0, false
		}
		if k, ok, more = seq(b, k, "string="); !ok {
			return nil, 0, more
		}
		if _, j, ok, more = quoted(b, k); !ok {
			return nil, 0, more
		}
	}
}

// The markup of ByteDance's Seed-OSS: Qwen3-Coder's <function=…> calls in
// a <seed:tool_call> wrapper, and <seed:think> reasoning blocks.
const (
	seedOpen  = "<seed:tool_call>"
	seedClose = "</seed:tool_call>"
	seedThink = "seed:think"
)

// SeedOSS registers the seed-oss syntax (Seed-OSS-36B's chat template):
// <seed:tool_call><function=NAME><parameter=P>value</parameter>…
// </function></seed:tool_call>, read as qwen3-coder reads its calls (a
// value is raw text typed by the schema, less one line ending at each
// edge; a <function=…> outside the wrapper is a call too), with
// <seed:think>…</seed:think> as a thinking block besides <think> and
// <thinking> (unless Options.ThinkingTags names others).
func (registry) SeedOSS() *Syntax {
	f := functionForm(seedOpen, seedClose)
	f.thinking = []string{seedThink, "thinking", "think"}
	return xmlSyntax("seed-oss", "<seed:tool_call><function=NAME><parameter=P>value</parameter></function></seed:tool_call>",
		f, staticMarkers(seedOpen))
}

// glmCall matches "<tool_call>", optional white space and a name followed
// by white space or '<' (which is not part of the match).
func glmCall(b []byte) ([]byte, int, bool) {
	n, full, part := matchMarker(b, "<tool_call> +")
	if !full || n == len(b) || !isSpace(b[n]) && b[n] != '<' {
		return nil, 0, part
	}
	i, _ := spaces(b, len("<tool_call>"))
	return b[i:n], n, false
}

// glmParam matches <arg_key>NAME</arg_key> <arg_value>, white space
// allowed around NAME and between the tags.
func glmParam(b []byte) ([]byte, int, bool) {
	n, full, part := matchMarker(b, "<arg_key> + </arg_key> <arg_value>")
	if !full {
		return nil, 0, part
	}
	i, _ := spaces(b, len("<arg_key>"))
	j, _ := nameEnd(b, i)
	return b[i:j], n, false
}

// nameEnd returns the end of the name of at most maxName name bytes that
// starts at b[i] (i itself when there is none), and whether b ends inside
// it: more bytes could still make it longer.
func nameEnd(b []byte, i int) (j int, more bool) {
	j = i
	for j < len(b) && j-i < maxName && isName(b[j]) {
		j++
	}
	return j, j == len(b) && j-i < maxName
}

// seq matches s at b[i:]: the offset after it, or whether b ends in a
// proper prefix of it.
func seq(b []byte, i int, s string) (int, bool, bool) {
	full, part := match(b[i:], s)
	if !full {
		return i, false, part
	}
	return i + len(s), true, false
}

// spaces skips up to maxMarkerSpace bytes of white space at b[i:]; more
// reports that b ends while they may go on.
func spaces(b []byte, i int) (int, bool) {
	k := i
	for k < len(b) && k-i < maxMarkerSpace && isSpace(b[k]) {
		k++
	}
	return k, k == len(b) && k-i < maxMarkerSpace
}
