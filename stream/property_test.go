package stream

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// samples are inputs for the chunking property, with the golden inputs.
var samples = []string{
	"",
	"plain text",
	"a <",
	"a <thi",
	"<thinking>x",
	"Vec<u8> and <b>bold</b> and a < b > c",
	"I'll create the file.<thinking>path first</thinking>\n<write_to_file><path>src/a.go</path><content>package a\n</content></write_to_file>",
	"<write_to_file><path>a</path><content>x</content> <path>y</path></content>\n</write_to_file>",
	"<write_to_file><content>x</content><content>y</content></write_to_file>",
	"<write_to_file><path>a</path><content>  </content>   </content>  \n\t</write_to_file> tail",
	"<read_file>src/a.go</read_file>",
	"<read_file><path>a</path> junk <x <b>c</b></read_file>",
	"<list_files><path>.</path><recursive>yes</recursive></list_files>",
	"<list_files><path>.</path><recursive>TRUE</recursive></list_files>",
	"<execute_command><command>ls &amp;&amp; pwd</command></execute_command>",
	"<attempt_completion><result>a &lt;b&gt; &#65;&#x42; &bogus; &</result></attempt_completion>",
	"<ask_followup_question><question>q</question><options>[\"a\", 1]</options></ask_followup_question>",
	"<ask_followup_question><question>q</question><options>[nope</options></ask_followup_question>",
	"<execute_command><command>x</execute_command>",
	"<write_to_file><path>a</path><content>never closed",
	"<thinking>a <thinking> b <read_file><path>x</path></read_file></thinking> c</thinking>",
	"<think>one</think><thinking>two</think></thinking>",
	"<function_calls>\n<invoke name=\"read_file\">\n<parameter name=\"path\">a.go</parameter>\n</invoke>\n<invoke name=\"nope\"><parameter name=\"x\"> y </parameter></invoke>\n</function_calls>\ndone",
	"<function_calls><invoke name=\"write_to_file\"><parameter name=\"content\">a</parameter>b</parameter><parameter name=\"path\">p</parameter></invoke></function_calls>",
	"<function_calls> prose after all",
	"<function_calls><invoke name=\"read_file\"><parameter name=\"path\">a",
	"<function_calls></function_calls><function_calls>\n",
	"<read_file><path>a</path></read_file><read_file><path>b</path></read_file>",
	"x\r\n<read_file>\r\n<path>a</path>\r\n</read_file>\r\n",
	"<write_to_file><path>big</path><content>" + strings.Repeat("0123456789", 30) + "</content></write_to_file>after <read_file><path>z</path></read_file>",
	"<write_to_file><path>big</path><content>" + strings.Repeat("<read_file><path>q</path></read_file>", 10) + "</content></write_to_file>",
	"<thinking></thinking><thinking>",
	"<<<>>><</</write_to_file>>",
	// a raw value held at a ruled-out closing tag after a line ending, then
	// text with no tag and no line ending (the short path of tools.value),
	// ended by the call at that closing tag
	"<write_to_file><path>a</path><content>\nx\n</content> y\nmore text without a tag</write_to_file>",
}

