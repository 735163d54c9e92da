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
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime/debug"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/fix"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/internal/textpos"
	"github.com/plangram/plangram/lint"
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
	g := newGuard(rwc, s.log)
	conn := jsonrpc2.NewConn(jsonrpc2.NewStream(g), jsonrpc2.WithCodec(codec{}))
	s.client = protocol.ClientDispatcher(conn)
	conn.Go(ctx, robust(s.log, isServerMethod, protocol.CancelHandler(ordered(protocol.ServerHandler(s, jsonrpc2.MethodNotFoundHandler)))))
	var err error
	select {
	case <-s.exited:
		// exit is handled on the read loop, so every message before it has
		// been dispatched, but the calls among them (initialize, shutdown…)
		// run on their own goroutines and their answers are written after
		// their handlers return. A client that sends its last messages in
		// one write still gets every answer: wait for them, bounded.
		t := time.NewTimer(exitWait)
		select {
		case <-g.allAnswered():
		case <-conn.Done():
		case <-ctx.Done():
		case <-t.C:
			s.log.Warn("exit: calls still unanswered", "waited", exitWait)
		}
		t.Stop()
		err = s.exitErr()
	case <-conn.Done():
		err = conn.Err()
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrClosedPipe) {
			err = nil
		}
	case <-ctx.Done():
		err = ctx.Err()
	}
	s.stopAll()
	// Closing the transport ends the read loop when it can be ended (a pipe,
	// a socket); a read blocked on a terminal's standard input cannot, so
	// the wait for the connection is bounded rather than conn.Close's.
	cancel()
	_ = rwc.Close()
	select {
	case <-conn.Done():
	case <-time.After(time.Second):
	}
	return err
}

// exitWait bounds how long exit waits for the answers to earlier calls.
const exitWait = 5 * time.Second

// codec marshals LSP payloads with the protocol package's union-aware codec
// (the same as protocol.NewServer installs).
type codec struct{}

func (codec) Marshal(v any) ([]byte, error) {
	if m, ok := v.(jsonrpc2.RawMessage); ok {
		if m == nil {
			return []byte("null"), nil
		}
		return m, nil
	}
	return protocol.Marshal(v)
}

func (codec) Unmarshal(data []byte, v any) error {
	if p, ok := v.(*jsonrpc2.RawMessage); ok {
		*p = append(jsonrpc2.RawMessage(nil), data...)
		return nil
	}
	return protocol.Unmarshal(data, v)
}

// ordered lets requests run concurrently but handles notifications on the
// read loop, one after the other, so document changes apply in order.
func ordered(h jsonrpc2.Handler) jsonrpc2.Handler {
	return func(ctx context.Context, req *jsonrpc2.Request) (any, error) {
		if req.IsCall() {
			jsonrpc2.Async(ctx)
		}
		return h(ctx, req)
	}
}

// Server implements protocol.Server. Create it with Serve.
type Server struct {
	protocol.UnimplementedServer

	base   context.Context // lives as long as the connection
	client protocol.Client
	opts   Options
	log    *slog.Logger

	mu       sync.Mutex
	docs     map[uri.URI]*document
	root     string
	shutdown bool
	exited   chan struct{}
	exitOnce sync.Once
	schemas  map[string]*schema.Schema
	checks   sync.WaitGroup
}

// document is one open text document.
type document struct {
	uri     uri.URI
	version int32
	text    []byte
	tx      *textpos.Text
	seq     uint64             // bumped by every change
	cancel  context.CancelFunc // of the running check
	parsed  *ast.Document      // parse of text (nil until needed)
}

func newServer(ctx context.Context, client protocol.Client, opts Options) *Server {
	if opts.MaxDocumentSize <= 0 {
		opts.MaxDocumentSize = 8 << 20
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Server{base: ctx, client: client, opts: opts, log: log, root: opts.Root,
		docs: map[uri.URI]*document{}, exited: make(chan struct{}), schemas: map[string]*schema.Schema{}}
}

func (s *Server) exitErr() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.shutdown {
		return nil
	}
	return ErrExitWithoutShutdown
}

// stopAll cancels every running check and waits for them.
func (s *Server) stopAll() {
	s.mu.Lock()
	for _, d := range s.docs {
		if d.cancel != nil {
			d.cancel()
		}
	}
	s.mu.Unlock()
	s.checks.Wait()
}

// Initialize answers the client's capabilities with the server's.
func (s *Server) Initialize(ctx context.Context, p *protocol.InitializeParams) (*protocol.InitializeResult, error) {
	s.mu.Lock()
	if s.root == "" && !s.opts.NoWorkspace {
		if folders, ok := p.WorkspaceFolders.Get(); ok && len(folders) > 0 && folders[0].URI.IsFile() {
			s.root = folders[0].URI.FsPath()
		} else if p.RootURI != nil && p.RootURI.IsFile() {
			s.root = p.RootURI.FsPath()
		} else if rp, ok := p.RootPath.Get(); ok && rp != "" {
			s.root = rp
		}
	}
	root := s.root
	s.mu.Unlock()
	s.log.Info("initialize", "root", root)
	openClose := true
	change := protocol.TextDocumentSyncKindFull
	quickfix := protocol.CodeActionKindQuickFix
	caps := protocol.ServerCapabilities{
		PositionEncoding:       protocol.PositionEncodingKindUTF16,
		TextDocumentSync:       &protocol.TextDocumentSyncOptions{OpenClose: &openClose, Change: &change},
		HoverProvider:          protocol.Boolean(true),
		DocumentSymbolProvider: protocol.Boolean(true),
		CompletionProvider:     &protocol.CompletionOptions{TriggerCharacters: []string{" ", "`", "*"}},
	}
	if s.opts.Fix != nil {
		caps.CodeActionProvider = &protocol.CodeActionOptions{CodeActionKinds: []protocol.CodeActionKind{quickfix}}
	}
	info := protocol.ServerInfo{Name: "plangram"}
	if s.opts.Version != "" {
		info.Version = protocol.NewOptional(s.opts.Version)
	}
	return &protocol.InitializeResult{Capabilities: caps, ServerInfo: info}, nil
}

