// Package report writes diagnostics of checked files in the formats of
// `plangram check`: text (`FILE:LINE:COL: severity: message [code]`, the
// shape editors' problem matchers read), json (the diagnostics with their
// spans, per file), sarif (SARIF 2.1.0 for GitHub code scanning and other
// viewers) and llm (the correction message an agent sends back to the model).
//
// Every writer takes the files in the order they should be printed (callers
// sort them by path) and prints each file's diagnostics sorted by position.
package report

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/internal/number"
)

// File is one checked input.
type File struct {
	// Path is the name printed for the file ("<stdin>" for standard input).
	Path string
	// Source is the file's content. SARIF needs it to count columns in
	// UTF-16 code units and the llm format quotes it; nil disables both.
	Source []byte
	// Diagnostics are the parser's and the workspace rules' findings.
	Diagnostics []*ast.Diagnostic
}

// Format names accepted by Write.
const (
	Text  = "text"
	JSON  = "json"
	SARIF = "sarif"
	LLM   = "llm"
)

// Formats returns the format names Write accepts.
func Formats() []string { return []string{Text, JSON, SARIF, LLM} }

// Options configures the writers.
type Options struct {
	// ToolVersion is written as the SARIF driver's version when set.
	ToolVersion string
	// FullDetail prints each AST diff of the text format whole; without
	// it the text format shows the rows around the nodes that differ
	// (ShortDetail). The other formats always carry the whole detail.
	FullDetail bool
	// SourceRoot, when set, is the directory SARIF artifact URIs are made
	// relative to (under the uriBaseId %SRCROOT%). Paths are used as given
	// (slash-separated) when empty or when a path is not below it.
	SourceRoot string
}

// Write writes the files' diagnostics in the named format.
func Write(w io.Writer, format string, files []*File, opts Options) error {
	switch format {
	case Text:
		return writeText(w, files, opts.FullDetail)
	case JSON:
		return WriteJSON(w, files)
	case SARIF:
		return WriteSARIF(w, files, opts)
	case LLM:
		return WriteLLM(w, files)
	}
	return fmt.Errorf("unknown report format %q (want %s)", format, strings.Join(Formats(), ", "))
}

// Count returns the number of error and warning diagnostics of the files.
func Count(files []*File) (errors, warnings int) {
	for _, f := range files {
		for _, d := range f.Diagnostics {
			switch d.Severity {
			case ast.Error:
				errors++
			case ast.Warning:
				warnings++
			}
		}
	}
	return errors, warnings
}

// sorted returns the file's diagnostics ordered by position (a copy).
func sorted(f *File) []*ast.Diagnostic {
	ds := append([]*ast.Diagnostic{}, f.Diagnostics...)
	ast.SortDiagnostics(ds)
	return ds
}

// writeText writes `FILE:LINE:COL: severity: message [code]` lines, each
// followed by its notes and indented detail (an AST diff, a text diff), file
// by file; without full, each AST diff is cut to the rows around the nodes
// that differ (ShortDetail).
func writeText(w io.Writer, files []*File, full bool) error {
	for _, f := range files {
		for _, d := range OnceDetail(sorted(f)) {
			if !full {
				d = ShortDiagnostic(d)
			}
			if _, err := fmt.Fprintln(w, d.Format(f.Path)); err != nil {
				return err
			}
		}
	}
	return nil
}

// OnceDetail returns the diagnostics (in order) with each detail text kept
// only where it first occurs: several structural errors of one plan share one AST
// diff, which is printed once; later ones point back to it.
func OnceDetail(ds []*ast.Diagnostic) []*ast.Diagnostic {
	seen := map[string]bool{}
	out := make([]*ast.Diagnostic, len(ds))
	for i, d := range ds {
		out[i] = d
		if d.Detail == "" {
			continue
		}
		if seen[d.Detail] {
			c := *d
			c.Detail = "(the AST view above shows this node too)"
			out[i] = &c
		}
		seen[d.Detail] = true
	}
	return out
}

