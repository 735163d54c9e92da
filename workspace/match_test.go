package workspace

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// bigFile is a generated source file of about size bytes.
func bigFile(size int) string {
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "func f%d(x int) int {\n\treturn x * %d // line %d\n}\n\n", i, i%97, i)
	}
	return b.String()
}

// TestClosestLargeFile finds a near miss in a 5 MB file: the search is
// linear in the file size (a quadratic one would not finish).
func TestClosestLargeFile(t *testing.T) {
	content := bigFile(5 << 20)
	lines := splitLines(content)
	target := 3 * len(lines) / 4
	target -= target % 4 // the line of a func header
	find := splitLines(strings.Replace(strings.Join(lines[target:target+3], "\n"), "\treturn", "    return", 1))
	start := time.Now()
	r, ok, _ := closest(lines, find, make([]uint64, 1<<18))
	if !ok || r.start != target || r.end != target+3 {
		t.Fatalf("closest = %+v %v, want lines %d-%d", r, ok, target+1, target+3)
	}
	if kind := whitespaceKind(find, lines[r.start:r.end]); kind != "indentation (tabs against spaces)" {
		t.Errorf("kind = %q", kind)
	}
	t.Logf("closest region in %d lines: %v", len(lines), time.Since(start))
}

func TestOccurrences(t *testing.T) {
	n, lines := occurrences("a\nxx\nb xx xx\nxx", "xx", 3)
	if n != 4 || fmt.Sprint(lines) != "[2 3 3]" {
		t.Errorf("occurrences = %d %v", n, lines)
	}
	if n, _ := occurrences("aaaa", "aa", 10); n != 2 {
		t.Errorf("overlapping occurrences counted: %d", n)
	}
}

func TestWhitespaceKind(t *testing.T) {
	for _, tc := range []struct {
		a, b []string
		want string
	}{
		{[]string{"x"}, []string{"x"}, "the final line ending"},
		{[]string{"x", "y"}, []string{"x\r", "y\r"}, "line endings (CRLF against LF)"},
		{[]string{"x  "}, []string{"x"}, "trailing white space"},
		{[]string{"  x"}, []string{"    x"}, "indentation"},
		{[]string{"\tx"}, []string{"    x"}, "indentation (tabs against spaces)"},
		{[]string{"a b"}, []string{"a  b"}, "white space"},
		{[]string{"a", "b"}, []string{"a b"}, "white space"},
		{[]string{"a"}, []string{"b"}, ""},
	} {
		if got := whitespaceKind(tc.a, tc.b); got != tc.want {
			t.Errorf("whitespaceKind(%q, %q) = %q, want %q", tc.a, tc.b, got, tc.want)
		}
	}
}

func BenchmarkClosest(b *testing.B) {
	content := bigFile(5 << 20)
	lines := splitLines(content)
	find := splitLines("func g(x int) int {\n    return x * 3 // line 12345\n}")
	b.SetBytes(int64(len(content)))
	b.ResetTimer()
	grams := make([]uint64, 1<<18)
	for i := 0; i < b.N; i++ {
		closest(lines, find, grams)
	}
}

// FuzzFindReport runs the not-found report (closest region, white space
// classification, diff) on arbitrary file and FIND texts: no panic, and a
// region inside the file.
func FuzzFindReport(f *testing.F) {
	f.Add("a\nb\nc\n", "b\n")
	f.Add("\tx\r\n  y \n", "    x\ny")
	f.Add("", "x")
	f.Add("😀漢\n\xff\n", "漢")
	f.Add("a \u2013 b\n\u201cq\u201d\n", "a - b\n\"q\"\n")
	f.Fuzz(func(t *testing.T, content, find string) {
		fl, kl := splitLines(content), splitLines(find)
		grams := make([]uint64, 1<<18)
		r, ok, _ := closest(fl, kl, grams)
		for i, w := range grams {
			if w != 0 {
				t.Fatalf("closest left trigram word %d set", i)
			}
		}
		if !ok {
			return
		}
		if r.start < 0 || r.end > len(fl) || r.start >= r.end {
			t.Fatalf("region %+v outside %d lines", r, len(fl))
		}
		got := fl[r.start:r.end]
		whitespaceKind(kl, got)
		diffDetail(kl, got, r.start, "FIND text", "f", lineRange(r.start+1, r.end))
		occurrences(content, find, 3)
	})
}
