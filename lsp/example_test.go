package lsp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/textproto"
	"strconv"

	"github.com/plangram/plangram/lsp"
)

// Serve a client over a pipe: open a document, receive its diagnostics
// (positions in UTF-16 code units: 😀 counts 2), shut down.
func ExampleServe() {
	ctx := context.Background()
	srvEnd, cliEnd := net.Pipe()
	served := make(chan error, 1)
	go func() { served <- lsp.Serve(ctx, srvEnd, lsp.Options{NoWorkspace: true}) }()

	send := func(msg string) { fmt.Fprintf(cliEnd, "Content-Length: %d\r\n\r\n%s", len(msg), msg) }
	in := bufio.NewReader(cliEnd)
	receive := func(v any) {
		h, _ := textproto.NewReader(in).ReadMIMEHeader()
		n, _ := strconv.Atoi(h.Get("Content-Length"))
		body := make([]byte, n)
		_, _ = io.ReadFull(in, body)
		_ = json.Unmarshal(body, v)
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`)
	receive(&struct{}{})
	send(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"untitled:plan.md","version":1,"text":"~~~act\n😀x\n~~~\n"}}}`)
	var pub struct {
		Params struct {
			Diagnostics []struct {
				Range struct {
					Start, End struct{ Line, Character int }
				}
				Code, Message string
			}
		}
	}
	receive(&pub)
	for _, x := range pub.Params.Diagnostics {
		fmt.Printf("%d:%d-%d:%d %v %v\n", x.Range.Start.Line, x.Range.Start.Character,
			x.Range.End.Line, x.Range.End.Character, x.Code, x.Message)
	}
	send(`{"jsonrpc":"2.0","id":2,"method":"shutdown"}`)
	receive(&struct{}{})
	send(`{"jsonrpc":"2.0","method":"exit"}`)
	fmt.Println("Serve:", <-served)
	// Output:
	// 1:0-1:3 unknown-action unknown action "😀x"
	// Serve: <nil>
}
