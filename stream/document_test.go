package stream

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
)

// TestReadDocument: a tools reply read as a document (grammar.Parse with
// Dialect tools and ReadTools) has one action a ToolCall event, with the
// event's name, params and span and the name's span in its opening tag;
// one diagnostic an Error event, coded by its kind; the text and thinking
// between calls as prose, adjacent pieces as one node; and it is what the
// stream gives over the same bytes.
func TestReadDocument(t *testing.T) {
	src := "<think>plan it</think>\nFirst:\n<function_calls>\n<invoke name=\"read_file\">\n<parameter name=\"path\">a.go</parameter>\n</invoke>\n</function_calls>\n<list_files>\n<path>src</path>\n<recursive>often</recursive>\n</list_files>\n"
	var events []Event
	if err := Parse(context.Background(), strings.NewReader(src), 7, Options{}, func(e *Event) error { events = append(events, *e); return nil }); err != nil {
		t.Fatal(err)
	}
	var calls, errs []Event
	for _, e := range events {
		switch e.Type {
		case ToolCall:
			calls = append(calls, e)
		case Error:
			errs = append(errs, e)
		}
	}
	doc, err := grammar.Parse(context.Background(), "r.md", []byte(src), grammar.Options{Dialect: grammar.DialectTools, ReadTools: ReadDocument})
	if err != nil {
		t.Fatal(err)
	}
	if doc.Dialect != grammar.DialectTools || len(doc.Actions) != len(calls) || len(calls) != 2 {
		t.Fatalf("dialect %q, %d actions, %d calls", doc.Dialect, len(doc.Actions), len(calls))
	}
	for i, a := range doc.Actions {
		c := calls[i]
		if a.Name != c.Name || a.Span != c.Span || len(a.Params) != len(c.Params) {
			t.Errorf("action %d: %q %v %v, want the call %q %v %v", i, a.Name, a.Span, a.Params, c.Name, c.Span, c.Params)
		}
		if got := src[a.NameSpan.Start.Offset:a.NameSpan.End.Offset]; got != a.Name || a.NameSpan.Start.Offset < a.Span.Start.Offset {
			t.Errorf("action %d: name span covers %q", i, got)
		}
	}
	if v, _ := doc.Actions[1].Params.Get("recursive"); v != "often" {
		t.Errorf("recursive = %v, want the bad value as written", v)
	}
	if len(doc.Diagnostics) != len(errs) || len(errs) != 1 {
		t.Fatalf("diagnostics %v, errors %v", doc.Diagnostics, errs)
	}
	if d := doc.Diagnostics[0]; d.Code != errs[0].Kind || d.Severity != errs[0].Severity || d.Message != errs[0].Message || d.Span != errs[0].Span {
		t.Errorf("diagnostic %+v, want the error event %+v", d, errs[0])
	}
	var kinds []string
	for _, p := range doc.Prose {
		kinds = append(kinds, p.Kind+":"+p.Text)
		if src[p.Span.Start.Offset:p.Span.End.Offset] != p.Text {
			t.Errorf("prose %q does not hold its span's text", p.Text)
		}
	}
	if want := []string{"thinking:<think>plan it</think>", "text:\nFirst:\n<function_calls>\n", "text:\n</function_calls>\n", "text:\n"}; strings.Join(kinds, "|") != strings.Join(want, "|") {
		t.Errorf("prose %q, want %q", kinds, want)
	}
}

// TestReadDocumentOptions: grammar.Parse reads the actions as for every
// dialect, Silenced drops a diagnostic, a cancelled context
// stops the read, and the tools dialect without ReadTools is an error,
// not a guess; auto never reads a reply as tools.
func TestReadDocumentOptions(t *testing.T) {
	src := []byte("<read_file>\n<path>a.go</path>\n</read_file>\n<list_files>\n<recursive>x</recursive>\n</list_files>\n")
	doc, err := grammar.Parse(context.Background(), "r", src, grammar.Options{Dialect: grammar.DialectTools, ReadTools: ReadDocument,
		Silenced: func(code string, line int) bool { return code == KindMissingParam }})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, a := range doc.Actions {
		names = append(names, a.Name)
	}
	if strings.Join(names, ",") != "read_file,list_files" {
		t.Errorf("actions %q", names)
	}
	for _, d := range doc.Diagnostics {
		if d.Code == KindMissingParam {
			t.Errorf("silenced diagnostic kept: %v", d)
		}
	}
	if len(doc.Diagnostics) != 1 || doc.Diagnostics[0].Code != KindBadValue {
		t.Errorf("diagnostics %v, want the bad value only", doc.Diagnostics)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ReadDocument(ctx, "r", src, grammar.Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	if _, err := grammar.Parse(context.Background(), "r", src, grammar.Options{Dialect: grammar.DialectTools}); err == nil || !strings.Contains(err.Error(), "ReadTools") {
		t.Errorf("no ReadTools: %v", err)
	}
	if doc, err := grammar.Parse(context.Background(), "r", src, grammar.Options{ReadTools: ReadDocument}); err != nil || doc.Dialect == grammar.DialectTools {
		t.Errorf("auto read a reply as %v (%v)", doc.Dialect, err)
	}
}

// FuzzReadDocument: any bytes read as a tools document give, without a
// panic, actions and diagnostics whose spans lie in the input, each
// action's name span inside its span, and prose that holds its span's text.
func FuzzReadDocument(f *testing.F) {
	for _, s := range []string{"", "<read_file>\n<path>a</path>\n</read_file>\n", "<function_calls>\n<invoke name=\"x\">\n<parameter name=\"p\">1</parameter>\n</invoke>\n</function_calls>", "<think>a</think><list_files><recursive>z</recursive></list_files>", "<write_to_file><path>a</path><content>x"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		doc, err := grammar.Parse(context.Background(), "f", src, grammar.Options{Dialect: grammar.DialectTools, ReadTools: ReadDocument})
		if err != nil {
			t.Fatal(err)
		}
		in := func(s ast.Span) bool {
			return 0 <= s.Start.Offset && s.Start.Offset <= s.End.Offset && s.End.Offset <= len(src)
		}
		for _, a := range doc.Actions {
			if !in(a.Span) || !in(a.NameSpan) || a.NameSpan.Start.Offset < a.Span.Start.Offset || a.NameSpan.End.Offset > a.Span.End.Offset {
				t.Fatalf("action %q: span %v, name span %v", a.Name, a.Span, a.NameSpan)
			}
		}
		for _, d := range doc.Diagnostics {
			if !in(d.Span) {
				t.Fatalf("diagnostic %v out of the input", d)
			}
		}
		for _, p := range doc.Prose {
			if !in(p.Span) || string(src[p.Span.Start.Offset:p.Span.End.Offset]) != p.Text {
				t.Fatalf("prose %q at %v", p.Text, p.Span)
			}
		}
	})
}
