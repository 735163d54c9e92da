package stream

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestRegistry checks every registered syntax: a unique name, a scanner, a
// built-in schema, and markers no other syntax's markers also match.
func TestRegistry(t *testing.T) {
	syns := Syntaxes()
	if len(syns) < 2 {
		t.Fatalf("%d syntaxes registered", len(syns))
	}
	type mark struct{ syn, m string }
	var marks []mark
	for i, s := range syns {
		if s.Name == "" || s.Name == Auto || s.open == nil || s.Summary == "" {
			t.Errorf("syntax %d: %+v: needs a name (not %q), a summary and a scanner", i, s, Auto)
		}
		if i > 0 && syns[i-1].Name == s.Name {
			t.Errorf("syntax %s registered twice", s.Name)
		}
		sc, err := schemaFor(s, Options{})
		if err != nil {
			t.Errorf("syntax %s: %v", s.Name, err)
			continue
		}
		if _, err := New(Options{Syntax: s.Name}, func(*Event) error { return nil }); err != nil {
			t.Errorf("syntax %s: %v", s.Name, err)
		}
		if s.Markers != nil {
			for _, m := range s.Markers(sc) {
				marks = append(marks, mark{s.Name, m})
			}
		}
	}
	// A marker's shortest instance must not match another syntax's marker.
	for _, a := range marks {
		inst := strings.NewReplacer(" ", "", "*", "x").Replace(a.m)
		for _, b := range marks {
			if _, full, _ := matchMarker([]byte(inst), b.m); full && a.syn != b.syn {
				t.Errorf("marker %q of %s also matches marker %q of %s", a.m, a.syn, b.m, b.syn)
			}
		}
	}
	if _, err := LookupSyntax("nope"); err == nil || !strings.Contains(err.Error(), "tools") {
		t.Errorf("LookupSyntax(nope): %v, want an error listing the syntaxes", err)
	}
	if !slices.Contains(SyntaxNames(), Auto) {
		t.Error("SyntaxNames lacks auto")
	}
}

func TestMatchMarker(t *testing.T) {
	for _, tc := range []struct {
		b, m       string
		n          int
		full, part bool
	}{
		{"<tool_call>\n  <function=x", "<tool_call> <function=", 24, true, false},
		{"<tool_call><function=x", "<tool_call> <function=", 21, true, false},
		{"<tool_call>\n", "<tool_call> <function=", 0, false, true},
		{"<tool_call>\n{", "<tool_call> <function=", 0, false, false},
		{"<tool_call>ab", "<tool_call> *", 12, true, false},
		{"<tool_call> {", "<tool_call> *", 0, false, false},
		{"<tool", "<tool_call>", 0, false, true},
		{"<tool_call>" + strings.Repeat(" ", maxMarkerSpace+1) + "x", "<tool_call> *", 0, false, false},
	} {
		n, full, part := matchMarker([]byte(tc.b), tc.m)
		if n != tc.n || full != tc.full || part != tc.part {
			t.Errorf("matchMarker(%q, %q) = %d %v %v, want %d %v %v", tc.b, tc.m, n, full, part, tc.n, tc.full, tc.part)
		}
	}
}

// syntaxSamples are inputs every syntax (and auto) must read with the
// chunking property: non-ASCII text, thinking, every syntax's markers.
var syntaxSamples = []string{
	"",
	"漢字",
	"héllo wörld 🎉 <think>思考 🎉</think> ok",
	"a</think>b",
	"<think>never closed é",
	"\xe6\xbc",
	"\xff\xfe a \x80",
	"x <read_file><path>a.go</path></read_file> and <function_calls><invoke name=\"read_file\"><parameter name=\"path\">é</parameter></invoke></function_calls>",
	"<tool_call>\n<function=read_file>\n<parameter=path>\nsrc/a.go\n</parameter>\n</function>\n</tool_call>",
	"<tool_call>read_file\n<arg_key>path</arg_key>\n<arg_value>a</arg_value>\n</tool_call>",
	"<minimax:tool_call>\n<invoke name=\"read_file\">\n<parameter name=\"path\">a</parameter>\n</invoke>\n</minimax:tool_call>",
	"<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"ü\"}}\n</tool_call>",
	"<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"read_file\">\n<｜DSML｜parameter name=\"path\" string=\"true\">ü</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls><｜DSML｜function_calls><｜DSML｜inv",
	"See [read_file(path='a.go')] then [list_files(path=\"src\")]; {\"name\": \"read_file\", \"parameters\": {{\"name\": \"read_file\", \"parameters\": {}}",
	"<seed:think>plan <read_file></seed:think>\n<seed:tool_call>\n<function=read_file>\n<parameter=path>ü</parameter>\n</function>\n</seed:tool_call><seed:tool_ca",
	"Let me run that.\n<execute_c",
	"<tool_",
}

func TestSyntaxesChunking(t *testing.T) {
	for _, name := range SyntaxNames() {
		for i, s := range syntaxSamples {
			for _, in := range []bool{false, true} {
				t.Run(fmt.Sprint(name, i, in), func(t *testing.T) {
					checkChunks(t, Options{Syntax: name, InThinking: in}, []byte(s), uint64(i))
				})
			}
		}
	}
}

