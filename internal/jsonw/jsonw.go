// Package jsonw is an append-style JSON writer that produces exactly the
// bytes encoding/json's Encoder writes with SetEscapeHTML(false) (and, when
// indenting, SetIndent("", "  ")), without reflection and without the
// re-validation and re-indentation a custom MarshalJSON costs. The ast and
// stream packages write their JSON through it.
package jsonw

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// FlushSize is the buffer size at which a W with an output writer passes its
// bytes on.
const FlushSize = 64 << 10

// W appends JSON to B. Open/close objects and arrays with BeginObject,
// EndObject, BeginArray and EndArray, name members with Key and write
// values with the value methods; W places commas, colons and (with Indent)
// line breaks and two-space indentation as encoding/json does.
type W struct {
	B      []byte
	Indent bool      // two-space indentation, as json.Encoder.SetIndent("", "  ")
	Out    io.Writer // where Flush and MaybeFlush write B; nil keeps everything in B
	stack  []bool    // per open container: whether it has an element yet
	key    bool      // a key was written; the next value follows its colon
	err    error
}

// Err returns the first error met (a value that does not marshal, or a
// failed write to Out).
func (w *W) Err() error { return w.err }

// Wrap prefixes the recorded error with context ("context: error").
func (w *W) Wrap(context string) {
	if w.err != nil {
		w.err = fmt.Errorf("%s: %w", context, w.err)
	}
}

// MaybeFlush writes B to Out once it holds FlushSize bytes or more.
func (w *W) MaybeFlush() {
	if w.Out != nil && len(w.B) >= FlushSize {
		w.Flush()
	}
}

// Flush writes B to Out and empties it.
func (w *W) Flush() error {
	if w.Out == nil || w.err != nil {
		return w.err
	}
	if len(w.B) > 0 {
		_, w.err = w.Out.Write(w.B)
		w.B = w.B[:0]
	}
	return w.err
}

func (w *W) newline() {
	w.B = append(w.B, '\n')
	for range len(w.stack) {
		w.B = append(w.B, ' ', ' ')
	}
}

// elem prepares for a value or a key: after a key nothing, in a container
// a comma after the first element and, indenting, a new line.
func (w *W) elem() {
	if w.key {
		w.key = false
		return
	}
	if n := len(w.stack); n > 0 {
		if w.stack[n-1] {
			w.B = append(w.B, ',')
		}
		w.stack[n-1] = true
		if w.Indent {
			w.newline()
		}
	}
}

// Key writes an object member's name; the next value is its value.
func (w *W) Key(k string) { w.KeyN(k, 0) }

// KeyString writes an object member whose value is the string s.
func (w *W) KeyString(key, s string) {
	w.Key(key)
	w.String(s)
}

// BeginObject opens an object.
func (w *W) BeginObject() { w.begin('{') }

// EndObject closes an object.
func (w *W) EndObject() { w.end('}') }

// BeginArray opens an array.
func (w *W) BeginArray() { w.begin('[') }

// EndArray closes an array.
func (w *W) EndArray() { w.end(']') }

func (w *W) begin(c byte) {
	w.elem()
	w.B = append(w.B, c)
	w.stack = append(w.stack, false)
}

func (w *W) end(c byte) {
	n := len(w.stack) - 1
	had := w.stack[n]
	w.stack = w.stack[:n]
	if had && w.Indent {
		w.newline()
	}
	w.B = append(w.B, c)
}

// String writes a string value.
func (w *W) String(s string) {
	w.elem()
	w.B = AppendString(w.B, s)
}

// Int writes an integer value.
func (w *W) Int(i int64) {
	w.elem()
	w.B = strconv.AppendInt(w.B, i, 10)
}

// Bool writes true or false.
func (w *W) Bool(b bool) {
	w.elem()
	w.B = strconv.AppendBool(w.B, b)
}

// Null writes null.
func (w *W) Null() {
	w.elem()
	w.B = append(w.B, "null"...)
}

// Value writes any Go value as encoding/json would: the common dynamic
// types (string, bool, integers, nil, []string, []any, map[string]any,
// map[string]string; json.RawMessage that is not UTF-8 as the value it
// holds) directly, anything else through encoding/json, re-indented in
// place. Member names that are not valid UTF-8 are written
// as NameSuffixes says.
func (w *W) Value(v any) {
	switch x := v.(type) {
	case nil:
		w.Null()
	case string:
		w.String(x)
	case bool:
		w.Bool(x)
	case int:
		w.Int(int64(x))
	case int64:
		w.Int(x)
	case int32:
		w.Int(int64(x))
	case []string:
		nullOr(w, x, func(s string, w *W) { w.String(s) })
	case []any:
		nullOr(w, x, func(v any, w *W) { w.Value(v) })
	case map[string]any:
		writeMap(w, x, w.Value)
	case map[string]string:
		writeMap(w, x, w.String)
	case json.RawMessage:
		// JSON text that is not UTF-8 (a tool call's object argument) is
		// written as the value it holds, so its strings and member names
		// are written as W writes them and the exact bytes can be given
		// beside them.
		if !utf8.Valid(x) {
			if y, err := DecodeExact(x); err == nil {
				w.Value(y)
				return
			}
		}
		w.Marshal(v)
	default:
		w.Marshal(v)
	}
}

