package lsp

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestExitAnswersEarlierCalls sends initialize, initialized, shutdown and
// exit in one write, as a client that batches its output does, many times
// over: every call before exit is answered before the server ends the
// session, and Serve returns nil (shutdown came before exit).
func TestExitAnswersEarlierCalls(t *testing.T) {
	n := 200
	if testing.Short() {
		n = 20
	}
	frame := func(body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) }
	all := frame(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`) +
		frame(`{"jsonrpc":"2.0","method":"initialized","params":{}}`) +
		frame(`{"jsonrpc":"2.0","id":2,"method":"shutdown"}`) +
		frame(`{"jsonrpc":"2.0","method":"exit"}`)
	for i := range n {
		c := startRaw(t, serveLSP(Options{NoWorkspace: true}))
		if err := c.conn.SetWriteDeadline(time.Now().Add(10 * time.Second)); err != nil {
			t.Fatal(err)
		}
		if _, err := strings.NewReader(all).WriteTo(c.conn); err != nil {
			t.Fatalf("run %d: write: %v", i, err)
		}
		got := map[float64]bool{}
		timeout := time.After(20 * time.Second)
	read:
		for {
			select {
			case m, ok := <-c.in:
				if !ok {
					break read
				}
				if id, ok := m["id"].(float64); ok {
					if errorCode(m) != 0 {
						t.Fatalf("run %d: call %v answered with an error: %v", i, id, m)
					}
					got[id] = true
				}
			case <-timeout:
				t.Fatalf("run %d: the server did not close the connection after exit", i)
			}
		}
		if !got[1] || !got[2] {
			t.Fatalf("run %d: responses received: %v, want 1 (initialize) and 2 (shutdown)", i, got)
		}
		select {
		case err := <-c.done:
			if err != nil {
				t.Fatalf("run %d: Serve: %v", i, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("run %d: Serve did not return", i)
		}
	}
}

// TestExitAsCall: exit sent as a call (with an id) still ends the session,
// after its answer; Serve returns nil after shutdown.
func TestExitAsCall(t *testing.T) {
	c := startRaw(t, serveLSP(Options{NoWorkspace: true}))
	c.send(`{"jsonrpc":"2.0","id":1,"method":"shutdown"}`)
	c.response(1)
	c.send(`{"jsonrpc":"2.0","id":2,"method":"exit"}`)
	if m := c.response(2); m["error"] != nil {
		t.Errorf("exit answered %v", m)
	}
	select {
	case err := <-c.done:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return after exit")
	}
}
