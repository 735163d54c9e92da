package stream

import "testing"

// The formats of llama.cpp's chat parser added for issue 30, against the
// model outputs of llama.cpp's tests/test-chat.cpp (its test cases for
// each format's template, named in src) with the results they expect.

const (
	lcGranite   = lcppNow + "ibm-granite-granite-3.3-2B-Instruct "
	lcNemotron2 = lcppNow + "NVIDIA-Nemotron-Nano-v2 "
)

var peerFormatsLlamaCpp = []peerCase{
	{src: lcGranite + "regular content", syntax: "granite", in: lcHello, text: lcHello},
	{src: lcGranite + "content with thinking", syntax: "granite", in: "<think>I'm\nthinking</think>Hello, world!\nWhat's up?",
		thinking: "I'm\nthinking", text: lcHello},
	{src: lcGranite + "tool call", syntax: "granite", tools: ptools(lcSpecial),
		in:    `<|tool_call|>[{"name": "special_function", "arguments": {"arg1": 1}}]`,
		calls: []peerCall{{"special_function", `{"arg1": 1}`}}},
	{src: lcGranite + "thinking then <response>", syntax: "granite", in: "<think>I'm\nthinking</think><response>Hello, world!\nWhat's up?",
		thinking: "I'm\nthinking", text: "<response>" + lcHello,
		note: "llama.cpp drops Granite's <response> tag from the content; plangram leaves it in the text, as any tag it does not read"},
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
}

func TestPeersFormats(t *testing.T) { runPeerCases(t, peerFormatsLlamaCpp) }
