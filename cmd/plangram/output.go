package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"sync"

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
var diagLineRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(.+?:\d+:\d+: )(error|warning|info|note)(: .*?)( \[[a-z0-9-]+\])?$`)
})

// colorWriter colours the text format line by line: the position bold, the
// severity in its colour, the code and indented detail dim. It buffers
// nothing across lines but the current one; plain, it writes through
// uncoloured.
type colorWriter struct {
	w     io.Writer
	plain bool
	buf   []byte
}

func (c *colorWriter) Write(p []byte) (int, error) {
	if c.plain {
		return c.w.Write(p)
	}
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
	m := diagLineRE().FindStringSubmatch(line)
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
// each AST-diff detail once per file and cut to the rows that differ
// unless -v (report.ShortDetail), coloured when standard error is a
// terminal (--color). With -q it prints the errors only. It returns the
// exit code they imply.
func printDiags(e *env, name string, diags []*ast.Diagnostic) int {
	w := &colorWriter{w: e.stderr, plain: !e.colored(e.errTTY)}
	code := exitOK
	if slices.ContainsFunc(diags, func(d *ast.Diagnostic) bool { return d.Severity == ast.Error }) {
		code = exitError
	}
	if e.quiet {
		diags = onlyErrors(diags, false)
	}
	for _, d := range rpt.OnceDetail(diags) {
		if !e.verbose {
			d = rpt.ShortDiagnostic(d)
		}
		fmt.Fprintln(w, d.Format(name))
	}
	w.Flush()
	return code
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
// line, for runs over progressMin files or more when standard error is a
// terminal and the command does not write to that terminal's standard
// output while it runs (parse, fmt and fix without -w print each result as
// they go, so on a terminal they show no counter); otherwise it prints
// nothing. Whatever else the command writes to standard error goes through
// the progress (its Write), which clears the counter line first, so a
// diagnostic never lands after the counter's text; end clears it for good.
type progress struct {
	mu    sync.Mutex
	w     io.Writer // the real standard error
	total int
	on    bool
	shown bool // the counter line is on the screen
}

const progressMin = 20

// newProgress returns the progress of a run over total inputs and the env
// the command should use from then on: its standard error clears the
// counter before writing. streamsStdout tells whether the command writes
// results to standard output during the run.
func newProgress(e *env, total int, streamsStdout bool) (*progress, *env) {
	p := &progress{w: e.stderr, total: total, on: e.errTTY && total >= progressMin && !(streamsStdout && e.outTTY)}
	if !p.on {
		return p, e
	}
	pe := *e
	pe.stderr = p
	return p, &pe
}

func (p *progress) step(done int) {
	if !p.on {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.w, "\rplangram: %d/%d files", done, p.total)
	p.shown = true
}

// Write clears the counter line, then writes b to standard error; the next
// step draws the counter again.
func (p *progress) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clear()
	return p.w.Write(b)
}

func (p *progress) clear() {
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.shown = false
	}
}

// end clears the counter line; call it before writing the command's result
// to standard output, and again (it is idempotent) when the command ends.
func (p *progress) end() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clear()
}

// onlyErrors returns the diagnostics -q prints: the errors, and with
// strict (check --strict) the warnings too, since they fail the run.
func onlyErrors(diags []*ast.Diagnostic, strict bool) []*ast.Diagnostic {
	return slices.DeleteFunc(slices.Clone(diags), func(d *ast.Diagnostic) bool {
		return d.Severity != ast.Error && !(strict && d.Severity == ast.Warning)
	})
}
