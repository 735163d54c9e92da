package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/internal/jsonw"
)

// This file is the server's JSON-RPC 2.0 transport over a byte stream, as
// the LSP base protocol frames it: a header of "Name: value" lines ending in
// an empty line, of which only Content-Length is read, then that many bytes
// of JSON. The server answers what it reads with responses of its own; it
// never sends a request, so a response it reads is ignored.

// maxMessageSize bounds one message's body. A larger message is skipped
// (read and discarded) and answered with an InvalidRequest error.
const maxMessageSize = 64 << 20

// maxHeaderLine bounds one header line (the reader's buffer is a little
// larger, so the line and its line ending fit).
const maxHeaderLine = 4096

// The JSON-RPC 2.0 error codes the server answers with.
const (
	codeParseError     = -32700 // the body is not JSON
	codeInvalidRequest = -32600 // JSON, but not a request
	codeMethodNotFound = -32601
	codeInvalidParams  = -32602
	codeInternalError  = -32603
)

// The messages of the transport's own errors.
const (
	msgParseError     = "JSON-RPC parse error"
	msgInvalidRequest = "JSON-RPC invalid request"
)

// rpcError is an error a call is answered with.
type rpcError struct {
	Code    int64  `json:"code"`
	Message string `json:"message"`
}

func (e *rpcError) Error() string { return e.Message }

// errorf returns an rpcError of code.
func errorf(code int64, format string, args ...any) *rpcError {
	return &rpcError{Code: code, Message: fmt.Sprintf(format, args...)}
}

// errFraming is a broken frame: the transport cannot be resynchronised.
var errFraming = errors.New("lsp: broken message framing")

// errExited ends the read loop after the exit notification.
var errExited = errors.New("lsp: exit")

// request is one call or notification the connection hands its handler.
type request struct {
	method string
	params json.RawMessage // nil when absent
	call   bool            // a call, answered; else a notification
	id     json.RawMessage // a call's id, as the response writes it
}

// handler handles a request. A call is answered with the result, or with
// the error (an *rpcError as it is, any other as InternalError); a
// notification's result and error are dropped.
type handler func(ctx context.Context, r *request) (result any, err error)

// conn is a JSON-RPC connection on a byte stream. It reads messages on one
// goroutine (run): notifications are handled there, one after the other,
// so document changes apply in the order they arrive; each call runs on a
// goroutine of its own, with a context that $/cancelRequest cancels.
// Writes are whole frames, one Write each, serialised.
type conn struct {
	rwc io.ReadWriteCloser
	in  *bufio.Reader
	log *slog.Logger

	wmu sync.Mutex // serialises writes

	mu      sync.Mutex
	running map[string]context.CancelFunc // calls running, by id key
	open    int                           // calls read and not answered
	quiet   chan struct{}                 // closed while open == 0
}

func newConn(rwc io.ReadWriteCloser, log *slog.Logger) *conn {
	c := &conn{rwc: rwc, in: bufio.NewReaderSize(rwc, maxHeaderLine+64), log: log,
		running: map[string]context.CancelFunc{}, quiet: make(chan struct{})}
	close(c.quiet) // no call is open
	return c
}

// run reads and dispatches messages until the transport fails or breaks
// (its error, io.EOF at a clean end), the handler reports the exit
// notification (errExited) or ctx is done.
func (c *conn) run(ctx context.Context, h handler, isExit func(method string) bool) error {
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		body, err := c.readFrame()
		if err != nil {
			return err
		}
		if body == nil {
			continue // answered already
		}
		if c.dispatch(ctx, body, h, isExit) {
			return errExited
		}
	}
}

// readFrame reads one frame and returns its body; nil (and no error) when
// the frame was answered with an error here (a body over maxMessageSize).
func (c *conn) readFrame() ([]byte, error) {
	length := -1
	sawHeader := false
	for {
		// ReadSlice, not ReadString: a header line is read into the
		// reader's fixed buffer, so a peer that sends megabytes without a
		// line break costs no more memory than a short line.
		raw, err := c.in.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			return nil, fmt.Errorf("%w: header line longer than %d bytes", errFraming, maxHeaderLine)
		}
		if err != nil {
			if err == io.EOF && !sawHeader && len(raw) == 0 {
				return nil, io.EOF
			}
			return nil, unexpected(err)
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
			return nil, fmt.Errorf("%w: header line of %d bytes", errFraming, len(line))
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			return nil, fmt.Errorf("%w: header line %q", errFraming, ast.EscapeInvalidUTF8(line))
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.Atoi(strings.TrimSpace(value))
			if err != nil || n < 0 {
				return nil, fmt.Errorf("%w: Content-Length %q", errFraming, ast.EscapeInvalidUTF8(strings.TrimSpace(value)))
			}
			length = n
		}
	}
	if length < 0 {
		return nil, fmt.Errorf("%w: header without Content-Length", errFraming)
	}
	if length > maxMessageSize {
		if _, err := io.CopyN(io.Discard, c.in, int64(length)); err != nil {
			return nil, fmt.Errorf("%w: message body cut short: %w", errFraming, unexpected(err))
		}
		c.log.Warn("message too large, skipped", "bytes", length)
		c.write(errorResponse(nil, errorf(codeInvalidRequest, "message of %d bytes is larger than %d", length, maxMessageSize)))
		return nil, nil
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(c.in, body); err != nil {
		return nil, fmt.Errorf("%w: message body cut short: %w", errFraming, unexpected(err))
	}
	return body, nil
}

