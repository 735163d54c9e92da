package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/textproto"
	"os/exec"
	"strconv"
	"testing"
	"time"
)

// TestLSPWire drives `plangram lsp` with raw JSON-RPC frames, as an editor
// does: initialize, didOpen -> publishDiagnostics, shutdown, exit.
func TestLSPWire(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr bytes.Buffer
	code := make(chan int, 1)
	go func() {
		code <- run(ctx, &env{stdin: inR, stdout: outW, stderr: &stderr}, []string{"lsp", "--no-workspace", "--debounce", "0"})
		outW.Close()
	}()
	send := func(msg string) {
		t.Helper()
		if _, err := fmt.Fprintf(inW, "Content-Length: %d\r\n\r\n%s", len(msg), msg); err != nil {
			t.Fatal(err)
		}
	}
	rd := bufio.NewReader(outR)
	recv := func() map[string]any {
		t.Helper()
		return readLSPMessage(t, rd, &stderr)
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":null,"capabilities":{}}}`)
	init := recv()
	caps, _ := init["result"].(map[string]any)["capabilities"].(map[string]any)
	if caps["positionEncoding"] != "utf-16" || caps["hoverProvider"] != true {
		t.Errorf("capabilities = %v", caps)
	}
	send(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)
	send(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///tmp/x.md","languageId":"markdown","version":1,"text":"~~~act\n😀 frobnicate\n~~~\n"}}}`)
	pub := recv()
	if pub["method"] != "textDocument/publishDiagnostics" {
		t.Fatalf("got %v", pub)
	}
	js, _ := json.Marshal(pub["params"])
	want := `{"diagnostics":[{"code":"unknown-action","message":"unknown action \"😀\"","range":{"end":{"character":2,"line":1},"start":{"character":0,"line":1}},"severity":1,"source":"plangram"}],"uri":"file:///tmp/x.md","version":1}`
	if string(js) != want {
		t.Errorf("publishDiagnostics params\n%s\nwant\n%s", js, want)
	}
	// A directive comment silences the rule in the editor too.
	send(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///tmp/y.md","languageId":"markdown","version":1,"text":"<!-- plangram-disable-next-line unknown-action -->\n~~~act\n😀 frobnicate\n~~~\n"}}}`)
	pub = recv()
	js, _ = json.Marshal(pub["params"])
	if want := `{"diagnostics":[],"uri":"file:///tmp/y.md","version":1}`; string(js) != want {
		t.Errorf("publishDiagnostics with a directive\n%s\nwant\n%s", js, want)
	}
	send(`{"jsonrpc":"2.0","id":2,"method":"shutdown"}`)
	if res := recv(); res["id"] != float64(2) || res["error"] != nil {
		t.Errorf("shutdown response = %v", res)
	}
	send(`{"jsonrpc":"2.0","method":"exit"}`)
	select {
	case c := <-code:
		if c != exitOK {
			t.Errorf("exit code %d, stderr %q", c, stderr.String())
		}
	case <-ctx.Done():
		t.Fatal("plangram lsp did not exit")
	}
}

func TestLSPUsage(t *testing.T) {
	for _, args := range [][]string{
		{"lsp", "extra"},
		{"lsp", "--dialect", "klingon"},
		{"lsp", "--fence", "dots"},
		{"lsp", "--root", "/nonexistent/dir"},
		{"lsp", "--schema", "/nonexistent/schema.json"},
	} {
		if code, _, _ := runCLI(t, "", args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
	}
}

// TestLSPBinaryHostileMessages drives the `plangram lsp` process itself
// (issue 10): unknown notifications, null and ill-typed params, unknown
// requests and a body that is not JSON never end the session; unknown
// requests get MethodNotFound, bad params InvalidParams, the broken body
// ParseError; a document is still checked after them, and the process
// exits 0 after shutdown and exit (lsp:TestRobustMessages covers each
// case in process).
func TestLSPBinaryHostileMessages(t *testing.T) {
	bin := buildBinary(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "lsp", "--no-workspace", "--debounce", "0")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	send := func(msg string) {
		t.Helper()
		if _, err := fmt.Fprintf(in, "Content-Length: %d\r\n\r\n%s", len(msg), msg); err != nil {
			t.Fatalf("the server stopped reading: %v (stderr %q)", err, stderr.String())
		}
	}
	rd := bufio.NewReader(out)
	// next returns the next message whose id is id (a number, or nil for
	// id null), or the next notification of method when method is set.
	next := func(id any, method string) map[string]any {
		t.Helper()
		for {
			m := readLSPMessage(t, rd, &stderr)
			if method != "" {
				if m["method"] == method {
					return m
				}
				continue
			}
			if got, ok := m["id"]; ok && m["method"] == nil && got == id {
				return m
			}
		}
	}
	code := func(m map[string]any) float64 {
		e, _ := m["error"].(map[string]any)
		c, _ := e["code"].(float64)
		return c
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":null,"capabilities":{}}}`)
	if m := next(float64(1), ""); m["error"] != nil {
		t.Fatalf("initialize: %v", m)
	}
	send(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)
	for _, note := range []string{
		`{"jsonrpc":"2.0","method":"$/unknownNotification","params":{}}`,
		`{"jsonrpc":"2.0","method":"foo/bar","params":{"x":1}}`,
		`{"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":null}`,
		`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":5}}`,
		`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":null}`,
		`{"jsonrpc":"2.0","method":"textDocument/didChange","params":[1,2]}`,
	} {
		send(note)
	}
	for _, c := range []struct {
		body string
		id   any
		code float64
	}{
		{`{"jsonrpc":"2.0","id":10,"method":"foo/req","params":{}}`, float64(10), -32601},
		{`{"jsonrpc":"2.0","id":11,"method":"textDocument/hover","params":{"textDocument":5}}`, float64(11), -32602},
		{`{"jsonrpc":"2.0","id":12,"method":"ini`, nil, -32700},
	} {
		send(c.body)
		if got := code(next(c.id, "")); got != c.code {
			t.Errorf("%s: error code %v, want %v", c.body, got, c.code)
		}
	}
	send(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///tmp/a.md","languageId":"markdown","version":1,"text":"~~~act\nrun_comand ls\n~~~\n"}}}`)
	if p, _ := next(nil, "textDocument/publishDiagnostics")["params"].(map[string]any); p == nil || p["uri"] != "file:///tmp/a.md" {
		t.Fatalf("no diagnostics published after the hostile messages: %v", p)
	}
	send(`{"jsonrpc":"2.0","id":98,"method":"shutdown"}`)
	if m := next(float64(98), ""); m["error"] != nil {
		t.Fatalf("shutdown: %v", m)
	}
	send(`{"jsonrpc":"2.0","method":"exit"}`)
	in.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("plangram lsp: %v (stderr %q)", err, stderr.String())
	}
}

// readLSPMessage reads one framed JSON-RPC message from the server's
// output (stderr is the server's, for the failure message).
func readLSPMessage(t *testing.T, rd *bufio.Reader, stderr *bytes.Buffer) map[string]any {
	t.Helper()
	h, err := textproto.NewReader(rd).ReadMIMEHeader()
	if err != nil {
		t.Fatalf("reading a header: %v (stderr %q)", err, stderr.String())
	}
	n, err := strconv.Atoi(h.Get("Content-Length"))
	if err != nil {
		t.Fatal(err)
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(rd, body); err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	return m
}
