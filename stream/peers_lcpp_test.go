package stream

import "testing"

// The kimi-k2 and deepseek syntaxes against llama.cpp's current
// tests/test-chat.cpp (its peg_tester cases for the Kimi-K2-Thinking,
// Kimi-K2 and DeepSeek-V3.1 templates): the model outputs those tests
// parse, with the reasoning, content and calls (and Kimi's call ids) they
// expect. A test that continues a prefilled reasoning is run with
// InThinking, its expected reasoning less the prefill.

const (
	lcppNow     = "llama.cpp tests/test-chat.cpp (current) "
	lcKimiThink = lcppNow + "Kimi-K2-Thinking "
	lcDSV31     = lcppNow + "DeepSeek-V3.1 "
)

var (
	lcHTML    = ptool("html", `"markup": {"type": "string"}`)
	lcEmpty   = ptool("empty_args", ``)
	lcGetTime = ptool("get_time", `"city": {"type": "string"}`)
	lcWeather = ptool("get_weather", `"city": {"type": "string"}`)
	lcExec    = ptool("execute_command", `"command": {"type": "string"}, "cwd": {"type": "string"}, "timeout": {"type": "integer"}`)
)

const lcHello = "Hello, world!\nWhat's up?"

func lcKimiCall(id, args string) string { return kimiCall + id + kimiArgs + args + kimiEnd }

