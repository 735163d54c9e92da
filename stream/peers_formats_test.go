package stream

import "testing"

// The formats of llama.cpp's chat parser added for issue 30, against the
// model outputs of llama.cpp's tests/test-chat.cpp (its test cases for
// each format's template, named in src) with the results they expect.

const (
	lcGranite       = lcppNow + "ibm-granite-granite-3.3-2B-Instruct "
	lcNemotron2     = lcppNow + "NVIDIA-Nemotron-Nano-v2 "
	lcLFM2          = lcppNow + "LFM2 (JSON tools) "
	lcFireFunction  = lcppNow + "fireworks-ai-llama-3-firefunction-v2 "
	lcFunctionary31 = lcppNow + "meetkai-functionary-medium-v3.1 "
	lcCommandR7B    = lcppNow + "CohereForAI-c4ai-command-r7b-12-2024-tool_use "
	lcLlama31       = lcppNow + "meta-llama-Llama-3.1-8B-Instruct (builtin tools) "
	lcGeneric       = lcppNow + "google-gemma-2-2b-it (generic) "
	lcFunctionary32 = lcppNow + "meetkai-functionary-medium-v3.2 "
	// llama.cpp's tests/chat-parsers test_apertus_parser (the current
	// suite split out of test-chat.cpp).
	lcApertus = "llama.cpp tests test_apertus_parser Apertus-8B-Instruct "
	// llama.cpp's parser for Xiaomi MiMo (common/chat-parser.cpp,
	// common_chat_parse_xiaomi_mimo): hermes's <tool_call> JSON.
	lcMiMo = "llama.cpp common/chat-parser.cpp xiaomi_mimo form "
	// llama.cpp's parser for Apriel 1.5 (common/chat-parser.cpp,
	// common_chat_parse_apriel_1_5): <tool_calls>[…]</tool_calls> and
	// <thinking> reasoning; its tests have no Apriel case.
	lcApriel = "llama.cpp common/chat-parser.cpp apriel_1_5 form "
)