func unexpected(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// message is the envelope of a JSON-RPC message, its members as written.
type message struct {
	JSONRPC json.RawMessage `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  json.RawMessage `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
}

// classify reads one message of a frame's body, which is valid JSON (a
// member of it when the body is a batch). It returns the request of a call
// or a notification, or the error an invalid message is answered with and
// the id of that answer (nil: null); neither for a response, which is
// ignored: the server sends no request.
func classify(body []byte, batch bool) (*request, *rpcError, json.RawMessage) {
	t := bytes.TrimSpace(body)
	var m message
	if t[0] != '{' || json.Unmarshal(t, &m) != nil { // JSON, but no object
		e := &rpcError{Code: codeInvalidRequest, Message: msgParseError}
		if batch {
			e.Code = codeParseError
		}
		return nil, e, nil
	}
	invalid := &rpcError{Code: codeInvalidRequest, Message: msgInvalidRequest}
	id, idOK := replyID(m.ID)
	switch {
	case string(m.JSONRPC) != `"2.0"`:
		return nil, invalid, id
	case m.Method == nil && (m.Result != nil || m.Error != nil):
		// whatever its id: a response is never answered, so that two
		// peers cannot answer each other's errors forever
		return nil, nil, nil
	case len(m.Method) == 0 || m.Method[0] != '"':
		return nil, invalid, id
	}
	method, err := jsonString(m.Method)
	if err != nil {
		return nil, invalid, id
	}
	r := &request{method: method, params: m.Params}
	switch {
	case m.ID == nil || string(m.ID) == "null":
		return r, nil, nil
	case !idOK:
		return nil, invalid, nil
	}
	r.call, r.id = true, id
	return r, nil, nil
}

// replyID returns the id a response echoes: a string (its bytes that are
// not UTF-8 written \xNN, as diagnostics write them, so that the reply is
// valid JSON whatever the client sent) or an integer, re-encoded; ok is
// false for any other id (null, a fraction, a boolean, an object…).
func replyID(raw json.RawMessage) (json.RawMessage, bool) {
	if len(raw) == 0 {
		return nil, false
	}
	switch raw[0] {
	case '"':
		s, err := jsonString(raw)
		if err != nil {
			return nil, false
		}
		out, err := marshal(s)
		if err != nil {
			return nil, false
		}
		return out, true
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		n, err := strconv.ParseInt(string(raw), 10, 64)
		if err != nil {
			return nil, false
		}
		return json.RawMessage(strconv.FormatInt(n, 10)), true
	}
	return nil, false
}

// jsonString decodes a JSON string token with each byte that is not UTF-8
// written as the text \xNN (ast.EscapeInvalidUTF8) rather than U+FFFD.
func jsonString(tok []byte) (string, error) {
	var s string
	if err := jsonw.Unmarshal(tok, &s); err != nil {
		return "", err
	}
	return ast.EscapeInvalidUTF8(s), nil
}

// dispatch handles one frame's body, a message or a batch (an array of
// them), and reports whether the exit notification was among them. The
// notifications are handled in order, the calls concurrently; once every
// call has been answered, the answers are written: a message's alone, a
// batch's as one array (none when there is no answer).
func (c *conn) dispatch(ctx context.Context, body []byte, h handler, isExit func(string) bool) (exit bool) {
	if !json.Valid(body) {
		c.log.Warn("message is not JSON, answered with ParseError", "bytes", len(body))
		c.write(errorResponse(nil, &rpcError{Code: codeParseError, Message: msgParseError}))
		return false
	}
	t := bytes.TrimSpace(body)
	batch := t[0] == '['
	members := []json.RawMessage{t}
	if batch {
		if err := json.Unmarshal(t, &members); err != nil || len(members) == 0 {
			c.write(errorResponse(nil, &rpcError{Code: codeInvalidRequest, Message: msgInvalidRequest}))
			return false
		}
	}
	out := make([][]byte, len(members)) // each member's response, or nil
	var wg sync.WaitGroup
	n := 0
	for i, m := range members {
		r, e, id := classify(m, batch)
		switch {
		case e != nil:
			c.log.Warn("invalid message answered with an error", "bytes", len(m))
			out[i] = errorResponse(id, e)
		case r == nil:
			c.log.Info("ignored a response: the server sends no request")
		case !r.call:
			_, _ = h(ctx, r)
			exit = exit || isExit(r.method)
		default:
			n++
			wg.Go(func() { out[i] = c.respond(ctx, h, r) })
		}
	}
	answer := func() {
		out = slices.DeleteFunc(out, func(r []byte) bool { return r == nil })
		switch {
		case batch && len(out) > 0:
			c.write(append(append([]byte{'['}, bytes.Join(out, []byte{','})...), ']'))
		case len(out) > 0:
			c.write(out[0])
		}
	}
	if n == 0 {
		answer()
		return exit
	}
	c.begin(n)
	go func() {
		defer c.end(n)
		wg.Wait()
		answer()
	}()
	return exit
}

// respond runs a call's handler with a context that $/cancelRequest of its
// id cancels, and returns its response.
func (c *conn) respond(ctx context.Context, h handler, r *request) []byte {
	ctx, cancel := context.WithCancel(ctx)
	key := string(r.id)
	c.mu.Lock()
	c.running[key] = cancel
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.running, key) // a later call with the same id keeps its own entry
		c.mu.Unlock()
		cancel()
	}()
	result, err := h(ctx, r)
	if err != nil {
		var re *rpcError
		if !errors.As(err, &re) {
			re = errorf(codeInternalError, "%v", err)
		}
		return errorResponse(r.id, re)
	}
	res, merr := marshal(result)
	if merr != nil {
		c.log.Error("result not encoded", "method", r.method, "err", merr)
		return errorResponse(r.id, errorf(codeInternalError, "plangram: result of %s not encoded: %v", r.method, merr))
	}
	return wire(outMessage{ID: r.id, Result: res})
}

