package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/plangram/plangram/ast"
	rpt "github.com/plangram/plangram/report"
)

// ANSI SGR sequences of the coloured text output.
const (
	sgrReset   = "\x1b[0m"
	sgrBold    = "\x1b[1m"
	sgrRed     = "\x1b[1;31m"
	sgrYellow  = "\x1b[1;33m"
	sgrCyan    = "\x1b[1;36m"
	sgrDimGrey = "\x1b[2m"
)

// diagLineRE matches a diagnostic or note line of the text format,
// `FILE:LINE:COL: severity: message [code]`; the problem matcher
// (docs/ci/plangram-problem-matcher.json) uses the same shape.
var diagLineRE = regexp.MustCompile(`^(.+?:\d+:\d+: )(error|warning|info|note)(: .*?)( \[[a-z0-9-]+\])?$`)

// colorWriter colours the text format line by line: the position bold, the
// severity in its colour, the code and indented detail dim. It buffers
// nothing across lines but the current one.
type colorWriter struct {
	w   io.Writer
	buf []byte
}

func (c *colorWriter) Write(p []byte) (int, error) {
	c.buf = append(c.buf, p...)
	for {
		i := bytes.IndexByte(c.buf, '\n')
		if i < 0 {
			return len(p), nil
		}
		if _, err := io.WriteString(c.w, colorLine(string(c.buf[:i]))+"\n"); err != nil {
			return 0, err
		}
		c.buf = c.buf[i+1:]
	}
}

// Flush writes a last line without a line ending.
func (c *colorWriter) Flush() error {
	if len(c.buf) == 0 {
		return nil
	}
	_, err := io.WriteString(c.w, colorLine(string(c.buf)))
	c.buf = nil
	return err
}

func colorLine(line string) string {
	if strings.HasPrefix(line, "    ") {
		return sgrDimGrey + line + sgrReset
	}
	m := diagLineRE.FindStringSubmatch(line)
	if m == nil {
		return line
	}
	sev := map[string]string{"error": sgrRed, "warning": sgrYellow, "info": sgrCyan, "note": sgrCyan}[m[2]]
	s := sgrBold + m[1] + sgrReset + sev + m[2] + sgrReset + m[3]
	if m[4] != "" {
		s += sgrDimGrey + m[4] + sgrReset
	}
	return s
}

// printDiags prints diagnostics of one document to standard error (the
// commands whose standard output holds a result: parse, fmt, fix, render),
// each AST-diff detail once per file, coloured when standard error is a
// terminal. It returns the exit code they imply.
func printDiags(e *env, name string, diags []*ast.Diagnostic) int {
	var w io.Writer = e.stderr
	var cw *colorWriter
	if e.errTTY && !e.noColor {
		cw = &colorWriter{w: e.stderr}
		w = cw
	}
	code := exitOK
	for _, d := range rpt.OnceDetail(diags) {
		fmt.Fprintln(w, d.Format(name))
		if d.Severity == ast.Error {
			code = exitError
		}
	}
	if cw != nil {
		cw.Flush()
	}
	return code
}

// summaryLine is the last line of check's text output on a terminal or
// with --summary: "3 errors, 1 warning in 2 files" (the files checked).
func summaryLine(files []*rpt.File) string {
	errs, warns := rpt.Count(files)
	return fmt.Sprintf("%s, %s in %s", plural(errs, "error"), plural(warns, "warning"), plural(len(files), "file"))
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// compactJSON rewrites indented JSON output (one or more values, each ending
// in a line ending) as one line per value.
func compactJSON(w io.Writer, data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	bw := bufio.NewWriter(w)
	for dec.More() {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return err
		}
		var b bytes.Buffer
		if err := json.Compact(&b, raw); err != nil {
			return err
		}
		b.WriteByte('\n')
		if _, err := bw.Write(b.Bytes()); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// progress prints "plangram: N/TOTAL files" on standard error, rewriting one
// line, when standard error is a terminal and there are at least
// progressMin files; otherwise it prints nothing.
type progress struct {
	e     *env
	total int
	on    bool
}

const progressMin = 20

func newProgress(e *env, total int) *progress {
	return &progress{e: e, total: total, on: e.errTTY && total >= progressMin}
}

func (p *progress) step(done int) {
	if p.on {
		fmt.Fprintf(p.e.stderr, "\rplangram: %d/%d files", done, p.total)
	}
}

// end clears the counter line.
func (p *progress) end() {
	if p.on {
		fmt.Fprint(p.e.stderr, "\r\x1b[K")
	}
}