// actsSamples are acts-dialect inputs for the chunking property.
var actsSamples = []string{
	"",
	// HTML comments that hide act blocks (hidden-act), with either fence
	// character deciding what is prose.
	"<!--\n```act\nrun_command x\n```\n-->\n```act\nrun_command y\n```\n",
	"```\n<!--\n```\n~~~act\nrun_command x\n~~~\n",
	// Found by CI's fuzzing: near-act and quoted-act before the first act
	// (held until the fence character is known), other-fence-act inside
	// an action's source (document-level, not streamed), and one hidden
	// by a block of the other character opened before the action.
	"~~~ACt ~~",
	"hi\n~~~act x\nfoo\n~~~\n> ```act\n```sh\n> ~~~act\n```\n~~~act\nwrite_file a\n~~~\n~~~\nb\n~~~\n> ~~~act\n",
	"~~~act\nwrite_file a\n~~~\n```act\nx\n```\n~~~\nc\n~~~\n",
	"```act x\nwrite_file a.txt\n~~~act\n   ~~~act:\n~~~\n```act\n~~~ACt ~~\n",
	"```markdown\n```go\nx\n```\n```\n",
	"```act\nwrite_file a.md\n```\n\n```markdown\n# Doc\n\n```go\nfmt.Println()\n```\n\nend\n```\n",
	"prose only\nno newline",
	"~~~act\nwrite_file src/a.py\n~~~\nprose\n~~~python\n    indented\n~~~\ntail\n",
	"```\n~~~act\n```\n~~~act\nend\n~~~\n",
	"~~~\n~~~act\n~~~\n```act\necho hi\n```\n",
	"```act\nrun_command\n```\n```\nls\n```\n```act\necho 'a b' c\n```\n``` \nunclosed",
	"```act\n\n```\n",
	"```act\nwrite_file",
	"\uFEFF~~~act\ngit_commit\n~~~\n~~~\nmessage\r\n~~~\r\n",
	"```\nstray\n",
	"```act\nread_file x\n```\n~~~\nother char\n~~~\n",
	// Fences on list item marker lines (docs/acts.md).
	"Steps:\n1. ~~~act\n   write_file a.py\n   ~~~\n   ~~~python\n   x = 1\n   ~~~\n2. ~~~act\n   run_command\n   ~~~\n- ~~~\n  python a.py\n  ~~~\n",
	"- ```\nstray on a marker line\n```\n* ```act\necho hi\n```\n  - ```act\nunclosed",
	// Lone CRs that hide a structural line (docs/acts.md, "Lone CRs"),
	// before the first act, in an action's source, after its last block,
	// and ones that hide nothing.
	"intro\r```act\rwrite_file a\r```\r\n```act\nrun_command x\n```\nmore\r```act\rrun_command y\r```\r\n",
	"```\nstray\r```\nstill stray\n```\n```act\nrun_command\n```\n```\nout\r```\n\n```\nnote\r~~~act\n10%\r20%\n",
	"x\n```act\rwrite_file a\n```\n~~~act\nrun_command\n~~~\n~~~\nx\n~~~\ry\n~~~\r\r\nend\r",
	"\r```act\necho\n```\r\nsee\r1. ```act\necho\n```\n",
	// A closing fence with text after its run in a stray block
	// (fence-trailing-text), with the fence character known or not yet.
	"Intro:\n\n```\nhello\n``` end of file\nmore\n```\n\n```act\necho\n```\n```\nhi\n```\n",
	"~~~\na\n~~~ end\n~~~\n```\nb\n```  the end\n```\n~~~act\necho\n~~~\n~~~\nhi\n~~~\n",
	"~~~\na\n~~~ end\n~~~\n```\nb\n```  the end\n```\n```act\necho\n```\n```\nhi\n```\n",
	"```\na\n``` the end\n```\nno act at all\n",
	"```\na\n``` the end\n```act\nsample\n```\n``` also text\n```\n```act\necho\n```\n",
	"```act\nwrite_file a\n``` done here\n```\nx\n```\n```act\necho\n```\n```\nhi\n``` the end\n",
}

// options returns the options the property runs with: a small call limit
// so the too-large path is exercised too.
func options(dialect string) Options { return Options{Dialect: dialect, MaxCallSize: 120} }

func TestChunking(t *testing.T) {
	for i, s := range samples {
		t.Run(fmt.Sprint("tools", i), func(t *testing.T) { checkAll(t, options("tools"), []byte(s)) })
	}
	for i, s := range actsSamples {
		t.Run(fmt.Sprint("acts", i), func(t *testing.T) { checkAll(t, options("acts"), []byte(s)) })
	}
}

// checkAll checks the property for one-byte chunks, every split in two,
// and random chunkings.
func checkAll(t *testing.T, opts Options, in []byte) {
	want := checkOne(t, opts, in, nil)
	every := make([]int, len(in))
	for i := range every {
		every[i] = i
	}
	cutsets := [][]int{every}
	for i := 1; i < len(in); i++ {
		cutsets = append(cutsets, []int{i})
	}
	r := rand.New(rand.NewPCG(uint64(len(in)), 7))
	for range 20 {
		var cuts []int
		for c := r.IntN(8); c < len(in); c += 1 + r.IntN(24) {
			cuts = append(cuts, c)
		}
		cutsets = append(cutsets, cuts)
	}
	for _, cuts := range cutsets {
		if got := checkOne(t, opts, in, cuts); !reflect.DeepEqual(got, want) {
			t.Fatalf("cuts %v:\n got %s\nwant %s", cuts, jsonl(t, got), jsonl(t, want))
		}
	}
}

