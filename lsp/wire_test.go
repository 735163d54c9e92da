package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/plangram/plangram/ast"
)

// wireScript is a session as a client sends it, one frame body a step: the
// calls and notifications an editor sends, and what a broken or hostile
// client sends. TestWireTranscript pins what the server answers to each.
var wireScript = []string{
	`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":null,"capabilities":{},"clientInfo":{"name":"t"}}}`,
	`{"jsonrpc":"2.0","method":"initialized","params":{}}`,
	`{"jsonrpc":"2.0","method":"$/unknownNotification","params":{}}`,
	`{"jsonrpc":"2.0","method":"foo/bar","params":{"x":1}}`,
	`{"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":null}`,
	`{"jsonrpc":"2.0","method":"$/setTrace","params":{"value":"off"}}`,
	`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///tmp/w/plan.md","languageId":"markdown","version":1,"text":` + strconv.Quote(planText) + `}}}`,
	`{"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///tmp/w/plan.md"},"position":{"line":13,"character":6}}}`,
	`{"jsonrpc":"2.0","id":3,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///tmp/w/plan.md"},"position":{"line":1,"character":0}}}`,
	`{"jsonrpc":"2.0","id":"s4","method":"textDocument/hover","params":{"textDocument":{"uri":"file:///tmp/w/plan.md"},"position":{"line":14,"character":22}}}`,
	`{"jsonrpc":"2.0","id":5,"method":"textDocument/documentSymbol","params":{"textDocument":{"uri":"file:///tmp/w/plan.md"}}}`,
	`{"jsonrpc":"2.0","id":6,"method":"textDocument/completion","params":{"textDocument":{"uri":"file:///tmp/w/plan.md"},"position":{"line":15,"character":2}}}`,
	`{"jsonrpc":"2.0","id":7,"method":"textDocument/completion","params":{"textDocument":{"uri":"file:///tmp/w/plan.md"},"position":{"line":1,"character":0}}}`,
	`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"untitled:fix.md","languageId":"markdown","version":1,"text":` + strconv.Quote(strings.Replace(planText, "# Plan", "#Plan", 1)) + `}}}`,
	`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"untitled:acts.md","languageId":"markdown","version":1,"text":"~~~act\nwr\n~~~ x\n\n~~~\n~~~act\nfr` + "\xff" + `\n~~~\n"}}}`,
	`{"jsonrpc":"2.0","id":"c1","method":"textDocument/completion","params":{"textDocument":{"uri":"untitled:acts.md"},"position":{"line":1,"character":2}}}`,
	`{"jsonrpc":"2.0","id":8,"method":"textDocument/codeAction","params":{"textDocument":{"uri":"untitled:fix.md"},"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"context":{"diagnostics":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"code":"title-missing-space","message":"m"},{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"code":7,"message":"n"}]}}}`,
	`{"jsonrpc":"2.0","id":9,"method":"textDocument/completion","params":{"textDocument":{"uri":"untitled:fix.md"},"position":{"line":30,"character":2}}}`,
	`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"untitled:fix.md","version":2},"contentChanges":[{"range":{"start":{"line":0,"character":1},"end":{"line":0,"character":1}},"text":" "}]}}`,
	`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"untitled:fix.md","version":3},"contentChanges":[{"text":"~~~act\nfrobnicate\n~~~\n"}]}}`,
	`{"jsonrpc":"2.0","id":10,"method":"textDocument/codeAction","params":{"textDocument":{"uri":"untitled:fix.md"},"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"context":{"diagnostics":[]}}}`,
	`{"jsonrpc":"2.0","method":"textDocument/didSave","params":{"textDocument":{"uri":"untitled:fix.md"}}}`,
	`{"jsonrpc":"2.0","method":"textDocument/didClose","params":{"textDocument":{"uri":"untitled:fix.md"}}}`,
	`{"jsonrpc":"2.0","id":11,"method":"textDocument/hover","params":{"textDocument":{"uri":"untitled:fix.md"},"position":{"line":0,"character":0}}}`,
	`{"jsonrpc":"2.0","id":12,"method":"textDocument/documentSymbol","params":{"textDocument":{"uri":"untitled:fix.md"}}}`,
	`{"jsonrpc":"2.0","id":13,"method":"textDocument/completion","params":{"textDocument":{"uri":"untitled:fix.md"},"position":{"line":0,"character":0}}}`,
	`{"jsonrpc":"2.0","id":14,"method":"textDocument/codeAction","params":{"textDocument":{"uri":"untitled:fix.md"},"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"context":{"diagnostics":[]}}}`,
	`{"jsonrpc":"2.0","id":15,"method":"textDocument/definition","params":{"textDocument":{"uri":"untitled:fix.md"},"position":{"line":0,"character":0}}}`,
	`{"jsonrpc":"2.0","id":"d1","method":"textDocument/definition","params":5}`,
	`{"jsonrpc":"2.0","id":"d2","method":"initialize","params":null}`,
	`{"jsonrpc":"2.0","id":"d3","method":"$/cancelRequest","params":{"id":1}}`,
	`{"jsonrpc":"2.0","id":"d4","method":"$/cancelRequest","params":{"id":{}}}`,
	`{"jsonrpc":"2.0","id":"d5","method":"initialized","params":{}}`,
	`{"jsonrpc":"2.0","id":"d6","method":"textDocument/didSave","params":{}}`,
	`{"jsonrpc":"2.0","method":"textDocument/hover","params":{}}`,
	`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"s"}}`,
	`{"jsonrpc":"2.0","id":16,"method":"foo/req","params":{}}`,
	`{"jsonrpc":"2.0","id":17,"method":"$/unknownRequest"}`,
	`{"jsonrpc":"2.0","id":18,"method":"textDocument/hover","params":{"textDocument":5}}`,
	`{"jsonrpc":"2.0","id":19,"method":"textDocument/documentSymbol","params":null}`,
	`{"jsonrpc":"2.0","id":20,"method":"textDocument/completion","params":{"textDocument":{"uri":"file:///x.md"},"position":"here"}}`,
	`{"jsonrpc":"2.0","id":21,"method":"textDocument/hover","params":[1,2]}`,
	`{"jsonrpc":"2.0","id":22,"method":"textDocument/hover"}`,
	`{"jsonrpc":"2.0","id":23,"method":"ini`,
	`{"jsonrpc":"2.0","id":24}`,
	`{"jsonrpc":"2.0","id":25,"method":5}`,
	`{"jsonrpc":"2.0","id":-26,"method":"foo"}`,
	`{"jsonrpc":"2.0","id":27.5,"method":"foo"}`,
	`{"jsonrpc":"2.0","id":null,"method":"foo"}`,
	`{"jsonrpc":"2.0","id":true,"method":"foo"}`,
	`{"jsonrpc":"2.0","id":{},"method":"foo"}`,
	`{"jsonrpc":"2.0","id":"","method":"foo"}`,
	`{"jsonrpc":"2.0","id":"é\"\\\n\u2028<>&","method":"foo"}`,
	`{"id":28,"method":"foo"}`,
	`{"jsonrpc":"1.0","id":29,"method":"foo"}`,
	`{"jsonrpc":"2.0","id":30,"method":"foo","params":5}`,
	`{"jsonrpc":"2.0","id":31,"method":"foo","params":"x"}`,
	`{"jsonrpc":"2.0","id":32,"method":"shutdown","params":{"x":1}}`,
	`{"jsonrpc":"2.0","id":33,"result":null}`,
	`{"jsonrpc":"2.0","id":34,"error":{"code":1,"message":"x"}}`,
	`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":999}}`,
	`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":{}}}`,
	`{"jsonrpc":"2.0","method":"$/progress","params":{"token":1,"value":{}}}`,
	`[{"jsonrpc":"2.0","id":35,"method":"foo"},1]`,
	`[]`,
	`[1]`,
	`[{"jsonrpc":"2.0","method":"foo/bar"}]`,
	`"x"`,
	`5`,
	`null`,
	` {"jsonrpc":"2.0","id":36,"method":"foo"} `,
	`{"jsonrpc":"2.0","id":37,"method":"foo","id":38}`,
	`{"jsonrpc":"2.0","id":39,"method":"foo\u0000"}`,
	`{"jsonrpc":"2.0","id":40,"method":"initialize","params":{}}`,
	`{"jsonrpc":"2.0","id":41,"method":"shutdown"}`,
	`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"untitled:late.md","languageId":"markdown","version":1,"text":"~~~act\nfrobnicate\n~~~\n"}}}`,
	`{"jsonrpc":"2.0","id":42,"method":"textDocument/hover","params":{"textDocument":{"uri":"untitled:late.md"},"position":{"line":1,"character":1}}}`,
	`{"jsonrpc":"2.0","id":43,"method":"shutdown"}`,
	`{"jsonrpc":"2.0","method":"exit"}`,
}

