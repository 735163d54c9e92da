package stream

import (
	"bytes"
	"errors"
	"strconv"

	"github.com/plangram/plangram/stream/jsonargs"
)

// jnode is a JSON value of an SSE event's data, read whole (an event is
// complete when it is dispatched) with the offsets of its bytes in the
// data, so that the events it carries are positioned in the stream. It
// reads the API envelope only: a call's arguments are read by the shared
// incremental parser (stream/jsonargs), fragment by fragment.
type jnode struct {
	kind       byte     // '{' '[' '"' 'n' (number) 't' 'f' '0' (null)
	start, end int      // data offsets
	keys       [][]byte // object member names: slices of the data, decoded when escaped
	vals       []*jnode // object members' values, array elements
	esc        bool     // a string with escapes
}

func (n *jnode) get(key string) *jnode {
	if n == nil || n.kind != '{' {
		return nil
	}
	for i, k := range n.keys {
		if string(k) == key {
			return n.vals[i]
		}
	}
	return nil
}

// str returns a string node's decoded value.
func (n *jnode) str(data []byte) (string, bool) {
	if n == nil || n.kind != '"' {
		return "", false
	}
	if !n.esc {
		return string(data[n.start+1 : n.end-1]), true
	}
	var b []byte
	jsonargs.DecodeString(data[n.start+1:n.end-1], func(dec []byte, _, _ int) { b = append(b, dec...) })
	return string(b), true
}

// int returns a number node's integer value, or -1.
func (n *jnode) int(data []byte) int {
	if n == nil || n.kind != 'n' {
		return -1
	}
	v, err := strconv.Atoi(string(data[n.start:n.end]))
	if err != nil || v < 0 {
		return -1
	}
	return v
}

// parse reads data as one JSON value with white space around it; on
// failure it returns nil, the offset of the offending byte and a message.
func (r *jreader) parse(data []byte) (*jnode, int, string) {
	*r = jreader{b: data}
	r.space()
	n := r.value(0)
	if r.err == "" {
		r.space()
		if r.i < len(data) {
			r.fail("text after the JSON value")
		}
	}
	if r.err != "" {
		return nil, r.i, r.err
	}
	return n, 0, ""
}

type jreader struct {
	b   []byte
	i   int
	err string
}

const maxDepth = 512

func (r *jreader) fail(msg string) *jnode {
	if r.err == "" {
		r.err = msg
	}
	return nil
}

func (r *jreader) space() {
	r.i += skipSpace(r.b[r.i:])
}

func (r *jreader) value(depth int) *jnode {
	if r.i >= len(r.b) {
		return r.fail("unexpected end of data")
	}
	if depth > maxDepth {
		return r.fail("nested too deeply")
	}
	n := &jnode{start: r.i}
	switch c := r.b[r.i]; {
	case c == '{' || c == '[':
		n.kind = c
		r.i++
		r.space()
		closing := byte('}')
		if c == '[' {
			closing = ']'
		}
		if r.i < len(r.b) && r.b[r.i] == closing {
			r.i++
			break
		}
		for {
			if c == '{' {
				r.space()
				if r.i >= len(r.b) || r.b[r.i] != '"' {
					return r.fail("want a member name")
				}
				k := r.value(depth + 1)
				if k == nil {
					return nil
				}
				key := r.b[k.start+1 : k.end-1]
				if k.esc {
					var dec []byte
					jsonargs.DecodeString(key, func(d []byte, _, _ int) { dec = append(dec, d...) })
					key = dec
				}
				n.keys = append(n.keys, key)
				r.space()
				if r.i >= len(r.b) || r.b[r.i] != ':' {
					return r.fail("want ':'")
				}
				r.i++
				r.space()
			}
			v := r.value(depth + 1)
			if v == nil {
				return nil
			}
			n.vals = append(n.vals, v)
			r.space()
			if r.i < len(r.b) && r.b[r.i] == ',' {
				r.i++
				r.space()
				continue
			}
			if r.i < len(r.b) && r.b[r.i] == closing {
				r.i++
				break
			}
			return r.fail("want ',' or '" + string(closing) + "'")
		}
	case c == '"':
		n.kind = '"'
		r.i++
		for {
			if r.i >= len(r.b) {
				return r.fail("unterminated string")
			}
			c := r.b[r.i]
			if c == '"' {
				r.i++
				break
			}
			if c < 0x20 {
				return r.fail("control character in string")
			}
			if c == '\\' {
				n.esc = true
				if r.i+1 >= len(r.b) {
					return r.fail("unterminated string")
				}
				switch r.b[r.i+1] {
				case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
					r.i += 2
				case 'u':
					if r.i+6 > len(r.b) || len(bytes.TrimLeft(r.b[r.i+2:r.i+6], "0123456789abcdefABCDEF")) > 0 {
						return r.fail("bad \\u escape")
					}
					r.i += 6
				default:
					return r.fail("bad escape")
				}
				continue
			}
			r.i++
		}
	case c == '-' || '0' <= c && c <= '9':
		n.kind = 'n'
		j := r.i
		for j < len(r.b) && (r.b[j] == '-' || r.b[j] == '+' || r.b[j] == '.' || r.b[j] == 'e' || r.b[j] == 'E' || '0' <= r.b[j] && r.b[j] <= '9') {
			j++
		}
		if _, err := strconv.ParseFloat(string(r.b[r.i:j]), 64); err != nil && !errors.Is(err, strconv.ErrRange) {
			return r.fail("bad number")
		}
		r.i = j
	default:
		for _, lit := range []string{"true", "false", "null"} {
			if len(r.b)-r.i >= len(lit) && string(r.b[r.i:r.i+len(lit)]) == lit {
				n.kind = lit[0]
				if lit == "null" {
					n.kind = '0'
				}
				r.i += len(lit)
				n.end = r.i
				return n
			}
		}
		return r.fail("want a JSON value")
	}
	n.end = r.i
	return n
}
