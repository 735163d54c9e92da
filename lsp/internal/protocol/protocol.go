// Package protocol holds the Language Server Protocol (3.17) types that
// plangram's language server reads and writes: the subset of the
// specification's structures it uses, with the specification's field names.
// Optional properties the server never sets are left out; a property the
// server leaves unset is omitted from the JSON, as the specification's
// optional properties are.
package protocol

import (
	"encoding/json"

	"go.lsp.dev/uri"
)

// Position is a zero-based line and a character offset in UTF-16 code
// units (the position encoding the server announces).
type Position struct {
	Line      uint32 `json:"line"`
	Character uint32 `json:"character"`
}

// Range is a span between two positions, the end exclusive.
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// Location is a range in a document.
type Location struct {
	URI   uri.URI `json:"uri"`
	Range Range   `json:"range"`
}

// DiagnosticSeverity is a diagnostic's severity.
type DiagnosticSeverity int

// The severities of the specification.
const (
	SeverityError       DiagnosticSeverity = 1
	SeverityWarning     DiagnosticSeverity = 2
	SeverityInformation DiagnosticSeverity = 3
)

// DiagnosticRelatedInformation is a note of a diagnostic at another place.
type DiagnosticRelatedInformation struct {
	Location Location `json:"location"`
	Message  string   `json:"message"`
}

// Diagnostic is one problem the server publishes. Its code is always a
// string (the specification allows an integer too).
type Diagnostic struct {
	Range              Range                          `json:"range"`
	Severity           DiagnosticSeverity             `json:"severity,omitempty"`
	Code               string                         `json:"code,omitempty"`
	Source             string                         `json:"source,omitempty"`
	Message            string                         `json:"message"`
	RelatedInformation []DiagnosticRelatedInformation `json:"relatedInformation,omitempty"`
}

// PublishDiagnosticsParams are the params of textDocument/publishDiagnostics.
type PublishDiagnosticsParams struct {
	URI         uri.URI      `json:"uri"`
	Version     *int32       `json:"version,omitempty"`
	Diagnostics []Diagnostic `json:"diagnostics"`
}

// WorkspaceFolder is a folder of the client's workspace.
type WorkspaceFolder struct {
	URI  uri.URI `json:"uri"`
	Name string  `json:"name"`
}

// InitializeParams are the params of initialize that the server reads.
type InitializeParams struct {
	RootPath         *string           `json:"rootPath,omitempty"`
	RootURI          *uri.URI          `json:"rootUri"`
	WorkspaceFolders []WorkspaceFolder `json:"workspaceFolders,omitempty"`
}

// TextDocumentSyncKind says how the client sends a document's changes.
type TextDocumentSyncKind int

// SyncFull: the whole text with every change (ranged changes are applied
// all the same).
const SyncFull TextDocumentSyncKind = 1

// TextDocumentSyncOptions is the server's text synchronisation.
type TextDocumentSyncOptions struct {
	OpenClose bool                 `json:"openClose"`
	Change    TextDocumentSyncKind `json:"change"`
}

// CompletionOptions is the server's completion capability.
type CompletionOptions struct {
	TriggerCharacters []string `json:"triggerCharacters,omitempty"`
}

// CodeActionKind names a kind of code action.
type CodeActionKind string

// QuickFix is the kind of the server's one code action.
const QuickFix CodeActionKind = "quickfix"

// CodeActionOptions is the server's code action capability.
type CodeActionOptions struct {
	CodeActionKinds []CodeActionKind `json:"codeActionKinds,omitempty"`
}

// ServerCapabilities are the features the server announces.
type ServerCapabilities struct {
	PositionEncoding       string                   `json:"positionEncoding,omitempty"`
	TextDocumentSync       *TextDocumentSyncOptions `json:"textDocumentSync,omitempty"`
	CompletionProvider     *CompletionOptions       `json:"completionProvider,omitempty"`
	HoverProvider          bool                     `json:"hoverProvider,omitempty"`
	DocumentSymbolProvider bool                     `json:"documentSymbolProvider,omitempty"`
	CodeActionProvider     *CodeActionOptions       `json:"codeActionProvider,omitempty"`
}

// ServerInfo names the server.
type ServerInfo struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

// InitializeResult is the answer to initialize.
type InitializeResult struct {
	Capabilities ServerCapabilities `json:"capabilities"`
	ServerInfo   *ServerInfo        `json:"serverInfo,omitempty"`
}

// TextDocumentIdentifier names a document.
type TextDocumentIdentifier struct {
	URI uri.URI `json:"uri"`
}

