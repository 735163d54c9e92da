package lsp

import (
	"bytes"
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/uri"

	"github.com/plangram/plangram/lsp/internal/protocol"
)

// session is a server on one end of a pipe and a test client on the
// other.
type session struct {
	t      *testing.T
	ctx    context.Context
	server *testClient
	client *testClient
	done   chan error
}

func start(t *testing.T, opts Options) *session {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	a, b := net.Pipe()
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, a, opts) }()
	tc := newTestClient(b)
	t.Cleanup(func() {
		cancel()
		_ = b.Close()
	})
	return &session{t: t, ctx: ctx, server: tc, client: tc, done: done}
}

func (s *session) initialize(root string) *protocol.InitializeResult {
	s.t.Helper()
	p := &protocol.InitializeParams{}
	if root != "" {
		u := uri.File(root)
		p.RootURI = &u
	}
	res, err := s.server.Initialize(s.ctx, p)
	if err != nil {
		s.t.Fatalf("initialize: %v", err)
	}
	if err := s.server.Initialized(s.ctx); err != nil {
		s.t.Fatal(err)
	}
	return res
}

func (s *session) open(u uri.URI, text string) {
	s.t.Helper()
	err := s.server.DidOpen(s.ctx, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: u, LanguageID: "markdown", Version: 1, Text: text}})
	if err != nil {
		s.t.Fatal(err)
	}
}

// waitDiags returns the first diagnostics published for u at version v.
func (s *session) waitDiags(u uri.URI, v int32) *protocol.PublishDiagnosticsParams {
	s.t.Helper()
	for {
		select {
		case p := <-s.client.diags:
			if p.URI == u && p.Version != nil && *p.Version == v {
				return p
			}
		case <-s.ctx.Done():
			s.t.Fatalf("no diagnostics for %s version %d", u, v)
		}
	}
}

func (s *session) exit() {
	s.t.Helper()
	if err := s.server.Shutdown(s.ctx); err != nil {
		s.t.Fatalf("shutdown: %v", err)
	}
	if err := s.server.Exit(s.ctx); err != nil {
		s.t.Fatalf("exit: %v", err)
	}
	select {
	case err := <-s.done:
		if err != nil {
			s.t.Fatalf("Serve: %v", err)
		}
	case <-s.ctx.Done():
		s.t.Fatal("Serve did not return after exit")
	}
}

// planText is a plan whose lines mix ASCII, CJK (3 bytes, 1 UTF-16 unit)
// and an emoji outside the BMP (4 bytes, 2 units).
const planText = "# Plan 漢字 😀\n" + // line 0
	"\n" +
	"- **Status:** Green\n" +
	"- **Agent:** Developer\n" +
	"- **Goal:** Test the server.\n" +
	"\n" +
	"## Rationale\n" +
	"```text\n" +
	"Because 😀.\n" +
	"```\n" +
	"\n" +
	"## Action Plan\n" +
	"\n" +
	"### `EDIT`\n" + // line 13
	"- **File Path:** `漢字/😀.py`\n" + // line 14
	"- **Description:** Edit a file that is not there.\n" +
	"\n" +
	"#### `FIND:`\n" +
	"```python\n" +
	"a\n" +
	"```\n" +
	"#### `REPLACE:`\n" +
	"```python\n" +
	"b\n" +
	"```\n" +
	"\n" +
	"### `READ`\n" + // line 26
	"- **File Path:** src/app.py\n" +
	"- **Description:** Exists.\n"

