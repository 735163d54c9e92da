// Package lsp is plangram's Language Server (`plangram lsp`): diagnostics
// on open and change (the parser's and, within a workspace, the workspace
// rules'), an outline of document symbols, hover documentation of actions
// and parameters from the action schema, completion of action names and
// metadata keys, and a quick fix that applies `plangram fix`.
//
// Positions cross the protocol in UTF-16 code units, as LSP requires;
// package textpos converts them to and from plangram's byte positions.
//
// The server keeps no global state: every Serve call has its own documents.
// Notifications (didOpen, didChange, didClose) are handled in the order they
// arrive; each change cancels the check still running for an older version
// of the same document, so a fast typist never waits for stale results.
package lsp

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"reflect"
	"runtime/debug"
	"slices"
	"sync"
	"time"

	"go.lsp.dev/uri"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/fix"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/internal/textpos"
	"github.com/plangram/plangram/lint"
	"github.com/plangram/plangram/lsp/internal/protocol"
	"github.com/plangram/plangram/schema"
	"github.com/plangram/plangram/workspace"
)

// FixFunc repairs a document the way `plangram fix` does. It returns the
// repaired source and one line per repair; an unchanged source means there
// is nothing to fix.
type FixFunc func(ctx context.Context, name string, src []byte) (fixed []byte, repairs []string, err error)

// DefaultFix is the quick fix of `plangram lsp`: `plangram fix` (package
// fix) applied in memory to a document of the dialect ("auto" detects it).
func DefaultFix(dialect string) FixFunc {
	return func(ctx context.Context, name string, src []byte) ([]byte, []string, error) {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		out, repairs := fix.Apply(src, dialect)
		msgs := make([]string, len(repairs))
		for i, r := range repairs {
			msgs[i] = r.Message
		}
		return out, msgs, nil
	}
}

// Options configures a server.
type Options struct {
	// Parse configures the parser (dialect, fence, schema); the dialect
	// defaults to auto.
	Parse grammar.Options
	// Root is the project directory for the workspace rules. Empty means
	// the client's workspace folder (rootUri); NoWorkspace turns the rules
	// off.
	Root        string
	NoWorkspace bool
	// Workspace configures the workspace rules.
	Workspace workspace.Options
	// Fix provides the quick fix (DefaultFix for `plangram fix`); nil
	// offers none.
	Fix FixFunc
	// Debounce delays each check after a change (0: check at once).
	Debounce time.Duration
	// MaxDocumentSize bounds the documents that are checked (0: 8 MiB).
	MaxDocumentSize int
	// Version is reported as the server's version.
	Version string
	// Logger receives the server's log; nil discards it.
	Logger *slog.Logger
}

// ErrExitWithoutShutdown is Serve's error when the client sent exit without
// shutdown first (the protocol's exit code 1).
var ErrExitWithoutShutdown = errors.New("lsp: exit without shutdown")

// Serve runs a language server on one connection (stdin/stdout for
// `plangram lsp`, a pipe in tests) until the client sends exit or the
// connection closes. It returns nil after shutdown and exit,
// ErrExitWithoutShutdown after an exit alone, and the connection's error
// when it breaks.
func Serve(ctx context.Context, rwc io.ReadWriteCloser, opts Options) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s := newServer(ctx, nil, opts)
	c := newConn(rwc, s.log)
	s.client, s.conn = c, c
	h := robust(s.log, s.dispatch)
	read := make(chan error, 1)
	go func() { read <- c.run(ctx, h, func(m string) bool { return m == "exit" }) }()
	var err error
	readDone, exited := false, false
	select {
	case err = <-read:
		readDone = true
		switch {
		case errors.Is(err, errExited):
			exited = true
		case errors.Is(err, io.EOF) || errors.Is(err, io.ErrClosedPipe):
			err = nil
		}
	case <-s.exited: // exit sent as a call
		exited = true
	case <-ctx.Done():
		err = ctx.Err()
	}
	if exited {
		// exit is handled on the read loop, so every message before it has
		// been dispatched, but the calls among them (initialize,
		// shutdown…) run on their own goroutines and their answers are
		// written after their handlers return. A client that sends its
		// last messages in one write still gets every answer: wait for
		// them, bounded.
		select {
		case <-c.allAnswered():
		case <-ctx.Done():
		case <-time.After(exitWait):
			s.log.Warn("exit: calls still unanswered", "waited", exitWait)
		}
		s.mu.Lock()
		err = nil
		if !s.shutdown {
			err = ErrExitWithoutShutdown
		}
		s.mu.Unlock()
	}
	s.stopAll()
	// Closing the transport ends the read loop when it can be ended (a pipe,
	// a socket); a read blocked on a terminal's standard input cannot, so
	// the wait for it is bounded.
	cancel()
	_ = rwc.Close()
	if !readDone {
		select {
		case <-read:
		case <-time.After(time.Second):
		}
	}
	return err
}