var peerKimiLlamaCpp = []peerCase{
	{src: lcKimiThink + "content only", syntax: "kimi-k2", in: lcHello, text: lcHello},
	{src: lcKimiThink + "single tool call (also the Kimi-K2 and Kimi-K2-Instruct templates)", syntax: "kimi-k2", tools: ptools(lcSpecial),
		in:    kimiWrap(lcKimiCall("functions.special_function:0", `{"arg1": 1}`)),
		calls: []peerCall{{"special_function", `{"arg1": 1}`}}, ids: []string{"functions.special_function:0"}},
	{src: lcKimiThink + "single tool call with reasoning", syntax: "kimi-k2", tools: ptools(lcSpecial),
		in:    "<think>I'm thinking about this</think>" + kimiWrap(lcKimiCall("functions.special_function:0", `{"arg1": 1}`)),
		calls: []peerCall{{"special_function", `{"arg1": 1}`}}, ids: []string{"functions.special_function:0"}, thinking: "I'm thinking about this"},
	{src: lcKimiThink + "tool call with content", syntax: "kimi-k2", tools: ptools(lcSpecial),
		in:    lcHello + kimiWrap(lcKimiCall("functions.special_function:0", `{"arg1": 1}`)),
		calls: []peerCall{{"special_function", `{"arg1": 1}`}}, ids: []string{"functions.special_function:0"}, text: lcHello},
	{src: lcKimiThink + "multiple tool calls (parallel)", syntax: "kimi-k2", tools: ptools(lcSpecial, lcSpecialOpt),
		in:    kimiWrap(lcKimiCall("functions.special_function:0", `{"arg1": 1}`), lcKimiCall("functions.special_function_with_opt:1", `{"arg1": 1, "arg2": 2}`)),
		calls: []peerCall{{"special_function", `{"arg1": 1}`}, {"special_function_with_opt", `{"arg1": 1, "arg2": 2}`}},
		ids:   []string{"functions.special_function:0", "functions.special_function_with_opt:1"}},
	{src: lcKimiThink + "multiple tool calls with reasoning", syntax: "kimi-k2", tools: ptools(lcSpecial, lcPython),
		in: "<think>I need to call two functions</think>" +
			kimiWrap(lcKimiCall("functions.special_function:0", `{"arg1": 1}`), lcKimiCall("functions.python:1", `{"code": "print('hey')"}`)),
		calls: []peerCall{{"special_function", `{"arg1": 1}`}, {"python", `{"code": "print('hey')"}`}},
		ids:   []string{"functions.special_function:0", "functions.python:1"}, thinking: "I need to call two functions"},
	{src: lcKimiThink + "python tool with multiline code", syntax: "kimi-k2", tools: ptools(lcPython),
		in:    kimiWrap(lcKimiCall("functions.python:0", `{"code": "def hello():\n    print(\"Hello, world!\")\n\nhello()"}`)),
		calls: []peerCall{{"python", `{"code": "def hello():\n    print(\"Hello, world!\")\n\nhello()"}`}}, ids: []string{"functions.python:0"}},
	{src: lcKimiThink + "tool call with empty arguments", syntax: "kimi-k2", tools: ptools(lcEmpty),
		in: kimiWrap(lcKimiCall("functions.empty_args:0", `{}`)), calls: []peerCall{{"empty_args", `{}`}}, ids: []string{"functions.empty_args:0"}},
	{src: lcKimiThink + "partial tool call (streaming)", syntax: "kimi-k2", tools: ptools(lcSpecial),
		in:   kimiSec + kimiCall + "functions.special_function:0" + kimiArgs + `{"arg1": `,
		errs: []string{KindUnterminated},
		note: "llama.cpp's partial parse shows the call so far; at the end of plangram's stream the call is an unterminated error carrying what was read (its bytes markup, not text)"},
	{src: lcKimiThink + "three tool calls", syntax: "kimi-k2", tools: ptools(lcSpecial, lcPython, lcHTML),
		in: kimiWrap(lcKimiCall("functions.special_function:0", `{"arg1": 1}`), lcKimiCall("functions.python:1", `{"code": "print(1)"}`),
			lcKimiCall("functions.html:2", `{"markup": "<p>test</p>"}`)),
		calls: []peerCall{{"special_function", `{"arg1": 1}`}, {"python", `{"code": "print(1)"}`}, {"html", `{"markup": "<p>test</p>"}`}},
		ids:   []string{"functions.special_function:0", "functions.python:1", "functions.html:2"}},
	{src: lcKimiThink + "multiple tool calls inside the thinking block", syntax: "kimi-k2", tools: ptools(lcSpecial, lcPython),
		in: "<think>I need to call two functions" +
			kimiWrap(lcKimiCall("functions.special_function:0", `{"arg1": 1}`), lcKimiCall("functions.python:1", `{"code": "print('hey')"}`)),
		calls: []peerCall{{"special_function", `{"arg1": 1}`}, {"python", `{"code": "print('hey')"}`}},
		ids:   []string{"functions.special_function:0", "functions.python:1"}, thinking: "I need to call two functions"},
	{src: lcKimiThink + "calls inside the thinking block without section or end markers", syntax: "kimi-k2", tools: ptools(lcSpecial, lcPython),
		in: "<think>I need to call two functions" + kimiCall + "functions.special_function:0" + kimiArgs + `{"arg1": 1}` +
			kimiCall + "functions.python:1" + kimiArgs + `{"code": "print('hey')"}`,
		calls: []peerCall{{"special_function", `{"arg1": 1}`}, {"python", `{"code": "print('hey')"}`}},
		ids:   []string{"functions.special_function:0", "functions.python:1"}, thinking: "I need to call two functions",
		errs: []string{KindUnterminated}, note: "the same calls; plangram warns that their <|tool_call_end|> is missing"},
	{src: lcKimiThink + "real life test - execute_command", syntax: "kimi-k2", tools: ptools(lcExec),
		in:    kimiCall + "functions.execute_command:0" + kimiArgs + `{"command": "ls -lah", "cwd": "/home/user/development/exllamav3", "timeout": 10}`,
		calls: []peerCall{{"execute_command", `{"command": "ls -lah", "cwd": "/home/user/development/exllamav3", "timeout": 10}`}},
		ids:   []string{"functions.execute_command:0"}, errs: []string{KindUnterminated},
		note: "the same call; plangram warns that the stream ends before its <|tool_call_end|>"},
	{src: lcKimiThink + "continuation of a prefilled reasoning", syntax: "kimi-k2", inThinking: true,
		in: " thinking</think>" + lcHello, thinking: "thinking", text: lcHello},
}