// Shutdown stops the checks; the server then waits for exit.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.shutdown = true
	s.mu.Unlock()
	s.stopAll()
	return nil
}

// Exit ends Serve.
func (s *Server) Exit(ctx context.Context) error {
	s.exitOnce.Do(func() { close(s.exited) })
	return nil
}

// DidOpen stores the document and checks it.
func (s *Server) DidOpen(ctx context.Context, p *protocol.DidOpenTextDocumentParams) error {
	s.update(p.TextDocument.URI, p.TextDocument.Version, []byte(p.TextDocument.Text))
	return nil
}

// DidChange replaces the document's text (full sync; a ranged change is
// applied to the stored text) and checks it again.
func (s *Server) DidChange(ctx context.Context, p *protocol.DidChangeTextDocumentParams) error {
	u := p.TextDocument.URI
	s.mu.Lock()
	var text []byte
	if d := s.docs[u]; d != nil {
		text = d.text
	}
	s.mu.Unlock()
	changes := make([]change, 0, len(p.ContentChanges))
	for _, ch := range p.ContentChanges {
		switch c := ch.(type) {
		case *protocol.TextDocumentContentChangeWholeDocument:
			changes = append(changes, change{whole: true, text: c.Text})
		case *protocol.TextDocumentContentChangePartial:
			changes = append(changes, change{
				startLine: int(c.Range.Start.Line), startChar: int(c.Range.Start.Character),
				endLine: int(c.Range.End.Line), endChar: int(c.Range.End.Character), text: c.Text})
		}
	}
	s.update(u, p.TextDocument.Version, applyChanges(text, changes)) // linear in the message (changes.go)
	return nil
}

// DidClose forgets the document and clears its diagnostics.
func (s *Server) DidClose(ctx context.Context, p *protocol.DidCloseTextDocumentParams) error {
	u := p.TextDocument.URI
	s.mu.Lock()
	if d := s.docs[u]; d != nil {
		if d.cancel != nil {
			d.cancel()
		}
		delete(s.docs, u)
	}
	s.mu.Unlock()
	return s.client.PublishDiagnostics(s.base, &protocol.PublishDiagnosticsParams{URI: u, Diagnostics: []protocol.Diagnostic{}})
}

// update stores a new version of a document, cancels the check of the
// previous one and starts a check of this one. An older version than the
// stored one is ignored.
func (s *Server) update(u uri.URI, version int32, text []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[u]
	if d == nil {
		d = &document{uri: u}
		s.docs[u] = d
	} else if version < d.version {
		return
	}
	if d.cancel != nil {
		d.cancel()
	}
	d.version, d.text, d.tx, d.parsed = version, text, textpos.New(text), nil
	d.seq++
	if s.shutdown {
		return
	}
	ctx, cancel := context.WithCancel(s.base)
	d.cancel = cancel
	seq, root := d.seq, s.root
	s.checks.Add(1)
	go func() {
		defer s.checks.Done()
		defer cancel()
		defer s.recoverCheck(u, version)
		s.check(ctx, u, version, seq, text, root)
	}()
}

// recoverCheck turns a panic in a document's check into a logged error and
// one diagnostic on the document, so that a bug costs one check, never the
// session.
func (s *Server) recoverCheck(u uri.URI, version int32) {
	r := recover()
	if r == nil {
		return
	}
	s.log.Error("check panicked", "uri", u, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
	d := &ast.Diagnostic{Severity: ast.Error, Code: "internal-error",
		Message: fmt.Sprintf("internal error while checking this document: %v", r)}
	params := &protocol.PublishDiagnosticsParams{URI: u, Version: protocol.NewOptional(version),
		Diagnostics: toDiagnostics(u, textpos.New(nil), []*ast.Diagnostic{d})}
	if err := s.client.PublishDiagnostics(s.base, params); err != nil {
		s.log.Error("publish", "uri", u, "err", err)
	}
}

// check runs the parser and the workspace rules over one version of a
// document and publishes the diagnostics unless a newer version arrived.
func (s *Server) check(ctx context.Context, u uri.URI, version int32, seq uint64, text []byte, root string) {
	if s.opts.Debounce > 0 {
		t := time.NewTimer(s.opts.Debounce)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
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
	params := &protocol.PublishDiagnosticsParams{URI: u, Version: protocol.NewOptional(version),
		Diagnostics: toDiagnostics(u, d.tx, diags)}
	if err := s.client.PublishDiagnostics(s.base, params); err != nil {
		s.log.Error("publish", "uri", u, "err", err)
	}
}

// snapshot returns the current text and parse of a document, parsing it
// (without the workspace rules) when no check has finished for it yet.
func (s *Server) snapshot(ctx context.Context, u uri.URI) (*document, *ast.Document, error) {
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

// schemaFor returns the action schema of a document's dialect.
func (s *Server) schemaFor(doc *ast.Document) *schema.Schema {
	if s.opts.Parse.Schema != nil {
		return s.opts.Parse.Schema
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if sc, ok := s.schemas[doc.Dialect]; ok {
		return sc
	}
	sc, err := schema.Builtin(doc.Dialect)
	if err != nil {
		sc = nil
	}
	s.schemas[doc.Dialect] = sc
	return sc
}
