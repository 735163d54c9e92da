package grammar

import (
	"bytes"
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/plangram/plangram/ast"
)

// TestBinarySample pins the rule that tells binary input without a NUL
// byte (docs/acts.md, "Input encoding"): more than a third of the first
// 8 KiB, and at least 4 bytes, are not UTF-8 text.
func TestBinarySample(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	random := make([]byte, 4096)
	for i := range random {
		random[i] = byte(1 + rng.IntN(255)) // no NUL
	}
	latin1 := bytes.Repeat([]byte("R\xe9sum\xe9 : caf\xe9, na\xefve, d\xe9j\xe0 vu, \xe7a va.\n"), 40)
	cut := append(bytes.Repeat([]byte("a"), binaryWindow-1), "漢字"...) // 漢 cut by the window
	tail := append(bytes.Repeat([]byte("plain text\n"), binaryWindow/11+1), bytes.Repeat([]byte{0xff}, 100000)...)
	for _, tc := range []struct {
		name   string
		src    []byte
		binary bool
	}{
		{"random bytes without NUL", random, true},
		{"four bad bytes of ten", []byte("ab\xff\xfe\x01\x02cdef"), true},
		{"control bytes", bytes.Repeat([]byte("\x01\x02\x03a"), 10), true},
		{"three bad bytes (below the minimum)", []byte("\xff\xfe\xfd"), false},
		{"emoji and CJK", []byte(strings.Repeat("🚀✨🎉漢字かな😀", 500)), false},
		{"Latin-1 text", latin1, false},
		{"a plan with a few bad bytes", []byte("```act\nwrite_file a\n```\n```\nx\xffy\xfez\n```\n"), false},
		{"text with ANSI colours, tabs, form feeds, BS, BEL", []byte(strings.Repeat("\x1b[31mred\x1b[0m\t\f\b\a\v\r\n", 50)), false},
		{"a character cut by the window", cut, false},
		{"bad bytes after the window", tail, false},
	} {
		bad, n, first := binarySample(tc.src)
		if got := first >= 0; got != tc.binary {
			t.Errorf("%s: binary = %v (%d bad of %d), want %v", tc.name, got, bad, n, tc.binary)
		}
		diags := checkInput(tc.src)
		isBinary := len(diags) == 1 && diags[0].Code == CodeBinary
		if isBinary != tc.binary {
			t.Errorf("%s: checkInput = %v, want binary-input %v", tc.name, diags, tc.binary)
		}
	}
}

// TestEntryPointsEscapeDiagnostics checks that the diagnostic text of
// every exported parser is valid UTF-8, as Parse's is (ast.EscapeDiagnostics):
// a path that is not UTF-8, put in a message as it is, came out of
// ParseUdiff as the raw byte and out of Parse and the stream parser as
// \xNN (FuzzEditSyntax/dfa891a657dc71e4).
func TestEntryPointsEscapeDiagnostics(t *testing.T) {
	ctx := context.Background()
	acts, err := NewActsParser(0, nil)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := NewPlanParser(nil)
	if err != nil {
		t.Fatal(err)
	}
	for name, parse := range map[string]func() (*ast.Document, error){
		"ParseUdiff": func() (*ast.Document, error) {
			return ParseUdiff(ctx, "x", []byte("--- \xb1\n+++ /dev/null\n@@\n \n"))
		},
		"ParseApplyPatch": func() (*ast.Document, error) {
			return ParseApplyPatch(ctx, "x", []byte("*** Begin Patch\n*** Update File: \xb1\n@@\n-a\n+b\n*** Update File: \xb1\n*** End Patch\n"))
		},
		"ParseSearchReplace": func() (*ast.Document, error) {
			return ParseSearchReplace(ctx, "x", []byte("\xb1.py\n```\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n```\n"))
		},
		"ActsParser.Parse": func() (*ast.Document, error) {
			return acts.Parse(ctx, "x", []byte("~~~act\nwrite_file \xb1\n~~~\n~~~\nx\n~~~\n~~~act\nbad\xfe\n~~~\n"))
		},
		"PlanParser.Parse": func() (*ast.Document, error) {
			return plan.Parse(ctx, "x", []byte("# T\n\n## Action Plan\n\n### `CREATE\xfe`\n- **File Path:** \xb1\n"))
		},
	} {
		doc, err := parse()
		if err != nil {
			t.Fatal(err)
		}
		if len(doc.Diagnostics) == 0 {
			t.Errorf("%s: no diagnostics", name)
		}
		for _, d := range doc.Diagnostics {
			if !utf8.ValidString(d.Message) || !utf8.ValidString(d.Detail) {
				t.Errorf("%s: diagnostic text is not UTF-8: %q", name, d.Message)
			}
		}
	}
}

// TestNewActsParserNilSchema: a nil schema is the built-in acts schema,
// as for NewPlanParser; Parse panicked on it.
func TestNewActsParserNilSchema(t *testing.T) {
	p, err := NewActsParser(0, nil)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := p.Parse(context.Background(), "x", []byte("~~~act\nwrite_file a.txt\n~~~\n~~~\nhi\n~~~\n"))
	if err != nil || len(doc.Actions) != 1 || doc.Actions[0].Params.String("path") != "a.txt" || len(doc.Diagnostics) != 0 {
		t.Fatalf("%v %+v", err, doc)
	}
}