// cancel cancels the running call whose id is written idKey (the reply's
// form of the id, replyID).
func (c *conn) cancel(idKey json.RawMessage) {
	c.mu.Lock()
	cancel := c.running[string(idKey)]
	c.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// outMessage is a message the server writes: a response (ID set) or a
// notification.
type outMessage struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      any             `json:"id,omitempty"` // a json.RawMessage; nil is written null
	Method  string          `json:"method,omitempty"`
	Params  any             `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

// wire encodes m as JSON-RPC 2.0.
func wire(m outMessage) []byte {
	m.JSONRPC = "2.0"
	b, err := marshal(m)
	if err != nil {
		return []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"response not encoded"}}`)
	}
	return b
}

// errorResponse returns an error response; a nil id is written null. The
// message is made valid UTF-8 as diagnostics are (ast.EscapeInvalidUTF8).
func errorResponse(id json.RawMessage, e *rpcError) []byte {
	return wire(outMessage{ID: id, Error: &rpcError{Code: e.Code, Message: ast.EscapeInvalidUTF8(e.Message)}})
}

// notify sends a notification.
func (c *conn) notify(method string, params any) error {
	p, err := marshal(params)
	if err != nil {
		return err
	}
	return c.write(wire(outMessage{Method: method, Params: json.RawMessage(p)}))
}

// write sends one frame with one Write call.
func (c *conn) write(body []byte) error {
	frame := append(fmt.Appendf(make([]byte, 0, len(body)+32), "Content-Length: %d\r\n\r\n", len(body)), body...)
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err := c.rwc.Write(frame)
	return err
}

// marshal encodes v as JSON without escaping <, > and &. encoding/json
// writes every string as valid UTF-8.
func marshal(v any) ([]byte, error) {
	w := &jsonw.W{}
	w.Marshal(v)
	return w.B, w.Err()
}

// begin counts n (> 0) calls read and not yet answered.
func (c *conn) begin(n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.open == 0 {
		c.quiet = make(chan struct{})
	}
	c.open += n
}

// end counts n (> 0) calls answered.
func (c *conn) end(n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.open -= n
	if c.open == 0 {
		close(c.quiet)
	}
}

// allAnswered returns a channel that is closed once every call read so far
// has been answered.
func (c *conn) allAnswered() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.quiet
}
