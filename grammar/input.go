package grammar

import (
	"bytes"
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/plangram/plangram/ast"
)

// Diagnostic codes of the input check every dialect shares (docs/acts.md,
// "Input encoding").
const (
	// CodeUTF16: the input is UTF-16 (a byte-order mark, or NUL bytes in
	// every other position); plangram reads UTF-8 and rejects it.
	CodeUTF16 = "utf16-input"
	// CodeUTF32: the input is UTF-32 (a byte-order mark, or three NUL
	// bytes in every group of four); rejected like UTF-16.
	CodeUTF32 = "utf32-input"
	// CodeBinary: the input is not UTF-16 and holds a NUL byte, or more
	// than a third of its first 8 KiB are bytes that are not text (see
	// binarySample).
	CodeBinary = "binary-input"
	// CodeCROnly: the first line ending is a lone CR (old Mac line endings).
	CodeCROnly = "cr-line-endings"
	// CodeInvalidUTF8: a byte sequence that is not UTF-8 (reported once, at
	// the first bad byte); every string keeps the exact bytes, which the
	// JSON output gives in *_base64 members (ast's exact.go).
	CodeInvalidUTF8 = "invalid-utf8"
)

// checkInput reports what makes src unreadable as a plan, or not byte-exact
// in JSON, at the exact byte it concerns. It is run by Parse, the one entry
// every command and the language server use, so they all agree. The input
// is never rewritten: positions refer to the original bytes, and the
// dialect still parses it (nothing is lost, the error makes the exit code
// non-zero).
func checkInput(src []byte) []*ast.Diagnostic {
	if len(src) == 0 {
		return nil // the dialect reports an empty document (no-plan)
	}
	var lines *ast.Lines
	span := func(off, n int) ast.Span {
		if lines == nil {
			lines = ast.NewLines(src)
		}
		return lines.Span(off, off+n)
	}
	diag := func(sev ast.Severity, code string, sp ast.Span, msg string) []*ast.Diagnostic {
		return []*ast.Diagnostic{{Severity: sev, Code: code, Span: sp, Message: msg}}
	}
	if order := unitOrder(src, 4, "\xFF\xFE\x00\x00", "\x00\x00\xFE\xFF"); order != "" {
		return diag(ast.Error, CodeUTF32, span(0, 0),
			"the input is UTF-32 ("+order+"); plangram reads UTF-8 only: convert the file (for example `iconv -f UTF-32 -t UTF-8`) and check it again")
	}
	if order := unitOrder(src, 2, "\xFF\xFE", "\xFE\xFF"); order != "" {
		return diag(ast.Error, CodeUTF16, span(0, 0),
			"the input is UTF-16 ("+order+"); plangram reads UTF-8 only: convert the file (for example `iconv -f UTF-16 -t UTF-8`) and check it again")
	}
	if i := bytes.IndexByte(src, 0); i >= 0 {
		return diag(ast.Error, CodeBinary, span(i, 1),
			"the input is binary, not text: NUL byte here; a plan is UTF-8 text")
	}
	if bad, n, first := binarySample(src); first >= 0 {
		return diag(ast.Error, CodeBinary, span(first, 1),
			fmt.Sprintf("the input is binary, not text: %d of its first %d bytes are not UTF-8 text (invalid UTF-8 or control bytes), the first here; a plan is UTF-8 text", bad, n))
	}
	var out []*ast.Diagnostic
	if i := loneCR(src); i >= 0 {
		out = append(out, &ast.Diagnostic{Severity: ast.Error, Code: CodeCROnly, Span: span(i, 1),
			Message: "the first line ends with a carriage return only (CR, old Mac style): plangram splits lines at LF, so these lines would run together; convert the line endings to LF or CRLF and check it again"})
	}
	if !utf8.Valid(src) {
		i := firstInvalid(src)
		out = append(out, &ast.Diagnostic{Severity: ast.Warning, Code: CodeInvalidUTF8, Span: span(i, 1),
			Message: "invalid UTF-8 here (the first bad byte): the AST keeps the exact bytes; the JSON output shows U+FFFD in their place and gives them in base64 beside each such string (content_base64, args_base64, params_base64, …)"})
	}
	return out
}

// binaryWindow is how much of the input binarySample looks at, as git's
// and file(1)'s tests do (git: 8000 bytes).
const binaryWindow = 8 << 10

