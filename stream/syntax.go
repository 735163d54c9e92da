package stream

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/plangram/plangram/schema"
)

// Syntax is a stream syntax: one way models write tool calls into their
// text (Cline-style tags, Qwen3-Coder's <function=…>, Hermes JSON…). New
// picks one by name (Options.Syntax); Syntaxes lists them.
//
// # Adding a syntax (the plug-in contract)
//
// A syntax lives in its own file of package stream and registers itself
// with one method on the registry type, which Syntaxes enumerates:
//
//	// Hermes registers the hermes syntax.
//	func (registry) Hermes() *Syntax {
//		return jsonSyntax("hermes", "…",
//			&jsonForm{open: "<tool_call>", close: "</tool_call>"}, "<tool_call> {")
//	}
//
// A syntax that is a start marker followed by JSON is a jsonForm row (see
// jsonSyntax), an XML-style one an xmlForm row; only the others write a
// scanner of their own and set open on the Syntax.
//
// No switch or list elsewhere is edited, and there is no package-level
// mutable state: the registry is built anew by each call of Syntaxes. The
// method name is free (it only has to be unique); Name is what users type.
//
// open returns the syntax's scanner, an incremental grammar on the Parser's
// buffer, for the given config. Its contract:
//
//   - scan(p, eof) decides what it can of the bytes [c.start, p.end()) and
//     emits events with p.send / p.text; called after every Write and once
//     with eof set at Close, when it must decide every remaining byte (an
//     open call is an unterminated error, never silently dropped).
//   - keep() returns the offset of the earliest byte still needed — read,
//     sliced into an event or asked for its position (p.pos) later; bytes
//     before it may leave the buffer at the next Write. The tests' parsers
//     (collect in helpers_test.go) drop them at every Write, so a scanner
//     that reads before its keep() fails on small inputs, not only on
//     streams large enough to move the buffer.
//   - Where it waits on a run of white space, count it with p.spaces
//     (counted once); where it waits for a marker that must come within a
//     bound, look no further than the bound (window): a marker beyond it
//     must not count in one chunking and not in another.
//   - It begins at offset c.start (0, or the marker --syntax auto found):
//     the bytes before are decided already.
//   - Events cover the input: concatenating the Raw of Text, Thinking and
//     ToolCall events gives back the bytes from c.start on (markup that is
//     not prose is a Text event with empty Text and the bytes in Raw). With
//     Options.HideThinking, thinking bytes are left out; Options.OmitFraming
//     is applied by the core (Parser.send, prose.emit), not by a syntax.
//   - Results never depend on the chunking: hold back only what the next
//     bytes could still change (a suffix that may become a marker), never a
//     fixed window, and never rescan decided bytes (linear time).
//   - p.end() never falls inside a multi-byte UTF-8 character before eof
//     (the core holds an incomplete tail back), so a syntax need not care.
//   - Calls are numbered with p.nextID(); reasoning blocks (<think>…</think>)
//     become Thinking events: use the prose helper for the text between
//     calls, which also handles Options.InThinking.
//
// Tests: add golden cases under golden/stream/ (named NAME_*.txt for the
// syntax NAME, see golden_test.go) and call checkChunks (helpers_test.go)
// from the syntax's tests and fuzz target: it checks that chunkings of 1, 7
// and 4096 bytes and random ones give the same merged events as one chunk,
// that raw text rebuilds the input and that spans match it.
type Syntax struct {
	// Name is what Options.Syntax and `plangram stream --syntax` take.
	Name string
	// Summary is one line for help texts.
	Summary string
	// Schema names the built-in schema (schema.Builtin) used when
	// Options.Schema is nil.
	Schema string
	// Markers returns the syntax's unambiguous start markers for the given
	// schema, for --syntax auto; nil means the syntax is never detected.
	// In a marker, a space stands for optional white space (up to
	// maxMarkerSpace bytes of space, tab, CR, LF), '*' for one name
	// byte (letter, digit, _ - . :) and '+' for one to maxName name
	// bytes; every other byte is literal. A marker must not also be a
	// marker of another syntax.
	Markers func(s *schema.Schema) []string

	open func(c *config) (scanner, error)
}

// config is what a syntax's scanner is made from.
type config struct {
	schema *schema.Schema // never nil
	opts   Options
	start  int // the first offset the scanner reads
}

// scanner is a syntax's incremental grammar working on the Parser's buffer
// (see Syntax for the contract).
type scanner interface {
	// scan decides what it can of the buffer and emits events; with eof
	// set it decides every remaining byte.
	scan(p *Parser, eof bool) error
	// keep returns the offset of the earliest byte still needed.
	keep() int
}

// registry is the type whose exported methods, each returning a *Syntax,
// are the registered syntaxes (see Syntax).
type registry struct{}

// Auto is the name of the syntax that detects the real one from the first
// marker in the stream (see docs/stream.md).
const Auto = "auto"

// Syntaxes returns the registered syntaxes sorted by name. Each call builds
// them anew; the caller may modify the result.
func Syntaxes() []*Syntax {
	v := reflect.ValueOf(registry{})
	out := make([]*Syntax, 0, v.NumMethod())
	for i := range v.NumMethod() {
		if s, ok := v.Method(i).Interface().(func() *Syntax); ok {
			out = append(out, s())
		}
	}
	slices.SortFunc(out, func(a, b *Syntax) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// SyntaxNames returns the names New accepts: "auto" and the registered
// syntaxes.
func SyntaxNames() []string {
	names := []string{Auto}
	for _, s := range Syntaxes() {
		names = append(names, s.Name)
	}
	return names
}

// LookupSyntax returns the registered syntax called name.
func LookupSyntax(name string) (*Syntax, error) {
	for _, s := range Syntaxes() {
		if s.Name == name {
			return s, nil
		}
	}
	return nil, fmt.Errorf("stream: unknown syntax %q (have %s)", name, strings.Join(SyntaxNames(), ", "))
}

// staticMarkers returns a Markers function with fixed markers.
func staticMarkers(m ...string) func(*schema.Schema) []string {
	return func(*schema.Schema) []string { return m }
}

// schemaFor returns the schema syntax s parses with: opts.Schema, or the
// syntax's built-in one.
func schemaFor(s *Syntax, opts Options) (*schema.Schema, error) {
	if opts.Schema != nil {
		return opts.Schema, nil
	}
	sc, err := schema.Builtin(s.Schema)
	if err != nil {
		return nil, fmt.Errorf("stream: syntax %s: %w", s.Name, err)
	}
	return sc, nil
}
