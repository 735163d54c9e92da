package stream

import "testing"

// The stream syntaxes against SGLang's own function-call parser tests
// (test/registered/function_call/test_function_call_parser.py, formerly
// test/srt/test_function_call_parser.py, and the per-detector files beside
// it): each case is the model output a test feeds to a detector, with the
// calls, normal text and errors the test expects (run by runPeerCases, in
// every chunking). The cases TestPeers already holds (sgFile) are not
// repeated here.

const sgNow = "sglang test/registered/function_call/test_function_call_parser.py "

var (
	// TestPythonicDetector's and TestJsonArrayParser's tools.
	sgPyTools = ptools(ptool("get_weather", `"location": {"type": "string"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}`),
		ptool("search", `"query": {"type": "string"}`))
)

var peerSGLangPythonic = []peerCase{
	{src: sgNow + "TestPythonicDetector test_parse_streaming_no_brackets", syntax: "llama", tools: sgPyTools,
		in: "This is just normal text without any tool calls.", text: "This is just normal text without any tool calls."},
	{src: sgNow + "TestPythonicDetector test_parse_streaming_complete_tool_call", syntax: "llama", tools: sgPyTools,
		in:    "Here's a tool call: [get_weather(location='New York', unit='celsius')]",
		calls: []peerCall{{"get_weather", `{"location": "New York", "unit": "celsius"}`}}, text: "Here's a tool call:"},
	{src: sgNow + "TestPythonicDetector test_parse_streaming_text_before_tool_call", syntax: "llama", tools: sgPyTools,
		in:    "This is some text before [get_weather(location='London')]",
		calls: []peerCall{{"get_weather", `{"location": "London"}`}}, text: "This is some text before"},
	{src: sgNow + "TestPythonicDetector test_parse_streaming_partial_tool_call", syntax: "llama", tools: sgPyTools,
		in:    "Let me check the weather: [get_weather(location='Paris')]",
		calls: []peerCall{{"get_weather", `{"location": "Paris"}`}}, text: "Let me check the weather:"},
	{src: sgNow + "TestPythonicDetector test_parse_streaming_bracket_without_text_before", syntax: "llama", tools: sgPyTools,
		in: "[search(query='python programming')]", calls: []peerCall{{"search", `{"query": "python programming"}`}}},
	{src: sgNow + "TestPythonicDetector test_parse_streaming_text_after_tool_call", syntax: "llama", tools: sgPyTools,
		in:    "[get_weather(location='Tokyo')] Here's the forecast:",
		calls: []peerCall{{"get_weather", `{"location": "Tokyo"}`}}, text: "Here's the forecast:"},
	{src: sgNow + "TestPythonicDetector test_parse_streaming_multiple_tool_calls", syntax: "llama", tools: sgPyTools,
		in:    "[get_weather(location='Berlin')] and [search(query='restaurants')]",
		calls: []peerCall{{"get_weather", `{"location": "Berlin"}`}, {"search", `{"query": "restaurants"}`}}, text: "and"},
	{src: sgNow + "TestPythonicDetector test_parse_streaming_opening_bracket_only", syntax: "llama", tools: sgPyTools,
		in: "Let's try this: [", text: "Let's try this: [",
		note: "SGLang holds the '[' back waiting for more; at the end of the stream it is text here (nothing is dropped)"},
	{src: sgNow + "TestPythonicDetector test_parse_streaming_nested_brackets", syntax: "llama", tools: sgPyTools,
		in:    "[get_weather(location='New York', unit='celsius', data=[1, 2, 3])]",
		calls: []peerCall{{"get_weather", `{"location": "New York", "unit": "celsius"}`}}, errs: []string{KindUnknownParam},
		note: "data is not a parameter of get_weather: an unknown-param error, not a member of the params (docs/stream.md, conformance)"},
	{src: sgNow + "TestPythonicDetector test_parse_streaming_nested_brackets_dict", syntax: "llama", tools: sgPyTools,
		in:    "[search(query='test', config={'options': [1, 2], 'nested': {'key': 'value'}})]",
		calls: []peerCall{{"search", `{"query": "test"}`}}, errs: []string{KindUnknownParam},
		note: "config is not a parameter of search: unknown-param"},
	{src: sgNow + "TestPythonicDetector test_parse_streaming_nested_brackets_dict (untyped)", syntax: "llama",
		in:    "[search(query='test', config={'options': [1, 2], 'nested': {'key': 'value'}})]",
		calls: []peerCall{{"search", `{"query": "test", "config": {"options": [1, 2], "nested": {"key": "value"}}}`}}},
	{src: sgNow + "TestPythonicDetector test_parse_streaming_multiple_tools_with_nested_brackets (untyped)", syntax: "llama",
		in:    "[get_weather(location='Paris', data=[10, 20]), search(query='test', filters=['a', 'b'])]",
		calls: []peerCall{{"get_weather", `{"location": "Paris", "data": [10, 20]}`}, {"search", `{"query": "test", "filters": ["a", "b"]}`}}},
	{src: sgNow + "TestPythonicDetector test_parse_streaming_partial_nested_brackets", syntax: "llama", tools: sgPyTools,
		in:    "Here's a call: [get_weather(location='Tokyo', data=[1, 2, 3])]",
		calls: []peerCall{{"get_weather", `{"location": "Tokyo"}`}}, text: "Here's a call:", errs: []string{KindUnknownParam},
		note: "data is not a parameter of get_weather: unknown-param"},
	{src: sgNow + "TestPythonicDetector test_parse_streaming_partial_nested_brackets, the tool undeclared", syntax: "llama",
		in:   "Here's a call: [get_weather(location='Tokyo', data=[1, 2, 3])]",
		text: "Here's a call: [get_weather(location='Tokyo', data=[1, 2, 3])]",
		note: "a list in the middle of a line is a call only when its first call names a declared tool (docs/stream.md, llama)"},
	{src: sgNow + "TestPythonicDetector test_parse_streaming_with_python_start_and_end_token (untyped)", syntax: "llama",
		in:    "Here's a call: <|python_start|>[get_weather(location='Tokyo', data=[1, 2, 3])]<|python_end|>",
		calls: []peerCall{{"get_weather", `{"location": "Tokyo", "data": [1, 2, 3]}`}}, text: "Here's a call:"},
	{src: sgNow + "TestPythonicDetector test_detect_and_parse_with_python_start_and_end_token", syntax: "llama", tools: sgPyTools,
		in:    "User wants to get the weather in Mars. <|python_start|>[get_weather(location='Mars', unit='celsius')]<|python_end|> In this way we will get the weather in Mars.",
		calls: []peerCall{{"get_weather", `{"location": "Mars", "unit": "celsius"}`}},
		text:  "User wants to get the weather in Mars.  In this way we will get the weather in Mars."},
}

