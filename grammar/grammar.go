// Package grammar parses each dialect into the shared AST (package ast),
// with Parse dispatching between them: the acts dialect with a participle
// grammar over package lexer's coarse tokens (ActsParser; docs/acts.md,
// "The grammar"), the plan dialect with PlanParser (docs/plan.md), and the
// edit formats with one push parser for whole documents and streams
// (EditStream).
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

// Options configures Parse.
type Options struct {
	// Dialect is "auto" (default) or one of Dialects().
	Dialect string
	// Fence forces the acts dialect's fence character (lexer.Backtick or
	// lexer.Tilde); 0 detects it from the document's first act block.
	Fence byte
	// Schema replaces the dialect's built-in action schema. With Dialect
	// "auto", a schema whose syntax is acts or plan selects that grammar.
	Schema *schema.Schema
	// OnAction, when set, is called with each action in source order once
	// it is complete: bound to the schema, its blocks' ContentBase64 set,
	// its diagnostics already in the document. The returned document then
	// holds no actions and no prose (Actions and Prose are empty; Span,
	// Blocks, Diagnostics and the plan dialect's Title, Metadata,
	// Rationale and Memos are kept). The acts dialect hands each action
	// over as soon as it is read and keeps none, so a consumer that looks
	// at each action once, as `plangram check` does, holds the input, the
	// diagnostics and one action at a time instead of the whole tree.
	// The plan dialect does the same
	// for the actions of its `## Action Plan` section, each handed over
	// once the heading after it is read (what the document-level checks
	// need of them, the AST diff's rows, is kept in compact form); actions
	// elsewhere in a plan (before that section, or the `## Message`) are
	// handed over after it, in source order. The diagnostics are the
	// same as without OnAction. The edit formats (search-replace, udiff,
	// apply-patch) hand each action over once it is complete and keep
	// neither the actions nor the prose either.
	OnAction func(*ast.Action)
	// ReuseActions, with OnAction, says that OnAction keeps neither the
	// action it is handed nor anything the action points to (its blocks,
	// argument slices and params) once it returns: the acts dialect then
	// fills the same memory again for the next action, so that a check
	// makes little garbage per action. Strings and spans copied out of
	// the action stay valid. Actions handed over this way may have empty
	// rather than nil Args, ArgSpans and Blocks.
	ReuseActions bool
	// PathsOnly, with OnAction, says that OnAction reads of an action
	// only its name, spans, head block and path parameters, as `plangram
	// check` without a root does: the udiff and apply-patch parsers then
	// keep neither the blocks of an action's hunks nor its hunks
	// parameter (an add_file's content and a delete_file's old text, one
	// string each, are still set), so that one action holding a large
	// file's whole diff costs nothing a hunk. The diagnostics are the same. The other dialects, whose actions
	// keep one block an argument, ignore it.
	PathsOnly bool
	// OnHunk, with PathsOnly, is handed each hunk of the udiff and
	// apply-patch actions (every hunk of a file diff, each chunk of an
	// apply-patch update) as soon as it is read, in order, before its
	// action goes to OnAction: the action as read so far (its name and
	// path parameters are final, its span grows), the hunk's index in the
	// action (from 0), the hunk, and the block that is its source (its
	// ContentBase64 set), which the parser does not keep. A consumer that
	// takes what it needs of each hunk as it comes (`check --root` places
	// an update_file's hunks, workspace.Checker.Hunk; fmt rewrites their
	// header lines) then holds none of them. A udiff `--- /dev/null` file
	// diff whose hunk has old lines is read as an edit of the file
	// (new-file-with-old-lines): from that hunk on it is an update_file,
	// and its hunks before it, handed over as an add_file's, are read
	// again and handed over again from index 0; a consumer that has seen
	// an index skips it. EditStream reports hunks as events instead.
	OnHunk func(a *ast.Action, i int, h Hunk, blk *ast.Block)
	// OnBlock, with OnAction, is called in the acts dialect with each
	// block that belongs to no action (those before the first act block),
	// in source order, instead of keeping it in the document's Blocks, so
	// that a consumer that looks at each block once holds none of them: a
	// document of many small stray blocks would otherwise keep a node
	// and its spans per block. With ReuseActions, OnBlock keeps
	// neither the block nor what it points to once it returns (its memory
	// is filled again for the next block). The other dialects keep their
	// blocks in Blocks.
	OnBlock func(*ast.Block)
	// Uncapped makes every dialect report every diagnostic
	// one by one, with no MaxPerCode cap and no summing up: for a caller
	// that acts on each diagnostic (fmt keeps every node a diagnostic
	// points at; fix repairs each wrong-level heading). Output is then not
	// bounded by the cap.
	Uncapped bool
	// KeepProse, with OnAction, keeps the document's prose nodes (they are
	// dropped otherwise), for a caller that streams the actions out and
	// writes the rest of the document after them (`plangram parse`: the
	// document's JSON lists the actions first).
	KeepProse bool
	// Silenced, when set, says which diagnostics are silenced, by code and
	// line (the directive comments and --disable codes of lint.Suppress):
	// the parsers drop them before they count them against the cap, so
	// the diagnostics listed and the count that sums up the rest are of
	// those that will be shown. Without it, a silenced range could hide
	// the first 100 of a code and the summing-up diagnostic with them,
	// and the rest would be lost. Suppress still runs afterwards.
	Silenced func(code string, line int) bool
	// ReadTools reads a document of DialectTools: stream.ReadDocument,
	// the stream parser over the whole input as one chunk. Package
	// stream imports this one, so Parse cannot call it directly; a
	// caller that offers the tools dialect sets it, and Parse with
	// Dialect "tools" and no ReadTools is an error. Parse then does with
	// the document what it does with every dialect's (the input checks,
	// exact bytes, OnAction).
	ReadTools func(ctx context.Context, filename string, src []byte, opts Options) (*ast.Document, error)
}

