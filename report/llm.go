package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/plangram/plangram/internal/number"
)

// WriteLLM writes the correction message an agent framework sends back to
// the model that wrote the plan: a count, then each problem with its line,
// severity, code, message and detail (AST diff, text diff), then the plan as
// the model sent it, in a fence longer than any fence run inside it so the
// quote cannot be broken by its own content. A file without problems says
// so in one line.
func WriteLLM(w io.Writer, files []*File) error {
	var b strings.Builder
	for i, f := range files {
		if i > 0 {
			b.WriteString("\n")
		}
		ds := sorted(f)
		errs, warns := Count([]*File{f})
		if errs+warns == 0 && len(ds) == 0 {
			fmt.Fprintf(&b, "%s: the plan passed every check.\n", f.Path)
			continue
		}
		fmt.Fprintf(&b, "%s: the plan has %s and %s. ", f.Path, number.Plural(errs, "error"), number.Plural(warns, "warning"))
		if errs > 0 {
			b.WriteString("Correct every error, and each warning that is a mistake, then send the whole corrected plan again in the same format.\n")
		} else {
			b.WriteString("Check each warning; if one is a mistake, send the whole corrected plan again in the same format.\n")
		}
		for n, d := range OnceDetail(ds) {
			fmt.Fprintf(&b, "\n%d. Line %d, column %d: %s", n+1, d.Span.Start.Line, d.Span.Start.Col, d.Severity)
			if d.Code != "" {
				fmt.Fprintf(&b, " [%s]", d.Code)
			}
			fmt.Fprintf(&b, ": %s\n", d.Message)
			for _, r := range d.Related {
				fmt.Fprintf(&b, "   (line %d: %s)\n", r.Span.Start.Line, r.Message)
			}
			if d.Detail != "" {
				for _, line := range strings.Split(strings.TrimRight(d.Detail, "\n"), "\n") {
					b.WriteString("   " + line + "\n")
				}
			}
		}
		if f.Source != nil {
			fence := quoteFence(f.Source)
			fmt.Fprintf(&b, "\nThe plan as you sent it:\n\n%smarkdown\n%s", fence, f.Source)
			if len(f.Source) > 0 && f.Source[len(f.Source)-1] != '\n' {
				b.WriteString("\n")
			}
			b.WriteString(fence + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// quoteFence returns a fence that no run inside src can close: tildes (or
// backticks, whichever runs shorter in src), one longer than the longest run
// of that character, at least three.
func quoteFence(src []byte) string {
	longest := func(c byte) int {
		best, run := 0, 0
		for _, b := range src {
			if b == c {
				run++
				best = max(best, run)
			} else {
				run = 0
			}
		}
		return best
	}
	t, bt := longest('~'), longest('`')
	c, n := byte('~'), t
	if bt < t {
		c, n = '`', bt
	}
	return strings.Repeat(string(c), max(3, n+1))
}