var peerDeepSeekLlamaCpp = []peerCase{
	{src: lcDSV31 + "tool call, thinking off", syntax: "deepseek", tools: ptools(lcGetTime),
		in:    dsCallsBegin + dsCallBegin + "get_time" + dsSep + `{"city": "XYZCITY"}` + dsCallEnd + dsCallsEnd,
		calls: []peerCall{{"get_time", `{"city": "XYZCITY"}`}}},
	{src: lcDSV31 + "continuation of a prefilled reasoning", syntax: "deepseek", inThinking: true,
		in: " thinking</think>" + lcHello, thinking: "thinking", text: lcHello},
	{src: lcDSV31 + "reasoning then a tool call", syntax: "deepseek", tools: ptools(lcGetTime), inThinking: true,
		in:    "REASONING</think>" + dsCallsBegin + dsCallBegin + "get_time" + dsSep + `{"city": "Tokyo"}` + dsCallEnd + dsCallsEnd,
		calls: []peerCall{{"get_time", `{"city": "Tokyo"}`}}, thinking: "REASONING"},
	{src: lcDSV31 + "reasoning, content and two calls", syntax: "deepseek", tools: ptools(lcGetTime, lcWeather), inThinking: true,
		in: "REASONING</think>CONTENT" + dsCallsBegin + dsCallBegin + "get_time" + dsSep + `{"city": "Paris"}` + dsCallEnd +
			dsCallBegin + "get_weather" + dsSep + `{"city": "Paris"}` + dsCallEnd + dsCallsEnd,
		calls: []peerCall{{"get_time", `{"city": "Paris"}`}, {"get_weather", `{"city": "Paris"}`}}, thinking: "REASONING", text: "CONTENT"},
	{src: lcDSV31 + "reasoning then content", syntax: "deepseek", inThinking: true,
		in: "REASONING</think>\nCONTENT", thinking: "REASONING", text: "CONTENT"},
	{src: lcDSV31 + "content, thinking off", syntax: "deepseek", in: "CONTENT", text: "CONTENT"},
	{src: lcppNow + "llama-cpp-deepseek-r1 empty reasoning", syntax: "deepseek", inThinking: true,
		in: "</think>" + lcHello, text: lcHello},
	{src: lcppNow + "llama-cpp-deepseek-r1 reasoning", syntax: "deepseek", inThinking: true,
		in: "I'm\nthinking</think>" + lcHello, thinking: "I'm\nthinking", text: lcHello},
	{src: lcppNow + "llama-cpp-deepseek-r1 tool call (V3 form, fence closed on the JSON's line)", syntax: "deepseek", tools: ptools(lcSpecial), inThinking: true,
		in:    "</think>" + dsCallsBegin + dsCallBegin + "function" + dsSep + "special_function\n```json\n{\"arg1\": 1}```" + dsCallEnd + dsCallsEnd,
		calls: []peerCall{{"special_function", `{"arg1": 1}`}}},
	{src: lcppNow + "DeepSeek-R1-Distill-Qwen-32B tool call, thinking off", syntax: "deepseek", tools: ptools(lcSpecial),
		in:    dsCallsBegin + dsCallBegin + "function" + dsSep + "special_function\n```json\n{\"arg1\": 1}```" + dsCallEnd + dsCallsEnd,
		calls: []peerCall{{"special_function", `{"arg1": 1}`}}},
}

// The tools of llama.cpp's Qwen3-Coder tests, as their expectations type
// them (the string unions: a JSON value of the other type is typed,
// anything else is a string).
var (
	lcEdit     = ptool("edit", `"filename": {"type": "string"}, "oldString": {"type": "string"}, "newString": {"type": "string"}`)
	lcTodo     = ptool("todo_list", `"todos": {"type": "array", "items": {"type": "object"}}`)
	lc2req4opt = ptool("tool_2req_4opt", `"req1": {"type": "string"}, "req2": {"type": "integer"}, "opt1": {"type": "string"}, "opt2": {"type": "integer"}, "opt3": {"type": "string"}, "opt4": {"type": "integer"}`)
	lc2req5opt = ptool("tool_2req_5opt", `"req1": {"type": "string"}, "req2": {"type": "integer"}, "opt1": {"type": "string"}, "opt2": {"type": "integer"}, "opt3": {"type": "string"}, "opt4": {"type": "integer"}, "opt5": {"type": "string"}`)
	lcNullStr  = ptool("set_nullable_str", `"name": {"type": ["string", "null"]}`)
	lcNullStrF = ptool("set_nullable_str_nf", `"name": {"type": ["null", "string"]}`)
	lcNullInt  = ptool("set_nullable_int", `"count": {"type": ["integer", "null"]}`)
	lcUnion    = ptool("set_union", `"value": {"anyOf": [{"type": "string"}, {"type": "object"}]}, "amount": {"anyOf": [{"type": "string"}, {"type": "integer"}]}`)
	lcEnumNoTy = ptool("set_unit", `"unit": {"enum": ["celsius", "fahrenheit"]}`)
)

const (
	lcQwen = lcppNow + "Qwen3-Coder "
	lcStep = lcppNow + "StepFun3.5-Flash (Qwen3-Coder's format, thinking opened) "
)