var peerFormatsLlamaCpp = []peerCase{
	{src: lcGranite + "regular content", syntax: "granite", in: lcHello, text: lcHello},
	{src: lcGranite + "content with thinking", syntax: "granite", in: "<think>I'm\nthinking</think>Hello, world!\nWhat's up?",
		thinking: "I'm\nthinking", text: lcHello},
	{src: lcGranite + "tool call", syntax: "granite", tools: ptools(lcSpecial),
		in:    `<|tool_call|>[{"name": "special_function", "arguments": {"arg1": 1}}]`,
		calls: []peerCall{{"special_function", `{"arg1": 1}`}}},
	{src: lcGranite + "thinking then <response>", syntax: "granite", in: "<think>I'm\nthinking</think><response>Hello, world!\nWhat's up?",
		thinking: "I'm\nthinking", text: lcHello},
	{src: lcNemotron2 + "regular content", syntax: "nemotron-v2", in: lcHello, text: lcHello},
	{src: lcNemotron2 + "content with thinking", syntax: "nemotron-v2", in: "<think>I'm\nthinking</think>Hello, world!\nWhat's up?",
		thinking: "I'm\nthinking", text: lcHello},
	{src: lcNemotron2 + "tool calls", syntax: "nemotron-v2", tools: ptools(lcSpecial),
		in:    `<TOOLCALL>[{"name": "special_function", "arguments": {"arg1": 1}}]</TOOLCALL>`,
		calls: []peerCall{{"special_function", `{"arg1": 1}`}}},
	{src: lcNemotron2 + "tool calls with thinking", syntax: "nemotron-v2", tools: ptools(lcSpecial),
		in:    "<think>I'm\nthinking</think>" + `<TOOLCALL>[{"name": "special_function", "arguments": {"arg1": 1}}]</TOOLCALL>`,
		calls: []peerCall{{"special_function", `{"arg1": 1}`}}, thinking: "I'm\nthinking"},
	{src: lcNemotron2 + "tool calls with extra content", syntax: "nemotron-v2", tools: ptools(lcSpecial),
		in:    `<TOOLCALL>[{"name": "special_function", "arguments": {"arg1": 1}}]</TOOLCALL>` + lcHello,
		calls: []peerCall{{"special_function", `{"arg1": 1}`}}, text: lcHello},
	{src: lcLFM2 + "regular content", syntax: "lfm2", in: lcHello, text: lcHello},
	{src: lcLFM2 + "single tool call", syntax: "lfm2", tools: ptools(lcSpecial),
		in:    `<|tool_call_start|>[{"name": "special_function", "arguments": {"arg1": 1}}]<|tool_call_end|>`,
		calls: []peerCall{{"special_function", `{"arg1": 1}`}}},
	{src: lcLFM2 + "string argument", syntax: "lfm2",
		in:    `<|tool_call_start|>[{"name": "get_weather", "arguments": {"location": "Paris"}}]<|tool_call_end|>`,
		calls: []peerCall{{"get_weather", `{"location": "Paris"}`}}},
	{src: lcLFM2 + "multiple arguments", syntax: "lfm2",
		in:    `<|tool_call_start|>[{"name": "calculate", "arguments": {"x": 10, "y": 20, "operation": "add"}}]<|tool_call_end|>`,
		calls: []peerCall{{"calculate", `{"x": 10, "y": 20, "operation": "add"}`}}},
	{src: lcLFM2 + "multiple tool calls in one array", syntax: "lfm2",
		in:    `<|tool_call_start|>[{"name": "get_weather", "arguments": {"location": "Paris"}}, {"name": "get_time", "arguments": {"timezone": "UTC"}}]<|tool_call_end|>`,
		calls: []peerCall{{"get_weather", `{"location": "Paris"}`}, {"get_time", `{"timezone": "UTC"}`}}},
	{src: lcLFM2 + "content before", syntax: "lfm2",
		in:    `Let me check the weather for you.<|tool_call_start|>[{"name": "get_weather", "arguments": {"location": "Paris"}}]<|tool_call_end|>`,
		calls: []peerCall{{"get_weather", `{"location": "Paris"}`}}, text: "Let me check the weather for you."},
	{src: lcLFM2 + "content after", syntax: "lfm2",
		in:    `<|tool_call_start|>[{"name": "get_weather", "arguments": {"location": "Paris"}}]<|tool_call_end|>Here's the result.`,
		calls: []peerCall{{"get_weather", `{"location": "Paris"}`}}, text: "Here's the result."},
	{src: lcLFM2 + "newlines", syntax: "lfm2",
		in:    "<|tool_call_start|>[{\n    \"name\": \"get_current_time\",\n    \"arguments\": {\n        \"location\": \"Paris\"\n    }\n}]<|tool_call_end|>",
		calls: []peerCall{{"get_current_time", `{"location": "Paris"}`}}},
	{src: lcApriel + "call after reasoning", syntax: "apriel", tools: ptools(lcSpecial, lcSpecialOpt),
		in: "<thinking>I'm\nthinking</thinking>" + `<tool_calls>[{"name": "special_function", "arguments": {"arg1": 1}}, ` +
			`{"name": "special_function_with_opt", "arguments": {"arg1": 1, "arg2": 2}}]</tool_calls>`,
		calls:    []peerCall{{"special_function", `{"arg1": 1}`}, {"special_function_with_opt", `{"arg1": 1, "arg2": 2}`}},
		thinking: "I'm\nthinking"},
	{src: lcApriel + "final response markers (Apriel's [BEGIN FINAL RESPONSE]…[END FINAL RESPONSE])", syntax: "apriel",
		in: "[BEGIN FINAL RESPONSE]\n" + lcHello + "\n[END FINAL RESPONSE]", text: "\n" + lcHello + "\n"},
	{src: lcFireFunction + "text message", syntax: "firefunction-v2", in: lcHello, text: lcHello},
	{src: lcFireFunction + "tool call message", syntax: "firefunction-v2", tools: ptools(lcSpecial),
		in:    ` functools[{"name": "special_function", "arguments": {"arg1": 1}}]`,
		calls: []peerCall{{"special_function", `{"arg1": 1}`}}},
	{src: lcFunctionary31 + "text message", syntax: "functionary-v3.1", in: lcHello, text: lcHello},
	{src: lcFunctionary31 + "tool call message", syntax: "functionary-v3.1", tools: ptools(lcSpecial),
		in:    `<function=special_function>{"arg1": 1}</function>`,
		calls: []peerCall{{"special_function", `{"arg1": 1}`}}},
	{src: lcMiMo + "two calls after text", syntax: "xiaomi-mimo", tools: ptools(lcSpecial, lcSpecialOpt),
		in: lcHello + "\n<tool_call>\n" + `{"name": "special_function", "arguments": {"arg1": 1}}` + "\n</tool_call>\n<tool_call>\n" +
			`{"name": "special_function_with_opt", "arguments": {"arg1": 1, "arg2": 2}}` + "\n</tool_call>",
		calls: []peerCall{{"special_function", `{"arg1": 1}`}, {"special_function_with_opt", `{"arg1": 1, "arg2": 2}`}}, text: lcHello},
	{src: lcCommandR7B + "thinking and an action", syntax: "command-r7b", tools: ptools(lcSpecial),
		in: "<|START_THINKING|>I'm\nthinking<|END_THINKING|><|START_ACTION|>[\n" +
			`    {"tool_call_id": "0", "tool_name": "special_function", "parameters": {"arg1": 1}}` + "\n]<|END_ACTION|>",
		calls: []peerCall{{"special_function", `{"arg1": 1}`}}, ids: []string{"0"}, thinking: "I'm\nthinking"},
	{src: lcCommandR7B + "thinking and a response", syntax: "command-r7b",
		in:       "<|START_THINKING|>I'm\nthinking<|END_THINKING|><|START_RESPONSE|>" + lcHello + "<|END_RESPONSE|>",
		thinking: "I'm\nthinking", text: lcHello},
	{src: lcppNow + "Magistral (message_assist_thoughts_unparsed_magistral)", syntax: "mistral",
		in: "[THINK]raisonnement[/THINK]Réponse", thinking: "raisonnement", text: "Réponse"},
	{src: lcppNow + "Magistral (message_assist_thoughts_unparsed_magistral)", syntax: "magistral",
		in: "[THINK]raisonnement[/THINK]Réponse", thinking: "raisonnement", text: "Réponse"},
	{src: lcppNow + "Mistral-Nemo-Instruct-2407 tool call (the Magistral format's call form)", syntax: "magistral", tools: ptools(lcSpecial),
		in:    `[TOOL_CALLS][{"name": "special_function", "arguments": {"arg1": 1}, "id": "123456789"}]`,
		calls: []peerCall{{"special_function", `{"arg1": 1}`}}, ids: []string{"123456789"}},
	{src: lcLlama31 + "JSON call", syntax: "llama-builtin", tools: ptools(lcSpecial, lcPython),
		in:    `{"name": "special_function", "parameters": {"arg1": 1}}`,
		calls: []peerCall{{"special_function", `{"arg1": 1}`}}},
	{src: lcLlama31 + "code_interpreter", syntax: "llama-builtin", tools: ptools(lcSpecial, ptool("code_interpreter", `"code": {"type": "string"}`)),
		in:    `<|python_tag|>code_interpreter.call(code="print('hey')")`,
		calls: []peerCall{{"code_interpreter", `{"code": "print('hey')"}`}}},
	{src: lcLlama31 + "python", syntax: "llama-builtin", tools: ptools(lcSpecial, lcPython),
		in:    `<|python_tag|>python.call(code="print('hey')")`,
		calls: []peerCall{{"python", `{"code": "print('hey')"}`}}},
	{src: lcGeneric + "response", syntax: "generic", in: "{\n  \"response\": \"Hello, world!\\nWhat's up?\"\n}", text: lcHello},
	{src: lcGeneric + "tool call (the cut-off case's input, complete)", syntax: "generic", tools: ptools(lcSpecial),
		in:    `{ "tool_call" : { "name" : "special_function", "arguments" : { "arg1" : 1 } } }`,
		calls: []peerCall{{"special_function", `{"arg1": 1}`}}},
	{src: lcGeneric + "tool calls (the #if 0 case, without its content member)", syntax: "generic", tools: ptools(lcSpecial),
		in:    "{\n  \"tool_calls\": [\n    {\n      \"name\": \"special_function\",\n      \"arguments\": {\n        \"arg1\": 1\n      },\n      \"id\": \"123456789\"\n    }\n  ]\n}",
		calls: []peerCall{{"special_function", `{"arg1": 1}`}}, ids: []string{"123456789"}},
	{src: lcFunctionary32 + "text then a call", syntax: "functionary-v3.2", tools: ptools(lcSpecial),
		in:    "all\nHello, world!\nnono\nWhat's up?>>>special_function\n{\"arg1\": 1}\n",
		calls: []peerCall{{"special_function", `{"arg1": 1}`}}, text: "Hello, world!\nnono\nWhat's up?"},
	{src: lcFunctionary32 + "python code", syntax: "functionary-v3.2", tools: ptools(lcPython),
		in:    "python\n# This is a program:\nprint('hey')",
		calls: []peerCall{{"python", `{"code": "# This is a program:\nprint('hey')"}`}}},
	{src: lcFunctionary31 + "raw python after <|python_tag|> (common_chat_parse_functionary_v3_1_llama_3_1)", syntax: "functionary-v3.1",
		tools: ptools(lcSpecial, lcPython), in: "<|python_tag|>print('hey')", calls: []peerCall{{"python", `{"code": "print('hey')"}`}}},
	{src: lcFunctionary32 + "call at the start", syntax: "functionary-v3.2", tools: ptools(lcSpecial),
		in:    "special_function\n{\"arg1\": 1} \n                    ",
		calls: []peerCall{{"special_function", `{"arg1": 1}`}}},
	{src: lcFunctionary32 + "text", syntax: "functionary-v3.2", in: "all\n" + lcHello, text: lcHello},
	{src: lcApertus + "regular content", syntax: "apertus", in: lcHello, text: lcHello},
	{src: lcApertus + "content with thinking", syntax: "apertus", in: "<|inner_prefix|>I'm\nthinking<|inner_suffix|>" + lcHello,
		thinking: "I'm\nthinking", text: lcHello},
	{src: lcApertus + "tool call", syntax: "apertus", tools: ptools(lcSpecial),
		in:    `<|tools_prefix|>[{"special_function": {"arg1": 1}}]<|tools_suffix|>`,
		calls: []peerCall{{"special_function", `{"arg1": 1}`}}},
	{src: lcApertus + "tool call with thinking", syntax: "apertus", tools: ptools(lcSpecial),
		in:    "<|inner_prefix|>I'm\nthinking<|inner_suffix|>" + `<|tools_prefix|>[{"special_function": {"arg1": 1}}]<|tools_suffix|>`,
		calls: []peerCall{{"special_function", `{"arg1": 1}`}}, thinking: "I'm\nthinking"},
	{src: lcApertus + "tool call with extra content", syntax: "apertus", tools: ptools(lcSpecial),
		in:    `<|tools_prefix|>[{"special_function": {"arg1": 1}}]<|tools_suffix|>` + lcHello,
		calls: []peerCall{{"special_function", `{"arg1": 1}`}}, text: lcHello},
	{src: lcApertus + "tool call with extra content and thinking", syntax: "apertus", tools: ptools(lcSpecial),
		in:    "<|inner_prefix|>I'm\nthinking<|inner_suffix|>" + `<|tools_prefix|>[{"special_function": {"arg1": 1}}]<|tools_suffix|>` + lcHello,
		calls: []peerCall{{"special_function", `{"arg1": 1}`}}, thinking: "I'm\nthinking", text: lcHello},
}

func TestPeersFormats(t *testing.T) { runPeerCases(t, peerFormatsLlamaCpp) }
