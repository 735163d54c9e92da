package stream

import (
	"encoding/json"
	"strings"
	"testing"
)

// The model-native syntaxes against vLLM's current tool-parser suites,
// tests/tool_parsers/ (the suites ported in peers_cases_test.go are the
// older tests/tool_use/ files and corpora quoting them). Every test of
// test_qwen3coder_tool_parser.py, test_glm4_moe_tool_parser.py,
// test_kimi_k2_tool_parser.py, test_deepseekv31_tool_parser.py and
// test_openai_tool_parser.py that gives a model output and expects calls
// or content is here; a streaming test's deltas are joined (checkChunks
// runs every chunking, the peer's among them). Tests of request
// adjustment, structural tags and private helpers have no model output
// and are not ported.

const (
	vlTPQwen   = "vllm tests/tool_parsers/test_qwen3coder_tool_parser.py "
	vlTPGLM    = "vllm tests/tool_parsers/test_glm4_moe_tool_parser.py "
	vlTPKimi   = "vllm tests/tool_parsers/test_kimi_k2_tool_parser.py "
	vlTPDSV31  = "vllm tests/tool_parsers/test_deepseekv31_tool_parser.py "
	vlTPOpenAI = "vllm tests/tool_parsers/test_openai_tool_parser.py "
)

// qwenCall returns a qwen3-coder call of name with the given parameters
// (name, value pairs), each value on its own lines as Qwen3-Coder writes
// them.
func qwenCall(name string, kv ...string) string {
	var b strings.Builder
	b.WriteString("<tool_call>\n<function=" + name + ">\n")
	for i := 0; i+1 < len(kv); i += 2 {
		b.WriteString("<parameter=" + kv[i] + ">\n" + kv[i+1] + "\n</parameter>\n")
	}
	b.WriteString("</function>\n</tool_call>")
	return b.String()
}

var (
	vlQwenTestTypes = ptools(ptool("test_types", `"int_param": {"type": "integer"}, "float_param": {"type": "float"}, "bool_param": {"type": "boolean"}, "str_param": {"type": "string"}, "obj_param": {"type": "object"}`))
	vlQwenAnyOf     = ptools(ptool("test_anyof", `"anyof_int": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": 5},
		"anyof_str": {"anyOf": [{"type": "string"}, {"type": "null"}]},
		"anyof_array": {"anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}]},
		"anyof_obj": {"anyOf": [{"type": "object"}, {"type": "null"}]},
		"type_as_array": {"type": ["integer", "null"]},
		"multi_non_null": {"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]}`))
	vlQwenSearch = ptools(ptool("search_web", `"query": {"anyOf": [{"type": "string"}, {"type": "null"}]},
		"count": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": 5},
		"verbose": {"anyOf": [{"type": "boolean"}, {"type": "null"}]}`))
	qwenDallasFL = qwenCall("get_current_weather", "city", "Orlando", "state", "FL", "unit", "fahrenheit")
	qwenArea     = qwenCall("calculate_area", "shape", "rectangle", "dimensions", "{\"width\": 10, \n \"height\": 20}", "precision", "2")
	qwenCircle   = qwenCall("calculate_area", "shape", "circle", "dimensions", `{"radius": 15.5}`, "precision", "3")
	qwenMissing  = "Let me check the weather for you:\n<tool_call>\n<function=get_current_weather>\n<parameter=city>\nDallas\n<parameter=state>\nTX\n</parameter>\n<parameter=unit>\nfahrenheit\n</parameter>\n</function>\n</tool_call>"
)

const (
	qwenDallasArgs  = `{"city": "Dallas", "state": "TX", "unit": "fahrenheit"}`
	qwenOrlandoArgs = `{"city": "Orlando", "state": "FL", "unit": "fahrenheit"}`
	qwenAreaArgs    = `{"shape": "rectangle", "dimensions": {"width": 10, "height": 20}, "precision": 2}`
	qwenCircleArgs  = `{"shape": "circle", "dimensions": {"radius": 15.5}, "precision": 3}`
)

