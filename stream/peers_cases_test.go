package stream

import "strings"

// ptools returns an OpenAI tools array of the given tools (see ptool).
func ptools(ts ...string) string { return "[" + strings.Join(ts, ", ") + "]" }

// ptool returns an OpenAI function tool whose parameters have the given
// JSON Schema properties (a JSON object's members, without the braces).
func ptool(name, props string) string {
	return `{"type": "function", "function": {"name": "` + name + `", "parameters": {"type": "object", "properties": {` + props + `}}}}`
}

// The peers' tools.
var (
	// sglang test/srt/test_function_call_parser.py, TestKimiK2Detector and others.
	sgCityTools = ptools(ptool("get_weather", `"city": {"type": "string"}`),
		ptool("get_tourist_attractions", `"city": {"type": "string"}`))
	sgMistralTools = ptools(ptool("make_next_step_decision", `"decision": {"type": "string"}, "content": {"type": "string"}`))
	sgQwenTools    = ptools(
		ptool("get_current_weather", `"city": {"type": "string"}, "state": {"type": "string"}, "unit": {"type": "string", "enum": ["fahrenheit", "celsius"]}`),
		ptool("calculate_area", `"shape": {"type": "string"}, "dimensions": {"type": "object"}, "precision": {"type": "integer"}`))
	sgGLMTools = ptools(ptool("get_weather", `"city": {"type": "string"}, "date": {"type": "string"}`))
)

const sgFile = "sglang test/srt/test_function_call_parser.py "

var peerHermes = []peerCase{
	{src: "vllm tests/entrypoints/openai/tool_parsers/test_hermes_tool_parser.py test_hermes_parser_streaming_just_forward_text",
		syntax: "hermes", in: "This is some prior text that has nothing to do with tool calling.",
		text: "This is some prior text that has nothing to do with tool calling."},
	{src: "vllm test_hermes_tool_parser.py test_hermes_parser_non_streaming_tool_call_between_tags",
		syntax: "hermes", in: "<tool_call>\n{\"name\": \"final_answer\", \"arguments\": {\"trigger\": true}}\n</tool_call>",
		calls: []peerCall{{"final_answer", `{"trigger": true}`}}},
	{src: "vllm test_hermes_tool_parser.py test_hermes_parser_streaming",
		syntax: "hermes", in: `<tool_call>{"name": "get_current_temperature","arguments": {"location":"San Francisco, California, United States", "unit": "celsius"}}</tool_call>`,
		calls: []peerCall{{"get_current_temperature", `{"location":"San Francisco, California, United States", "unit": "celsius"}`}}},
	{src: "vllm test_hermes_tool_parser.py test_hermes_parser_non_streaming_tool_call_until_eos",
		syntax: "hermes", in: "<tool_call>\n{\"name\": \"final_answer\", \"arguments\": {\"trigger\": true}}",
		calls: []peerCall{{"final_answer", `{"trigger": true}`}}, errs: []string{KindUnterminated}},
	{src: "vllm test_hermes_tool_parser.py test_hermes_parser_non_streaming_tool_call_invalid_json",
		syntax: "hermes", in: "<tool_call>\n{\"name\": \"final_answer\", \"arguments\": {\"trigger\": true}",
		text: "<tool_call>\n{\"name\": \"final_answer\", \"arguments\": {\"trigger\": true}", errs: []string{KindUnterminated}},
	{src: "vllm test_hermes_tool_parser.py test_hermes_parser_streaming_state_reset",
		syntax: "hermes", in: "<tool_call>\n{\"name\": \"func2\", \"arguments\": {\"b\": 2}}\n</tool_call>",
		calls: []peerCall{{"func2", `{"b": 2}`}}},
	{src: "vllm tests/entrypoints/openai/tool_parsers/test_hermes_tool_parser.py (QwQ-32B, lei_test_streaming_01)",
		syntax: "hermes", in: "好的，用户现在要研发一个5MW的燃气轮机。\n</think>\n\n<tool_call>\n{\"name\": \"internet_search\", \"arguments\": {\"question\": \"5MW燃气轮机设计参数 空气流量 压气机压比 转速 燃烧室出口温度 压气机级数 支点布局\"}}\n</tool_call>\n\n ",
		calls: []peerCall{{"internet_search", `{"question": "5MW燃气轮机设计参数 空气流量 压气机压比 转速 燃烧室出口温度 压气机级数 支点布局"}`}},
		text:  "好的，用户现在要研发一个5MW的燃气轮机。\n</think>"},
	{src: sgFile + "TestBaseFormatDetector test_sequential_tool_index_assignment",
		syntax: "hermes", tools: sgCityTools,
		in:    `<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}, {"name": "get_tourist_attractions", "arguments": {"city": "London"}}</tool_call>`,
		calls: []peerCall{{"get_weather", `{"city": "Paris"}`}, {"get_tourist_attractions", `{"city": "London"}`}}},
}