func workspaceRoot(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "src", "app.py"), []byte("print(1)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

func TestDiagnosticsUTF16(t *testing.T) {
	root := workspaceRoot(t)
	s := start(t, Options{})
	res := s.initialize(root)
	if res.Capabilities.PositionEncoding != "utf-16" {
		t.Errorf("positionEncoding = %q", res.Capabilities.PositionEncoding)
	}
	u := uri.File(filepath.Join(root, "plan.md"))
	s.open(u, planText)
	p := s.waitDiags(u, 1)
	var found *protocol.Diagnostic
	for i, d := range p.Diagnostics {
		if d.Code == "file-not-found" {
			found = &p.Diagnostics[i]
		}
	}
	if found == nil {
		t.Fatalf("no file-not-found diagnostic: %+v", p.Diagnostics)
	}
	// The value's span is `漢字/😀.py` with its backticks: it starts after
	// "- **File Path:** " (17 units) and is 1+8+1 units long (16 bytes).
	want := protocol.Range{Start: protocol.Position{Line: 14, Character: 17}, End: protocol.Position{Line: 14, Character: 27}}
	if found.Range != want {
		t.Errorf("range = %+v, want %+v", found.Range, want)
	}
	if found.Severity != protocol.SeverityError {
		t.Errorf("severity = %v", found.Severity)
	}

	// An acts document: the absolute destination starts after 漢字.txt.
	u2 := uri.File(filepath.Join(root, "acts.md"))
	s.open(u2, "~~~act\nmove_file 漢字.txt /abs😀.txt\n~~~\n")
	p = s.waitDiags(u2, 1)
	var ranges []protocol.Range
	for _, d := range p.Diagnostics {
		ranges = append(ranges, d.Range)
	}
	wantRanges := []protocol.Range{
		{Start: protocol.Position{Line: 1, Character: 10}, End: protocol.Position{Line: 1, Character: 16}}, // 漢字.txt missing
		{Start: protocol.Position{Line: 1, Character: 17}, End: protocol.Position{Line: 1, Character: 27}}, // /abs😀.txt absolute
	}
	if len(ranges) != 2 || ranges[0] != wantRanges[0] || ranges[1] != wantRanges[1] {
		t.Errorf("ranges = %+v, want %+v", ranges, wantRanges)
	}
	s.exit()
}

func TestHoverCompletionSymbols(t *testing.T) {
	root := workspaceRoot(t)
	s := start(t, Options{NoWorkspace: true})
	s.initialize(root)
	u := uri.File(filepath.Join(root, "plan.md"))
	s.open(u, planText)
	s.waitDiags(u, 1)

	hoverAt := func(line, char uint32) string {
		t.Helper()
		h, err := s.server.Hover(s.ctx, &protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: protocol.Position{Line: line, Character: char}})
		if err != nil {
			t.Fatal(err)
		}
		if h == nil {
			return ""
		}
		return h.Contents.Value
	}
	if got := hoverAt(13, 6); !strings.Contains(got, "**EDIT**") || !strings.Contains(got, "FIND") {
		t.Errorf("hover on EDIT = %q", got)
	}
	if got := hoverAt(14, 6); !strings.Contains(got, "`path`") || !strings.Contains(got, "File to edit") {
		t.Errorf("hover on File Path = %q", got)
	}
	if got := hoverAt(14, 22); !strings.Contains(got, "`path`") {
		t.Errorf("hover on the path value (after 漢字) = %q", got)
	}
	if got := hoverAt(1, 0); got != "" {
		t.Errorf("hover on a blank line = %q", got)
	}

	// Document symbols: title > sections > actions.
	res, err := s.server.DocumentSymbol(s.ctx, &protocol.TextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}})
	if err != nil {
		t.Fatal(err)
	}
	syms := res
	if len(syms) != 1 || syms[0].Name != "Plan 漢字 😀" || syms[0].Kind != protocol.SymbolKindFile {
		t.Fatalf("symbols = %+v", syms)
	}
	var names []string
	for _, c := range syms[0].Children {
		names = append(names, c.Name)
		for _, a := range c.Children {
			names = append(names, "  "+a.Name+" "+a.Detail)
		}
	}
	if got, want := strings.Join(names, "|"), "Rationale|Action Plan|  EDIT 漢字/😀.py|  READ src/app.py"; got != want {
		t.Errorf("outline = %q, want %q", got, want)
	}
	// The title's selection range ends after the emoji: "# Plan " 7 units,
	// 漢字 2, a space 1, 😀 2 (21 bytes in all).
	if sel := syms[0].SelectionRange; sel.End != (protocol.Position{Line: 0, Character: 12}) {
		t.Errorf("title selection = %+v", sel)
	}

	complete := func(u uri.URI, line, char uint32) []protocol.CompletionItem {
		t.Helper()
		r, err := s.server.Completion(s.ctx, &protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: protocol.Position{Line: line, Character: char}})
		if err != nil {
			t.Fatal(err)
		}
		return r.Items
	}
	labels := func(items []protocol.CompletionItem) string {
		var ls []string
		for _, it := range items {
			ls = append(ls, it.Label)
		}
		return strings.Join(ls, ",")
	}
	// Action names after "### `" in a plan, with the closing backtick.
	u2 := uri.File(filepath.Join(root, "typing.md"))
	typing := planText + "\n### `CR\n"
	s.open(u2, typing)
	s.waitDiags(u2, 1)
	items := complete(u2, 30, 7)
	if !strings.Contains(labels(items), "CREATE,EDIT,READ") {
		t.Errorf("plan action completion = %s", labels(items))
	}
	for _, it := range items {
		if it.Label == "CREATE" {
			te := it.TextEdit
			if te.NewText != "CREATE`" || te.Range.Start.Character != 5 || te.Range.End.Character != 7 {
				t.Errorf("CREATE edit = %+v", te)
			}
		}
	}
	// Metadata keys: an action's keys inside it, the document's before.
	if got := labels(complete(u, 15, 2)); got != "File Path,Description,Match All" {
		t.Errorf("EDIT keys = %s", got)
	}
	if got := labels(complete(u, 2, 2)); got != "Status,Agent,Goal" {
		t.Errorf("document keys = %s", got)
	}
	// Action names on the first line of an act block.
	u3 := uri.File(filepath.Join(root, "acts.md"))
	s.open(u3, "Start:\n\n~~~act\nwr\n~~~\n")
	s.waitDiags(u3, 1)
	if got := labels(complete(u3, 3, 2)); !strings.HasPrefix(got, "write_file,patch_file") {
		t.Errorf("act completion = %s", got)
	}
	if got := labels(complete(u3, 0, 3)); got != "" {
		t.Errorf("completion in prose = %s", got)
	}
	// … also when the act block opens on a list item's marker line.
	u5 := uri.File(filepath.Join(root, "steps.md"))
	s.open(u5, "1. ~~~act\n   wr\n   ~~~\n")
	s.waitDiags(u5, 1)
	if got := labels(complete(u5, 1, 5)); !strings.HasPrefix(got, "write_file,patch_file") {
		t.Errorf("act completion on a marker line's block = %s", got)
	}

	// An acts document: hover on the action and on an inline argument, and
	// its actions in the outline under the heading before them.
	u4 := uri.File(filepath.Join(root, "acts2.md"))
	s.open(u4, "# Steps 😀\n\n~~~act\nwrite_file 漢.txt\n~~~\n~~~\nx\n~~~\n~~~act\nend\n~~~\n")
	s.waitDiags(u4, 1)
	hoverIn := func(line, char uint32) string {
		t.Helper()
		h, err := s.server.Hover(s.ctx, &protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: u4}, Position: protocol.Position{Line: line, Character: char}})
		if err != nil || h == nil {
			return ""
		}
		return h.Contents.Value
	}
	if got := hoverIn(3, 3); !strings.Contains(got, "**write_file**") || !strings.Contains(got, "write_file(path, content)") {
		t.Errorf("hover on write_file = %q", got)
	}
	if got := hoverIn(3, 12); !strings.Contains(got, "`path` (path, required)") {
		t.Errorf("hover on the path argument = %q", got)
	}
	res, err = s.server.DocumentSymbol(s.ctx, &protocol.TextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: u4}})
	if err != nil {
		t.Fatal(err)
	}
	syms = res
	if len(syms) != 1 || len(syms[0].Children) != 2 || syms[0].Children[0].Name != "write_file" || syms[0].Children[0].Detail != "漢.txt" ||
		syms[0].Children[1].Name != "end" || syms[0].Children[0].Kind != protocol.SymbolKindFunction {
		t.Errorf("acts outline = %+v", syms)
	}
	s.exit()
}