var peerQwen3CoderTP = []peerCase{
	{src: vlTPQwen + "test_extract_tool_calls_no_tools", syntax: "qwen3-coder", tools: sgQwenTools,
		in: "This is a test response without any tool calls", text: "This is a test response without any tool calls"},
	{src: vlTPQwen + "test_extract_tool_calls[single_tool] (and _streaming)", syntax: "qwen3-coder", tools: sgQwenTools,
		in: qwenDallas, calls: []peerCall{{"get_current_weather", qwenDallasArgs}}},
	{src: vlTPQwen + "test_extract_tool_calls[single_tool_with_content] (and _streaming)", syntax: "qwen3-coder", tools: sgQwenTools,
		in:    "Sure! Let me check the weather for you." + qwenDallas,
		calls: []peerCall{{"get_current_weather", qwenDallasArgs}}, text: "Sure! Let me check the weather for you."},
	{src: vlTPQwen + "test_extract_tool_calls[single_tool_multiline_param] (and _streaming)", syntax: "qwen3-coder", tools: sgQwenTools,
		in: qwenArea, calls: []peerCall{{"calculate_area", qwenAreaArgs}}},
	{src: vlTPQwen + "test_extract_tool_calls[parallel_tools]", syntax: "qwen3-coder", tools: sgQwenTools,
		in: qwenDallas + "\n" + qwenDallasFL, calls: []peerCall{{"get_current_weather", qwenDallasArgs}, {"get_current_weather", qwenOrlandoArgs}}},
	{src: vlTPQwen + "test_extract_tool_calls[tool_with_typed_params] (and _streaming)", syntax: "qwen3-coder", tools: sgQwenTools,
		in:    "Let me calculate that area for you." + qwenCircle,
		calls: []peerCall{{"calculate_area", qwenCircleArgs}}, text: "Let me calculate that area for you."},
	{src: vlTPQwen + "test_extract_tool_calls_fallback_no_tags", syntax: "qwen3-coder", tools: sgQwenTools,
		in:    "<function=get_current_weather>\n<parameter=city>\nDallas\n</parameter>\n<parameter=state>\nTX\n</parameter>\n</function>",
		calls: []peerCall{{"get_current_weather", `{"city": "Dallas", "state": "TX"}`}}},
	{src: vlTPQwen + "test_extract_tool_calls_type_conversion (\"type\": \"float\")", syntax: "qwen3-coder", tools: vlQwenTestTypes,
		in:    qwenCall("test_types", "int_param", "42", "float_param", "3.14", "bool_param", "true", "str_param", "hello world", "obj_param", `{"key": "value"}`),
		calls: []peerCall{{"test_types", `{"int_param": 42, "float_param": 3.14, "bool_param": true, "str_param": "hello world", "obj_param": {"key": "value"}}`}}},
	{src: vlTPQwen + "test_extract_tool_calls_anyof_type_conversion", syntax: "qwen3-coder", tools: vlQwenAnyOf,
		in: qwenCall("test_anyof", "anyof_int", "5", "anyof_str", "hello", "anyof_array", `["a", "b", "c"]`, "anyof_obj", `{"key": "value"}`,
			"type_as_array", "42", "multi_non_null", "some text"),
		calls: []peerCall{{"test_anyof", `{"anyof_int": 5, "anyof_str": "hello", "anyof_array": ["a", "b", "c"], "anyof_obj": {"key": "value"}, "type_as_array": 42, "multi_non_null": "some text"}`}}},
	{src: vlTPQwen + "test_extract_tool_calls_anyof_type_conversion_streaming", syntax: "qwen3-coder", tools: vlQwenSearch,
		in:    qwenCall("search_web", "query", "vllm tool parser", "count", "10", "verbose", "true"),
		calls: []peerCall{{"search_web", `{"query": "vllm tool parser", "count": 10, "verbose": true}`}}},
	{src: vlTPQwen + "test_extract_tool_calls_streaming[no_tools]", syntax: "qwen3-coder", tools: sgQwenTools,
		in: "This is a test without tools", text: "This is a test without tools"},
	{src: vlTPQwen + "test_extract_tool_calls_streaming[parallel_tools]", syntax: "qwen3-coder", tools: sgQwenTools,
		in: qwenDallas + "\n" + strings.Replace(qwenDallasFL, "fahrenheit", "celsius", 1),
		calls: []peerCall{{"get_current_weather", qwenDallasArgs},
			{"get_current_weather", `{"city": "Orlando", "state": "FL", "unit": "celsius"}`}}},
	{src: vlTPQwen + "test_extract_tool_calls_missing_closing_parameter_tag (and _streaming_missing_closing_tag)", syntax: "qwen3-coder", tools: sgQwenTools,
		in: qwenMissing, calls: []peerCall{{"get_current_weather", qwenDallasArgs}},
		text: "Let me check the weather for you:", errs: []string{KindUnclosedParam},
		note: "the same call; plangram also reports the parameter left open"},
	{src: vlTPQwen + "test_extract_tool_calls_streaming_incremental", syntax: "qwen3-coder", tools: sgQwenTools,
		in:    "I'll check the weather." + qwenCall("get_current_weather", "city", "Dallas", "state", "TX"),
		calls: []peerCall{{"get_current_weather", `{"city": "Dallas", "state": "TX"}`}}, text: "I'll check the weather."},
	{src: vlTPQwen + "test_extract_tool_calls_streaming_missing_opening_tag", syntax: "qwen3-coder", tools: sgQwenTools,
		in:    "I'll check the weather for you.\n\n" + strings.TrimPrefix(qwenDallas, "<tool_call>\n"),
		calls: []peerCall{{"get_current_weather", qwenDallasArgs}}, text: "I'll check the weather for you."},
	{src: vlTPQwen + "test_malformed_xml_no_gt_delimiter", syntax: "qwen3-coder", tools: sgQwenTools,
		in:   "<tool_call>\n<function=get_current_weather\n<parameter=city>Dallas</parameter>\n</function>\n</tool_call>",
		text: "<function=get_current_weather\n<parameter=city>Dallas</parameter>\n</function>\n</tool_call>",
		note: "the peer asks only for no crash; a <function= tag without its > opens no call: what follows <tool_call> (markup) is text"},
	{src: vlTPQwen + "test_none_tool_calls_filtered", syntax: "qwen3-coder", tools: sgQwenTools,
		in:    "<tool_call>\n<function=bad_func_no_gt\n</function>\n</tool_call>\n<tool_call>\n<function=get_current_weather>\n<parameter=city>Dallas</parameter>\n<parameter=state>TX</parameter>\n</function>\n</tool_call>",
		calls: []peerCall{{"get_current_weather", `{"city": "Dallas", "state": "TX"}`}},
		text:  "<function=bad_func_no_gt\n</function>\n</tool_call>",
		note:  "the malformed call is no call (vLLM drops it); plangram keeps its text (its <tool_call> is markup)"},
	{src: vlTPQwen + "test_anyof_parameter_not_double_encoded", syntax: "qwen3-coder",
		tools: ptools(ptool("update_record", `"data": {"anyOf": [{"type": "object"}, {"type": "null"}]}`)),
		in:    "<tool_call>\n<function=update_record>\n<parameter=data>{\"key\": \"value\", \"count\": 42}</parameter>\n</function>\n</tool_call>",
		calls: []peerCall{{"update_record", `{"data": {"key": "value", "count": 42}}`}}},
	{src: vlTPQwen + "test_streaming_multi_param_single_chunk", syntax: "qwen3-coder", tools: sgQwenTools,
		in:    "<tool_call>\n<function=get_current_weather>\n<parameter=city>\nDallas\n</parameter>\n<parameter=state>\nTX\n</parameter>\n<parameter=unit>\nfahrenheit\n</parameter>\n</function>\n</tool_call>",
		calls: []peerCall{{"get_current_weather", qwenDallasArgs}}},
	{src: vlTPQwen + "test_no_double_serialization_string_args", syntax: "qwen3-coder",
		tools: ptools(ptool("greet", `"message": {"type": "string"}`)),
		in:    "<tool_call>\n<function=greet>\n<parameter=message>hello world</parameter>\n</function>\n</tool_call>",
		calls: []peerCall{{"greet", `{"message": "hello world"}`}}},
}

// glmLines returns a GLM-4.5 call: the name, then each argument's
// <arg_key>/<arg_value> pair on its own line.
func glmLines(name string, kv ...string) string {
	var b strings.Builder
	b.WriteString("<tool_call>" + name + "\n")
	for i := 0; i+1 < len(kv); i += 2 {
		b.WriteString("<arg_key>" + kv[i] + "</arg_key>\n<arg_value>" + kv[i+1] + "</arg_value>\n")
	}
	b.WriteString("</tool_call>")
	return b.String()
}

// glmTight returns a call as GLM-4.7 (and vLLM's streaming tests) write
// it: no line endings between the tags.
func glmTight(name string, kv ...string) string {
	var b strings.Builder
	b.WriteString("<tool_call>" + name)
	for i := 0; i+1 < len(kv); i += 2 {
		b.WriteString("<arg_key>" + kv[i] + "</arg_key><arg_value>" + kv[i+1] + "</arg_value>")
	}
	b.WriteString("</tool_call>")
	return b.String()
}