var updateWire = flag.Bool("update-wire", false, "rewrite golden/lsp/wire.golden from the running server (settles 0.5 s after each step)")

// TestWireTranscript runs wireScript against Serve over a pipe, one step at
// a time, and compares what the server wrote after each step (every
// message canonicalised: object keys sorted; the messages of one step
// sorted, since a step's response and its notifications race) with
// golden/lsp/wire.golden. The golden was written by the server when it was
// built on go.lsp.dev/jsonrpc2 and go.lsp.dev/protocol, so the transport
// and types written for plangram answer what those answered. Error
// messages are compared too (an editor shows them), but for the reason an
// InvalidParams error gives after its "invalid params for METHOD:", which
// is the decoder's. Every frame the server writes has the one header
// Content-Length.
func TestWireTranscript(t *testing.T) {
	golden := filepath.Join("..", "golden", "lsp", "wire.golden")
	var want [][]string
	if !*updateWire {
		data, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		want = parseTranscript(t, string(data))
		if len(want) != len(wireScript) {
			t.Fatalf("golden has %d steps, the script %d: run with -update-wire", len(want), len(wireScript))
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	a, b := net.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- Serve(ctx, a, Options{NoWorkspace: true, Fix: DefaultFix("auto"), Version: "v-test"})
	}()
	defer b.Close()
	msgs := make(chan []byte, 64)
	readErr := make(chan error, 1)
	go func() {
		defer close(msgs)
		r := bufio.NewReader(b)
		for {
			body, err := readFrame(r)
			if err != nil {
				readErr <- err
				return
			}
			msgs <- body
		}
	}()
	var out strings.Builder
	for i, step := range wireScript {
		if _, err := fmt.Fprintf(b, "Content-Length: %d\r\n\r\n%s", len(step), step); err != nil {
			t.Fatalf("step %d: send: %v", i, err)
		}
		var got []string
		if *updateWire {
			for settled := false; !settled; {
				select {
				case m, ok := <-msgs:
					if !ok {
						settled = true
						break
					}
					got = append(got, canonical(t, m))
				case <-time.After(500 * time.Millisecond):
					settled = true
				}
			}
		} else {
			for range want[i] {
				select {
				case m, ok := <-msgs:
					if !ok {
						t.Fatalf("step %d %s: connection closed, want %q", i, step, want[i])
					}
					got = append(got, canonical(t, m))
				case <-time.After(20 * time.Second):
					t.Fatalf("step %d %s: got %q, want %q", i, step, got, want[i])
				}
			}
		}
		slices.Sort(got)
		if !*updateWire && !slices.Equal(normalise(got), normalise(want[i])) {
			t.Errorf("step %d %s:\ngot  %q\nwant %q", i, step, got, want[i])
		}
		out.WriteString("> " + ast.EscapeInvalidUTF8(step) + "\n") // the golden stays text
		for _, m := range got {
			out.WriteString("< " + m + "\n")
		}
	}
	// Nothing more after exit: the connection ends.
	for m := range msgs {
		t.Errorf("after exit: %s", m)
	}
	if err := <-readErr; err != io.EOF && err != io.ErrClosedPipe {
		t.Errorf("reading after exit: %v", err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
	case <-ctx.Done():
		t.Fatal("Serve did not return")
	}
	if *updateWire {
		if err := os.WriteFile(golden, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// paramsReasonRE matches the reason of an InvalidParams error: the
// decoder's words, which the transcript does not pin.
var paramsReasonRE = regexp.MustCompile(`("code":-32602,"message":"invalid params for [^":]*): [^"]*"`)

// normalise drops the reasons of InvalidParams errors.
func normalise(msgs []string) []string {
	out := make([]string, len(msgs))
	for i, m := range msgs {
		out[i] = paramsReasonRE.ReplaceAllString(m, `$1: …"`)
	}
	return out
}

// readFrame reads one frame and checks that its header is exactly the
// Content-Length line.
func readFrame(r *bufio.Reader) ([]byte, error) {
	line, err := r.ReadString('\n')
	if err != nil {
		return nil, err
	}
	v, ok := strings.CutPrefix(line, "Content-Length: ")
	if !ok || !strings.HasSuffix(v, "\r\n") {
		return nil, fmt.Errorf("header line %q", line)
	}
	n, err := strconv.Atoi(strings.TrimSuffix(v, "\r\n"))
	if err != nil {
		return nil, err
	}
	if blank, err := r.ReadString('\n'); err != nil || blank != "\r\n" {
		return nil, fmt.Errorf("after the Content-Length: %q, %v", blank, err)
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, err
	}
	return body, nil
}

// canonical re-encodes a message with sorted keys, numbers as written.
func canonical(t *testing.T, body []byte) string {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("server wrote %q: %v", body, err)
	}
	var buf bytes.Buffer
	e := json.NewEncoder(&buf)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

// parseTranscript reads the golden: each step a "> " line, then its
// messages, one "< " line each.
func parseTranscript(t *testing.T, s string) [][]string {
	var steps [][]string
	for _, line := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
		switch {
		case strings.HasPrefix(line, "> "):
			steps = append(steps, []string{})
		case strings.HasPrefix(line, "< ") && len(steps) > 0:
			steps[len(steps)-1] = append(steps[len(steps)-1], line[2:])
		default:
			t.Fatalf("golden line %q", line)
		}
	}
	return steps
}
