package lsp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"sync"

	"go.lsp.dev/jsonrpc2"
)

// maxMessageSize bounds one message's body. A larger message is skipped
// (read and discarded) and answered with an InvalidRequest error.
const maxMessageSize = 64 << 20

// maxHeaderLine bounds one header line (the reader's buffer is a little
// larger, so the line and its line ending fit).
const maxHeaderLine = 4096

// guard sits between the connection and the transport. It reads the LSP
// frames itself and lets through only messages the JSON-RPC layer can
// decode: a well-framed message whose body is not JSON (ParseError, -32700),
// is not a request, notification or response (InvalidRequest, -32600), or
// is larger than maxMessageSize is answered here, with the message's id
// when it has a usable one, and the session goes on. Only a broken frame (a
// header without Content-Length, a body cut short) or a failing transport
// ends the session (docs/editors.md, "Robustness").
type guard struct {
	rwc     io.ReadWriteCloser
	in      *bufio.Reader
	log     *slog.Logger
	mu      sync.Mutex // serialises writes: the connection's and the guard's own
	pending []byte     // a re-framed message not yet handed to the reader

	// The calls handed to the connection and not answered yet: the
	// connection answers calls on their own goroutines, after the handler
	// returns, so only the transport sees when an answer has been written.
	cmu   sync.Mutex
	open  int           // calls read and not answered
	quiet chan struct{} // closed when open drops to 0; nil while open == 0
}

func newGuard(rwc io.ReadWriteCloser, log *slog.Logger) *guard {
	return &guard{rwc: rwc, in: bufio.NewReaderSize(rwc, maxHeaderLine+64), log: log}
}

// Read hands the connection whole re-framed messages.
func (g *guard) Read(p []byte) (int, error) {
	for len(g.pending) == 0 {
		if err := g.next(); err != nil {
			return 0, err
		}
	}
	n := copy(p, g.pending)
	g.pending = g.pending[n:]
	return n, nil
}

// Write sends one frame of the connection's (it writes each frame with one
// call) and counts the answers it carries.
func (g *guard) Write(p []byte) (int, error) {
	n, err := g.write(p)
	g.answered(answers(p))
	return n, err
}

// write sends one frame.
func (g *guard) write(p []byte) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.rwc.Write(p)
}

// called counts n calls handed to the connection.
func (g *guard) called(n int) {
	if n <= 0 {
		return
	}
	g.cmu.Lock()
	defer g.cmu.Unlock()
	if g.open == 0 {
		g.quiet = make(chan struct{})
	}
	g.open += n
}

// answered counts n responses written. A response to a call that was not
// counted (one the connection made up, such as the answer to an empty
// batch) cannot make the count negative.
func (g *guard) answered(n int) {
	if n <= 0 {
		return
	}
	g.cmu.Lock()
	defer g.cmu.Unlock()
	if g.open == 0 {
		return
	}
	g.open = max(g.open-n, 0)
	if g.open == 0 {
		close(g.quiet)
		g.quiet = nil
	}
}

// allAnswered returns a channel that is closed once every call read so far
// has been answered.
func (g *guard) allAnswered() <-chan struct{} {
	g.cmu.Lock()
	defer g.cmu.Unlock()
	if g.open == 0 {
		done := make(chan struct{})
		close(done)
		return done
	}
	return g.quiet
}

// batchCalls returns how many calls (requests with an id) a batch holds.
func batchCalls(body []byte) int {
	ms, err := jsonrpc2.ParseRequests(body)
	if err != nil {
		return 0
	}
	n := 0
	for _, m := range ms {
		if _, ok := m.Msg.(*jsonrpc2.Call); ok {
			n++
		}
	}
	return n
}

// answers returns how many responses a frame the connection writes holds:
// one or none for a single message, the response members for a batch.
func answers(frame []byte) int {
	body := frame
	if i := bytes.Index(frame, []byte("\r\n\r\n")); i >= 0 {
		body = frame[i+4:]
	}
	isAnswer := func(m []byte) bool {
		v, err := jsonrpc2.ScanMessageView(m)
		return err == nil && (v.Kind == jsonrpc2.MessageViewResponseResult || v.Kind == jsonrpc2.MessageViewResponseError)
	}
	if t := bytes.TrimLeft(body, " \t\r\n"); len(t) > 0 && t[0] == '[' {
		var ms []json.RawMessage
		if json.Unmarshal(body, &ms) != nil {
			return 0
		}
		n := 0
		for _, m := range ms {
			if isAnswer(m) {
				n++
			}
		}
		return n
	}
	if isAnswer(body) {
		return 1
	}
	return 0
}