var (
	sgLlamaTools = sgCityTools
)

var peerSGLangLlama32 = []peerCase{
	{src: sgNow + "TestLlama32Detector test_single_json", syntax: "llama", tools: sgLlamaTools,
		in: `{"name": "get_weather", "parameters": {"city": "Paris"}}`, calls: []peerCall{{"get_weather", `{"city": "Paris"}`}}},
	{src: sgNow + "TestLlama32Detector test_multiple_json_with_separator", syntax: "llama", tools: sgLlamaTools,
		in:    `<|python_tag|>{"name": "get_weather", "parameters": {"city": "Paris"}};{"name": "get_tourist_attractions", "parameters": {"city": "Paris"}}`,
		calls: []peerCall{{"get_weather", `{"city": "Paris"}`}, {"get_tourist_attractions", `{"city": "Paris"}`}}},
	{src: sgNow + "TestLlama32Detector test_multiple_json_with_separator_customized", syntax: "llama", tools: sgLlamaTools,
		in:    `<|python_tag|>{"name": "get_weather", "parameters": {}}<|python_tag|>{"name": "get_tourist_attractions", "parameters": {}}`,
		calls: []peerCall{{"get_weather", `{}`}, {"get_tourist_attractions", `{}`}}},
	{src: sgNow + "TestLlama32Detector test_json_with_trailing_text", syntax: "llama", tools: sgLlamaTools,
		in:    `{"name": "get_weather", "parameters": {}} Some follow-up text`,
		calls: []peerCall{{"get_weather", `{}`}}, text: "Some follow-up text"},
	{src: sgNow + "TestLlama32Detector test_invalid_then_valid_json", syntax: "llama", tools: sgLlamaTools,
		in:    `{"name": "get_weather", "parameters": {{"name": "get_weather", "parameters": {}}`,
		calls: []peerCall{{"get_weather", `{}`}, {"get_weather", `{}`}}, errs: []string{KindBadJSON},
		note: "SGLang keeps only the valid call; here the broken one is a call too, with a bad-json error where its JSON breaks, and the call the model began again there is the second (docs/stream.md, llama)"},
	{src: sgNow + "TestLlama32Detector test_plain_text_only", syntax: "llama", tools: sgLlamaTools,
		in: "This is just plain explanation text.", text: "This is just plain explanation text."},
	{src: sgNow + "TestLlama32Detector test_with_python_tag_prefix", syntax: "llama", tools: sgLlamaTools,
		in:    `Some intro. <|python_tag|>{"name": "get_weather", "parameters": {}}`,
		calls: []peerCall{{"get_weather", `{}`}}, text: "Some intro."},
}

