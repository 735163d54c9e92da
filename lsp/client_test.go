package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"sync"

	"github.com/plangram/plangram/lsp/internal/protocol"
)

// testClient is the client end of a session in tests: it sends calls and
// notifications over a pipe and receives the server's answers and its
// publishDiagnostics notifications (on diags).
type testClient struct {
	conn  net.Conn
	wmu   sync.Mutex
	mu    sync.Mutex
	next  int64
	calls map[int64]chan testReply
	diags chan *protocol.PublishDiagnosticsParams
	done  chan struct{} // closed when the server's end is closed
}

type testReply struct {
	Result json.RawMessage `json:"result"`
	Error  *rpcError       `json:"error"`
}

func newTestClient(conn net.Conn) *testClient {
	c := &testClient{conn: conn, calls: map[int64]chan testReply{},
		diags: make(chan *protocol.PublishDiagnosticsParams, 256), done: make(chan struct{})}
	go c.read()
	return c
}

// read hands each answer to its call and each diagnostics notification to
// diags, until the connection ends.
func (c *testClient) read() {
	defer close(c.done)
	r := bufio.NewReader(c.conn)
	for {
		body, err := readFrame(r)
		if err != nil {
			return
		}
		var m struct {
			ID     *int64          `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
			testReply
		}
		if json.Unmarshal(body, &m) != nil {
			continue
		}
		switch {
		case m.Method == "textDocument/publishDiagnostics":
			var p protocol.PublishDiagnosticsParams
			if json.Unmarshal(m.Params, &p) == nil {
				c.diags <- &p
			}
		case m.ID != nil:
			c.mu.Lock()
			ch := c.calls[*m.ID]
			delete(c.calls, *m.ID)
			c.mu.Unlock()
			if ch != nil {
				ch <- m.testReply
			}
		}
	}
}

// send writes one message.
func (c *testClient) send(msg any) error {
	body, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err = fmt.Fprintf(c.conn, "Content-Length: %d\r\n\r\n%s", len(body), body)
	return err
}

// call sends a call and decodes its result into result (unless nil).
func (c *testClient) call(ctx context.Context, method string, params, result any) error {
	c.mu.Lock()
	c.next++
	id := c.next
	ch := make(chan testReply, 1)
	c.calls[id] = ch
	c.mu.Unlock()
	msg := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	if err := c.send(msg); err != nil {
		return err
	}
	select {
	case r := <-ch:
		if r.Error != nil {
			return r.Error
		}
		if result == nil {
			return nil
		}
		return json.Unmarshal(r.Result, result)
	case <-c.done:
		return errors.New("connection closed")
	case <-ctx.Done():
		return ctx.Err()
	}
}

// notify sends a notification.
func (c *testClient) notify(method string, params any) error {
	msg := map[string]any{"jsonrpc": "2.0", "method": method}
	if params != nil {
		msg["params"] = params
	}
	return c.send(msg)
}

// The calls and notifications of the methods the tests use.

func (c *testClient) Initialize(ctx context.Context, p *protocol.InitializeParams) (*protocol.InitializeResult, error) {
	var r protocol.InitializeResult
	err := c.call(ctx, "initialize", p, &r)
	return &r, err
}

func (c *testClient) Initialized(ctx context.Context) error {
	return c.notify("initialized", struct{}{})
}

func (c *testClient) Shutdown(ctx context.Context) error { return c.call(ctx, "shutdown", nil, nil) }

func (c *testClient) Exit(ctx context.Context) error { return c.notify("exit", nil) }

func (c *testClient) DidOpen(ctx context.Context, p *protocol.DidOpenTextDocumentParams) error {
	return c.notify("textDocument/didOpen", p)
}

func (c *testClient) DidChange(ctx context.Context, p *protocol.DidChangeTextDocumentParams) error {
	return c.notify("textDocument/didChange", p)
}

func (c *testClient) Hover(ctx context.Context, p *protocol.TextDocumentPositionParams) (*protocol.Hover, error) {
	var r *protocol.Hover
	err := c.call(ctx, "textDocument/hover", p, &r)
	return r, err
}

func (c *testClient) DocumentSymbol(ctx context.Context, p *protocol.TextDocumentParams) ([]protocol.DocumentSymbol, error) {
	var r []protocol.DocumentSymbol
	err := c.call(ctx, "textDocument/documentSymbol", p, &r)
	return r, err
}

func (c *testClient) Completion(ctx context.Context, p *protocol.TextDocumentPositionParams) (*protocol.CompletionList, error) {
	var r protocol.CompletionList
	err := c.call(ctx, "textDocument/completion", p, &r)
	return &r, err
}

// testCodeAction is a code action as the client reads it.
type testCodeAction struct {
	Title       string                  `json:"title"`
	Kind        protocol.CodeActionKind `json:"kind"`
	Diagnostics []protocol.Diagnostic   `json:"diagnostics"`
	IsPreferred bool                    `json:"isPreferred"`
	Edit        *protocol.WorkspaceEdit `json:"edit"`
}

func (c *testClient) CodeAction(ctx context.Context, p *protocol.CodeActionParams) ([]testCodeAction, error) {
	var r []testCodeAction
	err := c.call(ctx, "textDocument/codeAction", p, &r)
	return r, err
}

// rawDiagnostics is diagnostics as a code action's context carries them.
func rawDiagnostics(ds []protocol.Diagnostic) []json.RawMessage {
	out := make([]json.RawMessage, len(ds))
	for i, d := range ds {
		out[i], _ = json.Marshal(d)
	}
	return out
}
