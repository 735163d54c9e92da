package stream

// The <invoke> syntaxes (minimax, anthropic-xml) against the peers' own
// cases: vLLM's tests/tool_parsers/test_minimax_m2_tool_parser.py (the
// MiniMax-M2 parser's current suite) and llama.cpp's tests/test-chat.cpp
// (MiniMax-M2 template). No peer suite tests Anthropic's <function_calls>
// wrapper; the anthropic-xml cases put the same <invoke> bodies in it, as
// Anthropic documents the form for prompt-defined tools, where "spaces
// for string values are not stripped".

const vlMiniMax2File = "vllm tests/tool_parsers/test_minimax_m2_tool_parser.py "

const (
	mmOpen  = "<minimax:tool_call>"
	mmClose = "</minimax:tool_call>"
)

// lcppSpecialTools is llama.cpp's special_function_tool (test-chat.cpp).
var lcppSpecialTools = ptools(ptool("special_function", `"arg1": {"type": "integer"}`))

var peerMiniMaxM2 = []peerCase{
	{src: vlMiniMax2File + "TestContentStreaming test_plain_content", syntax: "minimax",
		in: "Hello world", text: "Hello world"},
	{src: vlMiniMax2File + "TestContentStreaming test_content_before_tool_call", syntax: "minimax",
		in:    "Let me check. " + mmOpen + `<invoke name="get_weather"><parameter name="city">Seattle</parameter></invoke>` + mmClose,
		calls: []peerCall{{"get_weather", `{"city": "Seattle"}`}}, text: "Let me check."},
	{src: vlMiniMax2File + "TestSingleInvoke test_multiple_params", syntax: "minimax",
		in:    mmOpen + `<invoke name="get_weather"><parameter name="city">Seattle</parameter><parameter name="days">5</parameter></invoke>` + mmClose,
		calls: []peerCall{{"get_weather", `{"city": "Seattle", "days": "5"}`}}},
	{src: vlMiniMax2File + "TestMultipleInvokes test_two_invokes_incremental", syntax: "minimax",
		in: mmOpen + `<invoke name="search_web"><parameter name="query">OpenAI</parameter></invoke>` +
			`<invoke name="search_web"><parameter name="query">Gemini</parameter></invoke>` + mmClose,
		calls: []peerCall{{"search_web", `{"query": "OpenAI"}`}, {"search_web", `{"query": "Gemini"}`}}},
	{src: vlMiniMax2File + "TestMultipleInvokes test_two_invokes_in_single_delta", syntax: "minimax",
		in:    mmOpen + `<invoke name="fn_a"><parameter name="x">1</parameter></invoke><invoke name="fn_b"><parameter name="y">2</parameter></invoke>` + mmClose,
		calls: []peerCall{{"fn_a", `{"x": "1"}`}, {"fn_b", `{"y": "2"}`}}},
	{src: vlMiniMax2File + "TestMultipleInvokes test_different_functions", syntax: "minimax",
		in: mmOpen + `<invoke name="get_weather"><parameter name="city">NYC</parameter></invoke>` +
			`<invoke name="get_stock"><parameter name="ticker">AAPL</parameter></invoke>` + mmClose,
		calls: []peerCall{{"get_weather", `{"city": "NYC"}`}, {"get_stock", `{"ticker": "AAPL"}`}}},
	{src: vlMiniMax2File + "TestLargeChunks test_header_and_params_in_separate_chunks", syntax: "minimax",
		in:    mmOpen + `<invoke name="get_weather"><parameter name="city">Seattle</parameter><parameter name="days">5</parameter></invoke>` + mmClose,
		calls: []peerCall{{"get_weather", `{"city": "Seattle", "days": "5"}`}}},
	{src: vlMiniMax2File + "TestEOSHandling test_end_token_ignored (closing token stripped)", syntax: "minimax",
		in:    mmOpen + `<invoke name="fn"><parameter name="k">v</parameter></invoke>`,
		calls: []peerCall{{"fn", `{"k": "v"}`}}},
	{src: vlMiniMax2File + "TestAnyOfNullableParam test_anyof_nullable_param_non_null_value", syntax: "minimax",
		tools: ptools(ptool("update_profile", `"nickname": {"anyOf": [{"type": "string"}, {"type": "null"}]}`)),
		in:    mmOpen + `<invoke name="update_profile"><parameter name="nickname">Alice</parameter></invoke>` + mmClose,
		calls: []peerCall{{"update_profile", `{"nickname": "Alice"}`}}},
	{src: vlMiniMax2File + "TestAnyOfNullableParam test_anyof_nullable_param_null_value", syntax: "minimax",
		tools: ptools(ptool("update_profile", `"nickname": {"anyOf": [{"type": "string"}, {"type": "null"}]}`)),
		in:    mmOpen + `<invoke name="update_profile"><parameter name="nickname">null</parameter></invoke>` + mmClose,
		calls: []peerCall{{"update_profile", `{"nickname": null}`}}},
	{src: vlMiniMax2File + "TestAnyOfNullableParam test_anyof_nullable_param_object_value", syntax: "minimax",
		tools: ptools(ptool("update_settings", `"config": {"anyOf": [{"type": "object"}, {"type": "null"}]}`)),
		in:    mmOpen + `<invoke name="update_settings"><parameter name="config">{"theme": "dark", "fontSize": 14}</parameter></invoke>` + mmClose,
		calls: []peerCall{{"update_settings", `{"config": {"theme": "dark", "fontSize": 14}}`}}},
	{src: lcppFile + "MiniMax-M2 message_assist_call", syntax: "minimax", tools: lcppSpecialTools,
		in:    mmOpen + "\n<invoke name=\"special_function\">\n<parameter name=\"arg1\">1</parameter>\n</invoke>\n" + mmClose,
		calls: []peerCall{{"special_function", `{"arg1": 1}`}}},
	{src: lcppFile + "MiniMax-M2 message_assist_call_thoughts (thinking_forced_open)", syntax: "minimax", tools: lcppSpecialTools, inThinking: true,
		in:    "I'm\nthinking</think>" + mmOpen + "\n<invoke name=\"special_function\">\n<parameter name=\"arg1\">1</parameter>\n</invoke>\n" + mmClose,
		calls: []peerCall{{"special_function", `{"arg1": 1}`}}, thinking: "I'm\nthinking"},
	{src: lcppFile + "MiniMax-M2 peg_tester (no newlines inside the invoke)", syntax: "minimax", tools: lcppSpecialTools,
		in:    mmOpen + "\n<invoke name=\"special_function\"><parameter name=\"arg1\">1</parameter></invoke>\n" + mmClose,
		calls: []peerCall{{"special_function", `{"arg1": 1}`}}},
	{src: lcppFile + "MiniMax-M2 generation test (reasoning then call)", syntax: "minimax", tools: lcppSpecialTools, inThinking: true,
		in:    "I am thinking\n</think>" + mmOpen + "\n<invoke name=\"special_function\"><parameter name=\"arg1\">1</parameter></invoke>\n" + mmClose,
		calls: []peerCall{{"special_function", `{"arg1": 1}`}}, thinking: "I am thinking"},
}