// Parse parses src (named filename in positions) into a Document. It never
// fails on bad input: problems are diagnostics in the document. The error is
// for cancellation and for unusable options (such as an unknown dialect).
func Parse(ctx context.Context, filename string, src []byte, opts Options) (*ast.Document, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	dialect := DialectOf(src, opts)
	extra := checkInput(src)
	each := opts.OnAction
	if each != nil && (len(extra) > 0 || dialect != DialectActs) {
		// The input is not valid UTF-8 everywhere (or, in a dialect
		// other than acts, a block's content may not be): each action's
		// blocks get their exact bytes before they are handed over, as
		// setBase64 below gives them to a whole document.
		each = func(a *ast.Action) {
			setActionBase64(a)
			opts.OnAction(a)
		}
	}
	if onHunk := opts.OnHunk; onHunk != nil {
		opts.OnHunk = func(a *ast.Action, i int, h Hunk, b *ast.Block) { // the exact bytes, as each action's blocks get them
			b.SetContentBase64()
			onHunk(a, i, h, b)
		}
	}
	if opts.OnBlock != nil && len(extra) > 0 && dialect == DialectActs {
		onBlock := opts.OnBlock
		opts.OnBlock = func(b *ast.Block) { // the exact bytes, as setBase64 gives them
			b.SetContentBase64()
			onBlock(b)
		}
	}
	doc, err := parseDialect(ctx, dialect, filename, src, opts, each)
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
	if opts.OnAction != nil {
		for _, a := range doc.Actions { // the dialects that build the whole document
			opts.OnAction(a)
		}
		doc.Actions = nil
		if !opts.KeepProse {
			doc.Prose = nil
		}
	}
	return doc, nil
}

// DialectOf returns the dialect Parse reads src in with opts: opts.Dialect,
// or with "auto" (or "") the one Detect finds, unless opts.Schema's syntax
// names the acts or plan grammar. A reader that is handed the actions one
// at a time (Options.OnAction) learns it before the first one.
func DialectOf(src []byte, opts Options) string {
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

// parseDialect runs one dialect's parser. The acts parser hands its
// actions to each as it reads them when each is not nil (Options.OnAction).
func parseDialect(ctx context.Context, dialect, filename string, src []byte, opts Options, each func(*ast.Action)) (*ast.Document, error) {
	switch dialect {
	case DialectActs:
		s := opts.Schema
		if s == nil {
			var err error
			if s, err = schema.Builtin(DialectActs); err != nil {
				return nil, err
			}
		}
		p, err := NewActsParser(opts.Fence, s)
		if err != nil {
			return nil, err
		}
		if opts.Uncapped {
			p.Cap = &Cap{NoLimit: true, Silenced: opts.Silenced}
		}
		p.Silenced = opts.Silenced
		return p.parseHanding(ctx, filename, src, each, opts.OnBlock, opts.KeepProse)
	case DialectPlan:
		p, err := NewPlanParser(opts.Schema)
		if err != nil {
			return nil, err
		}
		p.Uncapped, p.Silenced = opts.Uncapped, opts.Silenced
		return p.parseEach(ctx, filename, src, each, opts.KeepProse)
	case DialectSearchReplace, DialectUdiff, DialectApplyPatch:
		return parseEdit(ctx, dialect, src, opts, each)
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
		case strings.HasPrefix(t, "diff --git "):
			return DialectUdiff
		case strings.HasPrefix(t, "--- ") && strings.HasPrefix(text[end:], "+++ "):
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
