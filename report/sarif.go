package report

import (
	"cmp"
	"io"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/owenrumney/go-sarif/v2/sarif"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/internal/textpos"
)

// ToolName and ToolURI identify plangram in SARIF output.
const (
	ToolName = "plangram"
	ToolURI  = "https://github.com/plangram/plangram"
)

// SrcRoot is the uriBaseId of relative artifact locations: the repository
// root, which GitHub code scanning resolves itself.
const SrcRoot = "%SRCROOT%"

// WriteSARIF writes one SARIF 2.1.0 log with one run: a rule per code that
// occurs (id = code, with its summary, help and default level) and a result
// per diagnostic. Regions count columns in UTF-16 code units (the run's
// columnKind is utf16CodeUnits, the SARIF default, which GitHub code
// scanning assumes) when the file's Source is given; an end at the start of
// a line is moved to the end of the line before it. A diagnostic's detail
// follows its message after a blank line, and its notes are related
// locations.
func WriteSARIF(w io.Writer, files []*File, opts Options) error {
	rep, err := sarif.New(sarif.Version210)
	if err != nil {
		return err
	}
	run := sarif.NewRunWithInformationURI(ToolName, ToolURI)
	if opts.ToolVersion != "" {
		run.Tool.Driver.WithVersion(opts.ToolVersion)
	}
	run.WithColumnKind("utf16CodeUnits")
	index := map[string]int{}
	for i, r := range usedRules(files) {
		index[r.Code] = i
		help := ruleHelp(r)
		rule := run.AddRule(r.Code).
			WithName(ruleName(r.Code)).
			WithShortDescription(sarif.NewMultiformatMessageString(r.Meaning)).
			WithFullDescription(sarif.NewMultiformatMessageString(help)).
			WithHelp(sarif.NewMultiformatMessageString(help).WithMarkdown("**" + r.Meaning + "**\n\n" + help)).
			WithDefaultConfiguration(sarif.NewReportingConfiguration().WithLevel(severityOr(r.Severity, "note")))
		if r.Doc != "" {
			rule.WithHelpURI(DocsBase + r.Doc)
		}
		pb := sarif.NewPropertyBag()
		pb.Add("tags", []string{"plangram", "plan"})
		pb.AddString("precision", "very-high")
		pb.AddString("problem.severity", severityOr(r.Severity, "recommendation"))
		rule.AttachPropertyBag(pb)
	}
	for _, f := range files {
		var tx *textpos.Text
		if f.Source != nil {
			tx = textpos.New(f.Source)
		}
		loc := artifact(f.Path, opts.SourceRoot)
		for _, d := range sorted(f) {
			code := codeOf(d)
			text := cmp.Or(d.Message, code)
			if d.Detail != "" {
				text += "\n\n" + strings.TrimRight(d.Detail, "\n")
			}
			res := run.CreateResultForRule(code).
				WithRuleIndex(index[code]).
				WithLevel(severityOr(d.Severity, "note")).
				WithMessage(sarif.NewTextMessage(text))
			res.AddLocation(sarif.NewLocationWithPhysicalLocation(sarif.NewPhysicalLocation().
				WithArtifactLocation(loc()).
				WithRegion(region(tx, d.Span))))
			for i, rel := range d.Related {
				res.AddRelatedLocation(sarif.NewLocationWithPhysicalLocation(sarif.NewPhysicalLocation().
					WithArtifactLocation(loc()).
					WithRegion(region(tx, rel.Span))).
					WithId(i + 1).
					WithMessage(sarif.NewTextMessage(rel.Message)))
			}
		}
	}
	rep.AddRun(run)
	if err := rep.PrettyWrite(w); err != nil {
		return err
	}
	_, err = io.WriteString(w, "\n")
	return err
}

// ruleName turns a code into the PascalCase name SARIF viewers show.
func ruleName(code string) string {
	var b strings.Builder
	for _, part := range strings.FieldsFunc(code, func(r rune) bool { return r == '-' || r == '_' }) {
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}

// severityOr names an error or a warning as Severity.String does, and any
// other severity other: "note" for a SARIF level, "recommendation" for GitHub
// code scanning's problem.severity of a non-security rule.
func severityOr(s ast.Severity, other string) string {
	if s == ast.Error || s == ast.Warning {
		return s.String()
	}
	return other
}

// artifact returns a constructor of the file's artifact location: a
// relative URI under %SRCROOT% (relative to root when the path is below
// it), or a file: URI for an absolute path outside root.
func artifact(path, root string) func() *sarif.ArtifactLocation {
	p := path
	if root != "" {
		if abs, err := filepath.Abs(p); err == nil {
			if ra, err := filepath.Abs(root); err == nil {
				if rel, err := filepath.Rel(ra, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
					p = rel
				}
			}
		}
	}
	slash := filepath.ToSlash(p)
	if filepath.IsAbs(p) {
		u := (&url.URL{Scheme: "file", Path: slash}).String()
		return func() *sarif.ArtifactLocation { return sarif.NewSimpleArtifactLocation(u) }
	}
	u := (&url.URL{Path: strings.TrimPrefix(slash, "./")}).String()
	return func() *sarif.ArtifactLocation {
		return sarif.NewSimpleArtifactLocation(u).WithUriBaseId(SrcRoot)
	}
}

// region converts a span to a SARIF region: 1-based lines, 1-based columns
// in UTF-16 code units (bytes when the source is unknown), end exclusive.
func region(tx *textpos.Text, sp ast.Span) *sarif.Region {
	start, end := sp.Start, sp.End
	if start.Line < 1 {
		start = ast.Pos{Line: 1, Col: 1}
	}
	if end.Line < start.Line || (end.Line == start.Line && end.Offset < start.Offset) {
		end = start
	}
	col := func(p ast.Pos) int { return max(1, p.Col) }
	if tx != nil {
		col = tx.Column16
	}
	endLine, endCol := end.Line, col(end)
	if end.Line > start.Line && end.Col == 1 && tx != nil {
		// An end at the start of a line: end the region at the end of the
		// line before, without its line ending.
		endLine = end.Line - 1
		endCol = tx.Column16(ast.Pos{Offset: tx.LineEnd(endLine)})
	}
	return sarif.NewRegion().WithStartLine(start.Line).WithStartColumn(col(start)).WithEndLine(endLine).WithEndColumn(endCol)
}