// binarySample tells binary input without a NUL byte: in the first
// binaryWindow bytes (cut back to a character boundary), the bytes that are
// not text — bytes of invalid UTF-8 sequences, and control bytes other than
// BEL, BS, tab, LF, VT, FF, CR and ESC (file(1)'s text characters) — are
// counted. More than a third of them, and at least 4, make the input binary
// (Perl's -B rule, with valid UTF-8 as text). It returns their count, the
// sample's size and the offset of the first, or first = -1 when the input
// is text. Valid UTF-8 of any script (CJK, emoji) counts as text; a plan
// with a few bad bytes stays text (it gets invalid-utf8).
func binarySample(src []byte) (bad, n, first int) {
	sample := src[:min(len(src), binaryWindow)]
	if len(sample) < len(src) {
		// Do not count a sequence cut by the window as invalid.
		for k := 1; k < utf8.UTFMax && k <= len(sample); k++ {
			if utf8.RuneStart(sample[len(sample)-k]) {
				if !utf8.FullRune(sample[len(sample)-k:]) {
					sample = sample[:len(sample)-k]
				}
				break
			}
		}
	}
	first = -1
	for i, size := 0, 1; i < len(sample); i += size {
		c, notText := sample[i], false
		if size = 1; c < utf8.RuneSelf {
			notText = c < 0x20 && c != 0x07 && c != 0x08 && (c < '\t' || c > '\r') && c != 0x1b || c == 0x7f
		} else {
			var r rune
			r, size = utf8.DecodeRune(sample[i:])
			notText = r == utf8.RuneError && size <= 1
		}
		if notText {
			bad++
			if first < 0 {
				first = i
			}
		}
	}
	if bad < 4 || bad*3 <= len(sample) {
		return bad, len(sample), -1
	}
	return bad, len(sample), first
}

// firstInvalid returns the offset of the first byte that does not start a
// valid UTF-8 sequence.
func firstInvalid(src []byte) int {
	for i := 0; i < len(src); {
		r, n := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(src)
}

// unitOrder recognises an encoding of w-byte code units (UTF-16: 2,
// UTF-32: 4) whose little-endian and big-endian byte-order marks are le
// and be: a mark, or, without one, every unit of the first 64 bytes
// holding a character below U+0100 other than NUL (its low byte first or
// last, the others NUL). It returns a description, or "". UTF-32 is asked
// first: its little-endian mark begins with UTF-16's.
func unitOrder(src []byte, w int, le, be string) string {
	switch {
	case bytes.HasPrefix(src, []byte(le)):
		return "little-endian, with a byte-order mark"
	case bytes.HasPrefix(src, []byte(be)):
		return "big-endian, with a byte-order mark"
	}
	n := min(len(src), 64) / w * w
	if n < w {
		return ""
	}
	isLE, isBE := true, true
	for i := 0; i < n; i += w {
		u := src[i : i+w]
		isLE = isLE && u[0] != 0 && len(bytes.TrimLeft(u[1:], "\x00")) == 0
		isBE = isBE && u[w-1] != 0 && len(bytes.TrimLeft(u[:w-1], "\x00")) == 0
	}
	switch {
	case isLE:
		return "little-endian, without a byte-order mark"
	case isBE:
		return "big-endian, without a byte-order mark"
	}
	return ""
}

// setBase64 gives every block of doc whose content is not valid UTF-8 (an
// action's head included) its exact bytes in ContentBase64.
func setBase64(doc *ast.Document) {
	set := func(bs ...*ast.Block) {
		for _, b := range bs {
			if b != nil {
				b.SetContentBase64()
			}
		}
	}
	set(doc.Blocks...)
	for _, a := range doc.Actions {
		set(a.Blocks...)
		set(a.Head)
	}
}

// loneCR returns the offset of the first CR that is not followed by LF when
// it comes before the first LF (the input's first line ending is a lone
// CR), else -1. A CR at the very end of the input, or inside lines that end
// with LF, is content.
func loneCR(src []byte) int {
	lf := bytes.IndexByte(src, '\n')
	if lf < 0 {
		lf = len(src)
	}
	// Before lf, only the first CR can be followed by neither LF nor the end.
	if i := bytes.IndexByte(src[:lf], '\r'); i >= 0 && i+1 < len(src) && src[i+1] != '\n' {
		return i
	}
	return -1
}

// Rejects reports whether Parse rejects src as unreadable (utf16-input,
// utf32-input, binary-input, cr-line-endings). A rewriter (fmt, fix) checks its output
// with it: shortening a text input can raise its share of bytes that are
// not text past the binary threshold, or bring a lone CR to the first
// line; such an output is not used.
func Rejects(src []byte) bool {
	return slices.ContainsFunc(checkInput(src), func(d *ast.Diagnostic) bool { return d.Severity == ast.Error })
}

// InputRejected reports whether doc's input was rejected as unreadable
// (UTF-16, UTF-32, binary, CR-only line endings): its lines cannot be told apart,
// so a printer must leave such an input as it is.
func InputRejected(doc *ast.Document) bool {
	for _, d := range doc.Diagnostics {
		switch d.Code {
		case CodeUTF16, CodeUTF32, CodeBinary, CodeCROnly:
			return true
		}
	}
	return false
}