// exitWait bounds how long exit waits for the answers to earlier calls.
const exitWait = 5 * time.Second

// decodeParams decodes a request's params, which must be a JSON object,
// into v; its error is a *paramsError.
func decodeParams(raw json.RawMessage, v any) error {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || t[0] != '{' {
		what := "absent"
		if len(t) > 0 {
			what = string(t)
			if len(what) > 20 {
				what = what[:20] + "…"
			}
		}
		return paramsErrorf("params must be a JSON object, got %s", what)
	}
	if err := json.Unmarshal(t, v); err != nil {
		if te, ok := errors.AsType[*json.UnmarshalTypeError](err); ok {
			return paramsErrorf("%s: a JSON %s where %s belongs", te.Field, te.Value, jsonKind(te.Type))
		}
		return paramsErrorf("%v", err)
	}
	return nil
}

// jsonKind names the JSON value a Go type decodes from.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer in range"
	case reflect.Pointer:
		return jsonKind(t.Elem())
	}
	return "another value"
}

// dispatch calls the server's handler of a request's method.
func (s *server) dispatch(ctx context.Context, r *request) (any, error) {
	switch r.method {
	case "initialize":
		return call(ctx, r, s.Initialize)
	case "shutdown":
		return nil, s.Shutdown(ctx)
	case "exit":
		return nil, s.Exit(ctx)
	case "$/cancelRequest":
		return call(ctx, r, noResult(s.cancelRequest))
	case "textDocument/didOpen":
		return call(ctx, r, noResult(s.DidOpen))
	case "textDocument/didChange":
		return call(ctx, r, noResult(s.DidChange))
	case "textDocument/didClose":
		return call(ctx, r, noResult(s.DidClose))
	case "textDocument/hover":
		return call(ctx, r, s.Hover)
	case "textDocument/documentSymbol":
		return call(ctx, r, s.DocumentSymbol)
	case "textDocument/completion":
		return call(ctx, r, s.Completion)
	case "textDocument/codeAction":
		return call(ctx, r, s.CodeAction)
	}
	// A method of the specification the server does not implement: its
	// params must still be an object; a request is answered "not
	// implemented", a notification ignored.
	request := slices.Contains(clientRequests, r.method)
	if !request && !slices.Contains(clientNotifications, r.method) {
		return nil, fmt.Errorf("%s: %w", r.method, errUnknownMethod)
	}
	var p struct{}
	if err := decodeParams(r.params, &p); err != nil {
		return nil, err
	}
	if request {
		return nil, errorf(codeMethodNotFound, "not implemented")
	}
	return nil, nil
}

// cancelRequest cancels the running call of the id.
func (s *server) cancelRequest(ctx context.Context, p *protocol.CancelParams) error {
	id, ok := replyID(p.ID)
	if !ok {
		return paramsErrorf("the id to cancel is not an integer or a string")
	}
	if s.conn != nil {
		s.conn.cancel(id)
	}
	return nil
}

// call decodes a request's params and calls f with them.
func call[P, R any](ctx context.Context, r *request, f func(context.Context, *P) (R, error)) (any, error) {
	var p P
	if err := decodeParams(r.params, &p); err != nil {
		return nil, err
	}
	return f(ctx, &p)
}

// noResult is a notification's handler as call takes it.
func noResult[P any](f func(context.Context, *P) error) func(context.Context, *P) (any, error) {
	return func(ctx context.Context, p *P) (any, error) { return nil, f(ctx, p) }
}

// publisher sends the server's notifications to the client.
type publisher interface {
	notify(method string, params any) error
}

// publish sends textDocument/publishDiagnostics.
func (s *server) publish(p *protocol.PublishDiagnosticsParams) error {
	if s.client == nil {
		return errors.New("lsp: no client")
	}
	return s.client.notify("textDocument/publishDiagnostics", p)
}

// publishVersion publishes the diagnostics of a version of a document,
// positioned in tx; a failure to send is logged.
func (s *server) publishVersion(u uri.URI, version int32, tx *textpos.Text, ds []*ast.Diagnostic) {
	p := &protocol.PublishDiagnosticsParams{URI: u, Version: &version, Diagnostics: toDiagnostics(u, tx, ds)}
	if err := s.publish(p); err != nil {
		s.log.Error("publish", "uri", u, "err", err)
	}
}

// server is the state of one session: the open documents and the
// handlers of the methods it implements. Serve creates it.
type server struct {
	base   context.Context // lives as long as the connection
	client publisher
	conn   *conn // cancels calls; nil in tests that call handlers directly
	opts   Options
	log    *slog.Logger

	mu       sync.Mutex
	docs     map[uri.URI]*document
	root     string
	shutdown bool
	exited   chan struct{}
	exitOnce sync.Once
	checks   sync.WaitGroup
}

