package stream

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/schema"
)

func TestHideThinking(t *testing.T) {
	in := "a<thinking>b <read_file><path>x</path></read_file></thinking>c<think>d"
	var text strings.Builder
	for _, e := range collect(t, Options{HideThinking: true}, []byte(in), []int{5, 13}) {
		switch e.Type {
		case Thinking, ToolCall, ToolCallStart:
			t.Errorf("unexpected %s event", e.Type)
		case Text:
			text.WriteString(e.Text)
		case Error:
			if e.Kind != KindUnterminated {
				t.Errorf("unexpected error %s", e.Kind)
			}
		}
	}
	if text.String() != "ac" {
		t.Errorf("text %q, want %q", text.String(), "ac")
	}
}

func TestThinkingTags(t *testing.T) {
	evs := collect(t, Options{ThinkingTags: []string{"reasoning"}}, []byte("<reasoning>x</reasoning><thinking>y</thinking>"), nil)
	if evs[0].Type != Thinking || evs[0].Text != "x" || evs[1].Type != Text || evs[1].Text != "<thinking>y</thinking>" {
		t.Errorf("events %s", jsonl(t, evs))
	}
}

func TestCustomSchema(t *testing.T) {
	s, err := schema.Parse("s.json", []byte(`{"version": 1, "dialect": "tools", "actions": [
		{"name": "edit", "aliases": ["patch"], "params": [
			{"name": "count", "type": "int"}, {"name": "ratio", "type": "number"},
			{"name": "mode", "type": "enum", "enum": ["fast", "slow"]},
			{"name": "files", "type": "list"}, {"name": "body", "raw": true, "aliases": ["text"]}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	in := "<patch><count>12</count><ratio>0.5</ratio><mode>fast</mode><files>a\n\n b </files><text> x </body></text> </patch>" +
		"<edit><count>1.5</count><ratio>NaN</ratio><mode>quick</mode><files>[1]</files></edit>"
	var calls, kinds []string
	for _, e := range collect(t, Options{Schema: s}, []byte(in), nil) {
		switch e.Type {
		case ToolCall:
			b, err := e.Params.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			calls = append(calls, e.Name+string(b))
		case Error:
			kinds = append(kinds, e.Param+":"+e.Kind)
		}
	}
	want := []string{`edit{"count":12,"ratio":0.5,"mode":"fast","files":["a","b"],"body":" x </body>"}`, `edit{"count":"1.5","ratio":"NaN","mode":"quick","files":"[1]"}`} // bad values kept as written
	if strings.Join(calls, "\n") != strings.Join(want, "\n") {
		t.Errorf("calls\n%s\nwant\n%s", strings.Join(calls, "\n"), strings.Join(want, "\n"))
	}
	if got := strings.Join(kinds, " "); got != "count:bad-value ratio:bad-value mode:bad-value files:bad-value" {
		t.Errorf("errors %s", got)
	}
}

func TestAPIErrors(t *testing.T) {
	if _, err := New(Options{Dialect: "plan"}, func(*Event) error { return nil }); err == nil {
		t.Error("New accepted an unknown dialect")
	}
	if _, err := New(Options{}, nil); err == nil {
		t.Error("New accepted a nil emit function")
	}
	stop := errors.New("stop")
	p, err := New(Options{}, func(e *Event) error {
		if e.Type == ToolCall {
			return stop
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Write([]byte("<read_file><path>a</path></read_file>")); !errors.Is(err, stop) {
		t.Errorf("Write: %v, want the emit error", err)
	}
	if _, err := p.Write([]byte("more")); !errors.Is(err, stop) {
		t.Errorf("second Write: %v, want the emit error again", err)
	}
	p, _ = New(Options{}, func(*Event) error { return nil })
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Write([]byte("x")); !errors.Is(err, ErrClosed) {
		t.Errorf("Write after Close: %v", err)
	}
	if err := p.Close(); !errors.Is(err, ErrClosed) {
		t.Errorf("Close after Close: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Parse(ctx, strings.NewReader("x"), 1, Options{}, func(*Event) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("Parse with a cancelled context: %v", err)
	}
}

// Schema defaults fill the parameters a streamed call leaves out, as in the
// plan parser and generated Go.
func TestDefaults(t *testing.T) {
	s, err := schema.Parse("s.json", []byte(`{"version": 1, "dialect": "tools", "actions": [
		{"name": "run", "params": [{"name": "cmd", "required": true}, {"name": "timeout", "type": "int", "default": 30},
			{"name": "shell", "type": "enum", "enum": ["sh", "bash"], "default": "sh"}, {"name": "env", "type": "list", "default": ["A"]}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range collect(t, Options{Schema: s}, []byte("<run><cmd>ls</cmd><shell>bash</shell></run><run><cmd>x</cmd><timeout>5</timeout></run>"), nil) {
		if e.Type == ToolCall {
			b, err := e.Params.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, string(b))
			if v, _ := e.Params.Get("timeout"); v == nil {
				t.Errorf("no timeout in %s", b)
			} else if _, ok := v.(int64); !ok {
				t.Errorf("timeout %T, want int64", v)
			}
		}
	}
	want := `{"cmd":"ls","timeout":30,"shell":"bash","env":["A"]} {"cmd":"x","timeout":5,"shell":"sh","env":["A"]}`
	if strings.Join(got, " ") != want {
		t.Errorf("params %s, want %s", strings.Join(got, " "), want)
	}
}

// TestDefaultsEverySyntax: a parameter the call leaves out gets its
// schema default in every syntax that reads tool calls (issue 10: the
// JSON family — hermes, mistral, llama, kimi-k2, deepseek, harmony — left
// it out), typed as the schema says (an int default is an int64, as a
// given int is).
func TestDefaultsEverySyntax(t *testing.T) {
	s, err := schema.Parse("s.json", []byte(`{"version": 1, "dialect": "tools", "actions": [
		{"name": "run", "params": [{"name": "cmd", "required": true}, {"name": "timeout", "type": "int", "default": 30},
			{"name": "shell", "type": "enum", "enum": ["sh", "bash"], "default": "sh"}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	const ds = "<\uff5ctool\u2581calls\u2581begin\uff5c><\uff5ctool\u2581call\u2581begin\uff5c>function<\uff5ctool\u2581sep\uff5c>run\n```json\n{\"cmd\": \"ls\"}\n```<\uff5ctool\u2581call\u2581end\uff5c><\uff5ctool\u2581calls\u2581end\uff5c>"
	calls := map[string]string{
		"tools":         "<run><cmd>ls</cmd></run>",
		"anthropic-xml": `<function_calls><invoke name="run"><parameter name="cmd">ls</parameter></invoke></function_calls>`,
		"hermes":        `<tool_call>{"name": "run", "arguments": {"cmd": "ls"}}</tool_call>`,
		"mistral":       `[TOOL_CALLS] [{"name": "run", "arguments": {"cmd": "ls"}}]`,
		"llama":         `{"name": "run", "parameters": {"cmd": "ls"}}`,
		"kimi-k2":       "<|tool_calls_section_begin|><|tool_call_begin|>functions.run:0<|tool_call_argument_begin|>{\"cmd\": \"ls\"}<|tool_call_end|><|tool_calls_section_end|>",
		"deepseek":      ds,
		"harmony":       "<|start|>assistant<|channel|>commentary to=functions.run json<|message|>{\"cmd\": \"ls\"}<|call|>",
		"qwen3-coder":   "<tool_call>\n<function=run>\n<parameter=cmd>\nls\n</parameter>\n</function>\n</tool_call>",
		"seed-oss":      "<seed:tool_call>\n<function=run>\n<parameter=cmd>ls</parameter>\n</function>\n</seed:tool_call>",
		"glm":           "<tool_call>run\n<arg_key>cmd</arg_key>\n<arg_value>ls</arg_value>\n</tool_call>",
		"minimax":       "<minimax:tool_call>\n<invoke name=\"run\">\n<parameter name=\"cmd\">ls</parameter>\n</invoke>\n</minimax:tool_call>",
		"deepseek-dsml": "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"run\">\n<｜DSML｜parameter name=\"cmd\" string=\"true\">ls</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>",
		"openai-chat":   "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{\\\"cmd\\\": \\\"ls\\\"}\",\"name\":\"run\"},\"id\":\"call_0\",\"type\":\"function\"}]},\"finish_reason\":null}]}\n\ndata: [DONE]\n\n",
	}
	for syntax, in := range calls {
		var got []string
		for _, e := range collect(t, Options{Schema: s, Syntax: syntax}, []byte(in), nil) {
			if e.Type != ToolCall {
				continue
			}
			b, err := e.Params.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, string(b))
			if v, _ := e.Params.Get("timeout"); v != nil {
				if _, ok := v.(int64); !ok {
					t.Errorf("%s: timeout %T, want int64", syntax, v)
				}
			}
		}
		if want := `{"cmd":"ls","timeout":30,"shell":"sh"}`; strings.Join(got, " ") != want {
			t.Errorf("%s: calls %v, want %s", syntax, got, want)
		}
	}
}

// greedy is a scanner that keeps nothing of what it read (keep() is the end
// of the bytes received) and asks the position of that end; read, when set,
// makes it read the bytes from offset 0 again on its next scan.
type greedy struct {
	end  int
	read func(p *Parser)
}

func (g *greedy) keep() int { return g.end }

func (g *greedy) scan(p *Parser, eof bool) error {
	if g.end > 0 {
		g.read(p)
	}
	g.end = p.end()
	p.pos(g.end)
	return nil
}

// TestTightReadBeforeKeep checks that the tests' tight parsers (collect)
// fail a scanner that reads, slices or asks the position of a byte before
// its keep(), at the next Write, however small the input.
func TestTightReadBeforeKeep(t *testing.T) {
	for name, read := range map[string]func(p *Parser){
		"bytes": func(p *Parser) { _ = p.bytes(0, 1) },
		"str":   func(p *Parser) { _ = p.str(0, 1) },
		"pos":   func(p *Parser) { _ = p.pos(0) },
	} {
		p := &Parser{emit: func(*Event) error { return nil }, line: 1, d: &greedy{read: read}, tight: true}
		if _, err := p.Write([]byte("ab\nc")); err != nil {
			t.Fatal(err)
		}
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: a read before keep() did not fail", name)
				}
			}()
			_, _ = p.Write([]byte("d"))
		}()
	}
}

// TestDeltaInPlace checks that a ParamDelta, built in the parser's own
// event, carries none of the fields of the event delivered before it, and
// is positioned from the line tracker.
func TestDeltaInPlace(t *testing.T) {
	var got []Event
	p := &Parser{emit: func(e *Event) error { got = append(got, *e); return nil }, line: 1, buf: []byte("ab\ncd\ne")}
	full := Event{Type: Error, ID: 7, Name: "t", Param: "q", Text: "x", Params: ast.Params{}, Raw: "r", Kind: KindBadValue,
		Message: "m", Severity: ast.Warning, Syntax: "s", Action: &ast.Action{}, CallID: "c", Choice: 2, Exact: true}
	if err := p.send(&full); err != nil {
		t.Fatal(err)
	}
	d := &tools{c: call{id: 1, name: "write_to_file", param: "content"}}
	if err := d.delta(p, 4); err != nil {
		t.Fatal(err)
	}
	d.c.exact = true
	if err := d.delta(p, 7); err != nil {
		t.Fatal(err)
	}
	pos := func(off, line, col int) ast.Pos { return ast.Pos{Offset: off, Line: line, Col: col} }
	want := []Event{full,
		{Type: ParamDelta, ID: 1, Name: "write_to_file", Param: "content", Text: "ab\nc", Span: ast.Span{Start: pos(0, 1, 1), End: pos(4, 2, 2)}},
		{Type: ParamDelta, ID: 1, Name: "write_to_file", Param: "content", Text: "d\ne", Span: ast.Span{Start: pos(4, 2, 2), End: pos(7, 3, 2)}, Exact: true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("events:\n got %+v\nwant %+v", got, want)
	}
}
