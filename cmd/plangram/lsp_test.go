package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/textproto"
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
