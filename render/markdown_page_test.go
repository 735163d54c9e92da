package render

import (
	"bytes"
	"testing"
	"unicode/utf8"
)

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

// maxWriter records the longest write it is given.
type maxWriter struct{ n, longest int }

func (m *maxWriter) Write(p []byte) (int, error) {
	m.n += len(p)
	m.longest = max(m.longest, len(p))
	return len(p), nil
}