// Close closes the transport.
func (g *guard) Close() error { return g.rwc.Close() }

// errFraming is a broken frame: the transport cannot be resynchronised.
var errFraming = errors.New("lsp: broken message framing")

// next reads one frame and either queues it for the connection or answers
// it with an error response.
func (g *guard) next() error {
	length := -1
	sawHeader := false
	for {
		// ReadSlice, not ReadString: a header line is read into the
		// reader's fixed buffer, so a peer that sends megabytes without a
		// line break costs no more memory than a short line.
		raw, err := g.in.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			return fmt.Errorf("%w: header line longer than %d bytes", errFraming, maxHeaderLine)
		}
		if err != nil {
			if err == io.EOF && !sawHeader && len(raw) == 0 {
				return io.EOF
			}
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return err
		}
		line := strings.TrimRight(string(raw), "\r\n")
		if line == "" {
			if !sawHeader {
				continue // blank lines between frames are tolerated
			}
			break
		}
		sawHeader = true
		if len(line) > maxHeaderLine {
			return fmt.Errorf("%w: header line of %d bytes", errFraming, len(line))
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			return fmt.Errorf("%w: header line %q", errFraming, line)
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.Atoi(strings.TrimSpace(value))
			if err != nil || n < 0 {
				return fmt.Errorf("%w: Content-Length %q", errFraming, strings.TrimSpace(value))
			}
			length = n
		}
	}
	if length < 0 {
		return fmt.Errorf("%w: header without Content-Length", errFraming)
	}
	if length > maxMessageSize {
		if _, err := io.CopyN(io.Discard, g.in, int64(length)); err != nil {
			return fmt.Errorf("%w: message body cut short: %w", errFraming, unexpected(err))
		}
		g.log.Warn("message too large, skipped", "bytes", length)
		return g.reply(nil, jsonrpc2.InvalidRequest, fmt.Sprintf("message of %d bytes is larger than %d", length, maxMessageSize))
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(g.in, body); err != nil {
		return fmt.Errorf("%w: message body cut short: %w", errFraming, unexpected(err))
	}
	if !json.Valid(body) {
		g.log.Warn("message is not JSON, answered with ParseError", "bytes", length)
		return g.reply(nil, jsonrpc2.ParseError, jsonrpc2.ErrParse.Error())
	}
	if t := bytes.TrimLeft(body, " \t\r\n"); t[0] != '[' { // a batch is checked member by member by the connection
		msg, err := jsonrpc2.DecodeMessage(body)
		if err != nil {
			g.log.Warn("invalid message answered with an error", "err", err, "bytes", length)
			return g.reply(messageID(body), jsonrpc2.InvalidRequest, err.Error())
		}
		if _, ok := msg.(*jsonrpc2.Call); ok {
			g.called(1)
		}
	} else {
		g.called(batchCalls(body))
	}
	g.pending = append(append([]byte(nil), "Content-Length: "+strconv.Itoa(length)+"\r\n\r\n"...), body...)
	return nil
}

func unexpected(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// messageID returns a message's id when it is a number or a string, else
// nil (JSON null).
func messageID(body []byte) json.RawMessage {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(body, &m) != nil || len(m.ID) == 0 {
		return nil
	}
	switch m.ID[0] {
	case '"':
		var s string
		if json.Unmarshal(m.ID, &s) == nil {
			return m.ID
		}
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		if _, err := strconv.ParseInt(string(m.ID), 10, 64); err == nil {
			return m.ID
		}
	}
	return nil
}

// reply writes an error response.
func (g *guard) reply(id json.RawMessage, code jsonrpc2.Code, msg string) error {
	if id == nil {
		id = json.RawMessage("null")
	}
	body, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int64  `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}{int64(code), msg}})
	if err != nil {
		return err
	}
	frame := append([]byte("Content-Length: "+strconv.Itoa(len(body))+"\r\n\r\n"), body...)
	_, err = g.write(frame) // answers a message the connection never sees
	return err
}
