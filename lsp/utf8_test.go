package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"testing"
	"time"
	"unicode/utf8"
)

// TestRepliesValidUTF8 sends messages whose method name, id, URI and text
// carry bytes that are not UTF-8 (issue 27, item 10): every reply is valid
// UTF-8 JSON, as a strict client's decoder requires, and a method name or
// id that the reply echoes has each such byte written \xNN, as
// diagnostics write them (ast.EscapeInvalidUTF8). The server used to copy
// the bytes into its replies.
func TestRepliesValidUTF8(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	a, b := net.Pipe()
	defer b.Close()
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, a, Options{NoWorkspace: true}) }()
	r := bufio.NewReader(b)
	cases := []struct {
		body string
		// check inspects the reply, decoded.
		check func(m map[string]any) string
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"foo` + "\xff" + `bar"}`, wantError(1, codeMethodNotFound, `method not found: foo\xffbar`)},
		{`{"jsonrpc":"2.0","id":"a` + "\xfe" + `","method":"foo"}`, wantError(`a\xfe`, codeMethodNotFound, "method not found: foo")},
		{`{"jsonrpc":"2.0","id":"b` + "\xc3\x28" + `","method":"textDocument/hover","params":{"textDocument":{"uri":"untitled:none.md"},"position":{"line":0,"character":0}}}`, func(m map[string]any) string {
			if m["id"] != `b\xc3(` || m["error"] != nil {
				return "want the result of hover with id b\\xc3("
			}
			return ""
		}},
		{`{"jsonrpc":"1.0","id":"c` + "\xff" + `","method":"foo"}`, wantError(`c\xff`, codeInvalidRequest, msgInvalidRequest)},
		{`{"jsonrpc":"2.0","id":"d` + "\xff" + `"}`, wantError(`d\xff`, codeInvalidRequest, msgInvalidRequest)},
		{`{"jsonrpc":"2.0","id":"e` + "\xff" + `","method":"textDocument/hover","params":{"textDocument":5}}`, func(m map[string]any) string {
			if m["id"] != `e\xff` || errorCode(m) != codeInvalidParams {
				return "want InvalidParams with id e\\xff"
			}
			return ""
		}},
		{`[{"jsonrpc":"2.0","id":"f` + "\xff" + `","method":"x` + "\xc0" + `"}]`, nil}, // checked below: a batch
		{`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"untitled:g` + "\xff" + `.md","version":1,"text":"~~~act\nfr` + "\xff" + `\n~~~\n"}}}`, func(m map[string]any) string {
			if m["method"] != "textDocument/publishDiagnostics" {
				return "want publishDiagnostics"
			}
			return ""
		}},
	}
	for _, c := range cases {
		if _, err := fmt.Fprintf(b, "Content-Length: %d\r\n\r\n%s", len(c.body), c.body); err != nil {
			t.Fatal(err)
		}
		body, err := readFrame(r)
		if err != nil {
			t.Fatalf("%q: %v", c.body, err)
		}
		if !utf8.Valid(body) || !json.Valid(body) {
			t.Errorf("%q: the reply is not valid UTF-8 JSON: %q", c.body, body)
			continue
		}
		if c.check == nil {
			var ms []map[string]any
			if err := json.Unmarshal(body, &ms); err != nil || len(ms) != 1 {
				t.Errorf("%q: reply %s, want a batch of one", c.body, body)
				continue
			}
			if msg := wantError(`f\xff`, codeMethodNotFound, `method not found: x\xc0`)(ms[0]); msg != "" {
				t.Errorf("%q: reply %s: %s", c.body, body, msg)
			}
			continue
		}
		var m map[string]any
		if err := json.Unmarshal(body, &m); err != nil {
			t.Fatal(err)
		}
		if msg := c.check(m); msg != "" {
			t.Errorf("%q: reply %s: %s", c.body, body, msg)
		}
	}
	cancel()
	<-done
}

// wantError checks an error reply's id, code and message.
func wantError(id any, code int, message string) func(map[string]any) string {
	return func(m map[string]any) string {
		if n, ok := id.(int); ok {
			id = float64(n)
		}
		e, _ := m["error"].(map[string]any)
		if m["id"] != id || errorCode(m) != code || e["message"] != message {
			return fmt.Sprintf("want id %q, error %d %q", id, code, message)
		}
		return ""
	}
}
