package stream

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/lexer"
	"github.com/plangram/plangram/schema"
)

// TestActsParity checks the streamed acts dialect against `plangram parse`
// on the samples and the golden inputs.
func TestActsParity(t *testing.T) {
	inputs := append([]string(nil), actsSamples...)
	files, _ := filepath.Glob("../golden/stream/acts_*.txt")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, string(b))
	}
	for _, in := range inputs {
		checkParity(t, []byte(in))
	}
}

// checkParity checks that streaming in finds the actions the batch acts
// parser finds, with the same arguments, parameters, blocks and spans, and
// reports the same problems (blocks before the first act, act blocks in
// the other fence character and a document with no plan aside: they stream
// as text).
func checkParity(t testing.TB, in []byte) {
	t.Helper()
	if bytes.HasPrefix(bytes.TrimLeft(in, " \t\r\n"), []byte("<think")) {
		return // a leading reasoning block streams as thinking; parse reads it as prose
	}
	s, err := schema.Builtin("acts")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := grammar.ParseActs(context.Background(), "", in, 0, s)
	if err != nil {
		t.Fatal(err)
	}
	var acts []*ast.Action
	var kinds, codes []string
	var crAt, batchAt []int // the offsets of the errors (kinds, codes)
	for _, e := range collect(t, Options{Dialect: "acts"}, in, nil) {
		switch e.Type {
		case ToolCall:
			acts = append(acts, e.Action)
		case Error:
			kinds = append(kinds, e.Kind)
			crAt = append(crAt, e.Span.Start.Offset)
		}
	}
	nested := false
	for _, d := range doc.Diagnostics {
		switch d.Code {
		case grammar.CodeBlockBeforeAct, grammar.CodeNoPlan, grammar.CodeOtherFenceAct:
			// document-level: what they concern streams as text
		case grammar.CodeNestedFence:
			if len(doc.Actions) > 0 && d.Span.Start.Offset >= doc.Actions[0].Span.Start.Offset {
				codes = append(codes, d.Code) // an action's source is parsed whole: the same error
				batchAt = append(batchAt, d.Span.Start.Offset)
				break
			}
			// Before the first act the stream reads blocks as text: it
			// cannot know that a block closed early until the fence meant
			// to close it arrives, after the block went out, so it reports
			// the follow-ons parse collapses into notes, as they come
			// (docs/acts.md, "Improperly nested fences").
			for _, c := range followOnCodes(d) {
				codes = append(codes, c)
				batchAt = append(batchAt, d.Span.Start.Offset)
			}
			nested = true
		default:
			codes = append(codes, d.Code)
			batchAt = append(batchAt, d.Span.Start.Offset)
		}
	}
	if full, err := grammar.Parse(context.Background(), "", in, grammar.Options{Dialect: grammar.DialectActs}); err == nil {
		for _, d := range full.Diagnostics {
			if d.Code != grammar.CodeCROnly {
				continue
			}
			// A lone CR on the first line: parse rejects the input as
			// cr-line-endings and says no lone-cr, the stream, which
			// cannot know the input's line endings from its first line,
			// reports the lone CRs as it reads them (docs/acts.md, "Lone
			// CRs"): they are not compared.
			kinds, crAt = dropAllCRs(kinds, crAt)
			codes, batchAt = dropAllCRs(codes, batchAt)
		}
	}
	firstAct := len(in) + 1
	if len(doc.Actions) > 0 {
		firstAct = doc.Actions[0].Span.Start.Offset
	}
	for i, c := range codes {
		switch c {
		case grammar.CodeUnclosedFence:
			if batchAt[i] < firstAct {
				// A block before the first act that never closes is
				// known to be unclosed only at the end, where its error
				// goes out, after those of its content lines.
				nested = true
			}
		case grammar.CodeNearAct, grammar.CodeQuotedAct, grammar.CodeFenceTrailingText:
			if batchAt[i] < firstAct {
				// Before the first act fence line the stream holds the
				// errors that depend on the document's fence character
				// until it is known (docs/acts.md, "Streaming"): they
				// go out then, after the ones that do not.
				nested = true
			}
		}
	}
	if lexer.Detect(in) == lexer.Tilde {
		// Before the first act fence line the stream does not know the
		// fence character yet and checks lone CRs as with backtick fences
		// (docs/acts.md, "Lone CRs"): those before the first action are
		// not compared for a document of tilde fences.
		first := len(in) + 1
		if len(doc.Actions) > 0 {
			first = doc.Actions[0].Span.Start.Offset
		}
		kinds = dropLoneCRs(kinds, crAt, first)
		codes = dropLoneCRs(codes, batchAt, first)
	}
	if crs := countCode(codes, grammar.CodeLoneCR); crs > grammar.MaxPerCode {
		// the stream sums up the lone-cr errors past the cap at the end
		// of the input, parse at the first one left out
		nested = true
	}
	if nested { // the follow-ons' order is the stream's, not the position order
		slices.Sort(kinds)
		slices.Sort(codes)
	}
	if len(acts) != len(doc.Actions) {
		t.Fatalf("input %q: streamed %d actions, parse found %d", in, len(acts), len(doc.Actions))
	}
	for i := range acts {
		if !reflect.DeepEqual(acts[i], doc.Actions[i]) {
			t.Fatalf("input %q: action %d streamed as\n%+v\nparsed as\n%+v", in, i, *acts[i], *doc.Actions[i])
		}
	}
	if !slices.Equal(kinds, codes) {
		t.Fatalf("input %q: streamed errors %v, parse diagnostics %v", in, kinds, codes)
	}
}

