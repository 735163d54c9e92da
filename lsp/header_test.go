package lsp

import (
	"errors"
	"io"
	"log/slog"
	"runtime"
	"strings"
	"testing"
)

// repeatReader yields n copies of one byte.
type repeatReader struct {
	b byte
	n int64
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n <= 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > r.n {
		p = p[:r.n]
	}
	for i := range p {
		p[i] = r.b
	}
	r.n -= int64(len(p))
	return len(p), nil
}

type readOnly struct{ io.Reader }

func (readOnly) Write(p []byte) (int, error) { return len(p), nil }
func (readOnly) Close() error                { return nil }

// TestHugeHeaderLineBounded: a header line of 64 MiB without a line break
// (a broken or hostile client) ends the session with a framing error after
// reading at most the header limit into memory; the whole line used to be
// accumulated before its length was checked.
func TestHugeHeaderLineBounded(t *testing.T) {
	for _, first := range []string{"", "Content-Length: 2\r\n"} {
		r := io.MultiReader(strings.NewReader(first), &repeatReader{b: 'A', n: 64 << 20})
		c := newConn(readOnly{r}, slog.New(slog.DiscardHandler))
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := c.readFrame()
		runtime.ReadMemStats(&after)
		if !errors.Is(err, errFraming) {
			t.Fatalf("first %q: readFrame = %v, want a framing error", first, err)
		}
		if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
			t.Errorf("first %q: allocated %d bytes for a header line of 64 MiB, want < 1 MiB", first, got)
		}
	}
}

// TestLongHeaderLineAccepted: a header line up to the limit is still read
// (a long Content-Type, for example), and the message after it is served.
func TestLongHeaderLineAccepted(t *testing.T) {
	long := "Content-Type: application/vscode-jsonrpc; charset=utf-8; x="
	for len(long) < maxHeaderLine {
		long += "a"
	}
	body := `{"jsonrpc":"2.0","method":"x"}`
	in := long + "\r\nContent-Length: 30\r\n\r\n" + body
	c := newConn(readOnly{strings.NewReader(in)}, slog.New(slog.DiscardHandler))
	got, err := c.readFrame()
	if err != nil {
		t.Fatalf("readFrame: %v", err)
	}
	if string(got) != body {
		t.Fatalf("body %q, want %q", got, body)
	}
}