var (
	// vLLM's sample_tools: get_weather(city); the other tools its tests
	// call are unknown to the parser.
	vlGLMTools      = ptools(ptool("get_weather", `"city": {"type": "string"}`))
	vlGLMFuncTools  = ptools(ptool("get_weather", `"city": {"type": "string"}, "unit": {"type": "string"}`), ptool("calculate", `"operation": {"type": "string"}, "a": {"type": "number"}, "b": {"type": "number"}`))
	glmIndentedCall = func(city, state, unit string) string {
		return "<tool_call>get_current_weather\n    <arg_key>city</arg_key>\n    <arg_value>" + city + "</arg_value>\n    <arg_key>state</arg_key>\n    <arg_value>" + state +
			"</arg_value>\n    <arg_key>unit</arg_key>\n    <arg_value>" + unit + "</arg_value>\n    </tool_call>"
	}
	glmWeatherArgs = func(city, state, unit string) string {
		return `{"city": "` + city + `", "state": "` + state + `", "unit": "` + unit + `"}`
	}
	glmBubble        = "#!/usr/bin/env python3\n# -*- coding: utf-8 -*-\n\"\"\"\nBubble Sort Implementation\n\"\"\"\n\ndef bubble_sort(arr):\n    n = len(arr)\n    for i in range(n):\n        swapped = False\n        for j in range(0, n - i - 1):\n            if arr[j] > arr[j + 1]:\n                arr[j], arr[j + 1] = arr[j + 1], arr[j]\n                swapped = True\n        if not swapped:\n            break\n    return arr\n\nif __name__ == \"__main__\":\n    test_arr = [64, 34, 25, 12, 22, 11, 90]\n    print(f\"Original: {test_arr}\")\n    sorted_arr = bubble_sort(test_arr.copy())\n    print(f\"Sorted: {sorted_arr}\")"
	glmBeijingTight  = glmTight("get_weather", "city", "Beijing")
	glmShanghaiTight = glmTight("get_weather", "city", "Shanghai")
)

