package lsp

import (
	"context"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// FuzzHandlers opens arbitrary text and asks for hover, completion,
// symbols and a code action at an arbitrary position: no panic.
func FuzzHandlers(f *testing.F) {
	f.Add(planText, uint16(14), uint16(20))
	f.Add("~~~act\nwr\n~~~\n", uint16(1), uint16(2))
	f.Add("### `CR\r", uint16(9), uint16(99))
	f.Add("- **Fi", uint16(0), uint16(6))
	f.Add("#漢\n😀\xff\n", uint16(1), uint16(1))
	f.Fuzz(func(t *testing.T, text string, line, char uint16) {
		ctx := context.Background()
		s := newServer(ctx, protocol.UnimplementedClient{}, Options{NoWorkspace: true, Fix: DefaultFix("auto")})
		u := uri.URI("untitled:f.md")
		s.mu.Lock()
		s.shutdown = true // store documents without starting checks
		s.mu.Unlock()
		if err := s.DidOpen(ctx, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: u, Version: 1, Text: text}}); err != nil {
			t.Fatal(err)
		}
		pos := protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u},
			Position: protocol.Position{Line: uint32(line), Character: uint32(char)}}
		if _, err := s.Hover(ctx, &protocol.HoverParams{TextDocumentPositionParams: pos}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Completion(ctx, &protocol.CompletionParams{TextDocumentPositionParams: pos}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.DocumentSymbol(ctx, &protocol.DocumentSymbolParams{TextDocument: pos.TextDocument}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.CodeAction(ctx, &protocol.CodeActionParams{TextDocument: pos.TextDocument}); err != nil {
			t.Fatal(err)
		}
		r := protocol.Range{Start: pos.Position, End: protocol.Position{Line: uint32(char), Character: uint32(line)}}
		if err := s.DidChange(ctx, &protocol.DidChangeTextDocumentParams{
			TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: pos.TextDocument, Version: 2},
			ContentChanges: []protocol.TextDocumentContentChangeEvent{&protocol.TextDocumentContentChangePartial{Range: r, Text: "x😀"}}}); err != nil {
			t.Fatal(err)
		}
	})
}