// document is one open text document.
type document struct {
	version int32
	text    []byte
	tx      *textpos.Text
	seq     uint64             // bumped by every change
	cancel  context.CancelFunc // of the running check (a no-op before the first)
	parsed  *ast.Document      // parse of text (nil until needed)
	refused bool               // a change was refused: text is unknown (refuse)
}

func newServer(ctx context.Context, client publisher, opts Options) *server {
	if opts.MaxDocumentSize <= 0 {
		opts.MaxDocumentSize = 8 << 20
	}
	return &server{base: ctx, client: client, opts: opts, log: cmp.Or(opts.Logger, slog.New(slog.DiscardHandler)), root: opts.Root,
		docs: map[uri.URI]*document{}, exited: make(chan struct{})}
}

// stopAll cancels every running check and waits for them.
func (s *server) stopAll() {
	s.mu.Lock()
	for _, d := range s.docs {
		d.cancel()
	}
	s.mu.Unlock()
	s.checks.Wait()
}

// Initialize answers the client's capabilities with the server's.
func (s *server) Initialize(ctx context.Context, p *protocol.InitializeParams) (*protocol.InitializeResult, error) {
	s.mu.Lock()
	if s.root == "" && !s.opts.NoWorkspace {
		if folders := p.WorkspaceFolders; len(folders) > 0 && folders[0].URI.IsFile() {
			s.root = folders[0].URI.FsPath()
		} else if p.RootURI != nil && p.RootURI.IsFile() {
			s.root = p.RootURI.FsPath()
		} else if p.RootPath != nil && *p.RootPath != "" {
			s.root = *p.RootPath
		}
	}
	root := s.root
	s.mu.Unlock()
	s.log.Info("initialize", "root", root)
	caps := protocol.ServerCapabilities{
		PositionEncoding:       "utf-16",
		TextDocumentSync:       &protocol.TextDocumentSyncOptions{OpenClose: true, Change: protocol.SyncFull},
		HoverProvider:          true,
		DocumentSymbolProvider: true,
		CompletionProvider:     &protocol.CompletionOptions{TriggerCharacters: []string{" ", "`", "*"}},
	}
	if s.opts.Fix != nil {
		caps.CodeActionProvider = &protocol.CodeActionOptions{CodeActionKinds: []protocol.CodeActionKind{protocol.QuickFix}}
	}
	info := &protocol.ServerInfo{Name: "plangram", Version: s.opts.Version}
	return &protocol.InitializeResult{Capabilities: caps, ServerInfo: info}, nil
}

// Shutdown stops the checks; the server then waits for exit.
func (s *server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.shutdown = true
	s.mu.Unlock()
	s.stopAll()
	return nil
}

// Exit ends Serve.
func (s *server) Exit(ctx context.Context) error {
	s.exitOnce.Do(func() { close(s.exited) })
	return nil
}

// DidOpen stores the document and checks it.
func (s *server) DidOpen(ctx context.Context, p *protocol.DidOpenTextDocumentParams) error {
	s.update(p.TextDocument.URI, p.TextDocument.Version, []byte(p.TextDocument.Text))
	return nil
}

// DidChange replaces the document's text (full sync; a ranged change is
// applied to the stored text) and checks it again.
func (s *server) DidChange(ctx context.Context, p *protocol.DidChangeTextDocumentParams) error {
	u := p.TextDocument.URI
	s.mu.Lock()
	var text []byte
	refused := false
	if d := s.docs[u]; d != nil {
		text, refused = d.text, d.refused
	}
	s.mu.Unlock()
	changes := p.ContentChanges
	if refused { // only a full-text change brings a refused document back
		i := len(changes) - 1
		for i >= 0 && changes[i].Range != nil {
			i--
		}
		if i < 0 {
			return nil
		}
		changes = changes[i:]
	}
	next, err := applyChanges(text, changes)
	if err != nil {
		s.refuse(u, p.TextDocument.Version, err)
		return err
	}
	s.update(u, p.TextDocument.Version, next)
	return nil
}

// refuse forgets the text of a document whose change was refused and
// publishes an error on it, until it is reopened or changed as a whole.
func (s *server) refuse(u uri.URI, version int32, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.store(u, version, nil, true)
	s.publishVersion(u, version, d.tx, []*ast.Diagnostic{{Severity: ast.Error, Code: "too-large", Message: err.Error() + "; close and reopen the document"}})
}

