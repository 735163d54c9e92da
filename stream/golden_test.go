package stream

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"
)

// goldenCases says how each golden/stream/NAME.txt is fed: the default is
// one chunk in the syntax NAME starts with (SYNTAX_case.txt: the part
// before the first '_' when it names a syntax or "auto"), else tools.
var goldenCases = map[string]struct {
	opts  Options
	chunk int // bytes per Write; 0: the whole input at once
}{
	"split_tag":            {chunk: 7},
	"lt_at_chunk_end":      {chunk: 6},
	"too_large":            {opts: Options{MaxCallSize: 100}},
	"llama_in_thinking":    {opts: Options{InThinking: true}},           // a call at the start ends the template's block
	"mistral_in_thinking":  {opts: Options{InThinking: true}, chunk: 3}, // [/THINK] ends the template's block
	"utf8_split":           {chunk: 1},
	"acts_near_act":        {chunk: 1}, // the held near-act error goes out at the act fence line
	"qwen3-coder_several":  {chunk: 5}, // markers split across chunks
	"glm_several":          {chunk: 3},
	"minimax_basic":        {chunk: 7},
	"deepseek-dsml_split":  {chunk: 2}, // the multi-byte ｜ of every tag split across chunks
	"seed-oss_split":       {chunk: 3},
	"hermes_split":         {chunk: 3}, // markers and escapes split across chunks
	"llama_split":          {chunk: 3},
	"llama_pythonic_split": {chunk: 3}, // markers, names and escapes split across chunks
	"kimi-k2_split":        {chunk: 3},
	"deepseek_split":       {chunk: 2},
	"mistral_split":        {chunk: 3},
	"harmony_split":        {chunk: 3},
	// edit formats: a hunk is emitted once the line after it has arrived
	"search-replace_basic": {chunk: 5},
	"udiff_basic":          {chunk: 3},
	"apply-patch_basic":    {chunk: 7},
	"auto_plain_text":      {chunk: 3}, // JSON with a "name" is not a llama call
	"auto_hermes":          {chunk: 4},
	// OmitFraming (plangram stream without --exact)
	"omit_framing":             {opts: Options{OmitFraming: true}, chunk: 5},
	"openai-chat_omit_framing": {opts: Options{OmitFraming: true}},
	"anthropic_omit_framing":   {opts: Options{OmitFraming: true}},
	"qwen3-coder_omit_framing": {opts: Options{OmitFraming: true}, chunk: 4},
}

// TestGolden pins the event stream of each golden input (regenerate with
// go test ./stream/ -update) and checks the chunking property on it, with
// and without Options.OmitFraming.
func TestGolden(t *testing.T) {
	eachGolden(t, "../golden/stream", func(t *testing.T, g *goldie.Goldie, name string, in []byte) {
		opts, cuts := goldenFeed(name, in)
		g.Assert(t, name, jsonl(t, collect(t, opts, in, cuts)))
		checkAll(t, opts, in)
		omit := opts
		omit.OmitFraming = true
		checkChunks(t, omit, in, 1)
		checkOmit(t, opts, in, cuts)
	})
}

// eachGolden runs fn, as a subtest named NAME, on every golden input
// dir/NAME.txt with its bytes and a goldie checker of dir/NAME.golden.
func eachGolden(t *testing.T, dir string, fn func(t *testing.T, g *goldie.Goldie, name string, in []byte)) {
	t.Helper()
	files, err := goldenInputs(dir)
	if err != nil {
		t.Fatal(err)
	}
	g := goldie.New(t, goldie.WithFixtureDir(dir), goldie.WithNameSuffix(".golden"))
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".txt")
		t.Run(name, func(t *testing.T) {
			in, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			fn(t, g, name, in)
		})
	}
}

// goldenInputs returns the golden inputs dir/*.txt, or an error when there
// are none.
func goldenInputs(dir string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err == nil && len(files) == 0 {
		err = fmt.Errorf("no golden inputs in %s", dir)
	}
	return files, err
}

// goldenFeed says how TestGolden feeds the golden stream input in of the
// case name (goldenCases): the options and the offsets at which the input
// is cut into chunks.
func goldenFeed(name string, in []byte) (Options, []int) {
	c := goldenCases[name]
	if c.opts.Syntax == "" {
		c.opts.Syntax = goldenSyntax(name)
	}
	var cuts []int
	for i := c.chunk; c.chunk > 0 && i < len(in); i += c.chunk {
		cuts = append(cuts, i)
	}
	return c.opts, cuts
}

// goldenSyntax returns the syntax of the golden case called name.
func goldenSyntax(name string) string {
	pre, _, ok := strings.Cut(name, "_")
	if ok && slices.Contains(SyntaxNames(), pre) {
		return pre
	}
	return "tools"
}
