package lsp

import (
	"go.lsp.dev/uri"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/internal/textpos"
	"github.com/plangram/plangram/lsp/internal/protocol"
	"github.com/plangram/plangram/report"
)

// position converts a byte offset to an LSP position (UTF-16 columns).
func position(tx *textpos.Text, offset int) protocol.Position {
	l, c := tx.UTF16(offset)
	return protocol.Position{Line: uint32(l), Character: uint32(c)}
}

// toRange converts a span to an LSP range.
func toRange(tx *textpos.Text, sp ast.Span) protocol.Range {
	start := sp.Start.Offset
	return protocol.Range{Start: position(tx, start), End: position(tx, max(sp.End.Offset, start))}
}

// offset converts an LSP position to a byte offset.
func offset(tx *textpos.Text, p protocol.Position) int {
	return tx.Offset(int(p.Line), int(p.Character))
}

func severity(s ast.Severity) protocol.DiagnosticSeverity {
	switch s {
	case ast.Error:
		return protocol.SeverityError
	case ast.Warning:
		return protocol.SeverityWarning
	}
	return protocol.SeverityInformation
}

// maxDetailLines bounds the detail an LSP diagnostic message carries
// (`plangram check` prints it whole).
const maxDetailLines = 100

// toDiagnostics converts plangram diagnostics to LSP ones: the detail (an
// AST or text diff, at most maxDetailLines lines) follows the message,
// notes become related information.
func toDiagnostics(u uri.URI, tx *textpos.Text, ds []*ast.Diagnostic) []protocol.Diagnostic {
	out := make([]protocol.Diagnostic, 0, len(ds))
	for _, d := range ds {
		msg := d.Message
		if d.Detail != "" {
			msg += "\n" + report.BoundDetail(d.Detail, maxDetailLines)
		}
		pd := protocol.Diagnostic{
			Range:    toRange(tx, d.Span),
			Severity: severity(d.Severity),
			Source:   "plangram",
			Message:  msg,
			Code:     d.Code,
		}
		for _, r := range d.Related {
			pd.RelatedInformation = append(pd.RelatedInformation, protocol.DiagnosticRelatedInformation{
				Location: protocol.Location{URI: u, Range: toRange(tx, r.Span)},
				Message:  r.Message,
			})
		}
		out = append(out, pd)
	}
	return out
}

// filename returns the file system path of a file: URI, else the URI.
func filename(u uri.URI) string {
	if u.IsFile() {
		return u.FsPath()
	}
	return u.String()
}
