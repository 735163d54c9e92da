package stream

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/plangram/plangram/schema"
)

// Conformance with other implementations' own test suites: each case is a
// test input of a peer parser (vLLM, SGLang, llama.cpp, openai/harmony…),
// its file and test named in src, with the result the peer's test expects.
// Every case goes through checkChunks (one chunk, 1, 7 and 4096 bytes and
// random chunkings, all giving the same events) and its calls (name and
// arguments as JSON), text and thinking are compared with the peer's.
// Where plangram deliberately differs, note says how and the difference is
// documented in docs/stream.md ("Conformance with other parsers").

// peerCall is a call a peer's test expects: the tool's name and its
// arguments as a JSON object.
type peerCall struct{ name, args string }

type peerCase struct {
	src    string // the peer's file and test
	syntax string
	// tools is an OpenAI tools array typing the parameters (as
	// `plangram stream --tools`); without it the schema knows no tool and
	// every call keeps its arguments as read (unknown-tool is expected).
	tools string
	in    string
	calls []peerCall
	// text is the prose outside the calls and thinking is the reasoning,
	// compared with surrounding white space trimmed (the peers disagree
	// among themselves on it).
	text, thinking string
	// errs are the error kinds plangram reports besides unknown-tool,
	// sorted and without repeats.
	errs []string
	// ids, when not nil, are the calls' ids the peer's test expects
	// (call_id).
	ids []string
	// inThinking: the chat template opened the thinking block.
	inThinking bool
	// note explains a deliberate difference from the peer's expectation.
	note string
}

// peerSchema returns the schema of a case: its tools converted, or a
// schema without tools.
func peerSchema(t *testing.T, tools string) *schema.Schema {
	t.Helper()
	if tools == "" {
		s, err := schema.Parse("none.json", []byte(`{"version": 1, "dialect": "tools", "actions": [{"name": "no_peer_tool"}]}`))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	ts, err := schema.FromTools("tools.json", []byte(tools))
	if err != nil {
		t.Fatal(err)
	}
	return ts.Schema
}

// sameJSON reports whether two JSON texts hold equal values.
func sameJSON(a, b string) bool {
	var x, y any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

func runPeerCases(t *testing.T, cases []peerCase) {
	t.Helper()
	for i, tc := range cases {
		t.Run(tc.syntax+"/"+tc.src, func(t *testing.T) {
			opts := Options{Syntax: tc.syntax, Schema: peerSchema(t, tc.tools), InThinking: tc.inThinking}
			evs := checkChunks(t, opts, []byte(tc.in), uint64(i))
			var calls []peerCall
			var ids []string
			var text, thinking strings.Builder
			var errs []string
			for _, e := range evs {
				switch e.Type {
				case ToolCall:
					b, err := json.Marshal(e.Params)
					if err != nil {
						t.Fatal(err)
					}
					calls = append(calls, peerCall{e.Name, string(b)})
					ids = append(ids, e.CallID)
				case Text:
					text.WriteString(e.Text)
				case Thinking:
					thinking.WriteString(e.Text)
				case Error:
					if e.Kind != KindUnknownTool || tc.tools != "" {
						errs = append(errs, e.Kind)
					}
				}
			}
			slices.Sort(errs)
			errs = slices.Compact(errs)
			ok := len(calls) == len(tc.calls)
			for j := 0; ok && j < len(calls); j++ {
				ok = calls[j].name == tc.calls[j].name && sameJSON(calls[j].args, tc.calls[j].args)
			}
			if !ok {
				t.Errorf("calls %v, want %v", calls, tc.calls)
			}
			if tc.ids != nil && !slices.Equal(ids, tc.ids) {
				t.Errorf("call ids %q, want %q", ids, tc.ids)
			}
			if got := strings.TrimSpace(text.String()); got != strings.TrimSpace(tc.text) {
				t.Errorf("text %q, want %q", got, strings.TrimSpace(tc.text))
			}
			if got := strings.TrimSpace(thinking.String()); got != strings.TrimSpace(tc.thinking) {
				t.Errorf("thinking %q, want %q", got, strings.TrimSpace(tc.thinking))
			}
			if !slices.Equal(errs, tc.errs) {
				t.Errorf("errors %v, want %v", errs, tc.errs)
			}
			if t.Failed() {
				t.Logf("events:\n%s", jsonl(t, evs))
			}
		})
	}
}

func TestPeers(t *testing.T) {
	for name, cases := range map[string][]peerCase{
		"hermes": peerHermes, "mistral": peerMistral, "mistral-vllm": peerMistralVLLM, "mistral-ids": peerMistralIDs, "kimi-k2": peerKimi, "kimi-k2-vllm": peerKimiVLLM, "deepseek": peerDeepSeek, "deepseek-vllm": peerDeepSeekVLLM,
		"qwen3-coder": peerQwen3Coder, "qwen3-coder-vllm": peerQwen3CoderVLLM,
		"qwen3-coder-llama.cpp": peerQwen3CoderLlamaCpp, "glm": peerGLM, "glm-vllm": peerGLMVLLM, "glm-corpus": peerGLMCorpus, "kimi-k2-corpus": peerKimiCorpus,
		"minimax-vllm": peerMiniMaxVLLM, "minimax-m2": peerMiniMaxM2, "anthropic-xml": peerAnthropicXML, "harmony": peerHarmony, "harmony-corpus": peerHarmonyCorpus,
	} {
		t.Run(name, func(t *testing.T) { runPeerCases(t, cases) })
	}
}