func TestCodeActionFix(t *testing.T) {
	fix := func(ctx context.Context, name string, src []byte) ([]byte, []string, error) {
		if bytes.HasPrefix(src, []byte("#漢")) {
			return append([]byte("# "), src[1:]...), []string{"added the space after # in the title"}, nil
		}
		return src, nil, nil
	}
	s := start(t, Options{NoWorkspace: true, Fix: fix})
	res := s.initialize("")
	if res.Capabilities.CodeActionProvider == nil {
		t.Fatal("no code action capability")
	}
	u := uri.URI("untitled:plan.md")
	s.open(u, "#漢字 title 😀\n")
	s.waitDiags(u, 1)
	acts, err := s.server.CodeAction(s.ctx, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}})
	if err != nil {
		t.Fatal(err)
	}
	if len(acts) != 1 {
		t.Fatalf("code actions = %+v", acts)
	}
	ca := acts[0]
	edits := ca.Edit.Changes[u]
	want := protocol.TextEdit{Range: protocol.Range{Start: protocol.Position{Line: 0, Character: 1}, End: protocol.Position{Line: 0, Character: 1}}, NewText: " "}
	if len(edits) != 1 || edits[0] != want || ca.Kind != protocol.QuickFix {
		t.Errorf("code action = %+v, edits %+v", ca, edits)
	}
	// Nothing to fix: no action.
	if err := s.server.DidChange(s.ctx, &protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{URI: u, Version: 2},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{{Text: "# fine\n"}}}); err != nil {
		t.Fatal(err)
	}
	s.waitDiags(u, 2)
	acts, err = s.server.CodeAction(s.ctx, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}})
	if err != nil || len(acts) != 0 {
		t.Errorf("code actions on a clean document = %+v, %v", acts, err)
	}
	s.exit()
}