var peerMistral = []peerCase{
	{src: sgFile + "TestMistralDetector test_detect_and_parse_with_nested_brackets_in_content",
		syntax: "mistral", tools: sgMistralTools,
		in:    `[TOOL_CALLS] [{"name":"make_next_step_decision", "arguments":{"decision":"","content":"` + "```" + `\nTOOL: Access a weather API or service\nOBSERVATION: Retrieve the current weather data for the top 5 populated cities in the US\nANSWER: The weather in the top 5 populated cities in the US is as follows: [City Name] - [Weather Conditions] - [Temperature]\n` + "```" + `"}}]`,
		calls: []peerCall{{"make_next_step_decision", `{"decision": "", "content": "` + "```" + `\nTOOL: Access a weather API or service\nOBSERVATION: Retrieve the current weather data for the top 5 populated cities in the US\nANSWER: The weather in the top 5 populated cities in the US is as follows: [City Name] - [Weather Conditions] - [Temperature]\n` + "```" + `"}`}}},
	{src: sgFile + "TestMistralDetector test_detect_and_parse_simple_case",
		syntax: "mistral", tools: sgMistralTools,
		in:    `[TOOL_CALLS] [{"name":"make_next_step_decision", "arguments":{"decision":"TOOL", "content":"Use weather API"}}]`,
		calls: []peerCall{{"make_next_step_decision", `{"decision": "TOOL", "content": "Use weather API"}`}}},
	{src: sgFile + "TestMistralDetector test_detect_and_parse_no_tool_calls",
		syntax: "mistral", tools: sgMistralTools,
		in: "This is just normal text without any tool calls.", text: "This is just normal text without any tool calls."},
	{src: sgFile + "TestMistralDetector test_detect_and_parse_with_text_before_tool_call",
		syntax: "mistral", tools: sgMistralTools,
		in:    `Here is some text before the tool call: [TOOL_CALLS] [{"name":"make_next_step_decision", "arguments":{"decision":"ANSWER", "content":"The answer is 42"}}]`,
		calls: []peerCall{{"make_next_step_decision", `{"decision": "ANSWER", "content": "The answer is 42"}`}},
		text:  "Here is some text before the tool call:"},
}

const (
	kimiSec    = "<|tool_calls_section_begin|>"
	kimiSecEnd = "<|tool_calls_section_end|>"
	kimiCall   = "<|tool_call_begin|>"
	kimiArgs   = "<|tool_call_argument_begin|>"
	kimiEnd    = "<|tool_call_end|>"
)