// VersionedTextDocumentIdentifier names a version of a document.
type VersionedTextDocumentIdentifier struct {
	URI     uri.URI `json:"uri"`
	Version int32   `json:"version"`
}

// TextDocumentItem is a document the client opens.
type TextDocumentItem struct {
	URI        uri.URI `json:"uri"`
	LanguageID string  `json:"languageId"`
	Version    int32   `json:"version"`
	Text       string  `json:"text"`
}

// DidOpenTextDocumentParams are the params of textDocument/didOpen.
type DidOpenTextDocumentParams struct {
	TextDocument TextDocumentItem `json:"textDocument"`
}

// TextDocumentContentChangeEvent is one change of a document: the whole
// text when Range is nil, else the text that replaces the range.
type TextDocumentContentChangeEvent struct {
	Range *Range `json:"range,omitempty"`
	Text  string `json:"text"`
}

// DidChangeTextDocumentParams are the params of textDocument/didChange.
type DidChangeTextDocumentParams struct {
	TextDocument   VersionedTextDocumentIdentifier  `json:"textDocument"`
	ContentChanges []TextDocumentContentChangeEvent `json:"contentChanges"`
}

// TextDocumentParams name a document: the params of textDocument/didClose
// and textDocument/documentSymbol.
type TextDocumentParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
}

// TextDocumentPositionParams name a position in a document: the params
// of textDocument/hover and textDocument/completion.
type TextDocumentPositionParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
	Position     Position               `json:"position"`
}

// MarkupContent is text for the client to render.
type MarkupContent struct {
	Kind  string `json:"kind"`
	Value string `json:"value"`
}

// Markdown is the markup kind of the server's documentation.
const Markdown = "markdown"

// Hover is the answer to textDocument/hover.
type Hover struct {
	Contents MarkupContent `json:"contents"`
	Range    *Range        `json:"range,omitempty"`
}

// SymbolKind is the kind of a document symbol.
type SymbolKind int

// The symbol kinds of the outline.
const (
	SymbolKindFile      SymbolKind = 1
	SymbolKindNamespace SymbolKind = 3
	SymbolKindFunction  SymbolKind = 12
)

// DocumentSymbol is one entry of a document's outline.
type DocumentSymbol struct {
	Name           string           `json:"name"`
	Detail         string           `json:"detail,omitempty"`
	Kind           SymbolKind       `json:"kind"`
	Range          Range            `json:"range"`
	SelectionRange Range            `json:"selectionRange"`
	Children       []DocumentSymbol `json:"children,omitempty"`
}

// TextEdit replaces a range of a document.
type TextEdit struct {
	Range   Range  `json:"range"`
	NewText string `json:"newText"`
}

// CompletionItemKind is the kind of a completion item.
type CompletionItemKind int

// The completion item kinds the server offers.
const (
	CompletionItemKindFunction CompletionItemKind = 3
	CompletionItemKindProperty CompletionItemKind = 10
)

// CompletionItem is one completion.
type CompletionItem struct {
	Label         string             `json:"label"`
	Kind          CompletionItemKind `json:"kind,omitempty"`
	Detail        string             `json:"detail,omitempty"`
	Documentation *MarkupContent     `json:"documentation,omitempty"`
	FilterText    string             `json:"filterText,omitempty"`
	TextEdit      *TextEdit          `json:"textEdit,omitempty"`
}

// CompletionList is the answer to textDocument/completion.
type CompletionList struct {
	IsIncomplete bool             `json:"isIncomplete"`
	Items        []CompletionItem `json:"items"`
}

// CodeActionContext carries the diagnostics the client shows at the
// range, each as the client sent it.
type CodeActionContext struct {
	Diagnostics []json.RawMessage `json:"diagnostics"`
}

// CodeActionParams are the params of textDocument/codeAction.
type CodeActionParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
	Range        Range                  `json:"range"`
	Context      CodeActionContext      `json:"context"`
}

// WorkspaceEdit is a set of edits per document.
type WorkspaceEdit struct {
	Changes map[uri.URI][]TextEdit `json:"changes,omitempty"`
}

// CodeAction is one code action. Its diagnostics are the client's, as it
// sent them.
type CodeAction struct {
	Title       string         `json:"title"`
	Kind        CodeActionKind `json:"kind,omitempty"`
	Diagnostics []any          `json:"diagnostics,omitempty"`
	IsPreferred bool           `json:"isPreferred,omitempty"`
	Edit        *WorkspaceEdit `json:"edit,omitempty"`
}

// CancelParams are the params of $/cancelRequest: the id of the request,
// an integer or a string.
type CancelParams struct {
	ID json.RawMessage `json:"id"`
}