// Array writes xs as an array (empty or nil: []), each element by write;
// a long array is not held whole (MaybeFlush).
func Array[E any](w *W, xs []E, write func(E, *W)) {
	w.BeginArray()
	for _, x := range xs {
		write(x, w)
		w.MaybeFlush()
	}
	w.EndArray()
}

// nullOr writes a nil slice as null, any other as Array does.
func nullOr[E any](w *W, xs []E, write func(E, *W)) {
	if xs == nil {
		w.Null()
		return
	}
	Array(w, xs, write)
}

// Marshal writes v through encoding/json (HTML escaping off), indented to
// the current depth when the writer indents.
func (w *W) Marshal(v any) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if w.Indent {
		enc.SetIndent(strings.Repeat("  ", len(w.stack)), "  ")
	}
	w.elem()
	if err := enc.Encode(v); err != nil {
		w.err = cmp.Or(w.err, err)
		w.B = append(w.B, "null"...)
		return
	}
	w.B = append(w.B, bytes.TrimSuffix(b.Bytes(), []byte{'\n'})...)
}

const hex = "0123456789abcdef"

// safe reports the ASCII bytes encoding/json writes as they are (with HTML
// escaping off): everything printable but '"' and '\\'.
var safe = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// AppendString appends s as a JSON string exactly as encoding/json writes it
// with HTML escaping off: invalid UTF-8 becomes \ufffd, U+2028 and U+2029
// are escaped, control bytes use \b \f \n \r \t or \u00XX.
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if safe[c] {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '\\', '"':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			if r == utf8.RuneError {
				dst = append(dst, `\ufffd`...)
			} else {
				dst = append(dst, '\\', 'u', '2', '0', '2', hex[r&0xF])
			}
			start = i + size
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// Member names that are not valid UTF-8 (docs/acts.md, "Exact bytes in
// JSON"). A JSON string cannot carry such a name: it is written with U+FFFD
// for each byte that is not UTF-8, as AppendString writes any string. Two
// names of one object can then read the same; so that no member hides
// another, a name that is not valid UTF-8 and whose written form another
// member of the object has already (any valid name of the object, or an
// earlier such name) is written with "#k" appended, k ≥ 2 the smallest
// number that makes it unique. The ast package gives the exact bytes of
// each such name beside the object.

// Suffix returns the k of name i of ks, a NameSuffixes result (nil: 0).
func Suffix(ks []int, i int) int {
	if ks == nil {
		return 0
	}
	return ks[i]
}

// NameSuffixes returns, for the member names of one object in the order
// they are written, the k each name is written with ("#k" appended), 0 for
// a name written as it is; nil when every name is valid UTF-8.
func NameSuffixes(names []string) []int {
	if !slices.ContainsFunc(names, func(n string) bool { return !utf8.ValidString(n) }) {
		return nil
	}
	used := make(map[string]bool, len(names))
	for _, n := range names {
		if utf8.ValidString(n) {
			used[n] = true
		}
	}
	ks := make([]int, len(names))
	for i, n := range names {
		if utf8.ValidString(n) {
			continue
		}
		w := Lossy(n)
		if used[w] {
			for k := 2; ; k++ {
				if c := w + "#" + strconv.Itoa(k); !used[c] {
					w, ks[i] = c, k
					break
				}
			}
		}
		used[w] = true
	}
	return ks
}

// Lossy returns s as a JSON reader reads it back from AppendString: each
// byte that is not part of valid UTF-8 replaced by U+FFFD (as a conversion
// to []rune does).
func Lossy(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return string([]rune(s))
}

// WrittenName returns the member name a JSON reader reads for the name
// written with suffix number k (see NameSuffixes).
func WrittenName(name string, k int) string {
	if k == 0 {
		return Lossy(name)
	}
	return Lossy(name) + "#" + strconv.Itoa(k)
}

// KeyN writes an object member's name as Key does, with "#k" appended when
// k is not 0 (see NameSuffixes).
func (w *W) KeyN(name string, k int) {
	w.elem()
	w.B = AppendString(w.B, name)
	if k != 0 {
		w.B = append(w.B[:len(w.B)-1], '#')
		w.B = strconv.AppendInt(w.B, int64(k), 10)
		w.B = append(w.B, '"')
	}
	w.B = append(w.B, ':')
	if w.Indent {
		w.B = append(w.B, ' ')
	}
	w.key = true
}

// writeMap writes m as an object with its keys sorted, each value by
// value; names that write alike get their "#k" suffix (NameSuffixes). A
// nil map is null.
func writeMap[V any](w *W, m map[string]V, value func(V)) {
	if m == nil {
		w.Null()
		return
	}
	keys := slices.Sorted(maps.Keys(m))
	ks := NameSuffixes(keys)
	w.BeginObject()
	for i, k := range keys {
		w.KeyN(k, Suffix(ks, i))
		value(m[k])
		w.MaybeFlush()
	}
	w.EndObject()
}