var peerKimi = []peerCase{
	{src: sgFile + "TestKimiK2Detector test_single_tool_call",
		syntax: "kimi-k2", tools: sgCityTools,
		in:    kimiSec + kimiCall + "functions.get_weather:0" + kimiArgs + `{"city": "Paris"}` + kimiEnd + kimiSecEnd,
		calls: []peerCall{{"get_weather", `{"city": "Paris"}`}}},
	{src: sgFile + "TestKimiK2Detector test_multiple_tool_calls",
		syntax: "kimi-k2", tools: sgCityTools,
		in:    kimiSec + kimiCall + "functions.get_weather:0" + kimiArgs + `{"city": "Paris"}` + kimiEnd + kimiCall + "functions.get_tourist_attractions:1" + kimiArgs + `{"city": "London"}` + kimiEnd + kimiSecEnd,
		calls: []peerCall{{"get_weather", `{"city": "Paris"}`}, {"get_tourist_attractions", `{"city": "London"}`}}},
	{src: sgFile + "TestKimiK2Detector test_invalid_tool_call",
		syntax: "kimi-k2", tools: sgCityTools,
		in:   `invalid_tool:0` + kimiArgs + `{"city": "Paris"}` + kimiEnd + kimiSecEnd,
		text: `invalid_tool:0` + kimiArgs + `{"city": "Paris"}` + kimiEnd + kimiSecEnd},
	{src: sgFile + "TestKimiK2Detector test_partial_tool_call",
		syntax: "kimi-k2", tools: sgCityTools,
		in:   kimiSec + kimiCall + "functions.get_weather:0" + kimiArgs + `{"city": "Paris"`,
		text: kimiCall + "functions.get_weather:0" + kimiArgs + `{"city": "Paris"`, errs: []string{KindUnterminated},
		note: "the peer streams the partial call; plangram streams its param_delta and reports it unterminated at the end"},
}

var peerDeepSeek = []peerCase{
	{src: sgFile + "TestDeepSeekV3Detector test_parse_streaming_multiple_tool_calls_with_multi_token_chunk",
		syntax: "deepseek", tools: sgCityTools,
		in: dsCallsBegin + dsCallBegin + "function" + dsSep + "get_weather\n```json\n{\"city\":\"Shanghai\"}\n```" + dsCallEnd +
			"\n" + dsCallBegin + "function" + dsSep + "get_tourist_attractions\n```json\n{\"city\": \"Beijing\"}\n```" + dsCallEnd + dsCallsEnd,
		calls: []peerCall{{"get_weather", `{"city": "Shanghai"}`}, {"get_tourist_attractions", `{"city": "Beijing"}`}}},
}

const qwenDallas = "<tool_call>\n<function=get_current_weather>\n<parameter=city>\nDallas\n</parameter>\n<parameter=state>\nTX\n</parameter>\n<parameter=unit>\nfahrenheit\n</parameter>\n</function>\n</tool_call>"