var peerGLMTP = []peerCase{
	{src: vlTPGLM + "test_extract_tool_calls_no_tools", syntax: "glm", tools: vlGLMTools, in: "This is a test", text: "This is a test"},
	{src: vlTPGLM + "test_extract_tool_calls[single_tool_call]", syntax: "glm",
		in: glmIndentedCall("Dallas", "TX", "fahrenheit"), calls: []peerCall{{"get_current_weather", glmWeatherArgs("Dallas", "TX", "fahrenheit")}}},
	{src: vlTPGLM + "test_extract_tool_calls[multiple_tool_calls]", syntax: "glm",
		in: glmIndentedCall("Dallas", "TX", "fahrenheit") + "\n    " + glmIndentedCall("Orlando", "FL", "fahrenheit"),
		calls: []peerCall{{"get_current_weather", glmWeatherArgs("Dallas", "TX", "fahrenheit")},
			{"get_current_weather", glmWeatherArgs("Orlando", "FL", "fahrenheit")}}},
	{src: vlTPGLM + "test_extract_tool_calls[tool_call_with_content_before]", syntax: "glm",
		in:    "I'll help you check the weather. " + glmIndentedCall("Seattle", "WA", "celsius"),
		calls: []peerCall{{"get_current_weather", glmWeatherArgs("Seattle", "WA", "celsius")}}, text: "I'll help you check the weather. "},
	{src: vlTPGLM + "test_extract_tool_calls[tool_call_with_mixed_args]", syntax: "glm",
		in: glmIndentedCall("New York", "NY", "celsius"), calls: []peerCall{{"get_current_weather", glmWeatherArgs("New York", "NY", "celsius")}}},
	{src: vlTPGLM + "test_extract_tool_calls[tool_call_with_chinese_content]", syntax: "glm", tools: vlGLMTools,
		in:    "I will help you get the weather.<tool_call>get_weather\n    <arg_key>city</arg_key>\n    <arg_value>Beijing</arg_value>\n    <arg_key>date</arg_key>\n    <arg_value>2025-08-01</arg_value>\n    </tool_call>",
		calls: []peerCall{{"get_weather", `{"city": "Beijing"}`}}, text: "I will help you get the weather.",
		errs: []string{KindUnknownParam}, note: "date is not a parameter of vLLM's get_weather(city): plangram reports it (unknown-param, with its text) and leaves it out of the params"},
	{src: vlTPGLM + "test_extract_tool_calls_with_thinking_tags", syntax: "glm",
		in:    "<think>I want to get the weather.</think>\n\nI will help you get the weather.\n" + glmLines("get_weather", "city", "Beijing", "date", "2025-08-01"),
		calls: []peerCall{{"get_weather", `{"city": "Beijing", "date": "2025-08-01"}`}}, text: "I will help you get the weather.",
		thinking: "I want to get the weather.",
		note:     "vLLM's tool parser leaves the <think> block in the content (its reasoning parser takes it out); plangram makes it thinking"},
	{src: vlTPGLM + "test_extract_tool_calls_malformed_xml", syntax: "glm",
		in:    "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Seattle</arg_value>\n<arg_key>incomplete_arg\n<arg_value>value</arg_value>\n</tool_call>",
		calls: []peerCall{{"get_weather", `{"city": "Seattle"}`}}, errs: []string{KindStrayText},
		note: "the peer accepts any result; plangram keeps the well-formed argument and reports the malformed one"},
	{src: vlTPGLM + "test_extract_tool_calls_empty_arguments", syntax: "glm",
		in: "<tool_call>get_current_time\n</tool_call>", calls: []peerCall{{"get_current_time", `{}`}}},
	{src: vlTPGLM + "test_extract_tool_calls_mixed_content", syntax: "glm",
		in: "I will help you get the weather info.\n\n" + glmLines("get_weather", "city", "Beijing", "date", "2025-08-01") +
			"\n\nmeaningwhile, I will also check the weather in Shanghai.\n\n" + glmLines("get_weather", "city", "Shanghai", "date", "2025-08-01"),
		calls: []peerCall{{"get_weather", `{"city": "Beijing", "date": "2025-08-01"}`}, {"get_weather", `{"city": "Shanghai", "date": "2025-08-01"}`}},
		text:  "I will help you get the weather info.\n\n\n\nmeaningwhile, I will also check the weather in Shanghai.",
		note:  "vLLM's content is the text before the first call; plangram keeps the text between the calls too (vLLM's streaming tests expect it)"},
	{src: vlTPGLM + "test_streaming_basic_functionality", syntax: "glm", tools: vlGLMTools,
		in: glmLines("get_weather", "city", "Beijing"), calls: []peerCall{{"get_weather", `{"city": "Beijing"}`}}},
	{src: vlTPGLM + "test_streaming_no_tool_calls", syntax: "glm", tools: vlGLMTools,
		in: "This is just regular text without any tool calls.", text: "This is just regular text without any tool calls."},
	{src: vlTPGLM + "test_streaming_with_content_before_tool_calls", syntax: "glm", tools: vlGLMTools,
		in: "I will help you get the weather.<tool_call>", text: "I will help you get the weather.", errs: []string{KindCutTag},
		note: "the peer's stream goes on; here it ends inside the call's opening tag: a cut-tag error carrying the tag, which stays markup (raw kept)"},
	{src: vlTPGLM + "test_extract_tool_calls_special_characters", syntax: "glm",
		in:    glmLines("send_message", "recipient", "Amy", "message", "It is a nice day", "priority", "high"),
		calls: []peerCall{{"send_message", `{"recipient": "Amy", "message": "It is a nice day", "priority": "high"}`}}},
	{src: vlTPGLM + "test_extract_tool_calls_incomplete_tool_call", syntax: "glm",
		in:   "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Beijing</arg_value>\n<arg_key>date</arg_key>\n<arg_value>2025-08-01</arg_value>",
		errs: []string{KindUnterminated},
		note: "vLLM gives the whole output as content; the call cut by the end of the stream is an unterminated error carrying its tool and the arguments read, its bytes markup, not text"},
	{src: vlTPGLM + "test_streaming_incremental_string_value", syntax: "glm", tools: vlGLMTools,
		in: "<tool_call>get_weather\n<arg_key>city</arg_key><arg_value>Beijing</arg_value></tool_call>", calls: []peerCall{{"get_weather", `{"city": "Beijing"}`}}},
	{src: vlTPGLM + "test_streaming_empty_tool_call", syntax: "glm", tools: vlGLMTools,
		in: "<tool_call></tool_call>", text: "<tool_call></tool_call>",
		note: "the peer asks only that it ends; <tool_call> not followed by a name opens no call in glm: it is text"},
	{src: vlTPGLM + "test_streaming_prev_tool_call_arr_updates / test_streaming_multi_token_chunks / test_streaming_entire_tool_call_at_once / test_stream_interval_single_tool_call",
		syntax: "glm", tools: vlGLMTools,
		in: glmTight("get_weather\n", "city", "Beijing"), calls: []peerCall{{"get_weather", `{"city": "Beijing"}`}}},
	{src: vlTPGLM + "test_streaming_multiple_tool_calls_sequential", syntax: "glm", tools: vlGLMTools,
		in:    glmTight("get_weather\n", "city", "Beijing") + glmTight("get_weather\n", "city", "Shanghai"),
		calls: []peerCall{{"get_weather", `{"city": "Beijing"}`}, {"get_weather", `{"city": "Shanghai"}`}}},
	{src: vlTPGLM + "test_streaming_json_escape_in_string", syntax: "glm",
		tools: ptools(ptool("send_message", `"message": {"type": "string"}`)),
		in:    glmTight("send_message\n", "message", "Hello \"world\"\nNew line"),
		calls: []peerCall{{"send_message", `{"message": "Hello \"world\"\nNew line"}`}}},
	{src: vlTPGLM + "test_streaming_long_content_incremental", syntax: "glm",
		tools: ptools(ptool("write_to_file", `"file_path": {"type": "string"}, "content": {"type": "string"}`)),
		in:    glmTight("write_to_file\n", "file_path", "/tmp/bubble_sort.py", "content", glmBubble+"\n"),
		calls: []peerCall{{"write_to_file", `{"file_path": "/tmp/bubble_sort.py", "content": ` + jsonString(glmBubble+"\n") + `}`}}},
	{src: vlTPGLM + "test_extract_tool_calls_numeric_deserialization", syntax: "glm", tools: vlGLMTools,
		in:    glmLines("calculate", "operation", "add", "a", "42", "b", "3.14", "enabled", "true"),
		calls: []peerCall{{"calculate", `{"operation": "add", "a": "42", "b": "3.14", "enabled": "true"}`}}, errs: []string{KindUnknownTool},
		note: "calculate is not declared (vLLM's tools are get_weather only): plangram reports it and keeps its values as written, strings, where vLLM's glm parser guesses JSON (its qwen3_coder and minimax_m2 parsers keep strings too)"},
	{src: vlTPGLM + "test_whitespace_preserved_in_arg_values", syntax: "glm",
		tools: ptools(ptool("apply_diff", `"s": {"type": "string"}`)),
		in:    glmLines("apply_diff", "s", "    indented code    "), calls: []peerCall{{"apply_diff", `{"s": "    indented code    "}`}}},
	{src: vlTPGLM + "test_zero_argument_tool_call", syntax: "glm",
		in: "<tool_call>get_time\n</tool_call>", calls: []peerCall{{"get_time", `{}`}}},
	{src: vlTPGLM + "test_malformed_tool_call_no_regex_match", syntax: "glm", tools: vlGLMTools,
		in: "<tool_call>   ", errs: []string{KindCutTag},
		note: "vLLM returns it as content; plangram reports the stream cut inside a call's opening tag (cut-tag, carrying it), the bytes stay markup (raw kept)"},
	{src: vlTPGLM + "test_unicode_characters_preserved", syntax: "glm",
		in:    glmLines("send_message", "greeting", "你好世界", "emoji", "🎉"),
		calls: []peerCall{{"send_message", `{"greeting": "你好世界", "emoji": "🎉"}`}}},
	{src: vlTPGLM + "test_streaming_content_between_tool_calls_multi_token", syntax: "glm", tools: vlGLMTools,
		in:    "I will check.\n" + glmTight("get_weather\n", "city", "Beijing") + "\nAlso Shanghai.\n" + glmTight("get_weather\n", "city", "Shanghai"),
		calls: []peerCall{{"get_weather", `{"city": "Beijing"}`}, {"get_weather", `{"city": "Shanghai"}`}}, text: "I will check.\n\nAlso Shanghai."},
	{src: vlTPGLM + "test_streaming_multi_token_with_multiple_args", syntax: "glm",
		tools: ptools(ptool("calculate", `"operation": {"type": "string"}, "a": {"type": "number"}, "b": {"type": "number"}`)),
		in:    glmTight("calculate\n", "operation", "add", "a", "42", "b", "3.14"),
		calls: []peerCall{{"calculate", `{"operation": "add", "a": 42, "b": 3.14}`}}},
	{src: vlTPGLM + "test_stream_interval_multiple_tool_calls", syntax: "glm", tools: vlGLMTools,
		in: glmTight("get_weather\n", "city", "Beijing") + glmTight("get_weather\n", "city", "Shanghai"), calls: []peerCall{{"get_weather", `{"city": "Beijing"}`}, {"get_weather", `{"city": "Shanghai"}`}}},
	{src: vlTPGLM + "test_stream_interval_content_then_tool_call", syntax: "glm", tools: vlGLMTools,
		in: "I will check the weather for you.\n" + glmTight("get_weather\n", "city", "Beijing"), calls: []peerCall{{"get_weather", `{"city": "Beijing"}`}},
		text: "I will check the weather for you."},
	{src: vlTPGLM + "test_stream_interval_extreme_single_chunk", syntax: "glm", tools: vlGLMTools,
		in: "Here is the weather.\n" + glmTight("get_weather\n", "city", "Beijing"), calls: []peerCall{{"get_weather", `{"city": "Beijing"}`}},
		text: "Here is the weather."},
	{src: vlTPGLM + "test_stream_interval_content_between_tool_calls", syntax: "glm", tools: vlGLMTools,
		in:    "Checking Beijing.\n" + glmTight("get_weather\n", "city", "Beijing") + "\nAlso Shanghai.\n" + glmTight("get_weather\n", "city", "Shanghai"),
		calls: []peerCall{{"get_weather", `{"city": "Beijing"}`}, {"get_weather", `{"city": "Shanghai"}`}}, text: "Checking Beijing.\n\nAlso Shanghai."},
	{src: vlTPGLM + "test_extract_tool_calls_with_function_tool", syntax: "glm", tools: vlGLMFuncTools,
		in: glmLines("get_weather", "city", "Dallas", "unit", "fahrenheit"), calls: []peerCall{{"get_weather", `{"city": "Dallas", "unit": "fahrenheit"}`}}},
	{src: vlTPGLM + "test_extract_tool_calls_with_function_tool_mixed_types", syntax: "glm", tools: vlGLMFuncTools,
		in: glmLines("calculate", "operation", "add", "a", "42", "b", "3.14"), calls: []peerCall{{"calculate", `{"operation": "add", "a": 42, "b": 3.14}`}}},
	{src: vlTPGLM + "test_streaming_with_function_tool", syntax: "glm", tools: vlGLMFuncTools,
		in: glmTight("get_weather\n", "city", "Beijing"), calls: []peerCall{{"get_weather", `{"city": "Beijing"}`}}},
	{src: vlTPGLM + "test_extract_tool_call_without_newline_after_name", syntax: "glm", tools: vlGLMTools,
		in: glmTight("get_weather", "city", "Seattle"), calls: []peerCall{{"get_weather", `{"city": "Seattle"}`}}},
	{src: vlTPGLM + "test_string_type_detection_with_anyof", syntax: "glm",
		tools: ptools(ptool("configure", `"api_key": {"anyOf": [{"type": "string"}, {"type": "null"}]}`)),
		in:    glmTight("configure", "api_key", "sk-12345678"), calls: []peerCall{{"configure", `{"api_key": "sk-12345678"}`}}},
	{src: vlTPGLM + "test_string_type_detection_with_list_types", syntax: "glm",
		tools: ptools(ptool("log", `"message": {"type": ["string", "null"]}`)),
		in:    glmTight("log", "message", "test message"), calls: []peerCall{{"log", `{"message": "test message"}`}}},
	{src: vlTPGLM + "test_streaming_no_corruption_for_boolean_values", syntax: "glm",
		tools: ptools(ptool("configure", `"enabled": {"type": "boolean"}`)),
		in:    glmTight("configure", "enabled", "true"), calls: []peerCall{{"configure", `{"enabled": true}`}}},
	{src: vlTPGLM + "test_format_nonstring_value_preserves_json (Python literal True)", syntax: "glm",
		tools: ptools(ptool("test", `"value": {"type": "boolean"}`)),
		in:    glmTight("test", "value", "True"), calls: []peerCall{{"test", `{"value": true}`}}},
}

