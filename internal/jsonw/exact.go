package jsonw

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// The escape that carries bytes that are not UTF-8 through encoding/json
// (which puts U+FFFD in their place): EscRune doubles itself, and EscRune
// followed by the rune EscByte+b stands for the byte b. Only strings that
// are not valid UTF-8 or that hold EscRune are escaped; UnescapeString
// undoes it on every string that holds EscRune, so the round trip is exact.
const (
	EscRune = '\uF8FF'
	EscByte = 0xF700 // EscByte+b for b in 0..255 is a private-use rune other than EscRune
)

// EscapeString returns s with each byte that is not UTF-8 written as
// EscRune, EscByte+b and each EscRune doubled: valid UTF-8 that
// UnescapeString turns back into s.
func EscapeString(s string) string {
	if utf8.ValidString(s) && !strings.ContainsRune(s, EscRune) {
		return s
	}
	return string(escape([]byte(s), false))
}

// UnescapeString undoes EscapeString.
func UnescapeString(s string) string {
	if !strings.ContainsRune(s, EscRune) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r != EscRune || i+n >= len(s) {
			b.WriteString(s[i : i+n])
			i += n
			continue
		}
		r2, n2 := utf8.DecodeRuneInString(s[i+n:])
		switch {
		case r2 == EscRune:
			b.WriteRune(EscRune)
		case r2 >= EscByte && r2 <= EscByte+0xFF:
			b.WriteByte(byte(r2 - EscByte))
		default:
			b.WriteString(s[i : i+n+n2])
		}
		i += n + n2
	}
	return b.String()
}

// EscapeText returns JSON text whose strings are escaped as EscapeString
// escapes them: each byte that is not UTF-8 as EscRune, EscByte+b, each
// EscRune (written as it is or as the escape \uf8ff) as two. It returns
// data itself when it is valid UTF-8 and holds no EscRune.
func EscapeText(data []byte) []byte {
	if utf8.Valid(data) && !bytes.ContainsRune(data, EscRune) && !bytes.Contains(bytes.ToLower(data), []byte(`\uf8ff`)) {
		return data
	}
	return escape(data, true)
}

// escape is EscapeString over bytes; with text, over JSON text, where it
// escapes the escape \uf8ff as EscRune and leaves the others as they are.
func escape(data []byte, text bool) []byte {
	out := make([]byte, 0, len(data)+16)
	for i := 0; i < len(data); {
		c := data[i]
		if text && c == '\\' && i+1 < len(data) {
			if data[i+1] == 'u' && i+6 <= len(data) && strings.EqualFold(string(data[i+2:i+6]), "f8ff") {
				out = utf8.AppendRune(out, EscRune)
				out = utf8.AppendRune(out, EscRune)
				i += 6
				continue
			}
			out = append(out, c, data[i+1])
			i += 2
			continue
		}
		r, n := utf8.DecodeRune(data[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			out = utf8.AppendRune(out, EscRune)
			out = utf8.AppendRune(out, rune(EscByte+int(c)))
		case r == EscRune:
			out = utf8.AppendRune(out, EscRune)
			out = utf8.AppendRune(out, EscRune)
		default:
			out = append(out, data[i:i+n]...)
		}
		i += n
	}
	return out
}

// DecodeExact decodes one JSON value as json.Decoder with UseNumber does
// (objects as map[string]any, arrays as []any, numbers as json.Number),
// except that strings and member names keep their exact bytes where the
// text is not UTF-8: encoding/json would put U+FFFD in their place.
func DecodeExact(data []byte) (any, error) {
	esc := EscapeText(data)
	var v any
	if !json.Valid(esc) {
		return nil, json.Unmarshal(esc, &v) // its syntax error
	}
	dec := json.NewDecoder(bytes.NewReader(esc))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if len(esc) == len(data) && bytes.Equal(esc, data) {
		return v, nil
	}
	return UnescapeAny(v), nil
}

// UnescapeAny undoes EscapeString on every string and member name of a
// decoded JSON value, in place where it can, and returns it.
func UnescapeAny(v any) any {
	switch x := v.(type) {
	case string:
		return UnescapeString(x)
	case []any:
		for i := range x {
			x[i] = UnescapeAny(x[i])
		}
		return x
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[UnescapeString(k)] = UnescapeAny(e)
		}
		return out
	}
	return v
}

// Unmarshal is json.Unmarshal into v, a *any or a *string, except that
// strings and member names keep their exact bytes where data is not UTF-8
// (json.Unmarshal puts U+FFFD in their place).
func Unmarshal(data []byte, v any) error {
	esc := EscapeText(data)
	if err := json.Unmarshal(esc, v); err != nil {
		return err
	}
	if len(esc) == len(data) && bytes.Equal(esc, data) {
		return nil
	}
	switch p := v.(type) {
	case *any:
		*p = UnescapeAny(*p)
	case *string:
		*p = UnescapeString(*p)
	default:
		return fmt.Errorf("jsonw: Unmarshal into %T", v)
	}
	return nil
}