var peerQwen3Coder = []peerCase{
	{src: sgFile + "TestQwen3CoderDetector test_detect_and_parse_no_tools",
		syntax: "qwen3-coder", in: "This is a test response without any tool calls", text: "This is a test response without any tool calls"},
	{src: sgFile + "TestQwen3CoderDetector test_detect_and_parse_single_tool",
		syntax: "qwen3-coder", tools: sgQwenTools, in: qwenDallas,
		calls: []peerCall{{"get_current_weather", `{"city": "Dallas", "state": "TX", "unit": "fahrenheit"}`}}},
	{src: sgFile + "TestQwen3CoderDetector test_detect_and_parse_with_content",
		syntax: "qwen3-coder", tools: sgQwenTools, in: "Sure! Let me check the weather for you." + qwenDallas,
		calls: []peerCall{{"get_current_weather", `{"city": "Dallas", "state": "TX", "unit": "fahrenheit"}`}},
		text:  "Sure! Let me check the weather for you."},
	{src: sgFile + "TestQwen3CoderDetector test_detect_and_parse_multiline_param",
		syntax: "qwen3-coder", tools: sgQwenTools,
		in:    "<tool_call>\n<function=calculate_area>\n<parameter=shape>\nrectangle\n</parameter>\n<parameter=dimensions>\n{\"width\": 10,\n \"height\": 20}\n</parameter>\n<parameter=precision>\n2\n</parameter>\n</function>\n</tool_call>",
		calls: []peerCall{{"calculate_area", `{"shape": "rectangle", "dimensions": {"width": 10, "height": 20}, "precision": 2}`}}},
	{src: sgFile + "TestQwen3CoderDetector test_detect_and_parse_parallel_tools",
		syntax: "qwen3-coder", tools: sgQwenTools,
		in: qwenDallas + "\n" + strings.NewReplacer("Dallas", "Orlando", "TX", "FL").Replace(qwenDallas),
		calls: []peerCall{{"get_current_weather", `{"city": "Dallas", "state": "TX", "unit": "fahrenheit"}`},
			{"get_current_weather", `{"city": "Orlando", "state": "FL", "unit": "fahrenheit"}`}}},
	{src: sgFile + "TestQwen3CoderDetector test_parse_streaming_simple",
		syntax: "qwen3-coder", tools: sgQwenTools,
		in:    "Sure! Let me check the weather.<tool_call>\n<function=get_current_weather>\n<parameter=city>\nDallas\n</parameter>\n<parameter=state>\nTX\n</parameter>\n</function>\n</tool_call>",
		calls: []peerCall{{"get_current_weather", `{"city": "Dallas", "state": "TX"}`}},
		text:  "Sure! Let me check the weather."},
	{src: sgFile + "TestQwen3CoderDetector test_parse_streaming_incomplete",
		syntax: "qwen3-coder", tools: sgQwenTools,
		in:   "<tool_call>\n<function=get_current_weather>\n<parameter=city>\nDallas\n</parameter>\n<parameter=state>\nTX",
		text: "<function=get_current_weather>\n<parameter=city>\nDallas\n</parameter>\n<parameter=state>\nTX", errs: []string{KindUnterminated}},
	{src: sgFile + "TestQwen3CoderDetector test_edge_case_no_parameters",
		syntax: "qwen3-coder", tools: sgQwenTools,
		in:    "<tool_call>\n<function=get_current_weather>\n</function>\n</tool_call>",
		calls: []peerCall{{"get_current_weather", `{}`}}},
	{src: sgFile + "TestQwen3CoderDetector test_edge_case_special_chars_in_value",
		syntax: "qwen3-coder", tools: sgQwenTools,
		in:    "<tool_call>\n<function=get_current_weather>\n<parameter=city>\nDallas->TX\n</parameter>\n</function>\n</tool_call>",
		calls: []peerCall{{"get_current_weather", `{"city": "Dallas->TX"}`}}},
	{src: sgFile + "TestQwen3CoderDetector test_extract_tool_calls_fallback_no_tags",
		syntax: "qwen3-coder", tools: sgQwenTools,
		in:    "<function=get_current_weather>\n<parameter=city>\nDallas\n</parameter>\n<parameter=state>\nTX\n</parameter>\n</function>",
		calls: []peerCall{{"get_current_weather", `{"city": "Dallas", "state": "TX"}`}}},
	{src: sgFile + "TestQwen3CoderDetector test_extract_tool_calls_type_conversion (float is number in JSON Schema)",
		syntax: "qwen3-coder",
		tools:  ptools(ptool("test_types", `"int_param": {"type": "integer"}, "float_param": {"type": "number"}, "bool_param": {"type": "boolean"}, "str_param": {"type": "string"}, "obj_param": {"type": "object"}`)),
		in:     "<tool_call>\n<function=test_types>\n<parameter=int_param>\n42\n</parameter>\n<parameter=float_param>\n3.14\n</parameter>\n<parameter=bool_param>\ntrue\n</parameter>\n<parameter=str_param>\nhello world\n</parameter>\n<parameter=obj_param>\n{\"key\": \"value\"}\n</parameter>\n</function>\n</tool_call>",
		calls:  []peerCall{{"test_types", `{"int_param": 42, "float_param": 3.14, "bool_param": true, "str_param": "hello world", "obj_param": {"key": "value"}}`}}},
	{src: sgFile + "TestQwen3CoderDetector test_parse_streaming_incremental",
		syntax: "qwen3-coder", tools: sgQwenTools,
		in:    "I'll check the weather.<tool_call>\n        <function=get_current_weather>\n        <parameter=city>\n        Dallas\n        </parameter>\n        <parameter=state>\n        TX\n        </parameter>\n        </function>\n        </tool_call>",
		calls: []peerCall{{"get_current_weather", `{"city": "        Dallas\n        ", "state": "        TX\n        "}`}},
		text:  "I'll check the weather.",
		note:  "qwen3-coder string values keep their white space but one line ending at each edge, as in vLLM's qwen3_coder (indented code stays indented); SGLang strips them"},
	{src: sgFile + "TestQwen3CoderDetector test_parse_streaming_multiple_tools",
		syntax: "qwen3-coder", tools: sgQwenTools,
		in: "<tool_call>\n        <function=get_current_weather>\n        <parameter=city>\n        Dallas\n        </parameter>\n        <parameter=state>\n        TX\n        </parameter>\n        </function>\n        </tool_call>\n        Some text in between.\n        <tool_call>\n        <function=calculate_area>\n        <parameter=shape>\n        circle\n        </parameter>\n        <parameter=dimensions>\n        {\"radius\": 5}\n        </parameter>\n        </function>\n        </tool_call>",
		calls: []peerCall{{"get_current_weather", `{"city": "        Dallas\n        ", "state": "        TX\n        "}`},
			{"calculate_area", `{"shape": "        circle\n        ", "dimensions": {"radius": 5}}`}},
		text: "Some text in between.",
		note: "qwen3-coder string values keep their white space but one line ending at each edge, as in vLLM's qwen3_coder (indented code stays indented); SGLang strips them"},
}