// kimiWrap returns Kimi's section holding the calls.
func kimiWrap(calls ...string) string { return kimiSec + strings.Join(calls, "") + kimiSecEnd }

// kimiDeltas returns the text of vLLM's _split_tool_output_to_deltas: a
// space after each id and after each call's JSON.
func kimiDeltas(content string, idArgs ...string) string {
	var b strings.Builder
	b.WriteString(content + kimiSec)
	for i := 0; i+1 < len(idArgs); i += 2 {
		b.WriteString(kimiCall + idArgs[i] + " " + kimiArgs + idArgs[i+1] + " " + kimiEnd)
	}
	b.WriteString(kimiSecEnd)
	return b.String()
}

var (
	vlKimiWeather = ptool("get_weather", `"city": {"type": "string"}, "unit": {"type": "string"}`)
	vlKimiRead    = ptool("read_file", `"path": {"type": "string"}`)
	vlKimiFlight  = ptool("book_flight", `"city": {"type": "string"}`)
)

var peerKimiTP = []peerCase{
	{src: vlTPKimi + "TestExtractToolCalls test_no_tools", syntax: "kimi-k2", in: "This is a test", text: "This is a test"},
	{src: vlTPKimi + "TestExtractToolCalls test_extract_tool_calls[single_tool_call]", syntax: "kimi-k2",
		in:    "I'll check. " + kimiWrap(kimiTool("functions.get_weather:0", `{"city": "Beijing"}`)),
		calls: []peerCall{{"get_weather", `{"city": "Beijing"}`}}, ids: []string{"functions.get_weather:0"}, text: "I'll check. "},
	{src: vlTPKimi + "TestExtractToolCalls test_extract_tool_calls[parallel_tool_calls]", syntax: "kimi-k2",
		in:    "Compare weather. " + kimiWrap(kimiTool("functions.get_weather:0", `{"city": "Beijing"}`), kimiTool("functions.get_weather:1", `{"city": "Shanghai"}`)),
		calls: []peerCall{{"get_weather", `{"city": "Beijing"}`}, {"get_weather", `{"city": "Shanghai"}`}}, ids: []string{"functions.get_weather:0", "functions.get_weather:1"},
		text: "Compare weather. "},
	{src: vlTPKimi + "TestExtractToolCalls test_extract_tool_calls[three_tool_calls]", syntax: "kimi-k2",
		in: "Multiple tasks. " + kimiWrap(kimiTool("functions.get_weather:0", `{"city": "New York"}`), kimiTool("functions.get_news:1", `{"topic": "technology"}`),
			kimiTool("functions.send_email:2", `{"to": "user@example.com", "subject": "Daily Update"}`)),
		calls: []peerCall{{"get_weather", `{"city": "New York"}`}, {"get_news", `{"topic": "technology"}`}, {"send_email", `{"to": "user@example.com", "subject": "Daily Update"}`}},
		text:  "Multiple tasks. "},
	{src: vlTPKimi + "TestExtractToolCalls test_extract_tool_calls[angle_brackets_in_json]", syntax: "kimi-k2",
		in:    "Process HTML. " + kimiWrap(kimiTool("functions.process_html:0", `{"html": "<div>content</div>"}`)),
		calls: []peerCall{{"process_html", `{"html": "<div>content</div>"}`}}, text: "Process HTML. "},
	{src: vlTPKimi + "TestExtractToolCalls test_extract_tool_calls[multiline_json]", syntax: "kimi-k2",
		in:    "Formatted. " + kimiWrap(kimiTool("functions.process_data:0", "{\n  \"name\": \"test\",\n  \"value\": 123\n}")),
		calls: []peerCall{{"process_data", `{"name": "test", "value": 123}`}}, text: "Formatted. "},
	{src: vlTPKimi + "TestExtractToolCalls test_extract_tool_calls[no_functions_prefix]", syntax: "kimi-k2",
		in:    "No prefix. " + kimiWrap(kimiTool("get_weather:0", `{"city": "Tokyo"}`)),
		calls: []peerCall{{"get_weather", `{"city": "Tokyo"}`}}, ids: []string{"get_weather:0"}, text: "No prefix. "},
	{src: vlTPKimi + "TestExtractToolCalls test_extract_tool_calls[empty_arguments]", syntax: "kimi-k2",
		in: "Empty args. " + kimiWrap(kimiTool("functions.test:0", "{}")), calls: []peerCall{{"test", `{}`}}, text: "Empty args. "},
	{src: vlTPKimi + "TestExtractToolCalls test_invalid_json_still_extracted", syntax: "kimi-k2",
		in:    "Help. " + kimiWrap(kimiTool("functions.bad:0", `{"city": "Beijing"`), kimiTool("functions.good:1", `{"city": "Shanghai"}`)),
		calls: []peerCall{{"bad", `{"city": "Beijing"}`}, {"good", `{"city": "Shanghai"}`}}, text: "Help. ", errs: []string{KindBadJSON},
		note: "both calls, as in vLLM; the first with the arguments read before its JSON breaks off, which is reported"},
	{src: vlTPKimi + "TestExtractToolCalls test_invalid_funcall_id_skipped", syntax: "kimi-k2",
		in:    "Help. " + kimiWrap(kimiTool("functions.invalid.0", `{"city": "Beijing"}`), kimiTool("functions.valid:1", `{"city": "Shanghai"}`)),
		calls: []peerCall{{"invalid.0", `{"city": "Beijing"}`}, {"valid", `{"city": "Shanghai"}`}}, text: "Help. ",
		note: "vLLM drops the call whose id lacks :IDX; plangram keeps it (the id, less functions., names an unknown tool)"},
	{src: vlTPKimi + "TestExtractToolCalls test_native_id_extracted", syntax: "kimi-k2",
		in:    "Checking weather. " + kimiWrap(kimiTool("functions.get_weather:0", `{"city": "Tokyo"}`)),
		calls: []peerCall{{"get_weather", `{"city": "Tokyo"}`}}, ids: []string{"functions.get_weather:0"}, text: "Checking weather. "},
	{src: vlTPKimi + "TestExtractToolCalls test_multi_turn_native_id_continuity (turn 1)", syntax: "kimi-k2",
		in:    "Let me check. " + kimiWrap(kimiTool("functions.get_weather:0", `{"city": "Beijing"}`)),
		calls: []peerCall{{"get_weather", `{"city": "Beijing"}`}}, ids: []string{"functions.get_weather:0"}, text: "Let me check. "},
	{src: vlTPKimi + "TestExtractToolCalls test_multi_turn_native_id_continuity (turn 2)", syntax: "kimi-k2",
		in:    "Now let me get news. " + kimiWrap(kimiTool("functions.get_news:0", `{"topic": "weather in Beijing"}`)),
		calls: []peerCall{{"get_news", `{"topic": "weather in Beijing"}`}}, ids: []string{"functions.get_news:0"}, text: "Now let me get news. "},
	{src: vlTPKimi + "TestExtractToolCalls test_bare_counter", syntax: "kimi-k2", tools: ptools(vlKimiWeather),
		in:    "Let me check. " + kimiWrap(kimiTool("0", `{"city": "Tokyo", "unit": "celsius"}`)),
		calls: []peerCall{{"get_weather", `{"city": "Tokyo", "unit": "celsius"}`}}, ids: []string{"0"}, text: "Let me check. "},
	{src: vlTPKimi + "TestExtractToolCalls test_bare_counter_single_tool_invalid_json_still_extracted", syntax: "kimi-k2", tools: ptools(vlKimiWeather),
		in:    "Let me check. " + kimiWrap(kimiTool("0", `{"city": "Tokyo"`)),
		calls: []peerCall{{"get_weather", `{"city": "Tokyo"}`}}, ids: []string{"0"}, text: "Let me check. ", errs: []string{KindBadJSON},
		note: "vLLM passes the broken JSON on as the arguments; plangram keeps the arguments read before it breaks off and reports it"},
	{src: vlTPKimi + "TestExtractToolCalls test_bare_counter_multiple_tools_infers_by_args", syntax: "kimi-k2", tools: ptools(vlKimiRead, vlKimiWeather),
		in:    "Let me check. " + kimiWrap(kimiTool("0", `{"city": "Tokyo", "unit": "celsius"}`)),
		calls: []peerCall{{"get_weather", `{"city": "Tokyo", "unit": "celsius"}`}}, ids: []string{"0"}, text: "Let me check. "},
	{src: vlTPKimi + "TestExtractToolCalls test_bare_counter_multiple_tools_skips_unsafe_inference[ambiguous]", syntax: "kimi-k2", tools: ptools(vlKimiWeather, vlKimiFlight),
		in:   "Let me check. " + kimiWrap(kimiTool("0", `{"city": "Tokyo"}`)),
		text: "Let me check. " + kimiTool("0", `{"city": "Tokyo"}`), errs: []string{KindNoName},
		note: "no call, as in vLLM; plangram keeps the call's text as text and reports that it names no tool"},
	{src: vlTPKimi + "TestExtractToolCalls test_bare_counter_multiple_tools_skips_unsafe_inference[malformed_json]", syntax: "kimi-k2", tools: ptools(vlKimiWeather, vlKimiFlight),
		in:   "Let me check. " + kimiWrap(kimiTool("0", `{"city": "Tokyo"`)),
		text: "Let me check. " + kimiTool("0", `{"city": "Tokyo"`), errs: []string{KindBadJSON, KindNoName},
		note: "no call, as in vLLM; plangram keeps the call's text as text and reports it"},
	{src: vlTPKimi + "TestStreamingHappyPath test_single_tool_call", syntax: "kimi-k2",
		in:    kimiDeltas("I'll help. ", "functions.get_weather:0", `{"city": "Beijing"}`),
		calls: []peerCall{{"get_weather", `{"city": "Beijing"}`}}, ids: []string{"functions.get_weather:0"}, text: "I'll help."},
	{src: vlTPKimi + "TestStreamingHappyPath test_multiple_tool_calls", syntax: "kimi-k2",
		in:    kimiDeltas("Compare weather. ", "functions.get_weather:0", `{"city": "Tokyo"}`, "functions.get_weather:1", `{"city": "NYC"}`),
		calls: []peerCall{{"get_weather", `{"city": "Tokyo"}`}, {"get_weather", `{"city": "NYC"}`}}, ids: []string{"functions.get_weather:0", "functions.get_weather:1"},
		text: "Compare weather."},
	{src: vlTPKimi + "TestStreamingHappyPath test_bare_counter", syntax: "kimi-k2", tools: ptools(vlKimiWeather),
		in:    kimiDeltas("I'll help. ", "0", `{"city": "Beijing"}`),
		calls: []peerCall{{"get_weather", `{"city": "Beijing"}`}}, ids: []string{"0"}, text: "I'll help."},
	{src: vlTPKimi + "TestStreamingHappyPath test_bare_counter_multiple_tools_infers_by_args", syntax: "kimi-k2", tools: ptools(vlKimiRead, vlKimiWeather),
		in:    kimiDeltas("I'll help. ", "0", `{"city": "Beijing", "unit": "celsius"}`),
		calls: []peerCall{{"get_weather", `{"city": "Beijing", "unit": "celsius"}`}}, ids: []string{"0"}, text: "I'll help."},
	{src: vlTPKimi + "TestStreamingHappyPath test_content_before_tools", syntax: "kimi-k2",
		in:    kimiDeltas("I'll check the weather. ", "functions.get_weather:0", `{"city": "Tokyo"}`),
		calls: []peerCall{{"get_weather", `{"city": "Tokyo"}`}}, text: "I'll check the weather."},
	{src: vlTPKimi + "TestStreamingHappyPath test_no_tool_calls", syntax: "kimi-k2",
		in: "This is just regular text without tools.", text: "This is just regular text without tools."},
	{src: vlTPKimi + "TestStreamingHappyPath test_incremental_arguments", syntax: "kimi-k2",
		in:    "Help. " + kimiSec + kimiCall + "functions.get_weather:0 " + kimiArgs + `{"city": "Beijing"}` + " " + kimiEnd + kimiSecEnd,
		calls: []peerCall{{"get_weather", `{"city": "Beijing"}`}}, text: "Help."},
	{src: vlTPKimi + "TestStreamingHappyPath test_streaming_matches_nonstreaming[single_tool]", syntax: "kimi-k2",
		in: "Single. " + kimiWrap(kimiTool("functions.get_weather:0", `{"city": "Beijing"}`)), calls: []peerCall{{"get_weather", `{"city": "Beijing"}`}}, text: "Single."},
	{src: vlTPKimi + "TestStreamingHappyPath test_streaming_matches_nonstreaming[parallel_tools]", syntax: "kimi-k2",
		in:    "Multi. " + kimiWrap(kimiTool("functions.get_weather:0", `{"city": "Tokyo"}`), kimiTool("functions.get_news:1", `{"topic": "tech"}`)),
		calls: []peerCall{{"get_weather", `{"city": "Tokyo"}`}, {"get_news", `{"topic": "tech"}`}}, text: "Multi."},
	{src: vlTPKimi + "TestStreamingHappyPath test_streaming_matches_nonstreaming[no_functions_prefix]", syntax: "kimi-k2",
		in: "No prefix id. " + kimiWrap(kimiTool("get_weather:0", `{"city": "NYC"}`)), calls: []peerCall{{"get_weather", `{"city": "NYC"}`}}, text: "No prefix id."},
	{src: vlTPKimi + "TestStreamingEdgeCases test_marker_suppression", syntax: "kimi-k2",
		in:    kimiDeltas("I'll check. ", "functions.get_weather:0", `{"city": "Tokyo"}`),
		calls: []peerCall{{"get_weather", `{"city": "Tokyo"}`}}, text: "I'll check."},
	{src: vlTPKimi + "TestStreamingEdgeCases test_noise_between_markers_suppressed", syntax: "kimi-k2",
		in:    "Reasoning. " + kimiSec + " spurious noise " + kimiCall + "functions.test:0 " + kimiArgs + `{"k": "v"} ` + kimiEnd + kimiSecEnd,
		calls: []peerCall{{"test", `{"k": "v"}`}}, text: "Reasoning.", errs: []string{KindStrayText},
		note: "as vLLM, text inside the section is not content; plangram keeps it as markup with a stray-text warning"},
	{src: vlTPKimi + "TestStreamingEdgeCases test_empty_tool_section", syntax: "kimi-k2",
		in: "Reasoning. " + kimiSec + kimiSecEnd, text: "Reasoning."},
	{src: vlTPKimi + "TestStreamingEdgeCases test_three_different_tools", syntax: "kimi-k2",
		in:    kimiDeltas("Multiple tasks. ", "functions.get_weather:0", `{"city": "NYC"}`, "functions.get_news:1", `{"topic": "tech"}`, "functions.send_email:2", `{"to": "a@b.com"}`),
		calls: []peerCall{{"get_weather", `{"city": "NYC"}`}, {"get_news", `{"topic": "tech"}`}, {"send_email", `{"to": "a@b.com"}`}},
		ids:   []string{"functions.get_weather:0", "functions.get_news:1", "functions.send_email:2"}, text: "Multiple tasks."},
	{src: vlTPKimi + "TestStreamingEdgeCases test_truncated_tool_call_no_end_marker", syntax: "kimi-k2",
		in:   "I'll check. " + kimiSec + kimiCall + "functions.get_weather:0 " + kimiArgs + `{"city": "Bei`,
		text: "I'll check.", errs: []string{KindUnterminated},
		note: "vLLM streams the call with its partial arguments; plangram streams its param_delta, then reports it unterminated with what was read"},
	{src: vlTPKimi + "TestStreamingEdgeCases test_content_after_tool_section", syntax: "kimi-k2",
		in:    "Before. " + kimiSec + kimiCall + "functions.get_weather:0 " + kimiArgs + `{"city": "Tokyo"} ` + kimiEnd + kimiSecEnd + " After tools.",
		calls: []peerCall{{"get_weather", `{"city": "Tokyo"}`}}, text: "Before.  After tools.",
		note: "vLLM drops the text after the section; plangram keeps every byte"},
	{src: vlTPKimi + "TestStreamingIntervals test_single_tool_call_at_interval", syntax: "kimi-k2",
		in: "Help. " + kimiWrap(kimiTool("functions.get_weather:0", `{"city": "Beijing"}`)), calls: []peerCall{{"get_weather", `{"city": "Beijing"}`}}, text: "Help."},
	{src: vlTPKimi + "TestStreamingIntervals test_content_then_tool_call_at_interval", syntax: "kimi-k2",
		in: "Sure, let me check. " + kimiWrap(kimiTool("functions.get_weather:0", `{"city": "Tokyo"}`)), calls: []peerCall{{"get_weather", `{"city": "Tokyo"}`}}, text: "Sure, let me check."},
	{src: vlTPKimi + "TestStreamingIntervals test_multiple_tool_calls_at_interval", syntax: "kimi-k2",
		in:    "Compare. " + kimiWrap(kimiTool("functions.search:0", `{"q": "cats"}`), kimiTool("functions.search:1", `{"q": "dogs"}`)),
		calls: []peerCall{{"search", `{"q": "cats"}`}, {"search", `{"q": "dogs"}`}}, text: "Compare."},
	{src: vlTPKimi + "TestStreamingIntervals test_plain_text_at_interval", syntax: "kimi-k2",
		in: "This is plain text with no tool calling involved.", text: "This is plain text with no tool calling involved."},
	{src: vlTPKimi + "TestStreamingIntervals test_content_and_tool_call_in_single_chunk", syntax: "kimi-k2",
		in: "Hi! " + kimiWrap(kimiTool("functions.get_weather:0", `{"city": "Beijing"}`)), calls: []peerCall{{"get_weather", `{"city": "Beijing"}`}}, text: "Hi!"},
}