var (
	lcMagic       = ptool("magic", `"name": {"type": "string"}, "ref": {"type": "string"}`)
	lcMagicInt    = ptool("magic_int", `"ref": {"type": "integer"}, "name": {"type": "string"}`)
	lcStringParam = ptool("string_param", `"text": {"type": "string"}`)
	lcQuoted      = ptool("quoted_unquoted", `"quoted": {"type": "string"}, "unquoted": {"type": "string"}`)
	lcAmount      = ptool("amount", `"orig": {"type": "number"}`)
	lcImaginary   = ptool("imaginary_number", `"number": {"type": "object", "properties": {"real": {"type": "number"}, "imaginary": {"type": "number"}}}`)
)

// qwenParams returns a qwen3-coder call of name whose parameters (name,
// value pairs) are each on their own lines.
func qwenParams(wrap bool, name string, kv ...string) string {
	s := qwenCall(name, kv...)
	if !wrap {
		s = s[len("<tool_call>\n"):]
	}
	return s
}

var peerQwen3CoderLlamaCppNow = []peerCase{
	{src: lcQwen + "content only", syntax: "qwen3-coder", in: lcHello, text: lcHello},
	{src: lcQwen + "single call", syntax: "qwen3-coder", tools: ptools(lcSpecial),
		in: qwenParams(true, "special_function", "arg1", "1"), calls: []peerCall{{"special_function", `{"arg1": 1}`}}},
	{src: lcQwen + "the opening <tool_call> skipped", syntax: "qwen3-coder", tools: ptools(lcSpecial),
		in: qwenParams(false, "special_function", "arg1", "1"), calls: []peerCall{{"special_function", `{"arg1": 1}`}}},
	{src: lcQwen + "content, then <function=> without <tool_call>", syntax: "qwen3-coder", tools: ptools(lcSpecial),
		in: "Let me call it.\n" + qwenParams(false, "special_function", "arg1", "1"), calls: []peerCall{{"special_function", `{"arg1": 1}`}}, text: "Let me call it."},
	{src: lcQwen + "only the first call omits <tool_call>", syntax: "qwen3-coder", tools: ptools(lcSpecial, lcSpecialOpt),
		in:    qwenParams(false, "special_function", "arg1", "1") + "\n" + qwenParams(true, "special_function_with_opt", "arg1", "1", "arg2", "2"),
		calls: []peerCall{{"special_function", `{"arg1": 1}`}, {"special_function_with_opt", `{"arg1": 1, "arg2": 2}`}}},
	{src: lcQwen + "parallel calls", syntax: "qwen3-coder", tools: ptools(lcSpecial, lcSpecialOpt),
		in:    qwenParams(true, "special_function", "arg1", "1") + "\n" + qwenParams(true, "special_function_with_opt", "arg1", "1", "arg2", "2"),
		calls: []peerCall{{"special_function", `{"arg1": 1}`}, {"special_function_with_opt", `{"arg1": 1, "arg2": 2}`}}},
	{src: lcQwen + "code content (multiline)", syntax: "qwen3-coder", tools: ptools(lcPython),
		in:    qwenParams(true, "python", "code", "def hello():\n    print(\"Hello, world!\")\n\nhello()"),
		calls: []peerCall{{"python", `{"code": "def hello():\n    print(\"Hello, world!\")\n\nhello()"}`}}},
	{src: lcQwen + "code content (asian unicode chars)", syntax: "qwen3-coder", tools: ptools(lcPython),
		in: qwenParams(true, "python", "code", "格"), calls: []peerCall{{"python", `{"code": "格"}`}}},
	{src: lcQwen + "HTML tag content", syntax: "qwen3-coder", tools: ptools(lcHTML),
		in:    qwenParams(true, "html", "markup", "<html>\n <head>\n  <title>Hello!</title>\n </head>\n</html>"),
		calls: []peerCall{{"html", `{"markup": "<html>\n <head>\n  <title>Hello!</title>\n </head>\n</html>"}`}}},
	{src: lcQwen + "TODO list (array of objects)", syntax: "qwen3-coder", tools: ptools(lcTodo),
		in:    qwenParams(true, "todo_list", "todos", `[{"item": "Check stuff", "selected": false}, {"item": "Prepare stuff", "selected": true}]`),
		calls: []peerCall{{"todo_list", `{"todos": [{"item": "Check stuff", "selected": false}, {"item": "Prepare stuff", "selected": true}]}`}}},
	{src: lcQwen + "flexible required argument ordering", syntax: "qwen3-coder", tools: ptools(lcEdit),
		in:    qwenParams(true, "edit", "newString", "#include", "filename", "foo.c", "oldString", "#iclunde"),
		calls: []peerCall{{"edit", `{"newString": "#include", "filename": "foo.c", "oldString": "#iclunde"}`}}},
	{src: lcQwen + "required arguments in any order", syntax: "qwen3-coder", tools: ptools(lc2req4opt),
		in:    qwenParams(true, "tool_2req_4opt", "req2", "42", "req1", "hello", "opt2", "200"),
		calls: []peerCall{{"tool_2req_4opt", `{"req2": 42, "req1": "hello", "opt2": 200}`}}},
	{src: lcQwen + "flexible optional argument ordering (2 required + 4 optional)", syntax: "qwen3-coder", tools: ptools(lc2req4opt),
		in:    qwenParams(true, "tool_2req_4opt", "req1", "hello", "req2", "42", "opt4", "100", "opt2", "200"),
		calls: []peerCall{{"tool_2req_4opt", `{"req1": "hello", "req2": 42, "opt4": 100, "opt2": 200}`}}},
	{src: lcQwen + "flexible optional argument ordering (2 required + 5 optional, reversed)", syntax: "qwen3-coder", tools: ptools(lc2req5opt),
		in:    qwenParams(true, "tool_2req_5opt", "req1", "world", "req2", "7", "opt5", "last", "opt3", "middle", "opt1", "first"),
		calls: []peerCall{{"tool_2req_5opt", `{"req1": "world", "req2": 7, "opt5": "last", "opt3": "middle", "opt1": "first"}`}}},
	{src: lcQwen + "flexible optional argument ordering (2 required + 5 optional, shuffled)", syntax: "qwen3-coder", tools: ptools(lc2req5opt),
		in:    qwenParams(true, "tool_2req_5opt", "req1", "test", "req2", "99", "opt3", "c", "opt1", "a", "opt5", "e", "opt4", "4", "opt2", "2"),
		calls: []peerCall{{"tool_2req_5opt", `{"req1": "test", "req2": 99, "opt3": "c", "opt1": "a", "opt5": "e", "opt4": 4, "opt2": 2}`}}},
	{src: lcQwen + "nullable string type", syntax: "qwen3-coder", tools: ptools(lcNullStr),
		in: qwenParams(true, "set_nullable_str", "name", "hello world"), calls: []peerCall{{"set_nullable_str", `{"name": "hello world"}`}}},
	{src: lcQwen + "nullable string with null first", syntax: "qwen3-coder", tools: ptools(lcNullStrF),
		in: qwenParams(true, "set_nullable_str_nf", "name", "hello world"), calls: []peerCall{{"set_nullable_str_nf", `{"name": "hello world"}`}}},
	{src: lcQwen + "nullable integer type", syntax: "qwen3-coder", tools: ptools(lcNullInt),
		in: qwenParams(true, "set_nullable_int", "count", "42"), calls: []peerCall{{"set_nullable_int", `{"count": 42}`}}},
	{src: lcQwen + "nullable string given null", syntax: "qwen3-coder", tools: ptools(lcNullStr),
		in: qwenParams(true, "set_nullable_str", "name", "null"), calls: []peerCall{{"set_nullable_str", `{"name": null}`}}},
	{src: lcQwen + "unions with string: JSON values typed, the rest a string", syntax: "qwen3-coder", tools: ptools(lcUnion),
		in: qwenParams(true, "set_union", "value", `{"a": 1}`, "amount", "2 dollars"), calls: []peerCall{{"set_union", `{"value": {"a": 1}, "amount": "2 dollars"}`}}},
	{src: lcQwen + "unions with string: invalid JSON is a string", syntax: "qwen3-coder", tools: ptools(lcUnion),
		in: qwenParams(true, "set_union", "value", "{not valid json", "amount", "42"), calls: []peerCall{{"set_union", `{"value": "{not valid json", "amount": 42}`}},
		errs: []string{KindBadValue},
		note: "an anyOf is not checked: the parameter takes any JSON value, and text that starts as JSON but is broken is a bad-value error, the text kept as written in the call, where llama.cpp falls back to the union's string without an error"},
	{src: lcStep + "reasoning then content", syntax: "qwen3-coder", inThinking: true,
		in: "I was thinking\n</think>\nNow I'm not.", thinking: "I was thinking", text: "Now I'm not."},
	{src: lcStep + "numeric-looking string values stay strings", syntax: "qwen3-coder", tools: ptools(lcMagic), inThinking: true,
		in:    "Let me call the magic tool\n</think>\n" + qwenParams(true, "magic", "name", "fooBar", "ref", "5123123"),
		calls: []peerCall{{"magic", `{"name": "fooBar", "ref": "5123123"}`}}, thinking: "Let me call the magic tool"},
	{src: lcStep + "a number where the schema says integer", syntax: "qwen3-coder", tools: ptools(lcSpecial), inThinking: true,
		in:    "Let me call the special function\n</think>\n" + qwenParams(true, "special_function", "arg1", "42555916"),
		calls: []peerCall{{"special_function", `{"arg1": 42555916}`}}, thinking: "Let me call the special function"},
	{src: lcStep + "an optional parameter left out", syntax: "qwen3-coder", tools: ptools(lcSpecialOpt), inThinking: true,
		in:    "Let me call the special function with opt\n</think>\n" + qwenParams(true, "special_function_with_opt", "arg1", "42555916"),
		calls: []peerCall{{"special_function_with_opt", `{"arg1": 42555916}`}}, thinking: "Let me call the special function with opt"},
	{src: lcStep + "integer and string parameters", syntax: "qwen3-coder", tools: ptools(lcMagicInt), inThinking: true,
		in:    "Let me call the magic_int function\n</think>\n" + qwenParams(true, "magic_int", "ref", "42555916", "name", "baz"),
		calls: []peerCall{{"magic_int", `{"ref": 42555916, "name": "baz"}`}}, thinking: "Let me call the magic_int function"},
	{src: lcStep + "empty text", syntax: "qwen3-coder", tools: ptools(lcStringParam), inThinking: true,
		in:    "Call string_param with empty text\n</think>\n<tool_call>\n<function=string_param>\n<parameter=text>\n\n</parameter>\n</function>\n</tool_call>",
		calls: []peerCall{{"string_param", `{"text": ""}`}}, thinking: "Call string_param with empty text"},
	{src: lcStep + "simple quoted unquoted", syntax: "qwen3-coder", tools: ptools(lcQuoted), inThinking: true,
		in:    "Test simple quoted unquoted\n</think>\n" + qwenParams(true, "quoted_unquoted", "quoted", `"foo"`, "unquoted", "foo"),
		calls: []peerCall{{"quoted_unquoted", `{"quoted": "\"foo\"", "unquoted": "foo"}`}}, thinking: "Test simple quoted unquoted"},
	{src: lcStep + "complex quoted unquoted", syntax: "qwen3-coder", tools: ptools(lcQuoted), inThinking: true,
		in:    "Test complex quoted unquoted\n</think>\n" + qwenParams(true, "quoted_unquoted", "quoted", `"printf(\"foo\");"`, "unquoted", `printf("foo");`),
		calls: []peerCall{{"quoted_unquoted", `{"quoted": "\"printf(\\\"foo\\\");\"", "unquoted": "printf(\"foo\");"}`}}, thinking: "Test complex quoted unquoted"},
	{src: lcStep + "negative number", syntax: "qwen3-coder", tools: ptools(lcMagicInt), inThinking: true,
		in:    "Test negative number\n</think>\n" + qwenParams(true, "magic_int", "ref", "-14"),
		calls: []peerCall{{"magic_int", `{"ref": -14}`}}, thinking: "Test negative number"},
	{src: lcStep + "decimal number", syntax: "qwen3-coder", tools: ptools(lcAmount), inThinking: true,
		in:    "Test decimal number\n</think>\n" + qwenParams(true, "amount", "orig", "3.14"),
		calls: []peerCall{{"amount", `{"orig": 3.14}`}}, thinking: "Test decimal number"},
	{src: lcStep + "object parameter", syntax: "qwen3-coder", tools: ptools(lcImaginary), inThinking: true,
		in:    "Test imaginary number\n</think>\n" + qwenParams(true, "imaginary_number", "number", `{ "real": 3.14, "imaginary": 2.71 }`),
		calls: []peerCall{{"imaginary_number", `{"number": {"real": 3.14, "imaginary": 2.71}}`}}, thinking: "Test imaginary number"},
	{src: lcStep + "continuation of a prefilled reasoning", syntax: "qwen3-coder", inThinking: true,
		in: " thinking\n</think>\n" + lcHello, thinking: "thinking", text: lcHello},
	{src: lcQwen + "enum without a type", syntax: "qwen3-coder", tools: ptools(lcEnumNoTy),
		in: qwenParams(true, "set_unit", "unit", "celsius"), calls: []peerCall{{"set_unit", `{"unit": "celsius"}`}}},
}

