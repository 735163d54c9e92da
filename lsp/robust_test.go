package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/uri"

	"github.com/plangram/plangram/lsp/internal/protocol"
)

// rawClient speaks framed JSON-RPC over a pipe, byte for byte, so that
// tests can send what a protocol client never would.
type rawClient struct {
	t    testing.TB
	conn net.Conn
	in   chan map[string]any
	done chan error
}

func startRaw(t testing.TB, serve func(context.Context, io.ReadWriteCloser) error) *rawClient {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	a, b := net.Pipe()
	c := &rawClient{t: t, conn: b, in: make(chan map[string]any, 256), done: make(chan error, 1)}
	go func() { c.done <- serve(ctx, a) }()
	go func() {
		defer close(c.in)
		r := bufio.NewReader(b)
		for {
			n := -1
			for {
				line, err := r.ReadString('\n')
				if err != nil {
					return
				}
				line = strings.TrimSpace(line)
				if line == "" {
					break
				}
				if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
					n, _ = strconv.Atoi(v)
				}
			}
			body := make([]byte, n)
			if _, err := io.ReadFull(r, body); err != nil {
				return
			}
			var m map[string]any
			if err := json.Unmarshal(body, &m); err != nil {
				m = map[string]any{"raw": string(body)}
			}
			c.in <- m
		}
	}()
	t.Cleanup(func() {
		cancel()
		_ = b.Close()
	})
	return c
}

// send writes one frame with body as it is.
func (c *rawClient) send(body string) {
	c.t.Helper()
	if err := c.conn.SetWriteDeadline(time.Now().Add(10 * time.Second)); err != nil {
		c.t.Fatal(err)
	}
	if _, err := fmt.Fprintf(c.conn, "Content-Length: %d\r\n\r\n%s", len(body), body); err != nil {
		c.t.Fatalf("send %q: %v", body, err)
	}
}

// trySend writes one frame and reports whether the server was still
// reading.
func (c *rawClient) trySend(body string) bool {
	if err := c.conn.SetWriteDeadline(time.Now().Add(10 * time.Second)); err != nil {
		return false
	}
	_, err := fmt.Fprintf(c.conn, "Content-Length: %d\r\n\r\n%s", len(body), body)
	return err == nil
}

// response waits for the response with id (a JSON number), skipping
// notifications and other responses.
func (c *rawClient) response(id float64) map[string]any {
	c.t.Helper()
	return c.await(fmt.Sprintf("response to %v", id), func(m map[string]any) bool {
		got, ok := m["id"].(float64)
		return ok && got == id
	})
}

// errorCode returns a response's error code (0 when it has none).
func errorCode(m map[string]any) int {
	e, ok := m["error"].(map[string]any)
	if !ok {
		return 0
	}
	code, _ := e["code"].(float64)
	return int(code)
}

// notification waits for the notification of method, skipping other
// messages.
func (c *rawClient) notification(method string) map[string]any {
	c.t.Helper()
	return c.await(method, func(m map[string]any) bool { return m["method"] == method })
}

// await returns the first message that match accepts, waiting up to 20
// seconds for it; what names it in the failure.
func (c *rawClient) await(what string, match func(map[string]any) bool) map[string]any {
	c.t.Helper()
	timeout := time.After(20 * time.Second)
	for {
		select {
		case m, ok := <-c.in:
			if !ok {
				c.t.Fatalf("connection closed before %s", what)
			}
			if match(m) {
				return m
			}
		case <-timeout:
			c.t.Fatalf("no %s", what)
		}
	}
}

func serveLSP(opts Options) func(context.Context, io.ReadWriteCloser) error {
	return func(ctx context.Context, rwc io.ReadWriteCloser) error { return Serve(ctx, rwc, opts) }
}