// dropAllCRs returns codes and their offsets at without the lone-cr
// errors.
func dropAllCRs(codes []string, at []int) ([]string, []int) {
	var k []string
	var o []int
	for i, c := range codes {
		if c != grammar.CodeLoneCR {
			k, o = append(k, c), append(o, at[i])
		}
	}
	return k, o
}

// dropLoneCRs returns codes without the lone-cr errors whose offset (at,
// one per code) is before first.
func dropLoneCRs(codes []string, at []int, first int) []string {
	var kept []string
	for i, c := range codes {
		if c != grammar.CodeLoneCR || at[i] >= first {
			kept = append(kept, c)
		}
	}
	return kept
}

// followOnCodes returns the codes of the follow-on notes of an improperly
// nested fence error (their messages end in " [code]").
func followOnCodes(d *ast.Diagnostic) []string {
	var codes []string
	for _, r := range d.Related {
		if !strings.HasPrefix(r.Message, "follow-on: ") || !strings.HasSuffix(r.Message, "]") {
			continue
		}
		if i := strings.LastIndex(r.Message, " ["); i >= 0 {
			switch c := r.Message[i+2 : len(r.Message)-1]; c {
			case grammar.CodeOtherFenceAct, grammar.CodeBlockBeforeAct, grammar.CodeNoPlan:
				// document-level, as at the top level: not streamed
			default:
				codes = append(codes, c)
			}
		}
	}
	return codes
}

// TestActsLoneCRCap: past grammar.MaxPerCode lone-cr errors, batch and
// stream list the first ones and sum up the rest in one error at the
// first one left out, with the same message (the stream sends it at the
// end of the input, the only place it knows the count): in act lines,
// inside an action's block, after the last action, with other errors
// after the first one left out.
func TestActsLoneCRCap(t *testing.T) {
	many := func(n int) string { return strings.Repeat("text\r```\n", n) } // not first: a lone CR on line 1 is cr-line-endings for parse
	acts := func(n int) string { return strings.Repeat("```act\nrun_command x\r```\n", n) }
	for _, in := range []string{
		acts(150),
		"```act\nwrite_file a\n```\n```\n" + strings.Repeat("x\r```\n", 130) + "```\n",
		"```act\nwrite_file a\n```\n```\nx\n```\n" + many(120) + "```act\nrun_comand x\n```\n",
		acts(60) + "```act\nwrite_file a\n```\n```\n" + strings.Repeat("x\r```\n", 60) + "```\n" + many(60),
	} {
		checkParity(t, []byte(in))
		s, err := schema.Builtin("acts")
		if err != nil {
			t.Fatal(err)
		}
		doc, err := grammar.ParseActs(context.Background(), "", []byte(in), 0, s)
		if err != nil {
			t.Fatal(err)
		}
		var batch []string
		for _, d := range doc.Diagnostics {
			if d.Code == grammar.CodeLoneCR {
				batch = append(batch, fmt.Sprintf("%d %s", d.Span.Start.Offset, d.Message))
			}
		}
		var streamed []string
		for _, e := range collect(t, Options{Dialect: "acts"}, []byte(in), nil) {
			if e.Type == Error && e.Kind == grammar.CodeLoneCR {
				streamed = append(streamed, fmt.Sprintf("%d %s", e.Span.Start.Offset, e.Message))
			}
		}
		slices.Sort(batch)
		slices.Sort(streamed)
		for i := range min(len(batch), len(streamed)) {
			if batch[i] != streamed[i] {
				t.Errorf("batch %q\nstream %q", batch[i], streamed[i])
				break
			}
		}
		if len(batch) != grammar.MaxPerCode+1 || !slices.Equal(batch, streamed) {
			t.Fatalf("input %.60q…: %d lone-cr errors in batch, %d streamed; want %d, the same:\nbatch %q\nstream %q",
				in, len(batch), len(streamed), grammar.MaxPerCode+1, batch[len(batch)-1:], streamed[max(0, len(streamed)-1):])
		}
		if !strings.Contains(batch[len(batch)-1]+strings.Join(batch, ""), "like the 100 above are not listed one by one") {
			t.Fatalf("no summing-up error: %q", batch[len(batch)-1])
		}
	}
}

func countCode(codes []string, code string) int {
	n := 0
	for _, c := range codes {
		if c == code {
			n++
		}
	}
	return n
}