// fragments are the pieces random inputs are made of.
var fragments = []string{
	"<write_to_file>", "</write_to_file>", "<content>", "</content>", "<path>", "</path>",
	"<read_file>", "</read_file>", "<list_files>", "</list_files>", "<recursive>", "</recursive>",
	"<thinking>", "</thinking>", "<think>", "</think>", "<function_calls>", "</function_calls>",
	`<invoke name="write_to_file">`, `<invoke name="zz">`, "</invoke>", `<parameter name="content">`,
	`<parameter name="path">`, "</parameter>", "<", ">", "</", " ", "\n", "\r\n", "text", "Vec<u8>",
	"<b>", "true", "yes", "&amp;", "&lt;", "~~~act\n", "```act\n", "~~~\n", "```\n", "write_file a\n", "end\n",
	"<!--\n", "-->\n",
}

func TestRandomChunking(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 400 {
		var b strings.Builder
		for range r.IntN(40) {
			b.WriteString(fragments[r.IntN(len(fragments))])
		}
		in := []byte(b.String())
		dialect := "tools"
		if i%4 == 3 {
			dialect = "acts"
		}
		opts := options(dialect)
		if i%8 == 1 {
			opts.MaxCallSize = 0 // the default: no call is too large here
		}
		want := checkOne(t, opts, in, nil)
		for k := range 4 {
			var cuts []int
			for c := 0; c < len(in); c += 1 + r.IntN(1+k*8) {
				cuts = append(cuts, c)
			}
			if got := checkOne(t, opts, in, cuts); !reflect.DeepEqual(got, want) {
				t.Fatalf("input %q cuts %v:\n got %s\nwant %s", in, cuts, jsonl(t, got), jsonl(t, want))
			}
		}
	}
}

// FuzzStream checks the chunking property on arbitrary input: the same
// merged events for one chunk, one-byte chunks and seed-drawn chunks; raw
// text that adds up to the input; spans that match it; in the acts dialect
// the same actions as the batch parser. It never panics.
func FuzzStream(f *testing.F) {
	for i, s := range samples {
		f.Add([]byte(s), uint64(i), false)
	}
	for i, s := range actsSamples {
		f.Add([]byte(s), uint64(i), true)
	}
	f.Fuzz(func(t *testing.T, in []byte, seed uint64, acts bool) {
		opts := options("tools")
		if acts {
			opts.Dialect = "acts"
			checkParity(t, in)
		}
		want := checkOne(t, opts, in, nil)
		r := rand.New(rand.NewPCG(seed, 1))
		var cuts, every []int
		for c := r.IntN(4); c < len(in); c += 1 + r.IntN(32) {
			cuts = append(cuts, c)
		}
		for c := range len(in) {
			every = append(every, c)
		}
		for _, cs := range [][]int{cuts, every} {
			if got := checkOne(t, opts, in, cs); !reflect.DeepEqual(got, want) {
				t.Fatalf("cuts %v:\n got %s\nwant %s", cs, jsonl(t, got), jsonl(t, want))
			}
		}
	})
}

// TestTooLargeCallCutsAtCharacter: a call cut at its size limit is cut
// before the character the limit falls in, not inside it, whatever the
// chunking (FuzzStream/417ac70c0b37d26e: the call's text ended between the
// two bytes of "۸").
func TestTooLargeCallCutsAtCharacter(t *testing.T) {
	for pad := range 4 {
		in := []byte("<write_to_file><path>" + strings.Repeat("a", pad) + strings.Repeat("漢۸é", 40) + "</path></write_to_file> done")
		opts := Options{Dialect: "tools", MaxCallSize: 64}
		checkAll(t, opts, in) // no event starts or ends inside a character, in any chunking
		cut := false
		for _, e := range checkOne(t, opts, in, nil) {
			cut = cut || e.Type == Error && e.Kind == KindTooLarge
		}
		if !cut {
			t.Fatalf("pad %d: the call was not cut at its limit", pad)
		}
	}
}
