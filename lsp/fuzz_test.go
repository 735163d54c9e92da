package lsp

import (
	"context"
	"errors"
	"testing"
	"time"

	"go.lsp.dev/uri"

	"github.com/plangram/plangram/lsp/internal/protocol"
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
		s := newServer(ctx, nil, Options{NoWorkspace: true, Fix: DefaultFix("auto")})
		u := uri.URI("untitled:f.md")
		s.mu.Lock()
		s.shutdown = true // store documents without starting checks
		s.mu.Unlock()
		if err := s.DidOpen(ctx, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: u, Version: 1, Text: text}}); err != nil {
			t.Fatal(err)
		}
		pos := protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u},
			Position: protocol.Position{Line: uint32(line), Character: uint32(char)}}
		if _, err := s.Hover(ctx, &pos); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Completion(ctx, &pos); err != nil {
			t.Fatal(err)
		}
		if _, err := s.DocumentSymbol(ctx, &protocol.TextDocumentParams{TextDocument: pos.TextDocument}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.CodeAction(ctx, &protocol.CodeActionParams{TextDocument: pos.TextDocument}); err != nil {
			t.Fatal(err)
		}
		r := protocol.Range{Start: pos.Position, End: protocol.Position{Line: uint32(char), Character: uint32(line)}}
		if err := s.DidChange(ctx, &protocol.DidChangeTextDocumentParams{
			TextDocument:   protocol.VersionedTextDocumentIdentifier{URI: u, Version: 2},
			ContentChanges: []protocol.TextDocumentContentChangeEvent{{Range: &r, Text: "x😀"}}}); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzMessages sends one arbitrary, well-framed message between initialize
// and shutdown: whatever it is, the session survives it (only exit ends
// it) and still answers shutdown.
func FuzzMessages(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","method":"$/unknownNotification","params":{}}`,
		`{"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":null}`,
		`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":5}}`,
		`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///a.md","version":1,"text":"~~~act\nx\n~~~\n"}}}`,
		`{"jsonrpc":"2.0","id":7,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///a.md"},"position":{"line":1,"character":1}}}`,
		`{"jsonrpc":"2.0","id":"s","method":"foo"}`,
		`{"jsonrpc":"2.0","id":1.5,"method":"initialize"}`,
		`[{"jsonrpc":"2.0","id":8,"method":"shutdown"},1]`,
		`{"jsonrpc":"2.0","id":9,"result":null}`,
		`{"id":`,
		``,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		c := startRaw(t, serveLSP(Options{NoWorkspace: true}))
		c.send(`{"jsonrpc":"2.0","id":-1,"method":"initialize","params":{}}`)
		c.response(-1)
		c.send(body)
		if !c.trySend(`{"jsonrpc":"2.0","id":-2,"method":"shutdown"}`) {
			if err := <-c.done; err != nil && !errors.Is(err, ErrExitWithoutShutdown) {
				t.Fatalf("session ended: %v", err)
			}
			return
		}
		timeout := time.After(20 * time.Second)
		for {
			select {
			case m, ok := <-c.in:
				if !ok { // the fuzzed message was exit
					if err := <-c.done; err != nil && !errors.Is(err, ErrExitWithoutShutdown) {
						t.Fatalf("session ended: %v", err)
					}
					return
				}
				if id, _ := m["id"].(float64); id == -2 {
					return
				}
			case err := <-c.done:
				if err != nil && !errors.Is(err, ErrExitWithoutShutdown) {
					t.Fatalf("session ended: %v", err)
				}
				return
			case <-timeout:
				t.Fatal("no answer to shutdown")
			}
		}
	})
}
