// Package grammar parses each dialect into the shared AST (package ast),
// with Parse dispatching between them: the acts dialect with a participle
// grammar over package lexer's coarse tokens (ActsParser; docs/acts.md,
// "The grammar"), the plan dialect with a participle grammar over the
// lexer's coarse Markdown tokens (PlanParser; docs/plan.md, "The
// grammar"), and the edit formats with one push parser for whole
// documents and streams (EditStream).
package grammar

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/internal/view"
	"github.com/plangram/plangram/lexer"
	"github.com/plangram/plangram/schema"
)

// Dialect names.
const (
	DialectAuto = "auto"
	DialectActs = "acts"
	DialectPlan = "plan"
	// DialectTools is the XML tool-call dialect (docs/stream.md). Its one
	// reader is the stream parser, which imports this package, so Parse
	// reads it through Options.ReadTools; Detect never gives it.
	DialectTools = "tools"
)

// Options configures Parse. Every field is for a documented caller: the
// CLI's flags set Dialect, Fence and Schema; fmt and fix set Uncapped;
// check sets Silenced; the commands that read tool-call replies set
// ReadTools. The zero value reads any dialect but tools with its built-in
// schema.
type Options struct {
	// Dialect is "auto" (default) or one of Dialects() (`--dialect`).
	Dialect string
	// Fence forces the acts dialect's fence character (lexer.Backtick or
	// lexer.Tilde; `--fence`); 0 detects it from the document's first act
	// block.
	Fence byte
	// Schema replaces the dialect's built-in action schema (`--schema`).
	// With Dialect "auto", a schema whose syntax is acts or plan selects
	// that grammar.
	Schema *schema.Schema
	// Uncapped makes every dialect report every diagnostic one by one,
	// with no MaxPerCode cap and no summing up: for a caller that acts on
	// each diagnostic (fmt keeps every node a diagnostic points at; fix
	// repairs each wrong-level heading). Output is then not bounded by
	// the cap.
	Uncapped bool
	// Silenced, when set, says which diagnostics are silenced, by code and
	// line (the directive comments and --disable codes of lint.Suppress):
	// the parsers drop them before they count them against the cap, so
	// the diagnostics listed and the count that sums up the rest are of
	// those that will be shown. Without it, a silenced range could hide
	// the first 100 of a code and the summing-up diagnostic with them,
	// and the rest would be lost. Suppress still runs afterwards.
	Silenced func(code string, line int) bool
	// ReadTools reads a document of DialectTools: stream.ReadDocument,
	// the stream parser over the whole input as one chunk. The tools
	// dialect has one parser, the stream's, and package stream imports
	// this one, so Parse cannot call it directly; a caller that offers
	// the tools dialect sets it, and Parse with Dialect "tools" and no
	// ReadTools is an error. Parse then does with the document what it
	// does with every dialect's (the input checks, exact bytes).
	ReadTools func(ctx context.Context, filename string, src []byte, opts Options) (*ast.Document, error)
}

// Parse parses src (named filename in positions) into a Document. It never
// fails on bad input: problems are diagnostics in the document. The error is
// for cancellation and for unusable options (such as an unknown dialect).
func Parse(ctx context.Context, filename string, src []byte, opts Options) (*ast.Document, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	dialect := dialectOf(src, opts)
	extra := checkInput(src)
	doc, err := parseDialect(ctx, dialect, filename, src, opts)
	if err != nil {
		return nil, err
	}
	if (opts.Dialect == "" || opts.Dialect == DialectAuto) && dialect == DialectActs && len(extra) == 0 {
		// Detected as acts but holding no plan: say so when it looks like
		// an edit no format reads (a hunk without its file header).
		if slices.ContainsFunc(doc.Diagnostics, func(d *ast.Diagnostic) bool { return d.Code == CodeNoPlan }) {
			if d := looksLikeEdit(src); d != nil && (opts.Silenced == nil || !opts.Silenced(d.Code, d.Span.Start.Line)) {
				doc.Diagnostics = append(doc.Diagnostics, d)
				ast.SortDiagnostics(doc.Diagnostics)
			}
		}
	}
	if len(extra) > 0 {
		if extra[0].Severity == ast.Error { // unreadable input: that is the one thing to say, not "no plan"
			// nor each lone CR of a CR-only input (cr-line-endings)
			doc.Diagnostics = slices.DeleteFunc(doc.Diagnostics, func(d *ast.Diagnostic) bool { return d.Code == CodeNoPlan || d.Code == CodeLoneCR })
		}
		doc.Diagnostics = append(doc.Diagnostics, extra...)
		ast.SortDiagnostics(doc.Diagnostics)
	}
	// With no input diagnostic the source is valid UTF-8, and so is every
	// acts block's content: it starts and ends at line boundaries. Other
	// dialects' blocks are checked one by one.
	if len(extra) > 0 || dialect != DialectActs {
		setBase64(doc)
	}
	ast.EscapeDiagnostics(doc.Diagnostics)
	return doc, nil
}

