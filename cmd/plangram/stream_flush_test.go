package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// countWriter counts Write calls (each one a write system call on a real
// standard output) and passes each written piece on.
type countWriter struct {
	mu     sync.Mutex
	writes int
	buf    bytes.Buffer
	pieces chan string
}

func (c *countWriter) Write(p []byte) (int, error) {
	c.mu.Lock()
	c.writes++
	c.buf.Write(p)
	c.mu.Unlock()
	if c.pieces != nil {
		c.pieces <- string(p)
	}
	return len(p), nil
}

// TestStreamFlushPerRead checks that the stream CLI writes once per read of
// standard input, not once per event: 20-byte chunks of input that has
// all arrived produce many events and few writes.
func TestStreamFlushPerRead(t *testing.T) {
	in := strings.Repeat("some text <read_file><path>a.go</path></read_file> more <thinking>hm</thinking>\n", 200)
	out := &countWriter{}
	e := &env{stdin: strings.NewReader(in), stdout: out, stderr: io.Discard}
	if code := run(context.Background(), e, []string{"stream", "--chunk", "20"}); code != exitOK {
		t.Fatalf("exit %d", code)
	}
	events := bytes.Count(out.buf.Bytes(), []byte("\n"))
	maxWrites := 2 + out.buf.Len()/(64<<10) // the end, and one per full 64 KiB output buffer
	if events < 1000 || out.writes > maxWrites {
		t.Fatalf("%d events in %d writes, want many events in at most %d writes", events, out.writes, maxWrites)
	}
}

// TestStreamFlushBeforeWaiting checks that the events of the input read so
// far are written before the CLI waits for more input: each piece fed
// through a pipe shows up on standard output before the next is sent.
func TestStreamFlushBeforeWaiting(t *testing.T) {
	pr, pw := io.Pipe()
	out := &countWriter{pieces: make(chan string, 100)}
	e := &env{stdin: pr, stdout: out, stderr: io.Discard}
	done := make(chan int)
	go func() { done <- run(context.Background(), e, []string{"stream", "--chunk", "20"}) }()
	for _, piece := range []struct{ in, want string }{
		{"hello ", `"type":"text","text":"hello "`},
		{"<read_file><path>a.go</path></read_file>", `"type":"tool_call","id":1,"name":"read_file"`},
		{"<thinking>hm", `"type":"thinking"`},
	} {
		if _, err := pw.Write([]byte(piece.in)); err != nil {
			t.Fatal(err)
		}
		var got string
		for !strings.Contains(got, piece.want) {
			select {
			case s := <-out.pieces:
				got += s
			case <-time.After(20 * time.Second): // a hang, not a speed bound
				t.Fatalf("after %q: no %s on standard output (got %q)", piece.in, piece.want, got)
			}
		}
	}
	pw.Close()
	if code := <-done; code != exitError { // the thinking block is unterminated
		t.Fatalf("exit %d", code)
	}
}

// TestStreamFileChunks checks that from a regular file the CLI feeds the
// same chunks (and so prints the same events) as reading N bytes at a time
// directly: a 64 KiB read boundary does not cut a chunk short.
func TestStreamFileChunks(t *testing.T) {
	in := strings.Repeat("words and more words <read_file><path>x</path></read_file>\n", 3000) // > 64 KiB
	path := filepath.Join(t.TempDir(), "in.txt")
	if err := os.WriteFile(path, []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var fromFile, direct bytes.Buffer
	if code := run(context.Background(), &env{stdin: f, stdout: &fromFile, stderr: io.Discard}, []string{"stream", "--chunk", "20"}); code != exitOK {
		t.Fatalf("exit %d", code)
	}
	// iotest-style reader returning exactly 20 bytes per Read, as a file does.
	if code := run(context.Background(), &env{stdin: &exactReader{s: in, n: 20}, stdout: &direct, stderr: io.Discard}, []string{"stream", "--chunk", "20"}); code != exitOK {
		t.Fatalf("exit %d", code)
	}
	if !bytes.Equal(fromFile.Bytes(), direct.Bytes()) {
		t.Fatal("events from a file differ from events of exact 20-byte reads")
	}
}

// exactReader returns n bytes per Read (fewer only at the end), as a
// regular file read with an n-byte buffer does, however large p is.
type exactReader struct {
	s string
	n int
}

func (r *exactReader) Read(p []byte) (int, error) {
	if r.s == "" {
		return 0, io.EOF
	}
	k := copy(p[:min(len(p), r.n)], r.s)
	r.s = r.s[k:]
	return k, nil
}