const vlQwenFile = "vllm tests/tool_use/test_qwen3coder_tool_parser.py "

var peerQwen3CoderVLLM = []peerCase{
	{src: vlQwenFile + "test_extract_tool_calls[single_tool_multiline_param]",
		syntax: "qwen3-coder", tools: sgQwenTools,
		in:    "<tool_call>\n<function=calculate_area>\n<parameter=shape>\nrectangle\n</parameter>\n<parameter=dimensions>\n{\"width\": 10, \n \"height\": 20}\n</parameter>\n<parameter=precision>\n2\n</parameter>\n</function>\n</tool_call>",
		calls: []peerCall{{"calculate_area", `{"shape": "rectangle", "dimensions": {"width": 10, "height": 20}, "precision": 2}`}}},
	{src: vlQwenFile + "test_extract_tool_calls[parallel_tools]",
		syntax: "qwen3-coder", tools: sgQwenTools,
		in: qwenDallas + "\n" + strings.NewReplacer("Dallas", "Orlando", "TX", "FL", "fahrenheit", "celsius").Replace(qwenDallas),
		calls: []peerCall{{"get_current_weather", `{"city": "Dallas", "state": "TX", "unit": "fahrenheit"}`},
			{"get_current_weather", `{"city": "Orlando", "state": "FL", "unit": "celsius"}`}}},
	{src: vlQwenFile + "test_extract_tool_calls[tool_with_typed_params]",
		syntax: "qwen3-coder", tools: sgQwenTools,
		in:    "Let me calculate that area for you.<tool_call>\n<function=calculate_area>\n<parameter=shape>\ncircle\n</parameter>\n<parameter=dimensions>\n{\"radius\": 15.5}\n</parameter>\n<parameter=precision>\n3\n</parameter>\n</function>\n</tool_call>",
		calls: []peerCall{{"calculate_area", `{"shape": "circle", "dimensions": {"radius": 15.5}, "precision": 3}`}},
		text:  "Let me calculate that area for you."},
	{src: vlQwenFile + "test_extract_tool_calls_missing_closing_parameter_tag",
		syntax: "qwen3-coder", tools: sgQwenTools,
		in:    "Let me check the weather for you:\n<tool_call>\n<function=get_current_weather>\n<parameter=city>\nDallas\n<parameter=state>\nTX\n</parameter>\n<parameter=unit>\nfahrenheit\n</parameter>\n</function>\n</tool_call>",
		calls: []peerCall{{"get_current_weather", `{"city": "Dallas", "state": "TX", "unit": "fahrenheit"}`}},
		text:  "Let me check the weather for you:", errs: []string{KindUnclosedParam},
		note: "the same call, and plangram also reports the parameter left open"},
	{src: vlQwenFile + "test_extract_tool_calls_complex_type_with_single_quote (float is number in JSON Schema)",
		syntax: "qwen3-coder",
		tools:  ptools(ptool("test_types", `"int_param": {"type": "integer"}, "float_param": {"type": "number"}, "bool_param": {"type": "boolean"}, "str_param": {"type": "string"}, "obj_param": {"type": "object"}`)),
		in:     "<tool_call>\n<function=test_types>\n<parameter=obj_param>\n{'key': 'value'}\n</parameter>\n</function>\n</tool_call>",
		calls:  []peerCall{{"test_types", `{"obj_param": {"key": "value"}}`}}},
	{src: vlQwenFile + "test_extract_tool_calls_streaming_missing_opening_tag",
		syntax: "qwen3-coder", tools: sgQwenTools,
		in:    "I'll check the weather for you.\n\n<function=get_current_weather>\n<parameter=city>\nDallas\n</parameter>\n<parameter=state>\nTX\n</parameter>\n<parameter=unit>\nfahrenheit\n</parameter>\n</function>\n</tool_call>",
		calls: []peerCall{{"get_current_weather", `{"city": "Dallas", "state": "TX", "unit": "fahrenheit"}`}},
		text:  "I'll check the weather for you."},
}