// dialectOf returns the dialect Parse reads src in with opts: opts.Dialect,
// or with "auto" (or "") the one Detect finds, unless opts.Schema's syntax
// names the acts or plan grammar.
func dialectOf(src []byte, opts Options) string {
	dialect := opts.Dialect
	if dialect == "" || dialect == DialectAuto {
		dialect = Detect(src)
		if s := opts.Schema; s != nil && (s.SyntaxName() == DialectActs || s.SyntaxName() == DialectPlan) {
			dialect = s.SyntaxName() // the schema names the grammar of its dialect
		}
	}
	return dialect
}

// FileDialect returns the dialect a file named name is read in when
// dialect is asked for: under "auto" (or ""), a `.diff` or `.patch` file
// (any letter case) is a unified diff, whatever its text; otherwise
// dialect.
func FileDialect(name, dialect string) string {
	if dialect != "" && dialect != DialectAuto {
		return dialect
	}
	if ext := strings.ToLower(filepath.Ext(name)); ext == ".diff" || ext == ".patch" {
		return DialectUdiff
	}
	return dialect
}

// parseDialect runs one dialect's parser.
func parseDialect(ctx context.Context, dialect, filename string, src []byte, opts Options) (*ast.Document, error) {
	switch dialect {
	case DialectActs:
		p, err := NewActsParser(opts.Fence, opts.Schema)
		if err != nil {
			return nil, err
		}
		if opts.Uncapped {
			p.Cap = &Cap{NoLimit: true, Silenced: opts.Silenced}
		}
		p.Silenced = opts.Silenced
		return p.Parse(ctx, filename, src)
	case DialectPlan:
		p, err := NewPlanParser(opts.Schema)
		if err != nil {
			return nil, err
		}
		p.Uncapped, p.Silenced = opts.Uncapped, opts.Silenced
		return p.Parse(ctx, filename, src)
	case DialectSearchReplace, DialectUdiff, DialectApplyPatch:
		return parseEdit(ctx, dialect, src, opts)
	case DialectTools:
		if opts.ReadTools == nil {
			return nil, fmt.Errorf("dialect %s: Options.ReadTools is not set (stream.ReadDocument reads it)", DialectTools)
		}
		return opts.ReadTools(ctx, filename, src, opts)
	}
	return nil, fmt.Errorf("unknown dialect %q (want auto, %s)", opts.Dialect, strings.Join(Dialects(), ", "))
}

// Dialects returns the names of the dialects Parse reads, in the order
// help texts list them.
func Dialects() []string {
	return []string{DialectActs, DialectPlan, DialectSearchReplace, DialectUdiff, DialectApplyPatch}
}