// GLM-4.6 and GLM-4.7-Flash, from the same file's earlier revision (the
// current one moved them past what the index serves).
const lcGLM = "llama.cpp tests/test-chat.cpp "

var peerGLMLlamaCpp = []peerCase{
	{src: lcGLM + "GLM-4.6 tool call", syntax: "glm", tools: ptools(lcSpecial),
		in: "<tool_call>special_function\n<arg_key>arg1</arg_key>\n<arg_value>1</arg_value>\n</tool_call>", calls: []peerCall{{"special_function", `{"arg1": 1}`}}},
	{src: lcGLM + "GLM-4.7-Flash pure content", syntax: "glm", in: lcHello, text: lcHello},
	{src: lcGLM + "GLM-4.7-Flash reasoning with content (thinking opened)", syntax: "glm", inThinking: true,
		in: "I'm\nthinking</think>" + lcHello, thinking: "I'm\nthinking", text: lcHello},
	{src: lcGLM + "GLM-4.7-Flash tool call without reasoning", syntax: "glm", tools: ptools(lcSpecial),
		in: glmTight("special_function", "arg1", "1"), calls: []peerCall{{"special_function", `{"arg1": 1}`}}},
	{src: lcGLM + "GLM-4.7-Flash tool call with reasoning", syntax: "glm", tools: ptools(lcSpecial), inThinking: true,
		in: "I'm\nthinking</think>" + glmTight("special_function", "arg1", "1"), calls: []peerCall{{"special_function", `{"arg1": 1}`}}, thinking: "I'm\nthinking"},
	{src: lcGLM + "GLM-4.7-Flash parallel calls", syntax: "glm", tools: ptools(lcSpecial, lcSpecialOpt),
		in:    glmTight("special_function", "arg1", "1") + glmTight("special_function_with_opt", "arg1", "1", "arg2", "2"),
		calls: []peerCall{{"special_function", `{"arg1": 1}`}, {"special_function_with_opt", `{"arg1": 1, "arg2": 2}`}}},
}