// TestChangesCancelStaleChecks sends many changes quickly: the checks of
// superseded versions are cancelled, and the last version's diagnostics
// describe the last text.
func TestChangesCancelStaleChecks(t *testing.T) {
	s := start(t, Options{NoWorkspace: true, Debounce: 50 * time.Millisecond})
	s.initialize("")
	u := uri.URI("untitled:acts.md")
	s.open(u, "~~~act\necho hi\n~~~\n")
	const last = 40
	for v := int32(2); v <= last; v++ {
		text := "~~~act\necho hi\n~~~\n"
		if v == last {
			text = "~~~act\nfrobnicate\n~~~\n"
		}
		if err := s.server.DidChange(s.ctx, &protocol.DidChangeTextDocumentParams{
			TextDocument:   protocol.VersionedTextDocumentIdentifier{URI: u, Version: v},
			ContentChanges: []protocol.TextDocumentContentChangeEvent{{Text: text}}}); err != nil {
			t.Fatal(err)
		}
	}
	p := s.waitDiags(u, last)
	if len(p.Diagnostics) != 1 || p.Diagnostics[0].Code != "unknown-action" {
		t.Errorf("last diagnostics = %+v", p.Diagnostics)
	}
	published := 1 // the last one
	for len(s.client.diags) > 0 {
		<-s.client.diags
		published++
	}
	if published > last/2 {
		t.Errorf("%d of %d versions were checked and published; stale checks were not cancelled", published, last)
	}
	s.exit()
}

// TestIncrementalChange applies a ranged change in UTF-16 positions.
func TestIncrementalChange(t *testing.T) {
	s := start(t, Options{NoWorkspace: true})
	s.initialize("")
	u := uri.URI("untitled:acts.md")
	s.open(u, "~~~act\necho 😀 x\n~~~\n")
	s.waitDiags(u, 1)
	// Replace "echo" (line 1, 0-4) by "frobnicate".
	if err := s.server.DidChange(s.ctx, &protocol.DidChangeTextDocumentParams{
		TextDocument: protocol.VersionedTextDocumentIdentifier{URI: u, Version: 2},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{{
			Range: &protocol.Range{Start: protocol.Position{Line: 1, Character: 0}, End: protocol.Position{Line: 1, Character: 4}}, Text: "frobnicate"}}}); err != nil {
		t.Fatal(err)
	}
	p := s.waitDiags(u, 2)
	if len(p.Diagnostics) != 1 || p.Diagnostics[0].Range.End != (protocol.Position{Line: 1, Character: 10}) {
		t.Errorf("diagnostics after the ranged change = %+v", p.Diagnostics)
	}
	s.exit()
}

func TestExitWithoutShutdown(t *testing.T) {
	s := start(t, Options{})
	s.initialize("")
	if err := s.server.Exit(s.ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-s.done:
		if !errors.Is(err, ErrExitWithoutShutdown) {
			t.Errorf("Serve = %v, want ErrExitWithoutShutdown", err)
		}
	case <-s.ctx.Done():
		t.Fatal("Serve did not return")
	}
}

// TestCodeActionPlangramFix offers `plangram fix` itself: the `#Title`
// of a plan gets its space, as one minimal edit, and the quick fix names the
// diagnostic it repairs.
func TestCodeActionPlangramFix(t *testing.T) {
	s := start(t, Options{NoWorkspace: true, Fix: DefaultFix("auto")})
	s.initialize("")
	u := uri.URI("untitled:plan.md")
	text := strings.Replace(planText, "# Plan 漢字 😀", "#Plan 漢字 😀", 1)
	s.open(u, text)
	p := s.waitDiags(u, 1)
	var titleDiag []protocol.Diagnostic
	for _, d := range p.Diagnostics {
		if d.Code == "title-missing-space" {
			titleDiag = append(titleDiag, d)
		}
	}
	if len(titleDiag) != 1 {
		t.Fatalf("diagnostics = %+v", p.Diagnostics)
	}
	acts, err := s.server.CodeAction(s.ctx, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u},
		Range: titleDiag[0].Range, Context: protocol.CodeActionContext{Diagnostics: rawDiagnostics(p.Diagnostics)}})
	if err != nil || len(acts) != 1 {
		t.Fatalf("code actions = %+v, %v", acts, err)
	}
	ca := acts[0]
	want := protocol.TextEdit{Range: protocol.Range{Start: protocol.Position{Line: 0, Character: 1}, End: protocol.Position{Line: 0, Character: 1}}, NewText: " "}
	if edits := ca.Edit.Changes[u]; len(edits) != 1 || edits[0] != want {
		t.Errorf("edits = %+v", edits)
	}
	if len(ca.Diagnostics) != 1 || ca.Diagnostics[0].Code != "title-missing-space" {
		t.Errorf("the quick fix names %+v", ca.Diagnostics)
	}
	t.Logf("quick fix: %s", ca.Title)
	s.exit()
}