// jsonReport is the shape of the json format (docs/check.md).
type jsonReport struct {
	Files    []jsonFile `json:"files"`
	Errors   int        `json:"errors"`
	Warnings int        `json:"warnings"`
}

type jsonFile struct {
	Path        string            `json:"path"`
	Errors      int               `json:"errors"`
	Warnings    int               `json:"warnings"`
	Diagnostics []*ast.Diagnostic `json:"diagnostics"`
}

// WriteJSON writes one JSON object: every file with its diagnostics (as in
// `plangram parse` output, spans in bytes) and the totals.
func WriteJSON(w io.Writer, files []*File) error {
	r := jsonReport{Files: make([]jsonFile, 0, len(files))}
	for _, f := range files {
		jf := jsonFile{Path: f.Path, Diagnostics: sorted(f)}
		jf.Errors, jf.Warnings = Count([]*File{f})
		r.Errors += jf.Errors
		r.Warnings += jf.Warnings
		r.Files = append(r.Files, jf)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// BoundDetail returns detail cut to at most maxLines lines, the last one
// saying how many were left out ("… 1,234 more lines"): for places where a
// detail (an AST diff, a text diff of a large file) must stay small, such as
// an editor's hover.
func BoundDetail(detail string, maxLines int) string {
	detail = strings.TrimRight(detail, "\n")
	lines := strings.SplitAfterN(detail, "\n", max(maxLines, 0)+1)
	if len(lines) <= maxLines {
		return detail
	}
	rest := lines[len(lines)-1]
	return detail[:len(detail)-len(rest)] + "… " + number.Thousands(strings.Count(rest, "\n")+1) + " more lines"
}

// ShortContext is the number of rows ShortDetail keeps on each side of a
// row that differs.
const ShortContext = 2

// ShortDiagnostic returns d with its detail cut by ShortDetail (a copy
// when that changes it).
func ShortDiagnostic(d *ast.Diagnostic) *ast.Diagnostic {
	if s := ShortDetail(d.Detail); s != d.Detail {
		c := *d
		c.Detail = s
		return &c
	}
	return d
}

// ShortDetail returns an AST diff (a plan's detail: the expected shape, an
// "Actual:" line and one row a node, `[✓] [003] L8 …`) cut to what
// differs: the rows marked ✗ or ! with ShortContext rows on each side, the
// others counted on one line (`… 8 nodes not shown …`), under a line that
// names -v for the whole tree. The expected shape is left out: each row
// that differs says what was expected there. Any other detail, and an AST
// diff whose rows all show, is returned as it is.
func ShortDetail(detail string) string {
	head, body, ok := strings.Cut(detail, "\nActual:\n")
	if !ok || !strings.HasPrefix(head, "Expected:") {
		return detail
	}
	rows := slices.Collect(strings.Lines(body))
	show := make([]bool, len(rows))
	for i, r := range rows {
		switch {
		case !strings.HasPrefix(r, "["):
			show[i] = true // a line the view wrote about nodes it leaves out
		case strings.HasPrefix(r, "[✗]") || strings.HasPrefix(r, "[!]"):
			for j := max(0, i-ShortContext); j <= min(len(rows)-1, i+ShortContext); j++ {
				show[j] = true
			}
		}
	}
	if !slices.Contains(show, false) {
		return detail
	}
	var sb strings.Builder
	sb.WriteString("Actual, around the nodes that differ (-v prints the whole tree):\n")
	hidden := 0
	for i, r := range rows {
		if !show[i] {
			hidden++
			continue
		}
		if hidden > 0 {
			fmt.Fprintf(&sb, "    … %s %s not shown …\n", number.Thousands(hidden), number.Noun(hidden, "node"))
			hidden = 0
		}
		sb.WriteString(r)
	}
	if hidden > 0 {
		fmt.Fprintf(&sb, "    … %s %s not shown …\n", number.Thousands(hidden), number.Noun(hidden, "node"))
	}
	return sb.String()
}