func TestPeersLlamaCpp(t *testing.T) {
	for name, cases := range map[string][]peerCase{"kimi-k2": peerKimiLlamaCpp, "deepseek": peerDeepSeekLlamaCpp, "qwen3-coder": peerQwen3CoderLlamaCppNow, "glm": peerGLMLlamaCpp, "more": peerMoreLlamaCpp} {
		t.Run(name, func(t *testing.T) { runPeerCases(t, cases) })
	}
}

// More templates of llama.cpp's current tests/test-chat.cpp whose format
// a syntax reads: NVIDIA Nemotron-3 Nano (Qwen3-Coder's calls, a thinking
// block the template opens), NousResearch Hermes-2-Pro (hermes) and
// ByteDance Seed-OSS (seed-oss).
const (
	lcNemotron = lcppNow + "NVIDIA-Nemotron-3-Nano-30B-A3B-BF16 "
	lcHermes   = lcppNow + "NousResearch-Hermes-2-Pro-Llama-3-8B-tool_use "
	lcSeed     = lcppNow + "ByteDance-Seed-OSS "
	lcThinking = "I'm\nthinking"
)

var (
	lcTodoList = lcTodo
	lcQ3Call   = "<tool_call>\n<function=special_function>\n<parameter=arg1>\n1\n</parameter>\n</function>\n</tool_call>"
	lcQ3Python = "<tool_call>\n<function=python>\n<parameter=code>\ndef hello():\n    print(\"Hello, world!\")\n\nhello()\n</parameter>\n</function>\n</tool_call>"
)