const (
	fcOpen  = "<function_calls>"
	fcClose = "</function_calls>"
)

var peerAnthropicXML = []peerCase{
	{src: "anthropic-xml: " + vlMiniMax2File + "test_content_before_tool_call, in <function_calls>", syntax: "anthropic-xml",
		in:    "Let me check. " + fcOpen + `<invoke name="get_weather"><parameter name="city">Seattle</parameter></invoke>` + fcClose,
		calls: []peerCall{{"get_weather", `{"city": "Seattle"}`}}, text: "Let me check."},
	{src: "anthropic-xml: " + vlMiniMax2File + "test_different_functions, in <function_calls>", syntax: "anthropic-xml",
		in: fcOpen + "\n" + `<invoke name="get_weather"><parameter name="city">NYC</parameter></invoke>` + "\n" +
			`<invoke name="get_stock"><parameter name="ticker">AAPL</parameter></invoke>` + "\n" + fcClose,
		calls: []peerCall{{"get_weather", `{"city": "NYC"}`}, {"get_stock", `{"ticker": "AAPL"}`}}},
	{src: "anthropic-xml: " + lcppFile + "MiniMax-M2 message_assist_call, in <function_calls>", syntax: "anthropic-xml", tools: lcppSpecialTools,
		in:    fcOpen + "\n<invoke name=\"special_function\">\n<parameter name=\"arg1\">1</parameter>\n</invoke>\n" + fcClose,
		calls: []peerCall{{"special_function", `{"arg1": 1}`}}},
	{src: "anthropic-xml: " + vlMiniMax2File + "test_anyof_nullable_param_object_value, in <function_calls>", syntax: "anthropic-xml",
		tools: ptools(ptool("update_settings", `"config": {"anyOf": [{"type": "object"}, {"type": "null"}]}`)),
		in:    fcOpen + `<invoke name="update_settings"><parameter name="config">{"theme": "dark", "fontSize": 14}</parameter></invoke>` + fcClose,
		calls: []peerCall{{"update_settings", `{"config": {"theme": "dark", "fontSize": 14}}`}}},
	{src: "anthropic-xml: Anthropic's prompt-tool format (spaces of string values kept)", syntax: "anthropic-xml",
		tools: ptools(ptool("str_replace", `"path": {"type": "string"}, "old_str": {"type": "string"}, "new_str": {"type": "string"}`)),
		in:    fcOpen + "\n<invoke name=\"str_replace\">\n<parameter name=\"path\">a.py</parameter>\n<parameter name=\"old_str\">    x = 1</parameter>\n<parameter name=\"new_str\">    x = 2\n</parameter>\n</invoke>\n" + fcClose,
		calls: []peerCall{{"str_replace", `{"path": "a.py", "old_str": "    x = 1", "new_str": "    x = 2"}`}}},
	{src: "anthropic-xml: a call cut by the end of the stream", syntax: "anthropic-xml",
		in:    fcOpen + "\n<invoke name=\"read\">\n<parameter name=\"path\">foo.ts</parameter>\n</invoke>\n<invoke name=\"read\">\n<parameter name=\"path\">bar",
		calls: []peerCall{{"read", `{"path": "foo.ts"}`}}, errs: []string{KindUnterminated}},
}