var peerDeepSeekV31TP = []peerCase{
	{src: vlTPDSV31 + "test_extract_tool_calls_with_tool", syntax: "deepseek",
		in:    "normal text" + dsCallsBegin + dsCallBegin + `foo` + dsSep + `{"x":1}` + dsCallEnd + dsCallsEnd,
		calls: []peerCall{{"foo", `{"x": 1}`}}, text: "normal text"},
	{src: vlTPDSV31 + "test_extract_tool_calls_with_multiple_tools", syntax: "deepseek",
		in:    "some prefix text" + dsCallsBegin + dsCallBegin + `foo` + dsSep + `{"x":1}` + dsCallEnd + dsCallBegin + `bar` + dsSep + `{"y":2}` + dsCallEnd + dsCallsEnd + " some suffix text",
		calls: []peerCall{{"foo", `{"x": 1}`}, {"bar", `{"y": 2}`}}, text: "some prefix text some suffix text",
		note: "vLLM's content is the prefix only; plangram keeps the suffix too"},
	{src: vlTPDSV31 + "test_extract_tool_calls_unparsable_block[cut off]", syntax: "deepseek",
		in:   "Let me look that up." + dsCallsBegin + "get_weather",
		text: "Let me look that up.get_weather",
		note: "no call, and the text after the section's marker is text, as vLLM; the marker itself is markup (raw kept)"},
	{src: vlTPDSV31 + "test_extract_tool_calls_unparsable_block[no call markers]", syntax: "deepseek",
		in:   dsCallsBegin + `foo` + dsSep + `{"x":1}` + dsCallsEnd,
		errs: []string{KindStrayText},
		note: "no call, as vLLM; the section's text is markup with a stray-text warning carrying it, where vLLM returns the whole output as content"},
}

