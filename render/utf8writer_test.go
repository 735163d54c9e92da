package render

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"unicode/utf8"
)

// TestValidUTF8WriterCuts pins that validUTF8Writer gives what
// bytes.ToValidUTF8 gives for the whole text, however the text is cut
// into writes: runes cut between writes, invalid runs that go on in the
// next write, a cut rune at the end of the text.
func TestValidUTF8WriterCuts(t *testing.T) {
	texts := []string{
		"", "plain", "漢字 and ✓", "a\xffb", "\xff\xfe\xfd", "x\xe2\x82", "\xe2\x82\xac\xe2\x82",
		"\xf0\x9f\x98\x80\xf0\x9f", "\xed\xa0\x80 surrogate", "\xc0\xaf overlong", "ok \xef\xbf\xbd literal \xff",
		"\xe2\x82A", "\xe2\xff\x82", "end \xf0",
	}
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte("a\x80\xbf\xc2\xe2\x82\xac\xf0\x9f\x98\x80\xff\xed\xa0")
	for range 300 {
		b := make([]byte, rng.IntN(24))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		texts = append(texts, string(b))
	}
	for _, text := range texts {
		want := bytes.ToValidUTF8([]byte(text), []byte("\uFFFD"))
		// Every way of cutting the text in two and in three, and one byte
		// at a time.
		var cuts [][]int
		for i := 0; i <= len(text); i++ {
			cuts = append(cuts, []int{i})
			for j := i; j <= len(text) && len(text) < 10; j++ {
				cuts = append(cuts, []int{i, j})
			}
		}
		ones := []int{}
		for i := 1; i < len(text); i++ {
			ones = append(ones, i)
		}
		cuts = append(cuts, ones)
		for _, cut := range cuts {
			var out bytes.Buffer
			v := &validUTF8Writer{w: &out}
			at := 0
			for _, c := range append(cut, len(text)) {
				if n, err := v.Write([]byte(text[at:c])); err != nil || n != c-at {
					t.Fatalf("Write: %d, %v", n, err)
				}
				at = c
			}
			if err := v.Close(); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out.Bytes(), want) {
				t.Fatalf("%q cut at %v: %q, want %q", text, cut, out.Bytes(), want)
			}
		}
	}
}

// maxWriter records the longest write it is given.
type maxWriter struct{ n, longest int }

func (m *maxWriter) Write(p []byte) (int, error) {
	m.n += len(p)
	m.longest = max(m.longest, len(p))
	return len(p), nil
}

// TestWriteMarkdownStreams pins that WriteMarkdown writes a Markdown page
// as it renders it, not held whole (a document of 200k empty code blocks,
// 1.6 MB, made an 18 MB page that was copied four times: 160 → 85 MB
// whole process; docs/benchmarks.md, "render memory"), and that it is
// Markdown's page.
func TestWriteMarkdownStreams(t *testing.T) {
	src := bytes.Repeat([]byte("# A heading\n\nSome *text* and `code`.\n\n```go\nx := 1\n```\n\n"), 20000)
	var m maxWriter
	if err := WriteMarkdown(&m, src, Options{NoHighlight: true}); err != nil {
		t.Fatal(err)
	}
	page, err := Markdown(src, Options{NoHighlight: true})
	if err != nil {
		t.Fatal(err)
	}
	if m.n != len(page) {
		t.Fatalf("WriteMarkdown wrote %d bytes, Markdown's page has %d", m.n, len(page))
	}
	if m.longest > 1<<20 {
		t.Errorf("a write of %d bytes of a %d-byte page: the page is held whole", m.longest, m.n)
	}
}

// TestMarkdownPageInvalidUTF8 pins that a Markdown page is valid UTF-8,
// each run of invalid bytes in the document shown as one U+FFFD.
func TestMarkdownPageInvalidUTF8(t *testing.T) {
	src := []byte("# T\xff\xfeitle\n\ntext \xe2\x82 cut \xf0\x9f\x98\x80 ok\n")
	page, err := Markdown(src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !utf8.Valid(page) {
		t.Fatal("the page is not valid UTF-8")
	}
	for _, want := range []string{"T\uFFFDitle", "text \uFFFD cut \U0001F600 ok"} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("the page lacks %q", want)
		}
	}
}