var peerMoreLlamaCpp = []peerCase{
	{src: lcNemotron + "content only", syntax: "qwen3-coder", in: lcHello, text: lcHello},
	{src: lcNemotron + "thinking disabled, reasoning format none: all content", syntax: "qwen3-coder",
		in: lcThinking + "\n</think>\n" + lcHello, text: lcThinking + "\n</think>\n" + lcHello},
	{src: lcNemotron + "thinking enabled: the template opened the block", syntax: "qwen3-coder", inThinking: true,
		in: lcThinking + "\n</think>\n" + lcHello, text: lcHello, thinking: lcThinking},
	{src: lcNemotron + "tool call, thinking disabled", syntax: "qwen3-coder", tools: ptools(lcSpecial),
		in: lcQ3Call, calls: []peerCall{{"special_function", `{"arg1": 1}`}}},
	{src: lcNemotron + "tool call after thinking", syntax: "qwen3-coder", tools: ptools(lcSpecial), inThinking: true,
		in: lcThinking + "\n</think>\n" + lcQ3Call, calls: []peerCall{{"special_function", `{"arg1": 1}`}}, thinking: lcThinking},
	{src: lcNemotron + "parallel tool calls", syntax: "qwen3-coder", tools: ptools(lcSpecial, lcSpecialOpt),
		in:    lcQ3Call + "\n<tool_call>\n<function=special_function_with_opt>\n<parameter=arg1>\n1\n</parameter>\n<parameter=arg2>\n2\n</parameter>\n</function>\n</tool_call>",
		calls: []peerCall{{"special_function", `{"arg1": 1}`}, {"special_function_with_opt", `{"arg1": 1, "arg2": 2}`}}},
	{src: lcNemotron + "python code", syntax: "qwen3-coder", tools: ptools(lcPython),
		in: lcQ3Python, calls: []peerCall{{"python", `{"code": "def hello():\n    print(\"Hello, world!\")\n\nhello()"}`}}},
	{src: lcNemotron + "JSON content after thinking (json_schema)", syntax: "qwen3-coder", inThinking: true,
		in:   "I need to output the invoice details in JSON\n</think>\n" + `{"amount": 123.45, "date": "2025-12-03"}`,
		text: `{"amount": 123.45, "date": "2025-12-03"}`, thinking: "I need to output the invoice details in JSON"},

	{src: lcHermes + "tool call", syntax: "hermes", tools: ptools(lcSpecial),
		in: "<tool_call>\n{\"name\": \"special_function\", \"arguments\": {\"arg1\": 1}}\n</tool_call>", calls: []peerCall{{"special_function", `{"arg1": 1}`}}},
	{src: lcHermes + "content, then a tool call", syntax: "hermes", tools: ptools(lcSpecial),
		in:    lcHello + "<tool_call>\n{\"name\": \"special_function\", \"arguments\": {\"arg1\": 1}}\n</tool_call>",
		calls: []peerCall{{"special_function", `{"arg1": 1}`}}, text: lcHello},

	{src: lcSeed + "content only", syntax: "seed-oss", in: lcHello, text: lcHello},
	{src: lcSeed + "<seed:think> reasoning", syntax: "seed-oss",
		in: "<seed:think>I'm thinking about the answer</seed:think>\nHello, world!", text: "Hello, world!", thinking: "I'm thinking about the answer"},
	{src: lcSeed + "tool call", syntax: "seed-oss", tools: ptools(lcSpecial),
		in:    "<seed:tool_call>\n<function=special_function>\n<parameter=arg1>1</parameter>\n</function>\n</seed:tool_call>",
		calls: []peerCall{{"special_function", `{"arg1": 1}`}}},
	{src: lcSeed + "parallel tool calls", syntax: "seed-oss", tools: ptools(lcSpecial, lcSpecialOpt),
		in:    "<seed:tool_call>\n<function=special_function>\n<parameter=arg1>1</parameter>\n</function>\n</seed:tool_call>\n<seed:tool_call>\n<function=special_function_with_opt>\n<parameter=arg1>1</parameter>\n<parameter=arg2>2</parameter>\n</function>\n</seed:tool_call>",
		calls: []peerCall{{"special_function", `{"arg1": 1}`}, {"special_function_with_opt", `{"arg1": 1, "arg2": 2}`}}},
	{src: lcSeed + "todo list (array of objects)", syntax: "seed-oss", tools: ptools(lcTodoList),
		in:    "<seed:tool_call>\n<function=todo_list>\n<parameter=todos>[{\"item\": \"Check stuff\", \"selected\": false}, {\"item\": \"Prepare stuff\", \"selected\": true}]</parameter>\n</function>\n</seed:tool_call>",
		calls: []peerCall{{"todo_list", `{"todos": [{"item": "Check stuff", "selected": false}, {"item": "Prepare stuff", "selected": true}]}`}}},
	{src: lcSeed + "tool call with inside quotes", syntax: "seed-oss", tools: ptools(lcEdit),
		in:    "<seed:tool_call>\n<function=edit>\n<parameter=filename>\nfoo.cpp\n</parameter>\n<parameter=oldString>def foo(arg = \"14\"):\n    return arg + \"bar\"\n\n</parameter>\n<parameter=newString>def foo(arg = \"15\"):\n    pass\n\n</parameter>\n</function>\n</seed:tool_call>",
		calls: []peerCall{{"edit", `{"filename": "foo.cpp", "oldString": "def foo(arg = \"14\"):\n    return arg + \"bar\"\n", "newString": "def foo(arg = \"15\"):\n    pass\n"}`}}},
}
