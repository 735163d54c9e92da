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
		errs: []string{KindUnterminated},
		note: "vLLM gives the whole output as content; the call cut by the end of the stream is an unterminated error carrying its tool and the arguments read, its bytes markup, not text"},
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
		errs: []string{KindUnterminated},
		note: "the peer streams the partial call; plangram streams its param_delta and reports it unterminated, with what was read, at the end"},
}

const vlKimiFile = "vllm tests/tool_use/test_kimi_k2_tool_parser.py "

var peerKimiVLLM = []peerCase{
	{src: vlKimiFile + "test_extract_tool_calls_no_tools", syntax: "kimi-k2", in: "This is a test", text: "This is a test"},
	{src: vlKimiFile + "test_extract_tool_calls[tool_call_with_content_before]",
		syntax: "kimi-k2",
		in:     "I'll help you check the weather. " + kimiSec + " " + kimiCall + "\nfunctions.get_weather:0 " + kimiArgs + ` {"city": "Beijing"} ` + kimiEnd + " " + kimiSecEnd,
		calls:  []peerCall{{"get_weather", `{"city": "Beijing"}`}},
		text:   "I'll help you check the weather. "},
	{src: vlKimiFile + "test_extract_tool_calls[multi_tool_call_with_content_before]",
		syntax: "kimi-k2",
		in: "I'll help you check the weather. " + kimiSec + " " + kimiCall + "\nfunctions.get_weather:0 " + kimiArgs + ` {"city": "Beijing"} ` + kimiEnd +
			" " + kimiCall + "\nfunctions.get_weather:1 " + kimiArgs + ` {"city": "Shanghai"} ` + kimiEnd + " " + kimiSecEnd,
		calls: []peerCall{{"get_weather", `{"city": "Beijing"}`}, {"get_weather", `{"city": "Shanghai"}`}},
		text:  "I'll help you check the weather. "},
	{src: vlKimiFile + "test_extract_tool_calls_invalid_json",
		syntax: "kimi-k2",
		in: "I'll help you check the weather. " + kimiSec + " " + kimiCall + "\nfunctions.invalid_get_weather:0 " + kimiArgs + ` {"city": "Beijing" ` + kimiEnd +
			" " + kimiCall + "\nfunctions.valid_get_weather:1 " + kimiArgs + ` {"city": "Shanghai"} ` + kimiEnd + " " + kimiSecEnd,
		calls: []peerCall{{"invalid_get_weather", `{"city": "Beijing"}`}, {"valid_get_weather", `{"city": "Shanghai"}`}},
		text:  "I'll help you check the weather. ", errs: []string{KindBadJSON},
		note: "both calls, as in vLLM; the first with the arguments read before the JSON error, which is reported"},
	{src: vlKimiFile + "test_extract_tool_calls_invalid_funcall",
		syntax: "kimi-k2",
		in: "I'll help you check the weather. " + kimiSec + " " + kimiCall + "\nfunctions.invalid_get_weather.0 " + kimiArgs + ` {"city": "Beijing"} ` + kimiEnd +
			" " + kimiCall + "\nfunctions.valid_get_weather:1 " + kimiArgs + ` {"city": "Shanghai"} ` + kimiEnd + " " + kimiSecEnd,
		calls: []peerCall{{"invalid_get_weather.0", `{"city": "Beijing"}`}, {"valid_get_weather", `{"city": "Shanghai"}`}},
		text:  "I'll help you check the weather. ",
		note:  "vLLM drops the call whose id lacks :IDX; plangram keeps it (the id, less functions., names an unknown tool)"},
	{src: vlKimiFile + "test_token_leak_between_section_and_tool_begin / test_section_begin_noise_tool_begin_same_chunk",
		syntax: "kimi-k2",
		in:     "I'll help you with that. " + kimiSec + " noise text " + kimiCall + "get_weather:0 " + kimiArgs + ` {"city": "Paris"} ` + kimiEnd + kimiSecEnd,
		calls:  []peerCall{{"get_weather", `{"city": "Paris"}`}},
		text:   "I'll help you with that.", errs: []string{KindStrayText},
		note: "as vLLM, text inside the section is not content; plangram keeps it as markup with a stray-text warning"},
	{src: vlKimiFile + "test_marker_variants (singular <|tool_call_section_begin|>)",
		syntax: "kimi-k2",
		in:     "Reasoning <|tool_call_section_begin|>" + kimiCall + "functions.get_weather:0" + kimiArgs + `{"city": "Paris"}` + kimiEnd + "<|tool_call_section_end|> Done",
		calls:  []peerCall{{"get_weather", `{"city": "Paris"}`}},
		text:   "Reasoning  Done"},
	{src: vlKimiFile + "test_same_chunk_begin_content_end_markers",
		syntax: "kimi-k2",
		in:     "Reasoning " + kimiSec + "   " + kimiSecEnd + " Done",
		text:   "Reasoning  Done"},
	{src: vlKimiFile + "test_tool_call_end_and_section_end_same_chunk",
		syntax: "kimi-k2",
		in:     "Let me help. " + kimiSec + kimiCall + `get_weather:0 ` + kimiArgs + ` {"city": "Paris"} ` + kimiEnd + kimiSecEnd + " Done",
		calls:  []peerCall{{"get_weather", `{"city": "Paris"}`}},
		text:   "Let me help.  Done"},
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
		errs: []string{KindUnterminated}},
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
	{src: sgFile + "TestQwen3CoderDetector test_extract_tool_calls_type_conversion",
		syntax: "qwen3-coder",
		tools:  ptools(ptool("test_types", `"int_param": {"type": "integer"}, "float_param": {"type": "float"}, "bool_param": {"type": "boolean"}, "str_param": {"type": "string"}, "obj_param": {"type": "object"}`)),
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
	{src: vlQwenFile + "test_extract_tool_calls_complex_type_with_single_quote",
		syntax: "qwen3-coder",
		tools:  ptools(ptool("test_types", `"int_param": {"type": "integer"}, "float_param": {"type": "float"}, "bool_param": {"type": "boolean"}, "str_param": {"type": "string"}, "obj_param": {"type": "object"}`)),
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
	{src: sgFile + "TestGlm4MoeDetector test_array_argument_with_escaped_json (the raw-string variant)",
		syntax: "glm", tools: ptools(ptool("todo_write", `"todos": {"type": "array", "items": {"type": "object"}}`)),
		in:   `<tool_call>todo_write\n<arg_key>todos</arg_key>\n<arg_value>[{\"id\": \"1\", \"task\": \"Check\", \"status\": \"in_progress\"}]</arg_value>` + "\n</tool_call>",
		text: `<tool_call>todo_write\n<arg_key>todos</arg_key>\n<arg_value>[{\"id\": \"1\", \"task\": \"Check\", \"status\": \"in_progress\"}]</arg_value>` + "\n</tool_call>",
		note: "SGLang unescapes a call written as an escaped string (backslash-n after the name, \\\" in the JSON); plangram does not guess: <tool_call> followed by no name is text, every byte kept"},
}

const vlGLMFile = "vllm tests/tool_use/test_glm4_moe_tool_parser.py "

// glmIndented is the call of vLLM's single_tool_call case, indented as in
// its source.
const glmIndented = "<tool_call>get_current_weather\n    <arg_key>city</arg_key>\n    <arg_value>Dallas</arg_value>\n    <arg_key>state</arg_key>\n    <arg_value>TX</arg_value>\n    <arg_key>unit</arg_key>\n    <arg_value>fahrenheit</arg_value>\n    </tool_call>"

const glmBeijing2 = "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Beijing</arg_value>\n<arg_key>date</arg_key>\n<arg_value>2025-08-01</arg_value>\n</tool_call>"

var peerGLMVLLM = []peerCase{
	{src: vlGLMFile + "test_extract_tool_calls_no_tools", syntax: "glm", in: "This is a test", text: "This is a test"},
	{src: vlGLMFile + "test_extract_tool_calls[single_tool_call]", syntax: "glm", in: glmIndented,
		calls: []peerCall{{"get_current_weather", `{"city": "Dallas", "state": "TX", "unit": "fahrenheit"}`}}},
	{src: vlGLMFile + "test_extract_tool_calls[multiple_tool_calls]", syntax: "glm",
		in: glmIndented + "\n    " + strings.NewReplacer("Dallas", "Orlando", "TX", "FL").Replace(glmIndented),
		calls: []peerCall{{"get_current_weather", `{"city": "Dallas", "state": "TX", "unit": "fahrenheit"}`},
			{"get_current_weather", `{"city": "Orlando", "state": "FL", "unit": "fahrenheit"}`}}},
	{src: vlGLMFile + "test_extract_tool_calls[tool_call_with_content_before]", syntax: "glm",
		in:    "I'll help you check the weather. " + strings.NewReplacer("Dallas", "Seattle", "TX", "WA", "fahrenheit", "celsius").Replace(glmIndented),
		calls: []peerCall{{"get_current_weather", `{"city": "Seattle", "state": "WA", "unit": "celsius"}`}},
		text:  "I'll help you check the weather."},
	{src: vlGLMFile + "test_extract_tool_calls[tool_call_with_mixed_args]", syntax: "glm",
		in:    strings.NewReplacer("Dallas", "New York", "TX", "NY", "fahrenheit", "celsius").Replace(glmIndented),
		calls: []peerCall{{"get_current_weather", `{"city": "New York", "state": "NY", "unit": "celsius"}`}}},
	{src: vlGLMFile + "test_extract_tool_calls[tool_call_with_chinese_content]", syntax: "glm",
		in:    "I will help you get the weather.<tool_call>get_weather\n    <arg_key>city</arg_key>\n    <arg_value>Beijing</arg_value>\n    <arg_key>date</arg_key>\n    <arg_value>2025-08-01</arg_value>\n    </tool_call>",
		calls: []peerCall{{"get_weather", `{"city": "Beijing", "date": "2025-08-01"}`}},
		text:  "I will help you get the weather."},
	{src: vlGLMFile + "test_extract_tool_calls_with_thinking_tags", syntax: "glm",
		in:       "<think>I want to get the weather.</think>\n\nI will help you get the weather.\n" + glmBeijing2,
		calls:    []peerCall{{"get_weather", `{"city": "Beijing", "date": "2025-08-01"}`}},
		text:     "I will help you get the weather.",
		thinking: "I want to get the weather.",
		note:     "vLLM's tool parser leaves the <think> block in the content; plangram makes it thinking, as a reasoning parser would"},
	{src: vlGLMFile + "test_extract_tool_calls_malformed_xml", syntax: "glm",
		in:    "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Seattle</arg_value>\n<arg_key>incomplete_arg\n<arg_value>value</arg_value>\n</tool_call>",
		calls: []peerCall{{"get_weather", `{"city": "Seattle"}`}}, errs: []string{KindStrayText},
		note: "the peer accepts any result; plangram keeps the well-formed argument and reports the malformed one"},
	{src: vlGLMFile + "test_extract_tool_calls_empty_arguments", syntax: "glm",
		in:    "<tool_call>get_current_time\n</tool_call>",
		calls: []peerCall{{"get_current_time", `{}`}}},
	{src: vlGLMFile + "test_extract_tool_calls_mixed_content", syntax: "glm",
		in: "I will help you get the weather info.\n\n" + glmBeijing2 + "\n\nmeaningwhile, I will also check the weather in Shanghai.\n\n" + strings.Replace(glmBeijing2, "Beijing", "Shanghai", 1),
		calls: []peerCall{{"get_weather", `{"city": "Beijing", "date": "2025-08-01"}`},
			{"get_weather", `{"city": "Shanghai", "date": "2025-08-01"}`}},
		text: "I will help you get the weather info.\n\n\n\nmeaningwhile, I will also check the weather in Shanghai.",
		note: "vLLM returns only the text before the first call; plangram keeps the text between the calls too"},
	{src: vlGLMFile + "test_extract_tool_calls_special_characters", syntax: "glm",
		in:    "<tool_call>send_message\n<arg_key>recipient</arg_key>\n<arg_value>Amy</arg_value>\n<arg_key>message</arg_key>\n<arg_value>It is a nice day</arg_value>\n<arg_key>priority</arg_key>\n<arg_value>high</arg_value>\n</tool_call>",
		calls: []peerCall{{"send_message", `{"recipient": "Amy", "message": "It is a nice day", "priority": "high"}`}}},
	{src: vlGLMFile + "test_extract_tool_calls_incomplete_tool_call", syntax: "glm",
		in:   "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Beijing</arg_value>\n<arg_key>date</arg_key>\n<arg_value>2025-08-01</arg_value>",
		errs: []string{KindUnterminated},
		note: "vLLM gives the whole output as content; the call cut by the end of the stream is an unterminated error carrying its tool and the arguments read, its bytes markup, not text"},
}

const vlMiniMaxFile = "vllm tests/tool_use/test_minimax_m2_tool_parser.py "

var peerMiniMaxVLLM = []peerCase{
	{src: vlMiniMaxFile + "test_extract_tool_calls_streaming_incremental", syntax: "minimax",
		in:    `<minimax:tool_call><invoke name="get_weather"><parameter name="city">Seattle</parameter></invoke></minimax:tool_call>`,
		calls: []peerCall{{"get_weather", `{"city": "Seattle"}`}}},
	{src: vlMiniMaxFile + "test_streaming_minimax_m2_multiple_invokes", syntax: "minimax",
		in: `<minimax:tool_call><invoke name="search_web"><parameter name="query_tag">["technology", "events"]</parameter><parameter name="query_list">["OpenAI", "latest", "release"]</parameter></invoke>` +
			`<invoke name="search_web"><parameter name="query_tag">["technology", "events"]</parameter><parameter name="query_list">["Gemini", "latest", "release"]</parameter></invoke></minimax:tool_call>`,
		calls: []peerCall{{"search_web", `{"query_tag": "[\"technology\", \"events\"]", "query_list": "[\"OpenAI\", \"latest\", \"release\"]"}`},
			{"search_web", `{"query_tag": "[\"technology\", \"events\"]", "query_list": "[\"Gemini\", \"latest\", \"release\"]"}`}}},
	{src: vlMiniMaxFile + "test_minimax_m2_streaming_different_intervals_single_invoke", syntax: "minimax",
		in:    "<minimax:tool_call>\n<invoke name=\"get_weather\"><parameter name=\"city\">Seattle</parameter>\n</invoke></minimax:tool_call>",
		calls: []peerCall{{"get_weather", `{"city": "Seattle"}`}}},
	{src: vlMiniMaxFile + "test_minimax_m2_streaming_different_intervals_multiple_invokes", syntax: "minimax",
		in: "<minimax:tool_call>\n<invoke name=\"search_web\"><parameter name=\"query_tag\">[\"technology\", \"events\"]\n</parameter><parameter name=\"query_list\">[\"OpenAI\", \"latest\", \"release\"]\n</parameter></invoke><invoke name=\"search_web\"><parameter name=\"query_tag\">\n[\"technology\", \"events\"]</parameter><parameter name=\"query_list\">[\"Gemini\", \n\"latest\", \"release\"]</parameter></invoke></minimax:tool_call>",
		calls: []peerCall{{"search_web", `{"query_tag": "[\"technology\", \"events\"]", "query_list": "[\"OpenAI\", \"latest\", \"release\"]"}`},
			{"search_web", `{"query_tag": "[\"technology\", \"events\"]", "query_list": "[\"Gemini\", \n\"latest\", \"release\"]"}`}}},
}

const (
	vlDSV31File = "vllm tests/tool_use/test_deepseekv31_tool_parser.py "
	vlDSV3File  = "vllm tests/entrypoints/openai/tool_parsers/test_deepseekv3_tool_parser.py "
)

// dsV3 returns DeepSeek V3's markup of a call with a ```json fence.
func dsV3(name, args string) string {
	return dsCallBegin + "function" + dsSep + name + "\n```json\n" + args + "\n```" + dsCallEnd
}

var peerDeepSeekVLLM = []peerCase{
	{src: vlDSV31File + "test_extract_tool_calls_with_tool", syntax: "deepseek",
		in:    "normal text" + dsCallsBegin + dsCallBegin + `foo` + dsSep + `{"x":1}` + dsCallEnd + dsCallsEnd,
		calls: []peerCall{{"foo", `{"x": 1}`}}, text: "normal text"},
	{src: vlDSV31File + "test_extract_tool_calls_with_multiple_tools", syntax: "deepseek",
		in:    "some prefix text" + dsCallsBegin + dsCallBegin + `foo` + dsSep + `{"x":1}` + dsCallEnd + dsCallBegin + `bar` + dsSep + `{"y":2}` + dsCallEnd + dsCallsEnd + " some suffix text",
		calls: []peerCall{{"foo", `{"x": 1}`}, {"bar", `{"y": 2}`}},
		text:  "some prefix text some suffix text",
		note:  "vLLM returns the prefix only; plangram keeps the suffix too"},
	{src: vlDSV3File + "no_tool_calls_output", syntax: "deepseek",
		in: "How can I help you today? I can check weather for you.", text: "How can I help you today? I can check weather for you."},
	{src: vlDSV3File + "single_tool_call_output", syntax: "deepseek",
		in:    dsCallsBegin + dsV3("get_weather", `{"city": "Tokyo", "unit": "celsius"}`) + dsCallsEnd,
		calls: []peerCall{{"get_weather", `{"city": "Tokyo", "unit": "celsius"}`}}},
	{src: vlDSV3File + "parallel_tool_calls_output", syntax: "deepseek",
		in:    dsCallsBegin + dsV3("get_weather", `{"city": "Tokyo", "unit": "celsius"}`) + dsV3("search_hotels", `{"location": "Tokyo", "check_in": "2025-01-15"}`) + dsCallsEnd,
		calls: []peerCall{{"get_weather", `{"city": "Tokyo", "unit": "celsius"}`}, {"search_hotels", `{"location": "Tokyo", "check_in": "2025-01-15"}`}}},
	{src: vlDSV3File + "various_data_types_output", syntax: "deepseek",
		in:    dsCallsBegin + dsV3("test_function", `{"string_field": "hello", "int_field": 42, "float_field": 3.14, "bool_field": true, "null_field": null, "array_field": ["a", "b", "c"], "object_field": {"nested": "value"}, "empty_array": [], "empty_object": {}}`) + dsCallsEnd,
		calls: []peerCall{{"test_function", `{"string_field": "hello", "int_field": 42, "float_field": 3.14, "bool_field": true, "null_field": null, "array_field": ["a", "b", "c"], "object_field": {"nested": "value"}, "empty_array": [], "empty_object": {}}`}}},
	{src: vlDSV3File + "empty_arguments_output", syntax: "deepseek",
		in:    dsCallsBegin + dsV3("get_current_time", `{}`) + dsCallsEnd,
		calls: []peerCall{{"get_current_time", `{}`}}},
	{src: vlDSV3File + "surrounding_text_output", syntax: "deepseek",
		in:    "Let me check the weather for you." + dsCallsBegin + dsV3("get_weather", `{"city": "Paris"}`) + dsCallsEnd,
		calls: []peerCall{{"get_weather", `{"city": "Paris"}`}}, text: "Let me check the weather for you."},
	{src: vlDSV3File + "escaped_strings_output", syntax: "deepseek",
		in:    dsCallsBegin + dsV3("send_message", `{"text": "He said \"hello\"", "path": "C:\\Users\\file", "newline": "line1\nline2"}`) + dsCallsEnd,
		calls: []peerCall{{"send_message", `{"text": "He said \"hello\"", "path": "C:\\Users\\file", "newline": "line1\nline2"}`}}},
	{src: vlDSV3File + "malformed_input_outputs[0]", syntax: "deepseek",
		in:    dsCallsBegin + dsCallBegin + "function" + dsSep + "get_weather\n```json\n{\"city\": \"Tokyo\"\n```" + dsCallEnd + dsCallsEnd,
		calls: []peerCall{{"get_weather", `{"city": "Tokyo"}`}}, errs: []string{KindBadJSON},
		note: "the peer only asks for no crash; plangram keeps the argument read before the JSON error and reports it"},
	{src: vlDSV3File + "malformed_input_outputs[1]", syntax: "deepseek",
		in:   dsCallsBegin + "function" + dsSep + "get_weather\n```json\n{\"city\": \"Tokyo\"}\n```" + dsCallsEnd,
		errs: []string{KindStrayText},
		note: "the peer only asks for no crash; without <｜tool▁call▁begin｜> there is no call: the section's text is markup, with a stray-text warning"},
}

const vlMistralFile = "vllm tests/tool_use/test_mistral_tool_parser.py "

var peerMistralVLLM = []peerCase{
	{src: vlMistralFile + "test_extract_tool_calls_no_tools", syntax: "mistral", in: "This is a test", text: "This is a test"},
	{src: vlMistralFile + "test_extract_tool_calls_pre_v11_tokenizer[single_tool_add]", syntax: "mistral",
		in:    `[TOOL_CALLS][{"name": "add", "arguments":{"a": 3.5, "b": 4}}]`,
		calls: []peerCall{{"add", `{"a": 3.5, "b": 4}`}}},
	{src: vlMistralFile + "test_extract_tool_calls_pre_v11_tokenizer[single_tool_weather]", syntax: "mistral",
		in:    `[TOOL_CALLS] [{"name": "get_current_weather", "arguments":{"city": "San Francisco", "state": "CA", "unit": "celsius"}}]`,
		calls: []peerCall{{"get_current_weather", `{"city": "San Francisco", "state": "CA", "unit": "celsius"}`}}},
	{src: vlMistralFile + "test_extract_tool_calls_pre_v11_tokenizer[argument_before_name]", syntax: "mistral",
		in:    `[TOOL_CALLS] [{"arguments":{"city": "San Francisco", "state": "CA", "unit": "celsius"}, "name": "get_current_weather"}]`,
		calls: []peerCall{{"get_current_weather", `{"city": "San Francisco", "state": "CA", "unit": "celsius"}`}}},
	{src: vlMistralFile + "test_extract_tool_calls_pre_v11_tokenizer[argument_before_name_and_name_in_argument]", syntax: "mistral",
		in:    `[TOOL_CALLS] [{"arguments":{"name": "John Doe"}, "name": "get_age"}]`,
		calls: []peerCall{{"get_age", `{"name": "John Doe"}`}}},
	{src: vlMistralFile + "test_extract_tool_calls[single_tool_add]", syntax: "mistral",
		in:    `[TOOL_CALLS]add_this_and_that{"a": 3.5, "b": 4}`,
		calls: []peerCall{{"add_this_and_that", `{"a": 3.5, "b": 4}`}}},
	{src: vlMistralFile + "test_extract_tool_calls[single_tool_weather]", syntax: "mistral",
		in:    `[TOOL_CALLS]get_current_weather{"city": "San Francisco", "state": "CA", "unit": "celsius"}`,
		calls: []peerCall{{"get_current_weather", `{"city": "San Francisco", "state": "CA", "unit": "celsius"}`}}},
	{src: vlMistralFile + "test_extract_tool_calls[multiple_tool_calls]", syntax: "mistral",
		in:    `[TOOL_CALLS]add{"a": 3.5, "b": 4}[TOOL_CALLS]multiply{"a": 3, "b": 6}`,
		calls: []peerCall{{"add", `{"a": 3.5, "b": 4}`}, {"multiply", `{"a": 3, "b": 6}`}}},
	{src: vlMistralFile + "test_extract_tool_calls_streaming_pre_v11_tokenizer[single_tool_add]", syntax: "mistral",
		in:    `[TOOL_CALLS]  [ {"name":"add" , "arguments" : {"a": 3, "b": 4} } ]`,
		calls: []peerCall{{"add", `{"a": 3, "b": 4}`}}},
	{src: vlMistralFile + "test_extract_tool_calls_streaming_pre_v11_tokenizer[single_tool_add_strings]", syntax: "mistral",
		in:    `[TOOL_CALLS] [{"name": "add", "arguments":{"a": "3", "b": "4"}}]`,
		calls: []peerCall{{"add", `{"a": "3", "b": "4"}`}}},
	{src: vlMistralFile + "test_extract_tool_calls_streaming_pre_v11_tokenizer[multiple_tools]", syntax: "mistral",
		in:    `[TOOL_CALLS] [{"name": "add", "arguments": {"a": 3.5, "b": 4}}, {"name": "get_current_weather", "arguments":{"city": "San Francisco", "state": "CA", "unit": "celsius"}}]`,
		calls: []peerCall{{"add", `{"a": 3.5, "b": 4}`}, {"get_current_weather", `{"city": "San Francisco", "state": "CA", "unit": "celsius"}`}}},
	{src: vlMistralFile + "test_extract_tool_calls_streaming_pre_v11_tokenizer_one_chunk[multiple_tools]", syntax: "mistral",
		in:    `[TOOL_CALLS] [{"arguments": {"a": 3.5, "b": 4}, "name": "add"}, {"arguments":{"city": "San Francisco", "state": "CA", "unit": "celsius"}, "name": "get_current_weather"}]`,
		calls: []peerCall{{"add", `{"a": 3.5, "b": 4}`}, {"get_current_weather", `{"city": "San Francisco", "state": "CA", "unit": "celsius"}`}}},
	{src: vlMistralFile + "test_extract_tool_calls_streaming_one_chunk[content_before_tool]", syntax: "mistral",
		in:    `bla[TOOL_CALLS]add_this_and_that{"a": 3.5, "b": 4}`,
		calls: []peerCall{{"add_this_and_that", `{"a": 3.5, "b": 4}`}}, text: "bla"},
}

// llama.cpp tests/test-chat.cpp (tag v0.5.0) and bug reports, as quoted by
// a conformance corpus (scripts/fixtures/qwen3-xml/import_qwen3_xml.py).
const lcppFile = "llama.cpp tests/test-chat.cpp "

var (
	lcSpecial    = ptool("special_function", `"arg1": {"type": "integer"}`)
	lcSpecialOpt = ptool("special_function_with_opt", `"arg1": {"type": "integer"}, "arg2": {"type": "integer"}`)
	lcPython     = ptool("python", `"code": {"type": "string"}`)
	lcTerminal   = ptool("run_in_terminal", `"command": {"type": "string"}`)
)

const (
	qwCallSpecial1 = "<tool_call>\n<function=special_function>\n<parameter=arg1>\n1\n</parameter>\n</function>\n</tool_call>"
	qwTerminalPwd  = "<tool_call>\n<function=run_in_terminal>\n<parameter=command>\npwd\n</parameter>\n</function>\n</tool_call>"
)

var peerQwen3CoderLlamaCpp = []peerCase{
	{src: lcppFile + "L2164-L2174 (Qwen3.5, thinking prefilled)", syntax: "qwen3-coder", tools: ptools(lcSpecial), inThinking: true,
		in:    "I'm\nthinking\n</think>\n\n" + qwCallSpecial1,
		calls: []peerCall{{"special_function", `{"arg1": 1}`}}, thinking: "I'm\nthinking"},
	{src: lcppFile + "L2176-L2198 (Qwen3.5 parallel)", syntax: "qwen3-coder", tools: ptools(lcSpecial, lcSpecialOpt),
		in:    qwCallSpecial1 + "\n<tool_call>\n<function=special_function_with_opt>\n<parameter=arg1>\n1\n</parameter>\n<parameter=arg2>\n2\n</parameter>\n</function>\n</tool_call>",
		calls: []peerCall{{"special_function", `{"arg1": 1}`}, {"special_function_with_opt", `{"arg1": 1, "arg2": 2}`}}},
	{src: lcppFile + "L2200-L2219 (python multiline)", syntax: "qwen3-coder", tools: ptools(lcPython),
		in:    "<tool_call>\n<function=python>\n<parameter=code>\ndef hello():\n    print(\"Hello, world!\")\n\nhello()\n</parameter>\n</function>\n</tool_call>",
		calls: []peerCall{{"python", `{"code": "def hello():\n    print(\"Hello, world!\")\n\nhello()"}`}}},
	{src: lcppFile + "L2245-L2273 (value ending in a newline)", syntax: "qwen3-coder",
		tools: ptools(ptool("edit", `"filename": {"type": "string"}, "oldString": {"type": "string"}, "newString": {"type": "string"}`)),
		in:    "<tool_call>\n<function=edit>\n<parameter=filename>\nfoo.c\n</parameter>\n<parameter=oldString>\n#iclunde\n</parameter>\n<parameter=newString>\n#include\n\n</parameter>\n</function>\n</tool_call>",
		calls: []peerCall{{"edit", `{"filename": "foo.c", "oldString": "#iclunde", "newString": "#include\n"}`}}},
	{src: lcppFile + "L2276-L2293 (leading indentation)", syntax: "qwen3-coder", tools: ptools(lcPython),
		in:    "<tool_call>\n<function=python>\n<parameter=code>\n    print(\"Hello, world!\")\n</parameter>\n</function>\n</tool_call>",
		calls: []peerCall{{"python", `{"code": "    print(\"Hello, world!\")"}`}}},
	{src: lcppFile + "L2323-L2340 (a call ends the prefilled thinking block)", syntax: "qwen3-coder", tools: ptools(lcTerminal), inThinking: true,
		in:    "Need to inspect the current directory.\n" + qwTerminalPwd,
		calls: []peerCall{{"run_in_terminal", `{"command": "pwd"}`}}, thinking: "Need to inspect the current directory."},
	{src: lcppFile + "L2342-L2352 (empty args)", syntax: "qwen3-coder", tools: ptools(ptool("empty_args", ``)),
		in:    "<tool_call>\n<function=empty_args>\n</function>\n</tool_call>",
		calls: []peerCall{{"empty_args", `{}`}}},
	{src: lcppFile + "L2459-L2480 (reasoning, content, call)", syntax: "qwen3-coder", tools: ptools(lcTerminal), inThinking: true,
		in:    "I should inspect the directory.\n</think>\n\nLet me inspect it now.\n" + qwTerminalPwd,
		calls: []peerCall{{"run_in_terminal", `{"command": "pwd"}`}}, thinking: "I should inspect the directory.", text: "Let me inspect it now."},
	{src: lcppFile + "L3559-L3569 (bare <function=>)", syntax: "qwen3-coder", tools: ptools(lcSpecial),
		in:    "<function=special_function>\n<parameter=arg1>\n1\n</parameter>\n</function>\n</tool_call>",
		calls: []peerCall{{"special_function", `{"arg1": 1}`}}},
	{src: lcppFile + "L3586-L3612 (bare <function=>, parallel)", syntax: "qwen3-coder", tools: ptools(lcSpecial, lcSpecialOpt),
		in:    "<function=special_function>\n<parameter=arg1>\n1\n</parameter>\n</function>\n</tool_call>\n<tool_call>\n<function=special_function_with_opt>\n<parameter=arg1>\n1\n</parameter>\n<parameter=arg2>\n2\n</parameter>\n</function>\n</tool_call>",
		calls: []peerCall{{"special_function", `{"arg1": 1}`}, {"special_function_with_opt", `{"arg1": 1, "arg2": 2}`}}},
	{src: lcppFile + "L3664-L3680 (CJK)", syntax: "qwen3-coder", tools: ptools(lcPython),
		in:    "<tool_call>\n<function=python>\n<parameter=code>\n格\n</parameter>\n</function>\n</tool_call>",
		calls: []peerCall{{"python", `{"code": "格"}`}}},
	{src: lcppFile + "L3682-L3702 (HTML value)", syntax: "qwen3-coder", tools: ptools(ptool("html", `"markup": {"type": "string"}`)),
		in:    "<tool_call>\n<function=html>\n<parameter=markup>\n<html>\n <head>\n  <title>Hello!</title>\n </head>\n</html>\n</parameter>\n</function>\n</tool_call>",
		calls: []peerCall{{"html", `{"markup": "<html>\n <head>\n  <title>Hello!</title>\n </head>\n</html>"}`}}},
	{src: lcppFile + "L3704-L3720 (array of objects)", syntax: "qwen3-coder", tools: ptools(ptool("todo_list", `"todos": {"type": "array"}`)),
		in:    "<tool_call>\n<function=todo_list>\n<parameter=todos>\n[{\"item\": \"Check stuff\", \"selected\": false}, {\"item\": \"Prepare stuff\", \"selected\": true}]\n</parameter>\n</function>\n</tool_call>",
		calls: []peerCall{{"todo_list", `{"todos": [{"item": "Check stuff", "selected": false}, {"item": "Prepare stuff", "selected": true}]}`}}},
	{src: vlQwenFile + "test_extract_tool_calls_anyof_type_conversion", syntax: "qwen3-coder",
		tools: ptools(ptool("test_anyof", `"anyof_int": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": 5}, "anyof_str": {"anyOf": [{"type": "string"}, {"type": "null"}]}, "anyof_array": {"anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}]}, "anyof_obj": {"anyOf": [{"type": "object"}, {"type": "null"}]}, "type_as_array": {"type": ["integer", "null"]}, "multi_non_null": {"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]}`)),
		in:    "<tool_call>\n<function=test_anyof>\n<parameter=anyof_int>\n5\n</parameter>\n<parameter=anyof_str>\nhello\n</parameter>\n<parameter=anyof_array>\n[\"a\", \"b\", \"c\"]\n</parameter>\n<parameter=anyof_obj>\n{\"key\": \"value\"}\n</parameter>\n<parameter=type_as_array>\n42\n</parameter>\n<parameter=multi_non_null>\nsome text\n</parameter>\n</function>\n</tool_call>",
		calls: []peerCall{{"test_anyof", `{"anyof_int": 5, "anyof_str": "hello", "anyof_array": ["a", "b", "c"], "anyof_obj": {"key": "value"}, "type_as_array": 42, "multi_non_null": "some text"}`}}},
	{src: "vllm issue 57699 (last parameter closed by </function>)", syntax: "qwen3-coder", tools: ptools(ptool("ThinQ_Connect", `"body": {"type": "object"}`)),
		in:    "<tool_call>\n<function=ThinQ_Connect>\n<parameter=body>\n{\"airConJobMode\": \"AIR_CLEAN\", \"windStrength\": \"HIGH\", \"monitoringEnabled\": true}\n</function>\n</tool_call>",
		calls: []peerCall{{"ThinQ_Connect", `{"body": {"airConJobMode": "AIR_CLEAN", "windStrength": "HIGH", "monitoringEnabled": true}}`}}, errs: []string{KindUnclosedParam}},
	{src: "ollama issue 18530 (qwen3-coder:30b leaves out <tool_call>)", syntax: "qwen3-coder", tools: ptools(ptool("glob", `"pattern": {"type": "string"}`)),
		in:    "I will first check for all Markdown files in the current directory and its subdirectories, and then list them using the glob tool.\n\n<function=glob>\n<parameter=pattern>\n**/*.md\n</parameter>\n</function>\n</tool_call>",
		calls: []peerCall{{"glob", `{"pattern": "**/*.md"}`}},
		text:  "I will first check for all Markdown files in the current directory and its subdirectories, and then list them using the glob tool."},
	{src: "sglang issue 40739 (text after the call)", syntax: "qwen3-coder", tools: ptools(ptool("get_weather", `"city": {"type": "string"}`)),
		in:    "before<tool_call><function=get_weather><parameter=city>Paris</parameter></function></tool_call>after",
		calls: []peerCall{{"get_weather", `{"city": "Paris"}`}}, text: "beforeafter"},
	{src: "ollama issue 18421 (a number outside int64)", syntax: "qwen3-coder", tools: ptools(ptool("calculate", `"x": {"type": "number"}`)),
		in:    "<tool_call><function=calculate>\n<parameter=x>\n1e20\n</parameter>\n</function></tool_call>",
		calls: []peerCall{{"calculate", `{"x": 1e20}`}}},
}

// vLLM v0.30.0 glm47 tests, Ollama's glm46 test and an SGLang issue, as
// quoted by a conformance corpus (scripts/fixtures/glm/imported.py).
const vlGLM47File = "vllm tests/tool_parsers/test_glm47_moe_tool_parser.py "

var glm47Tools = ptools(ptool("get_current_date", ``), ptool("get_weather", `"city": {"type": "string"}, "date": {"type": "string"}`))

var peerGLMCorpus = []peerCase{
	{src: "vllm tests/tool_parsers/test_glm4_moe_tool_parser.py L162-L180 (schema types)", syntax: "glm",
		tools: ptools(ptool("calculate", `"operation": {"type": "string"}, "a": {"type": "number"}, "b": {"type": "number"}, "enabled": {"type": "boolean"}`)),
		in:    "<tool_call>calculate\n<arg_key>operation</arg_key><arg_value>add</arg_value>\n<arg_key>a</arg_key><arg_value>42</arg_value>\n<arg_key>b</arg_key><arg_value>3.14</arg_value>\n<arg_key>enabled</arg_key><arg_value>true</arg_value>\n</tool_call>",
		calls: []peerCall{{"calculate", `{"operation": "add", "a": 42, "b": 3.14, "enabled": true}`}}},
	{src: "ollama model/parsers/glm46_test.go L108-L119 (content after the call)", syntax: "glm",
		tools: ptools(ptool("test", ``)),
		in:    "<think>thinking</think><tool_call>test</tool_call>after tool",
		calls: []peerCall{{"test", `{}`}}, text: "after tool", thinking: "thinking"},
	{src: vlGLM47File + "L160-L164 (white space kept in a value)", syntax: "glm", tools: glm47Tools,
		in:    "<tool_call>get_weather<arg_key>city</arg_key><arg_value>  Beijing  </arg_value></tool_call>",
		calls: []peerCall{{"get_weather", `{"city": "  Beijing  "}`}}},
	{src: vlGLM47File + "L166-L170 (content before, no space)", syntax: "glm", tools: glm47Tools,
		in:    "Checking.<tool_call>get_current_date</tool_call>",
		calls: []peerCall{{"get_current_date", `{}`}}, text: "Checking."},
	{src: vlGLM47File + "L185-L188 (white space only before the call)", syntax: "glm", tools: glm47Tools,
		in:    "  \n  <tool_call>get_current_date</tool_call>",
		calls: []peerCall{{"get_current_date", `{}`}}},
	{src: vlGLM47File + "L154-L158 (GLM-4.5 newlines)", syntax: "glm", tools: glm47Tools,
		in:    "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Beijing</arg_value>\n</tool_call>",
		calls: []peerCall{{"get_weather", `{"city": "Beijing"}`}}},
	{src: "vllm tests/reasoning/test_glm4_moe_reasoning_parser.py L50-L55 (template opened <think>)", syntax: "glm", tools: glm47Tools, inThinking: true,
		in:   "This is a reasoning section</think>This is the rest",
		text: "This is the rest", thinking: "This is a reasoning section"},
	{src: "sglang issue 33324 (three calls of one tool)", syntax: "glm",
		tools: ptools(ptool("get_weather", `"city": {"type": "string"}`), ptool("search", `"query": {"type": "string"}`)),
		in:    "<tool_call>get_weather<arg_key>city</arg_key><arg_value>A</arg_value></tool_call>\n<tool_call>get_weather<arg_key>city</arg_key><arg_value>B</arg_value></tool_call>\n<tool_call>get_weather<arg_key>city</arg_key><arg_value>C</arg_value></tool_call>",
		calls: []peerCall{{"get_weather", `{"city": "A"}`}, {"get_weather", `{"city": "B"}`}, {"get_weather", `{"city": "C"}`}}},
}

// vLLM v0.30.0 kimi_k2 tests as quoted by a conformance corpus
// (scripts/fixtures/kimi/imported.py); vLLM's helper writes a space after
// the call id.
const vlK2File = "vllm tests/tool_parsers/test_kimi_k2_tool_parser.py "

func kimiTool(id, args string) string { return kimiCall + id + " " + kimiArgs + args + kimiEnd }

var peerKimiCorpus = []peerCase{
	{src: vlK2File + "L78-L96 (three calls)", syntax: "kimi-k2",
		in: "Multiple tasks. " + kimiSec + kimiTool("functions.get_weather:0", `{"city": "New York"}`) + kimiTool("functions.get_news:1", `{"topic": "technology"}`) +
			kimiTool("functions.send_email:2", `{"to": "user@example.com", "subject": "Daily Update"}`) + kimiSecEnd,
		calls: []peerCall{{"get_weather", `{"city": "New York"}`}, {"get_news", `{"topic": "technology"}`}, {"send_email", `{"to": "user@example.com", "subject": "Daily Update"}`}},
		text:  "Multiple tasks."},
	{src: vlK2File + "L107-L119 (multi-line JSON)", syntax: "kimi-k2",
		in:    "Formatted. " + kimiSec + kimiTool("functions.process_data:0", "{\n  \"name\": \"test\",\n  \"value\": 123\n}") + kimiSecEnd,
		calls: []peerCall{{"process_data", `{"name": "test", "value": 123}`}}, text: "Formatted."},
	{src: vlK2File + "L120-L126 (id without functions.)", syntax: "kimi-k2",
		in:    "No prefix. " + kimiSec + kimiTool("get_weather:0", `{"city": "Tokyo"}`) + kimiSecEnd,
		calls: []peerCall{{"get_weather", `{"city": "Tokyo"}`}}, text: "No prefix."},
	{src: vlK2File + "L370-L386 (noise between the markers)", syntax: "kimi-k2",
		in:    "Reasoning. " + kimiSec + " spurious noise " + kimiCall + "functions.test:0 " + kimiArgs + `{"k": "v"} ` + kimiEnd + kimiSecEnd,
		calls: []peerCall{{"test", `{"k": "v"}`}}, text: "Reasoning.", errs: []string{KindStrayText}},
	{src: vlK2File + "L388-L393 (empty section)", syntax: "kimi-k2",
		in: "Reasoning. " + kimiSec + kimiSecEnd, text: "Reasoning."},
	{src: vlK2File + "L435-L458 (content after the section)", syntax: "kimi-k2",
		in:    "Before. " + kimiSec + kimiCall + "functions.get_weather:0 " + kimiArgs + `{"city": "Tokyo"} ` + kimiEnd + kimiSecEnd + " After tools.",
		calls: []peerCall{{"get_weather", `{"city": "Tokyo"}`}}, text: "Before.  After tools.",
		note: "vLLM drops the text after the section; plangram keeps it (as the corpus expects)"},
}

// gpt-oss output as openai/harmony renders the messages of vLLM's
// tests/tool_use/test_openai_tool_parser.py after the <|start|>assistant
// generation prompt, and openai/harmony's own tests (tests/test_harmony.py,
// test-data/*.txt).
const (
	vlHarmonyFile = "vllm tests/tool_use/test_openai_tool_parser.py "
	hmTestsFile   = "openai/harmony tests/test_harmony.py "
	hmAnalysisTk  = "<|channel|>analysis<|message|>User asks: \"What is the weather in Tokyo?\" We need to use get_current_weather tool.<|end|>"
)

func hmCallMsg(name, ctype, body string) string {
	return "<|start|>assistant to=functions." + name + "<|channel|>commentary" + ctype + "<|message|>" + body + "<|call|>"
}

var peerHarmony = []peerCase{
	{src: vlHarmonyFile + "test_extract_tool_calls_no_tools", syntax: "harmony",
		in: "<|channel|>final<|message|>This is a test<|return|>", text: "This is a test"},
	{src: vlHarmonyFile + "test_extract_tool_calls_single_tool[0]", syntax: "harmony",
		in:       hmAnalysisTk + hmCallMsg("get_current_weather", " <|constrain|>json", `{"location": "Tokyo"}`),
		calls:    []peerCall{{"get_current_weather", `{"location": "Tokyo"}`}},
		thinking: `User asks: "What is the weather in Tokyo?" We need to use get_current_weather tool.`},
	{src: vlHarmonyFile + "test_extract_tool_calls_single_tool[1]", syntax: "harmony",
		in:       hmAnalysisTk + hmCallMsg("get_current_weather", " <|constrain|>json", "{\n\"location\": \"Tokyo\"\n}"),
		calls:    []peerCall{{"get_current_weather", `{"location": "Tokyo"}`}},
		thinking: `User asks: "What is the weather in Tokyo?" We need to use get_current_weather tool.`},
	{src: vlHarmonyFile + "test_extract_tool_calls_multiple_tools", syntax: "harmony",
		in: hmAnalysisTk + hmCallMsg("get_current_weather", " <|constrain|>json", `{"location": "Tokyo"}`) +
			hmCallMsg("get_user_location", " <|constrain|>json", `{"location": "Tokyo"}`) + hmCallMsg("no_content_type", "", `{"location": "Tokyo"}`) +
			hmCallMsg("not_json_no_content_type", "", "foo") + hmCallMsg("empty_args", " <|constrain|>json", "{}") + hmCallMsg("no_args", " <|constrain|>json", ""),
		calls: []peerCall{{"get_current_weather", `{"location": "Tokyo"}`}, {"get_user_location", `{"location": "Tokyo"}`},
			{"no_content_type", `{"location": "Tokyo"}`}, {"not_json_no_content_type", `{}`}, {"empty_args", `{}`}, {"no_args", `{}`}},
		thinking: `User asks: "What is the weather in Tokyo?" We need to use get_current_weather tool.`, errs: []string{KindBadJSON},
		note: "vLLM passes the body foo on as the arguments; plangram reports it (bad-json) and the call has no arguments"},
	{src: vlHarmonyFile + "test_extract_tool_calls_with_content", syntax: "harmony",
		in:       hmAnalysisTk + hmCallMsg("get_current_weather", " <|constrain|>json", `{"location": "Tokyo"}`) + "<|start|>assistant<|channel|>final<|message|>This tool call will get the weather.<|return|>",
		calls:    []peerCall{{"get_current_weather", `{"location": "Tokyo"}`}},
		thinking: `User asks: "What is the weather in Tokyo?" We need to use get_current_weather tool.`, text: "This tool call will get the weather."},
	{src: hmTestsFile + "test_tool_call_with_constrain_marker_adjacent", syntax: "harmony",
		in:    hmCallMsg("get_weather", "<|constrain|>json", `{"location": "Tokyo"}`),
		calls: []peerCall{{"get_weather", `{"location": "Tokyo"}`}}},
	{src: hmTestsFile + "test_tool_call_with_channel_before_recipient_and_constrain_adjacent", syntax: "harmony",
		in:    `<|start|>assistant<|channel|>commentary to=functions.get_weather<|constrain|>json<|message|>{"latitude":48.8566,"longitude":2.3522}<|call|>`,
		calls: []peerCall{{"get_weather", `{"latitude": 48.8566, "longitude": 2.3522}`}}},
	{src: hmTestsFile + "test_streamable_parser_missing_message_token", syntax: "harmony",
		in:   "I must refuse<|end|><|start|>assistant<|channel|>analysis<|message|>We must refuse<|end|><|start|>assistant<|channel|>final<|message|>I'm sorry, but I can't help with that.<|return|>",
		text: "I must refuseI'm sorry, but I can't help with that.", thinking: "We must refuse"},
	{src: hmTestsFile + "test_streamable_parser_missing_message_token_other_initial_headers", syntax: "harmony",
		in:   "<|channel|>analysis I must refuse<|end|><|start|>assistant<|channel|>analysis<|message|>We must refuse<|end|><|start|>assistant<|channel|>final<|message|>I'm sorry, but I can't help with that.<|return|>",
		text: "I'm sorry, but I can't help with that.", thinking: "I must refuseWe must refuse"},
	{src: hmTestsFile + "test_streamable_parser_missing_message_token_tool_call", syntax: "harmony",
		in:    "... Let's use the tool.<|end|><|start|>assistant to=functions.get_weather<|channel|>commentary json<|message|>{\"location\": \"Tokyo\"}<|call|>",
		calls: []peerCall{{"get_weather", `{"location": "Tokyo"}`}}, text: "... Let's use the tool."},
	{src: "openai/harmony test-data/test_streamable_parser.txt (a built-in tool and its output)", syntax: "harmony",
		in:       "<|channel|>analysis<|message|>Let's browse to confirm.<|end|><|start|>assistant<|channel|>commentary to=browser.search code<|message|>{\"query\": \"current US president July 2025\", \"topn\": 10, \"source\": \"news\"}<|call|><|start|>browser.search to=assistant<|channel|>commentary<|message|>{\"result\": \"https://openai.com/\"}<|end|>",
		thinking: "Let's browse to confirm.", text: `{"result": "https://openai.com/"}`,
		note: "a message to a built-in tool (browser.search) is not a function call (markup, with a warning); the tool's answer to=assistant is text"},
	{src: "openai/harmony test-data/test_does_not_drop_if_ongoing_analysis.txt", syntax: "harmony",
		in:       "<|channel|>analysis<|message|>User asks: “What is the weather in SF?” We need to use lookup_weather tool.<|end|><|start|>assistant to=functions.lookup_weather<|channel|>commentary <|constrain|>json<|message|>{\"location\": \"San Francisco\"}<|call|>",
		calls:    []peerCall{{"lookup_weather", `{"location": "San Francisco"}`}},
		thinking: "User asks: “What is the weather in SF?” We need to use lookup_weather tool."},
}

// vLLM's tests/parser/test_harmony.py, llama.cpp's test-chat.cpp and the
// Harmony spec, as a conformance corpus quotes them (its gpt-oss import
// script): the generation prompt <|start|>assistant and a final stop token
// removed.
const hmCorpus = "harmony corpus: "

var hmTSpecial = ptools(lcSpecial)

var peerHarmonyCorpus = []peerCase{
	{src: hmCorpus + "vllm test_harmony.py L490-L505 (preamble, call closed by <|end|>)", syntax: "harmony",
		in:    "<|channel|>commentary<|message|>Let me check the weather.<|end|><|start|>assistant to=functions.get_weather<|channel|>commentary<|message|>{\"location\": \"SF\"}<|end|>",
		calls: []peerCall{{"get_weather", `{"location": "SF"}`}}, text: "Let me check the weather."},
	{src: hmCorpus + "vllm test_harmony.py L580-L612 (a call on the analysis channel)", syntax: "harmony",
		in:    "<|channel|>analysis<|message|>Thinking<|end|><|start|>assistant to=functions.get_weather<|channel|>analysis<|constrain|>json<|message|>{\"location\": \"Paris\"}",
		calls: []peerCall{{"get_weather", `{"location": "Paris"}`}}, thinking: "Thinking"},
	{src: hmCorpus + "vllm test_harmony.py L723-L745 (sequential calls)", syntax: "harmony",
		in:    "<|channel|>analysis<|message|>Thinking<|end|><|start|>assistant to=functions.get_weather<|channel|>commentary<|constrain|>json<|message|>{\"location\": \"Paris\"}<|call|><|start|>assistant to=functions.get_time<|channel|>commentary<|constrain|>json<|message|>{\"timezone\": \"UTC\"}",
		calls: []peerCall{{"get_weather", `{"location": "Paris"}`}, {"get_time", `{"timezone": "UTC"}`}}, thinking: "Thinking"},
	{src: hmCorpus + "vllm test_harmony.py L703-L718 (call then final)", syntax: "harmony",
		in:    "<|channel|>analysis<|message|>Reasoning about query...<|end|><|start|>assistant to=functions.search<|channel|>commentary<|constrain|>json<|message|>{\"query\": \"vllm\"}<|call|><|start|>assistant<|channel|>final<|message|>Done",
		calls: []peerCall{{"search", `{"query": "vllm"}`}}, thinking: "Reasoning about query...", text: "Done"},
	{src: hmCorpus + "vllm test_harmony.py L427-L441 (truncated final)", syntax: "harmony",
		in:   "<|channel|>analysis<|message|>I'm thinking.<|end|><|start|>assistant<|channel|>final<|message|>I'm in the middle of answering",
		text: "I'm in the middle of answering", thinking: "I'm thinking."},
	{src: hmCorpus + "vllm test_harmony.py L79-L85 (malformed header)", syntax: "harmony",
		in:   "<|channel|>analysis<|message|>thinking<|end|><|start|>assistant<|channel|>commentary<|message|>thinking<|end|><|start|>assistant<|channel|>final {\"answer\": \"hi\"}",
		text: `thinking{"answer": "hi"}`, thinking: "thinking"},
	{src: hmCorpus + "llama.cpp L6437-L6442 (recipient in the channel header, analysis)", syntax: "harmony", tools: hmTSpecial,
		in:    `<|channel|>analysis to=functions.special_function<|message|>{"arg1": 1}`,
		calls: []peerCall{{"special_function", `{"arg1": 1}`}}},
	{src: hmCorpus + "llama.cpp L6444-L6449 (the output goes on with the prompt's header)", syntax: "harmony", tools: hmTSpecial,
		in:    ` to=functions.special_function<|channel|>analysis <|constrain|>json<|message|>{"arg1": 1}`,
		calls: []peerCall{{"special_function", `{"arg1": 1}`}}},
	{src: hmCorpus + "llama.cpp L6467-L6502 (code in arguments)", syntax: "harmony",
		tools: ptools(ptool("edit", `"oldString": {"type": "string"}, "newString": {"type": "string"}, "replaceAll": {"type": "boolean"}`)),
		in:    `<|channel|>analysis<|message|>Thinking about edit...<|end|><|start|>assistant<|channel|>commentary to=functions.edit <|constrain|>json<|message|>{"oldString": "if (part < railCount - 1) {", "newString": "if (part < 4) {", "replaceAll": false}`,
		calls: []peerCall{{"edit", `{"oldString": "if (part < railCount - 1) {", "newString": "if (part < 4) {", "replaceAll": false}`}}, thinking: "Thinking about edit..."},
	{src: hmCorpus + "llama.cpp L6529-L6536 (built-in python recipient)", syntax: "harmony", tools: hmTSpecial,
		in:       `<|channel|>analysis<|message|>I will execute python to say hello<|end|><|start|>assistant<|channel|>commentary to=python <|constrain|>code<|message|>print("hello")`,
		thinking: "I will execute python to say hello", errs: []string{KindUnknownTool}},
	{src: hmCorpus + "llama.cpp L6540-L6546 (stray header to=assistant)", syntax: "harmony", tools: hmTSpecial,
		in:       "<|channel|>commentary to=assistant<|channel|>analysis<|message|>I'm\nthinking<|end|><|start|>assistant<|channel|>final<|message|>Hello, world!\nWhat's up?",
		thinking: "I'm\nthinking", text: "Hello, world!\nWhat's up?"},
	{src: hmCorpus + "Harmony spec, preamble", syntax: "harmony", tools: ptools(ptool("generate_file", `"template": {"type": "string"}, "path": {"type": "string"}`)),
		in:       "<|channel|>analysis<|message|>{long chain of thought}<|end|><|start|>assistant<|channel|>commentary<|message|>**Action plan**:\n1. Generate an HTML file\n---\nWill start executing the plan step by step<|end|><|start|>assistant<|channel|>commentary to=functions.generate_file<|constrain|>json<|message|>{\"template\": \"basic_html\", \"path\": \"index.html\"}",
		calls:    []peerCall{{"generate_file", `{"template": "basic_html", "path": "index.html"}`}},
		thinking: "{long chain of thought}", text: "**Action plan**:\n1. Generate an HTML file\n---\nWill start executing the plan step by step"},
	{src: hmCorpus + "llama.cpp issue 27720 (garbled channel)", syntax: "harmony",
		in:       "<|channel|>??<|end|><|start|>assistant<|channel|>analysis<|message|>We must comply with the gating rules.",
		thinking: "We must comply with the gating rules."},
}

// Mistral's call ids: llama.cpp tests/test-chat.cpp (message_assist_call_id,
// the Mistral Nemo and Mistral Small 3.2 templates), and vLLM's v11 cases
// with code in the arguments.
var peerMistralIDs = []peerCase{
	{src: lcppFile + "Mistral-Nemo-Instruct-2407 message_assist_call_id", syntax: "mistral",
		in:    `[TOOL_CALLS][{"name": "special_function", "arguments": {"arg1": 1}, "id": "123456789"}]`,
		calls: []peerCall{{"special_function", `{"arg1": 1}`}}, ids: []string{"123456789"}},
	{src: lcppFile + "test_parse_tool_call MistralNemo (Bleh)", syntax: "mistral",
		in:    `Bleh[TOOL_CALLS][{"arguments": {"arg1": 1}, "name": "special_function", "id": "123456789"}]`,
		calls: []peerCall{{"special_function", `{"arg1": 1}`}}, ids: []string{"123456789"}, text: "Bleh"},
	{src: lcppFile + "Mistral-Small-3.2-24B-Instruct-2506 FUNC_BRACKET_TAG [CALL_ID]", syntax: "mistral",
		in:    `[TOOL_CALLS]special_function[CALL_ID]123456789[ARGS]{"arg1": 1}`,
		calls: []peerCall{{"special_function", `{"arg1": 1}`}}, ids: []string{"123456789"}},
	{src: lcppFile + "unsloth-mistral-Devstral-Small-2507 FUNC_BRACKET_TAG (no id)", syntax: "mistral",
		in:    `[TOOL_CALLS]special_function[ARGS]{"arg1": 1}`,
		calls: []peerCall{{"special_function", `{"arg1": 1}`}}, ids: []string{""}},
	{src: "mistral-common experimental/tools.py _decode_tool_call_v11_with_call_id (parallel)", syntax: "mistral",
		in:    `[TOOL_CALLS]special_function[CALL_ID]000000001[ARGS]{"arg1": 1}[TOOL_CALLS]special_function[CALL_ID]000000002[ARGS]{"arg1": 2}`,
		calls: []peerCall{{"special_function", `{"arg1": 1}`}, {"special_function", `{"arg1": 2}`}}, ids: []string{"000000001", "000000002"}},
	{src: vlMistralFile + "test_extract_tool_calls[wrong_json]", syntax: "mistral",
		in:    `hi{hi[TOOL_CALLS]bash{"command": "print(\"hello world!\")\nre.compile(r'{}')"}`,
		calls: []peerCall{{"bash", `{"command": "print(\"hello world!\")\nre.compile(r'{}')"}`}}, text: "hi{hi"},
	{src: vlMistralFile + "test_extract_tool_calls_pre_v11_tokenizer[trailing_data_after_json]", syntax: "mistral",
		in:    `[TOOL_CALLS] [{"name": "get_current_weather", "arguments":{"city": "Dallas", "state": "TX", "unit": "fahrenheit"}}]` + "\nextra trailing data",
		calls: []peerCall{{"get_current_weather", `{"city": "Dallas", "state": "TX", "unit": "fahrenheit"}`}}, text: "extra trailing data",
		note: "vLLM's non-streaming parse drops the trailing text (content None); its streaming parse keeps it, as plangram does"},
	{src: vlMistralFile + "test_extract_tool_calls_pre_v11_regex_fallback_fails", syntax: "mistral",
		in: "[TOOL_CALLS] not json at all", text: "[TOOL_CALLS] not json at all",
		note: "vLLM drops the marker from the content; plangram keeps every byte"},
}
