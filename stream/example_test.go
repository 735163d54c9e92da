package stream_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/plangram/plangram/stream"
)

// A parser is fed chunks as they arrive; here a tag is cut across two
// chunks. Text is emitted as soon as it cannot become a tag, and the call
// as soon as its closing tag is read.
func Example() {
	p, err := stream.New(stream.Options{}, func(e *stream.Event) error {
		switch e.Type {
		case stream.Text, stream.Thinking:
			fmt.Printf("%s %q\n", e.Type, e.Text)
		case stream.ToolCall:
			fmt.Printf("%s %d %s %v\n", e.Type, e.ID, e.Name, e.Params.String("path"))
		default:
			fmt.Println(e.Type)
		}
		return nil
	})
	if err != nil {
		panic(err)
	}
	for _, chunk := range []string{"Reading <b>it</b> <re", "ad_file><path>a.go</path></read_file>"} {
		if _, err := p.Write([]byte(chunk)); err != nil {
			panic(err)
		}
	}
	if err := p.Close(); err != nil {
		panic(err)
	}
	// Output:
	// text "Reading <b>it</b> "
	// tool_call_start
	// param_delta
	// tool_call 1 read_file a.go
	// end
}

// Parse reads a stream; typed parameters come converted, and a value that
// does not convert is an error event attached to the call, the value kept
// in the call as written.
func ExampleParse() {
	answer := "<list_files><path>src</path><recursive>yes</recursive></list_files>" +
		"<list_files><path>docs</path><recursive>true</recursive></list_files>"
	err := stream.Parse(context.Background(), strings.NewReader(answer), 8, stream.Options{}, func(e *stream.Event) error {
		switch e.Type {
		case stream.Error:
			fmt.Printf("call %d: %s: %s\n", e.ID, e.Kind, e.Message)
		case stream.ToolCall:
			v, _ := e.Params.Get("recursive")
			fmt.Printf("call %d: %s %s recursive=%#v\n", e.ID, e.Name, e.Params.String("path"), v)
		}
		return nil
	})
	if err != nil {
		panic(err)
	}
	// Output:
	// call 1: bad-value: parameter recursive: want true or false, got "yes"
	// call 1: list_files src recursive="yes"
	// call 2: list_files docs recursive=true
}

// The acts dialect emits an action once its last argument block can no
// longer grow: when the next act block opens or the stream ends.
func ExampleOptions_acts() {
	script := "~~~act\nwrite_file src/a.py\n~~~\n~~~python\nprint(1)\n~~~\n~~~act\nend\n~~~\n"
	err := stream.Parse(context.Background(), strings.NewReader(script), 4, stream.Options{Dialect: "acts"}, func(e *stream.Event) error {
		if e.Type == stream.ToolCall {
			fmt.Printf("%s path=%q content=%q at %s\n", e.Name, e.Params.String("path"), e.Params.String("content"), e.Span)
		}
		return nil
	})
	if err != nil {
		panic(err)
	}
	// Output:
	// write_file path="src/a.py" content="print(1)" at 1:1-7:1
	// end path="" content="" at 7:1-10:1
}

// With Syntax "auto" the parser finds the syntax at the first marker; the
// End event names it. Thinking before the marker never decides it.
func ExampleSyntaxes() {
	for _, s := range stream.Syntaxes()[:2] {
		fmt.Println(s.Name)
	}
	in := "<think>use <read_file>?</think>ok <function_calls><invoke name=\"read_file\"><parameter name=\"path\">a.go</parameter></invoke></function_calls>"
	err := stream.Parse(context.Background(), strings.NewReader(in), 5, stream.Options{Syntax: stream.Auto}, func(e *stream.Event) error {
		switch e.Type {
		case stream.ToolCall:
			fmt.Println(e.Type, e.Name, e.Params.String("path"))
		case stream.End:
			fmt.Println(e.Type, e.Syntax)
		}
		return nil
	})
	if err != nil {
		panic(err)
	}
	// Output:
	// acts
	// anthropic
	// tool_call read_file a.go
	// end anthropic-xml
}

// OpenAIWriter turns the events of any syntax into OpenAI Chat
// Completions chunks: here a Cline-style call becomes delta.tool_calls, its
// content streamed as argument fragments while it arrives (the path, which
// is trimmed and checked, comes with the end of the call).
func ExampleOpenAIWriter() {
	w := stream.NewOpenAIWriter(os.Stdout, "chatcmpl-1", "local", 0)
	in := "On it.<write_to_file><path>a.go</path><content>package a\n</content></write_to_file>"
	if err := stream.Parse(context.Background(), strings.NewReader(in), 50, stream.Options{}, w.Write); err != nil {
		panic(err)
	}
	// Output:
	// data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":0,"model":"local","choices":[{"index":0,"delta":{"role":"assistant","content":"On it."},"finish_reason":null}]}
	//
	// data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":0,"model":"local","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"write_to_file","arguments":""}}]},"finish_reason":null}]}
	//
	// data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":0,"model":"local","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"content\":\"pac"}}]},"finish_reason":null}]}
	//
	// data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":0,"model":"local","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"kage a"}}]},"finish_reason":null}]}
	//
	// data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":0,"model":"local","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\",\"path\":\"a.go\"}"}}]},"finish_reason":null}]}
	//
	// data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":0,"model":"local","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}
	//
	// data: [DONE]
}

// A Qwen3-Coder answer whose chat template opened the reasoning block: the
// stream starts with thinking and a bare </think>.
func ExampleLookupSyntax() {
	s, err := stream.LookupSyntax("qwen3-coder")
	if err != nil {
		panic(err)
	}
	fmt.Println(s.Name, "-", s.Summary)
	in := "Need the file.</think>\n<tool_call>\n<function=read_file>\n<parameter=path>\nmain.go\n</parameter>\n</function>\n</tool_call>"
	opts := stream.Options{Syntax: s.Name, InThinking: true}
	err = stream.Parse(context.Background(), strings.NewReader(in), 7, opts, func(e *stream.Event) error {
		switch e.Type {
		case stream.Thinking:
			fmt.Printf("thinking %q\n", e.Text)
		case stream.ToolCall:
			fmt.Println("tool_call", e.Name, e.Params.String("path"))
		}
		return nil
	})
	if err != nil {
		panic(err)
	}
	// Output:
	// qwen3-coder - <tool_call><function=NAME><parameter=P>value</parameter></function></tool_call>
	// thinking "Need th"
	// thinking "e file."
	// thinking ""
	// tool_call read_file main.go
}