// TestRobustMessages sends, over a pipe, what issue 10 found ending the
// session, and more: every notification is survived, every bad call is
// answered with the code the LSP and JSON-RPC specifications name, and the
// session still checks documents and shuts down cleanly afterwards.
func TestRobustMessages(t *testing.T) {
	c := startRaw(t, serveLSP(Options{NoWorkspace: true}))
	c.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`)
	if code := errorCode(c.response(1)); code != 0 {
		t.Fatalf("initialize failed: %d", code)
	}
	c.send(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)
	for _, note := range []string{
		`{"jsonrpc":"2.0","method":"$/unknownNotification","params":{}}`,
		`{"jsonrpc":"2.0","method":"foo/bar","params":{"x":1}}`,
		`{"jsonrpc":"2.0","method":"foo/bar"}`,
		`{"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":null}`,
		`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":5}}`,
		`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":null}`,
		`{"jsonrpc":"2.0","method":"textDocument/didChange","params":[1,2]}`,
		`{"jsonrpc":"2.0","method":"textDocument/didClose","params":"x"}`,
		`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":{}}}`,
		`{"jsonrpc":"2.0","method":"$/setTrace","params":{"value":7}}`,
	} {
		c.send(note)
	}
	calls := []struct {
		body string
		code int
	}{
		{`{"jsonrpc":"2.0","id":10,"method":"foo/req","params":{}}`, codeMethodNotFound},
		{`{"jsonrpc":"2.0","id":11,"method":"$/unknownRequest"}`, codeMethodNotFound},
		{`{"jsonrpc":"2.0","id":12,"method":"textDocument/hover","params":{"textDocument":5}}`, codeInvalidParams},
		{`{"jsonrpc":"2.0","id":13,"method":"textDocument/documentSymbol","params":null}`, codeInvalidParams},
		{`{"jsonrpc":"2.0","id":14,"method":"textDocument/completion","params":{"textDocument":{"uri":"file:///x.md"},"position":"here"}}`, codeInvalidParams},
		{`{"jsonrpc":"2.0","id":15,"method":"ini`, codeParseError},   // not JSON: id unknown
		{`{"jsonrpc":"2.0","id":16}`, codeInvalidRequest},            // neither call nor response
		{`{"jsonrpc":"2.0","id":17,"method":5}`, codeInvalidRequest}, // method not a string
	}
	for _, call := range calls {
		c.send(call.body)
		var id float64
		fmt.Sscanf(call.body[strings.Index(call.body, `"id":`)+5:], "%g", &id)
		if call.code == codeParseError {
			id = -1 // answered with id null: matched below
		}
		if id < 0 {
			continue
		}
		if got := errorCode(c.response(id)); got != call.code {
			t.Errorf("%s: error code %d, want %d", call.body, got, call.code)
		}
	}
	// The session is alive: a document is checked and published.
	c.send(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///tmp/a.md","languageId":"markdown","version":1,"text":"~~~act\nrun_comand ls\n~~~\n"}}}`)
	if p := c.notification("textDocument/publishDiagnostics"); p["params"] == nil {
		t.Fatal("no diagnostics params")
	}
	c.send(`{"jsonrpc":"2.0","id":98,"method":"shutdown"}`)
	if code := errorCode(c.response(98)); code != 0 {
		t.Fatalf("shutdown failed: %d", code)
	}
	c.send(`{"jsonrpc":"2.0","method":"exit"}`)
	select {
	case err := <-c.done:
		if err != nil {
			t.Fatalf("Serve: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Serve did not return after exit")
	}
}

// TestParseErrorAnsweredWithNullID: a body that is not JSON is answered
// with ParseError and id null (JSON-RPC 2.0, section 5).
func TestParseErrorAnsweredWithNullID(t *testing.T) {
	c := startRaw(t, serveLSP(Options{NoWorkspace: true}))
	c.send(`{"jsonrpc":"2.0","id":15,"method":"ini`)
	select {
	case m := <-c.in:
		if m["id"] != nil || errorCode(m) != codeParseError {
			t.Fatalf("got %v, want a ParseError with id null", m)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no answer")
	}
}

// TestBrokenFramingEndsSession: only a broken transport ends the session.
func TestBrokenFramingEndsSession(t *testing.T) {
	c := startRaw(t, serveLSP(Options{NoWorkspace: true}))
	if _, err := io.WriteString(c.conn, "Content-Type: x\r\n\r\n{}"); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-c.done:
		if !errors.Is(err, errFraming) {
			t.Fatalf("Serve: %v, want a framing error", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Serve did not end on broken framing")
	}
}

// TestHandlerPanicAnswered: a panicking handler answers its call with
// InternalError and the connection keeps serving; a panicking notification
// is logged and dropped.
func TestHandlerPanicAnswered(t *testing.T) {
	h := func(ctx context.Context, req *request) (any, error) {
		if req.method == "boom" {
			panic("kaboom")
		}
		return "ok", nil
	}
	c := startRaw(t, func(ctx context.Context, rwc io.ReadWriteCloser) error {
		log := slog.New(slog.DiscardHandler)
		return newConn(rwc, log).run(ctx, robust(log, h), func(string) bool { return false })
	})
	c.send(`{"jsonrpc":"2.0","id":1,"method":"boom"}`)
	if got := errorCode(c.response(1)); got != codeInternalError {
		t.Fatalf("panicking call: code %d, want %d", got, codeInternalError)
	}
	c.send(`{"jsonrpc":"2.0","method":"boom"}`)
	c.send(`{"jsonrpc":"2.0","id":2,"method":"fine"}`)
	if m := c.response(2); m["result"] != "ok" {
		t.Fatalf("after panics: %v", m)
	}
}

// TestCheckPanicReported: a panic while checking a document becomes an
// internal-error diagnostic; the server keeps running.
func TestCheckPanicReported(t *testing.T) {
	pub := &recorder{notes: make(chan recorded, 4)}
	s := newServer(context.Background(), pub, Options{NoWorkspace: true})
	func() {
		defer s.recoverCheck("file:///x.md", 3)
		panic("bug")
	}()
	select {
	case n := <-pub.notes:
		p, ok := n.params.(*protocol.PublishDiagnosticsParams)
		if n.method != "textDocument/publishDiagnostics" || !ok || len(p.Diagnostics) != 1 || !strings.Contains(p.Diagnostics[0].Message, "internal error") {
			t.Fatalf("got %s %+v", n.method, n.params)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no diagnostic")
	}
}

// recorder records the notifications a server sends.
type recorder struct{ notes chan recorded }

type recorded struct {
	method string
	params any
}

func (r *recorder) notify(method string, params any) error {
	r.notes <- recorded{method, params}
	return nil
}

// TestNoPlanOneNote: ordinary Markdown with code blocks (the server is
// attached to every Markdown buffer) gets one no-plan note, not a warning
// per block.
func TestNoPlanOneNote(t *testing.T) {
	s := start(t, Options{NoWorkspace: true})
	s.initialize("")
	u := uri.URI("file:///tmp/README.md")
	s.open(u, "# Readme\n\n```sh\ngo test ./...\n```\n\n```sh\nmake\n```\n")
	p := s.waitDiags(u, 1)
	if len(p.Diagnostics) != 1 || p.Diagnostics[0].Code != "no-plan" ||
		p.Diagnostics[0].Severity != protocol.SeverityInformation {
		t.Fatalf("diagnostics = %+v, want one no-plan information", p.Diagnostics)
	}
	s.exit()
}

// TestCancelRequest: $/cancelRequest cancels the context of the running
// call with that id (an integer or a string id), whose handler then
// answers; a cancel of an id not running changes nothing.
func TestCancelRequest(t *testing.T) {
	started := make(chan string, 4)
	c := startRaw(t, func(ctx context.Context, rwc io.ReadWriteCloser) error {
		log := slog.New(slog.DiscardHandler)
		conn := newConn(rwc, log)
		s := newServer(ctx, conn, Options{NoWorkspace: true})
		s.conn = conn
		h := func(ctx context.Context, r *request) (any, error) {
			if r.method != "wait" {
				return s.dispatch(ctx, r)
			}
			started <- string(r.id)
			select {
			case <-ctx.Done():
				return "cancelled", nil
			case <-time.After(20 * time.Second):
				return "not cancelled", nil
			}
		}
		return conn.run(ctx, robust(log, h), func(string) bool { return false })
	})
	for _, id := range []string{`7`, `"w"`} {
		c.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"wait"}`)
		if got := <-started; got != id {
			t.Fatalf("started %s, want %s", got, id)
		}
		c.send(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":99}}`)
		c.send(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":` + id + `}}`)
		m := c.await("the answer to "+id, func(m map[string]any) bool { return fmt.Sprint(m["id"]) == strings.Trim(id, `"`) })
		if m["result"] != "cancelled" {
			t.Errorf("call %s: %v", id, m)
		}
	}
}

// TestResponsesIgnored: a response from the client, whatever its id (null
// included, as an error response to a message it could not read), is
// never answered, so two peers cannot answer each other's errors forever.
func TestResponsesIgnored(t *testing.T) {
	c := startRaw(t, serveLSP(Options{NoWorkspace: true}))
	for _, r := range []string{
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}`,
		`{"jsonrpc":"2.0","id":3,"result":{}}`,
		`{"jsonrpc":"2.0","id":true,"result":null}`,
	} {
		c.send(r)
	}
	c.send(`{"jsonrpc":"2.0","id":1,"method":"shutdown"}`)
	select {
	case m := <-c.in:
		if m["id"] != float64(1) || m["error"] != nil {
			t.Fatalf("first reply %v, want the answer to shutdown", m)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no answer")
	}
}