const glmBeijing = "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Beijing</arg_value>\n<arg_key>date</arg_key>\n<arg_value>2024-06-27</arg_value>\n</tool_call>"

var peerGLM = []peerCase{
	{src: sgFile + "TestGlm4MoeDetector test_single_tool_call",
		syntax: "glm", tools: sgGLMTools, in: glmBeijing,
		calls: []peerCall{{"get_weather", `{"city": "Beijing", "date": "2024-06-27"}`}}},
	{src: sgFile + "TestGlm4MoeDetector test_multiple_tool_calls",
		syntax: "glm", tools: sgGLMTools,
		in: glmBeijing + strings.NewReplacer("Beijing", "Shanghai", "27", "28").Replace(glmBeijing),
		calls: []peerCall{{"get_weather", `{"city": "Beijing", "date": "2024-06-27"}`},
			{"get_weather", `{"city": "Shanghai", "date": "2024-06-28"}`}}},
	{src: sgFile + "TestGlm4MoeDetector test_invalid_tool_call",
		syntax: "glm", tools: sgGLMTools,
		in:    "<tool_call>invalid_func\n<arg_key>city</arg_key>\n<arg_value>Beijing</arg_value>\n</tool_call>",
		calls: []peerCall{{"invalid_func", `{"city": "Beijing"}`}}, errs: []string{KindUnknownTool},
		note: "the peer drops a call of an unknown tool; plangram keeps it with an unknown-tool error"},
	{src: sgFile + "TestGlm4MoeDetector test_array_argument_with_escaped_json",
		syntax: "glm", tools: ptools(ptool("todo_write", `"todos": {"type": "array", "items": {"type": "object"}}`)),
		in:    "<tool_call>todo_write\n<arg_key>todos</arg_key>\n<arg_value>[{\"id\": \"1\", \"task\": \"Check for hard-coded issues in the backend code\", \"status\": \"in_progress\"}, {\"id\": \"2\", \"task\": \"Check for hard-coded issues in the frontend code\", \"status\": \"pending\"}]</arg_value>\n</tool_call>",
		calls: []peerCall{{"todo_write", `{"todos": [{"id": "1", "task": "Check for hard-coded issues in the backend code", "status": "in_progress"}, {"id": "2", "task": "Check for hard-coded issues in the frontend code", "status": "pending"}]}`}}},
}
