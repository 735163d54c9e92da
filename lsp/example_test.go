package lsp_test

import (
	"context"
	"fmt"
	"net"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/plangram/plangram/lsp"
)

type printer struct {
	protocol.UnimplementedClient
	done chan struct{}
}

func (p printer) PublishDiagnostics(ctx context.Context, d *protocol.PublishDiagnosticsParams) error {
	for _, x := range d.Diagnostics {
		fmt.Printf("%d:%d-%d:%d %v %v\n", x.Range.Start.Line, x.Range.Start.Character,
			x.Range.End.Line, x.Range.End.Character, x.Code, x.Message)
	}
	close(p.done)
	return nil
}

// Serve a client over a pipe: open a document, receive its diagnostics
// (positions in UTF-16 code units: 😀 counts 2), shut down.
func ExampleServe() {
	ctx := context.Background()
	srvEnd, cliEnd := net.Pipe()
	served := make(chan error, 1)
	go func() { served <- lsp.Serve(ctx, srvEnd, lsp.Options{NoWorkspace: true}) }()

	client := printer{done: make(chan struct{})}
	_, conn, server := protocol.NewClient(ctx, client, jsonrpc2.NewStream(cliEnd))
	defer conn.Close()
	if _, err := server.Initialize(ctx, &protocol.InitializeParams{}); err != nil {
		panic(err)
	}
	_ = server.DidOpen(ctx, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: "untitled:plan.md", Version: 1, Text: "~~~act\n😀x\n~~~\n"}})
	<-client.done
	_ = server.Shutdown(ctx)
	_ = server.Exit(ctx)
	fmt.Println("Serve:", <-served)
	// Output:
	// 1:0-1:3 unknown-action unknown action "😀x"
	// Serve: <nil>
}