// The harmony cases of vLLM's current openai tool-parser suite: the
// assistant's part of the conversation each test renders (after the
// <|start|>assistant generation prompt, as the model writes it).
var peerHarmonyTP = []peerCase{
	{src: vlTPOpenAI + "test_extract_tool_calls_no_tools", syntax: "harmony",
		in: "<|channel|>final<|message|>This is a test<|end|>", text: "This is a test"},
	{src: vlTPOpenAI + "test_extract_tool_calls_single_tool[0]", syntax: "harmony",
		in:       hmAnalysisTk + hmCallMsg("get_current_weather", " <|constrain|>json", `{"location": "Tokyo"}`),
		calls:    []peerCall{{"get_current_weather", `{"location": "Tokyo"}`}},
		thinking: `User asks: "What is the weather in Tokyo?" We need to use get_current_weather tool.`},
	{src: vlTPOpenAI + "test_extract_tool_calls_single_tool[1]", syntax: "harmony",
		in:       hmAnalysisTk + hmCallMsg("get_current_weather", " <|constrain|>json", "{\n\"location\": \"Tokyo\"\n}"),
		calls:    []peerCall{{"get_current_weather", `{"location": "Tokyo"}`}},
		thinking: `User asks: "What is the weather in Tokyo?" We need to use get_current_weather tool.`},
	{src: vlTPOpenAI + "test_extract_tool_calls_multiple_tools", syntax: "harmony",
		in: hmAnalysisTk2 + hmCallMsg("get_current_weather", " <|constrain|>json", `{"location": "Tokyo"}`) +
			hmCallMsg("get_user_location", " <|constrain|>json", `{"location": "Tokyo"}`) + hmCallMsg("no_content_type", "", `{"location": "Tokyo"}`) +
			hmCallMsg("not_json_no_content_type", "", "foo") + hmCallMsg("empty_args", " <|constrain|>json", "{}") + hmCallMsg("no_args", " <|constrain|>json", ""),
		calls: []peerCall{{"get_current_weather", `{"location": "Tokyo"}`}, {"get_user_location", `{"location": "Tokyo"}`},
			{"no_content_type", `{"location": "Tokyo"}`}, {"not_json_no_content_type", `{}`}, {"empty_args", `{}`}, {"no_args", `{}`}},
		thinking: hmAnalysis2, errs: []string{KindBadJSON},
		note: "vLLM passes the body foo on as the arguments; plangram reports it (bad-json) and the call has no arguments"},
	{src: vlTPOpenAI + "test_extract_tool_calls_with_content", syntax: "harmony",
		in:       hmAnalysisTk2 + hmCallMsg("get_current_weather", " <|constrain|>json", `{"location": "Tokyo"}`) + "<|start|>assistant<|channel|>final<|message|>This tool call will get the weather.<|end|>",
		calls:    []peerCall{{"get_current_weather", `{"location": "Tokyo"}`}},
		thinking: hmAnalysis2, text: "This tool call will get the weather."},
}

const (
	hmAnalysis2   = `User asks: "What is the weather in Tokyo?" based on their location. We need to use get_current_weather tool and get_user_location tool.`
	hmAnalysisTk2 = "<|channel|>analysis<|message|>" + hmAnalysis2 + "<|end|>"
)

func TestPeersVLLM(t *testing.T) {
	for name, cases := range map[string][]peerCase{
		"qwen3-coder": peerQwen3CoderTP, "glm": peerGLMTP, "kimi-k2": peerKimiTP, "deepseek": peerDeepSeekV31TP, "harmony": peerHarmonyTP,
	} {
		t.Run(name, func(t *testing.T) { runPeerCases(t, cases) })
	}
}

// jsonString returns s as a JSON string.
func jsonString(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}