// FuzzSyntax checks the chunking property (checkChunks) for every
// registered syntax and auto on arbitrary input, with and without
// Options.OmitFraming (checkOmit: the exact events less framing).
func FuzzSyntax(f *testing.F) {
	for i, s := range syntaxSamples {
		f.Add([]byte(s), uint64(i), uint8(i))
	}
	for i, s := range samples {
		f.Add([]byte(s), uint64(i), uint8(i))
	}
	names := SyntaxNames()
	f.Fuzz(func(t *testing.T, in []byte, seed uint64, pick uint8) {
		opts := Options{Syntax: names[int(pick)%len(names)], InThinking: pick >= 128, MaxCallSize: 200}
		if seed&1 == 1 {
			checkOmit(t, opts, in, nil)
			opts.OmitFraming = true
		}
		checkChunks(t, opts, in, seed)
	})
}

// TestUTF8Chunks: a character cut across chunks is never cut in an event.
func TestUTF8Chunks(t *testing.T) {
	in := "漢字 <read_file><path>漢.go</path></read_file>"
	every := make([]int, len(in))
	for i := range every {
		every[i] = i
	}
	var text, path strings.Builder
	for _, e := range collect(t, Options{}, []byte(in), every) {
		switch e.Type {
		case Text:
			if strings.ContainsRune(e.Text, '\uFFFD') || !strings.HasPrefix(in, text.String()+e.Text) {
				t.Errorf("text event %q cuts a character", e.Text)
			}
			text.WriteString(e.Text)
		case ParamDelta:
			if !utf8.ValidString(e.Text) {
				t.Errorf("param_delta %q cuts a character", e.Text)
			}
			path.WriteString(e.Text)
		}
	}
	if text.String() != "漢字 " || path.String() != "漢.go" {
		t.Errorf("text %q, path %q", text.String(), path.String())
	}
	// An incomplete character at the very end is decided at Close.
	evs := collect(t, Options{}, []byte("a\xe6\xbc"), []int{1, 2})
	if evs[0].Text != "a" || evs[1].Text != "\xe6\xbc" || evs[2].Type != End {
		t.Errorf("events %s", jsonl(t, evs))
	}
}

func TestAuto(t *testing.T) {
	for _, tc := range []struct {
		in, syntax, first string
	}{
		{"just text <b>x</b> <", "auto", "just text <b>x</b> "},
		{"just text <b>x</b> <tool", "auto", "just text <b>x</b> "},
		{"<think>a <read_file> b</think>ok <read_file><path>a</path></read_file>", "tools", "<think>a <read_file> b</think>"},
		{"pre <function_calls><invoke name=\"read_file\"><parameter name=\"path\">a</parameter></invoke></function_calls>", "anthropic-xml", "pre "},
		{"pre\n{\"name\": \"read_file\", \"parameters\": {\"path\": \"a\"}}", "llama", "pre"},
		{"<|python_tag|>{\"name\": \"read_file\", \"parameters\": {}}", "llama", ""},
		{"a set {\"name\": \"f\", \"parameters\": {}} in prose", "llama", "a set "},
		{"  \n  {\"name\": \"read_file\", \"arguments\": {}}", "llama", "  "},
		// JSON with a "name" but no arguments is text: auto is the
		// command's default, and answers show such JSON (package.json)
		{"a set {\"name\" in prose}", "auto", "a set {\"name\" in prose}"},
		{"See:\n```json\n{\n  \"name\": \"my-app\",\n  \"version\": \"1.0.0\"\n}\n```", "auto", "See:\n```json\n{\n  \"name\": \"my-app\",\n  \"version\": \"1.0.0\"\n}\n```"},
		{"{\"name\": \"" + strings.Repeat("n", 70) + "\", \"parameters\": {}}", "auto", "{\"name\": \"" + strings.Repeat("n", 70) + "\", \"parameters\": {}}"},
	} {
		evs := collect(t, Options{Syntax: Auto}, []byte(tc.in), nil)
		last := evs[len(evs)-1]
		if last.Syntax != tc.syntax {
			t.Errorf("%q: syntax %q, want %q", tc.in, last.Syntax, tc.syntax)
		}
		if evs[0].Raw != tc.first {
			t.Errorf("%q: first event %s", tc.in, jsonl(t, evs[:1]))
		}
		checkChunks(t, Options{Syntax: Auto}, []byte(tc.in), 3)
	}
}

func TestInThinking(t *testing.T) {
	for _, name := range SyntaxNames() {
		if isFramed(name) {
			continue // the provider APIs say what is thinking; InThinking does not apply
		}
		evs := merge(collect(t, Options{Syntax: name, InThinking: true}, []byte("plan: <read_file></think>done"), []int{3, 9}))
		if evs[0].Type != Thinking || evs[0].Text != "plan: <read_file>" || evs[1].Type != Text || evs[1].Text != "done" {
			t.Errorf("%s: events %s", name, jsonl(t, evs))
		}
	}
}
