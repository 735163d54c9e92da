package stream

import "testing"

// The formats of llama.cpp's chat parser added for issue 30, against the
// model outputs of llama.cpp's tests/test-chat.cpp (its test cases for
// each format's template, named in src) with the results they expect.

const (
	lcGranite = lcppNow + "ibm-granite-granite-3.3-2B-Instruct "
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
}

func TestPeersFormats(t *testing.T) { runPeerCases(t, peerFormatsLlamaCpp) }