// TestLoneCRLines: the protocol ends lines at "\n", "\r\n" and a lone "\r",
// as editors show them, so a document with a lone CR (old Mac line
// endings pasted into a file) gets diagnostics on the editor's lines and
// its ranged changes land where the editor means them. The server counted
// only "\n" and put both a line too high.
func TestLoneCRLines(t *testing.T) {
	s := start(t, Options{NoWorkspace: true})
	s.initialize("")
	u := uri.URI("untitled:acts.md")
	s.open(u, "a\rb\n~~~act\nfrobnicate x\n~~~\n")
	p := s.waitDiags(u, 1)
	want := protocol.Range{Start: protocol.Position{Line: 3, Character: 0}, End: protocol.Position{Line: 3, Character: 10}}
	if got := unknownActionRanges(p.Diagnostics); len(got) != 1 || got[0] != want {
		t.Fatalf("unknown-action ranges = %+v, want one at %+v", got, want)
	}
	// Replace "frobnicate" (editor line 3, 0-10) by "frob".
	if err := s.server.DidChange(s.ctx, &protocol.DidChangeTextDocumentParams{
		TextDocument: protocol.VersionedTextDocumentIdentifier{URI: u, Version: 2},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{{
			Range: &protocol.Range{Start: protocol.Position{Line: 3, Character: 0}, End: protocol.Position{Line: 3, Character: 10}}, Text: "frob"}}}); err != nil {
		t.Fatal(err)
	}
	p = s.waitDiags(u, 2)
	want.End.Character = 4
	if got := unknownActionRanges(p.Diagnostics); len(got) != 1 || got[0] != want {
		t.Errorf("unknown-action ranges after the ranged change = %+v, want one at %+v", got, want)
	}
	s.exit()
}

// unknownActionRanges returns the ranges of the unknown-action diagnostics
// (the document's lone CR has diagnostics of its own).
func unknownActionRanges(ds []protocol.Diagnostic) []protocol.Range {
	var rs []protocol.Range
	for _, d := range ds {
		if d.Code == "unknown-action" {
			rs = append(rs, d.Range)
		}
	}
	return rs
}

// TestRefusedChange: a didChange message over the work bound publishes a
// too-large error; ranged changes after it are ignored until a full-text
// change gives the document a text again.
func TestRefusedChange(t *testing.T) {
	s := start(t, Options{NoWorkspace: true})
	s.initialize("")
	u := uri.URI("untitled:acts.md")
	text, evs := manyChanges(20000, 2000)
	s.open(u, string(text))
	s.waitDiags(u, 1)
	change := func(v int32, evs []protocol.TextDocumentContentChangeEvent) {
		t.Helper()
		if err := s.server.DidChange(s.ctx, &protocol.DidChangeTextDocumentParams{
			TextDocument: protocol.VersionedTextDocumentIdentifier{URI: u, Version: v}, ContentChanges: evs}); err != nil {
			t.Fatal(err)
		}
	}
	change(2, evs)
	if p := s.waitDiags(u, 2); len(p.Diagnostics) != 1 || p.Diagnostics[0].Code != "too-large" || p.Diagnostics[0].Severity != protocol.SeverityError {
		t.Fatalf("diagnostics after the refused change = %+v", p.Diagnostics)
	}
	change(3, evs[:1])
	change(4, []protocol.TextDocumentContentChangeEvent{{Text: "~~~act\nfrobnicate\n~~~\n"}})
	if p := s.waitDiags(u, 4); len(p.Diagnostics) != 1 || p.Diagnostics[0].Code != "unknown-action" {
		t.Errorf("diagnostics after the full-text change = %+v", p.Diagnostics)
	}
	s.exit()
}