var (
	// TestDeepSeekV32Detector's tools.
	sgDSMLTools = ptools(ptool("search", `"query": {"type": "string"}, "topn": {"type": "integer", "default": 10}, "source": {"type": "string", "enum": ["web", "news"], "default": "web"}`),
		ptool("get_favorite_tourist_spot", `"city": {"type": "string"}`))
	sgDSMLToolsDate = ptools(ptool("search", `"query": {"type": "string"}, "topn": {"type": "integer", "default": 10}, "source": {"type": "string", "enum": ["web", "news"], "default": "web"}`),
		ptool("get_favorite_tourist_spot", `"city": {"type": "string"}`), ptool("get_date", ``))
)

const sgDSMLIntro = "I'll help you with information about San Francisco and get its favorite tourist spot for you."

var peerSGLangDSML = []peerCase{
	{src: sgNow + "TestDeepSeekV32Detector test_detect_and_parse_xml_format", syntax: "deepseek-dsml", tools: sgDSMLTools,
		in:    sgDSMLIntro + "\n\n\n        <｜DSML｜function_calls>\n\n            <｜DSML｜invoke name=\"get_favorite_tourist_spot\">\n\n                <｜DSML｜parameter name=\"city\" string=\"true\">San Francisco</｜DSML｜parameter>\n\n            </｜DSML｜invoke>\n\n            <｜DSML｜invoke name=\"search\">\n                <｜DSML｜parameter name=\"query\" string=\"true\">WebNav benchmark</｜DSML｜parameter>\n                <｜DSML｜parameter name=\"topn\" string=\"false\">10</｜DSML｜parameter>\n                <｜DSML｜parameter name=\"source\" string=\"true\">web</｜DSML｜parameter>\n            </｜DSML｜invoke>\n        </｜DSML｜function_calls>\n        ",
		calls: []peerCall{{"get_favorite_tourist_spot", `{"city": "San Francisco"}`}, {"search", `{"query": "WebNav benchmark", "topn": 10, "source": "web"}`}},
		text:  sgDSMLIntro},
	{src: sgNow + "TestDeepSeekV32Detector test_detect_and_parse_json_format", syntax: "deepseek-dsml", tools: sgDSMLTools,
		in:    sgDSMLIntro + "\n\n        <｜DSML｜function_calls>\n            <｜DSML｜invoke name=\"get_favorite_tourist_spot\">\n            {\n                \"city\": \"San Francisco\"\n            }\n        </｜DSML｜invoke>\n            <｜DSML｜invoke name=\"search\">\n            {\n                \"query\": \"WebNav benchmark\",\n                \"topn\": 10,\n                \"source\": \"web\"\n            }\n        </｜DSML｜invoke>\n        </｜DSML｜function_calls>\n        ",
		calls: []peerCall{{"get_favorite_tourist_spot", `{}`}, {"search", `{"topn": 10, "source": "web"}`}},
		text:  sgDSMLIntro, errs: []string{KindStrayText},
		note: "a JSON object instead of DSML parameters (SGLang's fallback) is not read as the arguments: a stray-text error carries its text, and the call has only the defaults (docs/stream.md)"},
	{src: sgNow + "TestDeepSeekV32Detector test_streaming_xml_format", syntax: "deepseek-dsml", tools: sgDSMLTools,
		in:    "<｜DSML｜function_calls>\n            <｜DSML｜invoke name=\"get_favorite_tourist_spot\">\n                <｜DSML｜parameter name=\"city\" string=\"true\">San Francisco</｜DSML｜parameter>\n                <｜DSML｜parameter name=\"another_city\" string=\"true\">London</｜DSML｜parameter>\n                <｜DSML｜parameter name=\"topn\" string=\"false\">10</｜DSML｜parameter>\n                <｜DSML｜parameter name=\"obj\" string=\"false\">{\"name\": \"John\", \"age\": 30}</｜DSML｜parameter>\n            </｜DSML｜invoke>\n        </｜DSML｜function_calls>",
		calls: []peerCall{{"get_favorite_tourist_spot", `{"city": "San Francisco"}`}}, errs: []string{KindUnknownParam},
		note: "another_city, topn and obj are not parameters of get_favorite_tourist_spot: unknown-param errors, not members of the params"},
	{src: sgNow + "TestDeepSeekV32Detector test_streaming_xml_format (undeclared tool)", syntax: "deepseek-dsml",
		in:    "<｜DSML｜function_calls>\n            <｜DSML｜invoke name=\"get_favorite_tourist_spot\">\n                <｜DSML｜parameter name=\"city\" string=\"true\">San Francisco</｜DSML｜parameter>\n                <｜DSML｜parameter name=\"another_city\" string=\"true\">London</｜DSML｜parameter>\n                <｜DSML｜parameter name=\"topn\" string=\"false\">10</｜DSML｜parameter>\n                <｜DSML｜parameter name=\"obj\" string=\"false\">{\"name\": \"John\", \"age\": 30}</｜DSML｜parameter>\n            </｜DSML｜invoke>\n        </｜DSML｜function_calls>",
		calls: []peerCall{{"get_favorite_tourist_spot", `{"city": "San Francisco", "another_city": "London", "topn": "10", "obj": "{\"name\": \"John\", \"age\": 30}"}`}},
		note:  "the schema, not the string attribute, types a value: an undeclared tool's values stay the strings written, as in the other raw-text syntaxes (docs/stream.md)"},
	{src: sgNow + "TestDeepSeekV32Detector test_streaming_json_format", syntax: "deepseek-dsml", tools: sgDSMLTools,
		in:    "<｜DSML｜function_calls>\n            <｜DSML｜invoke name=\"get_favorite_tourist_spot\">\n            {\n                \"city\": \"San Francisco\"\n            }\n            </｜DSML｜invoke>\n        </｜DSML｜function_calls>",
		calls: []peerCall{{"get_favorite_tourist_spot", `{}`}}, errs: []string{KindStrayText},
		note: "a JSON body is stray-text, as in test_detect_and_parse_json_format"},
	{src: sgNow + "TestDeepSeekV32Detector test_detect_and_parse_no_parameters", syntax: "deepseek-dsml", tools: sgDSMLToolsDate,
		in:    "Let me get the current date for you.\n\n<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"get_date\">\n</｜DSML｜invoke>\n</｜DSML｜function_calls>",
		calls: []peerCall{{"get_date", `{}`}}, text: "Let me get the current date for you."},
	{src: sgNow + "TestDeepSeekV32Detector test_streaming_no_parameters_with_whitespace", syntax: "deepseek-dsml", tools: sgDSMLToolsDate,
		in:    "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"get_date\">\n\n</｜DSML｜invoke>\n</｜DSML｜function_calls>",
		calls: []peerCall{{"get_date", `{}`}}},
}

func TestPeersSGLang(t *testing.T) {
	for name, cases := range map[string][]peerCase{
		"pythonic": peerSGLangPythonic, "llama32": peerSGLangLlama32, "deepseek-dsml": peerSGLangDSML,
	} {
		t.Run(name, func(t *testing.T) { runPeerCases(t, cases) })
	}
}