// Detect guesses the dialect of src: "plan" for a structured Markdown plan,
// else "acts" (docs/plan.md, "Detection"). A document is a plan when, outside
// fenced blocks (read with the plan dialect's CommonMark closing rule), it
// has a level-1 heading (`# Title`, or `#Title`), a `## Action Plan` or
// `## Message` heading, and no block whose info string is `act`: a
// fenced-acts script with such headings in its prose stays acts, and a plan
// showing an act block inside one of its blocks stays a plan.
//
// A document that is not a plan and has no act block is an edit-format
// document when it holds one (DetectEditFormat); else it is acts.
//
// The document's own structure comes first: one whose first non-blank line
// is `diff --git …`, a `--- …` line followed by a `+++ …` line, or
// `*** Begin Patch` is that edit format whatever follows (LeadingEditFormat).
// Elsewhere, the lines of a diff's hunks (after a `+++ ` line and an `@@`
// line) and of an apply-patch envelope are content, never markup: a diff
// that shows a Markdown file's ```act fence in its context lines is not an
// acts document.
func Detect(src []byte) string {
	if d := LeadingEditFormat(src); d != "" {
		return d
	}
	text := view.String(src) // read only: no copy of the input
	title, section := false, false
	prev := "" // the last line of what was read before off
	for off := 0; off < len(text); {
		if end := editRegionEnd(text, off, prev); end > off {
			prev, off = "", end
			continue
		}
		typ, end := lexer.ScanMarkdown(text, off)
		line := text[off:end]
		prev = lastLine(line)
		switch typ {
		case lexer.MdFence:
			if f, ok := lexer.ParseMdFence(strings.TrimPrefix(line[:lineContentEnd(line, 0)], "\uFEFF")); ok && lexer.IsAct(f.Info) {
				return DialectActs
			}
		case lexer.MdH1:
			title = true
		case lexer.MdTight:
			title = title || headingMarks(line) == "#"
		case lexer.MdH2:
			k := sectionKind(strings.Trim(strings.TrimLeft(line, " \t#"), " \t\r\n#"))
			section = section || k == secPlan || k == secMessage
		}
		off = end
	}
	if title && section {
		return DialectPlan
	}
	if d := DetectEditFormat(src); d != "" {
		return d
	}
	return DialectActs
}

// LeadingEditFormat returns the edit format src starts with, or "": its
// first non-blank line (after a byte order mark) is `diff --git ` or a
// `--- ` line directly followed by a `+++ ` line (udiff), or
// `*** Begin Patch` (apply-patch, surrounding white space allowed).
func LeadingEditFormat(src []byte) string {
	text := view.String(src)
	text = strings.TrimPrefix(text, "\uFEFF")
	for off := 0; off < len(text); {
		end := lineEndAt(text, off)
		t := strings.TrimRight(text[off:end], "\r\n")
		if strings.TrimSpace(t) == "" {
			off = end
			continue
		}
		switch {
		case strings.TrimSpace(t) == apBegin:
			return DialectApplyPatch
		case strings.HasPrefix(t, "diff --git "), strings.HasPrefix(t, "--- ") && strings.HasPrefix(text[end:], "+++ "):
			return DialectUdiff
		}
		return ""
	}
	return ""
}

// editRegionEnd returns the end of the edit-format content that starts at
// off, or off when none does: an `@@` hunk header right after a `+++ ` line
// (prev) and the hunk lines after it (blank, or starting with ' ', '+',
// '-', '\\' or another `@@`, as the udiff parser reads a hunk's body), or
// an apply-patch envelope from `*** Begin Patch` to its `*** End Patch`
// line (or the end of the input). Detect reads what it spans as content.
func editRegionEnd(text string, off int, prev string) int {
	end := lineEndAt(text, off)
	t := strings.TrimRight(text[off:end], "\r\n")
	switch {
	case strings.TrimSpace(t) == apBegin:
		for off = end; off < len(text); {
			end = lineEndAt(text, off)
			if strings.TrimSpace(text[off:end]) == apEnd {
				return end
			}
			off = end
		}
		return off
	case strings.HasPrefix(t, "@@") && strings.HasPrefix(prev, "+++ "):
		for off = end; off < len(text); off = end {
			end = lineEndAt(text, off)
			t = strings.TrimRight(text[off:end], "\r\n")
			if t != "" && !strings.ContainsRune(" +-\\@", rune(t[0])) {
				break
			}
			if strings.HasPrefix(t, "@") && !strings.HasPrefix(t, "@@") {
				break
			}
		}
		return off
	}
	return off
}

// lineEndAt returns the end of the line at off, its line ending included.
func lineEndAt(text string, off int) int {
	if i := strings.IndexByte(text[off:], '\n'); i >= 0 {
		return off + i + 1
	}
	return len(text)
}

// lastLine returns the last line of s without its line ending.
func lastLine(s string) string {
	s = strings.TrimRight(s, "\r\n")
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}