// DidClose forgets the document and clears its diagnostics.
func (s *server) DidClose(ctx context.Context, p *protocol.TextDocumentParams) error {
	u := p.TextDocument.URI
	s.mu.Lock()
	if d := s.docs[u]; d != nil {
		d.cancel()
		delete(s.docs, u)
	}
	s.mu.Unlock()
	return s.publish(&protocol.PublishDiagnosticsParams{URI: u, Diagnostics: []protocol.Diagnostic{}})
}

// update stores a new version of a document, cancels the check of the
// previous one and starts a check of this one. An older version than the
// stored one is ignored.
func (s *server) update(u uri.URI, version int32, text []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d := s.docs[u]; d != nil && version < d.version {
		return
	}
	d := s.store(u, version, text, false)
	if s.shutdown {
		return
	}
	ctx, cancel := context.WithCancel(s.base)
	d.cancel = cancel
	seq, root := d.seq, s.root
	s.checks.Go(func() {
		defer cancel()
		defer s.recoverCheck(u, version)
		s.check(ctx, u, version, seq, text, root)
	})
}

// store replaces the stored version of a document (s.mu held) and cancels
// the check of the previous one.
func (s *server) store(u uri.URI, version int32, text []byte, refused bool) *document {
	d := s.docs[u]
	if d == nil {
		d = &document{cancel: func() {}}
		s.docs[u] = d
	}
	d.cancel()
	d.version, d.text, d.tx, d.parsed, d.refused = version, text, textpos.New(text), nil, refused
	d.seq++
	return d
}

// recoverCheck turns a panic in a document's check into a logged error and
// one diagnostic on the document, so that a bug costs one check, never the
// session.
func (s *server) recoverCheck(u uri.URI, version int32) {
	r := recover()
	if r == nil {
		return
	}
	s.log.Error("check panicked", "uri", u, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
	s.publishVersion(u, version, textpos.New(nil), []*ast.Diagnostic{{Severity: ast.Error, Code: "internal-error",
		Message: fmt.Sprintf("internal error while checking this document: %v", r)}})
}

// check runs the parser and the workspace rules over one version of a
// document and publishes the diagnostics unless a newer version arrived.
func (s *server) check(ctx context.Context, u uri.URI, version int32, seq uint64, text []byte, root string) {
	if s.opts.Debounce > 0 {
		select {
		case <-ctx.Done():
			return
		case <-time.After(s.opts.Debounce):
		}
	}
	var diags []*ast.Diagnostic
	var doc *ast.Document
	if len(text) > s.opts.MaxDocumentSize {
		diags = []*ast.Diagnostic{{Severity: ast.Info, Code: "too-large",
			Message: fmt.Sprintf("document not checked: %d bytes, more than %d", len(text), s.opts.MaxDocumentSize)}}
	} else {
		opts := lint.Options{Parse: s.opts.Parse, Workspace: s.opts.Workspace}
		if !s.opts.NoWorkspace {
			opts.Root = root
		}
		var err error
		doc, diags, err = lint.Source(ctx, filename(u), text, opts)
		if err != nil {
			if ctx.Err() == nil {
				s.log.Error("check", "uri", u, "err", err)
			}
			return
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[u]
	if d == nil || d.seq != seq || ctx.Err() != nil {
		return // closed, or superseded by a newer version
	}
	if doc != nil {
		d.parsed = doc
	}
	// Published under the lock so that an older result can never be sent
	// after a newer one.
	s.publishVersion(u, version, d.tx, diags)
}

// snapshot returns the current text and parse of a document, parsing it
// (without the workspace rules) when no check has finished for it yet.
func (s *server) snapshot(ctx context.Context, u uri.URI) (*document, *ast.Document, error) {
	s.mu.Lock()
	d := s.docs[u]
	if d == nil {
		s.mu.Unlock()
		return nil, nil, fmt.Errorf("%s is not open", u)
	}
	snap := *d
	s.mu.Unlock()
	if snap.parsed != nil {
		return &snap, snap.parsed, nil
	}
	if len(snap.text) > s.opts.MaxDocumentSize {
		return &snap, &ast.Document{}, nil
	}
	doc, err := grammar.Parse(ctx, filename(u), snap.text, s.opts.Parse)
	if err != nil {
		return nil, nil, err
	}
	s.mu.Lock()
	if cur := s.docs[u]; cur != nil && cur.seq == snap.seq && cur.parsed == nil {
		cur.parsed = doc
	}
	s.mu.Unlock()
	return &snap, doc, nil
}

// schemaFor returns the action schema of a document's dialect (nil when it
// has none).
func (s *server) schemaFor(doc *ast.Document) *schema.Schema {
	if s.opts.Parse.Schema != nil {
		return s.opts.Parse.Schema
	}
	sc, _ := schema.Builtin(doc.Dialect)
	return sc
}
