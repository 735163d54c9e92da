package linediff

import (
	"reflect"
	"strings"
	"testing"
)

// chars splits s into one-character lines, so that the examples of
// Python's difflib documentation (on strings) read as line lists.
func chars(s string) []string { return strings.Split(s, "") }

// TestBlocks: the matching blocks of the examples in Python's difflib
// documentation (SequenceMatcher.get_matching_blocks, find_longest_match),
// and a run of equal lines found first wherever it lies.
func TestBlocks(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want []Block
	}{
		{"abxcd", "abcd", []Block{{0, 0, 2}, {3, 2, 2}, {5, 4, 0}}},
		{" abcd", "abcd abcd", []Block{{0, 4, 5}, {5, 9, 0}}},
		{"abcd", "abcd", []Block{{0, 0, 4}, {4, 4, 0}}},
		{"", "abc", []Block{{0, 3, 0}}},
		{"xyzabcd", "abcdxyz", []Block{{3, 0, 4}, {7, 7, 0}}},
	} {
		if got := Blocks(chars(c.a), chars(c.b), true); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Blocks(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// TestBlocksPopular: in a b of 200 lines or more, a line occurring more
// than len(b)/100+1 times does not start a match (it may extend one), so
// the match goes to the rarer line.
func TestBlocksPopular(t *testing.T) {
	a := []string{"x", "y"}
	b := append([]string{"y"}, strings.Split(strings.Repeat("x", 199), "")...)
	if got, want := Blocks(a, b, true), []Block{{1, 0, 1}, {2, 200, 0}}; !reflect.DeepEqual(got, want) {
		t.Errorf("popular held back: %v, want %v", got, want)
	}
	if got, want := Blocks(a, b, false), []Block{{0, 1, 1}, {2, 200, 0}}; !reflect.DeepEqual(got, want) {
		t.Errorf("every line: %v, want %v", got, want)
	}
	// Extended over: the popular line follows a matched rare one.
	a = []string{"y", "x"}
	if got, want := Blocks(a, b, true), []Block{{0, 0, 2}, {2, 200, 0}}; !reflect.DeepEqual(got, want) {
		t.Errorf("extension over a popular line: %v, want %v", got, want)
	}
}

// TestRatio: the ratios of Python's difflib documentation
// (SequenceMatcher.ratio).
func TestRatio(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want float64
	}{
		{"abcd", "bcde", 0.75},
		{"abcd", "abcd", 1},
		{"", "", 1},
		{"ab", "cd", 0},
		{"private Thread currentThread;", "private volatile Thread currentThread;", 58.0 / 67}, // 0.866: all of a matches
	} {
		if got := Ratio(chars(c.a), chars(c.b)); got != c.want {
			t.Errorf("Ratio(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// TestChanges: the opcodes of Python's difflib documentation
// (SequenceMatcher.get_opcodes: "qabxcd" to "abycdf").
func TestChanges(t *testing.T) {
	got := Changes(Blocks(chars("qabxcd"), chars("abycdf"), false))
	want := []Change{{Remove, 0, 1, 0, 0}, {Same, 1, 3, 0, 2}, {Replace, 3, 4, 2, 3}, {Same, 4, 6, 3, 5}, {Add, 6, 6, 5, 6}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Changes = %v, want %v", got, want)
	}
}

// TestHunks: changes far apart make two hunks, each with at most n equal
// lines around its changes; near ones share a hunk; equal texts have none.
func TestHunks(t *testing.T) {
	a := chars("abcdefghijklmnop")
	b := chars("aBcdefghijklmnoP")
	got := Hunks(Changes(Blocks(a, b, false)), 2)
	want := [][]Change{
		{{Same, 0, 1, 0, 1}, {Replace, 1, 2, 1, 2}, {Same, 2, 4, 2, 4}},
		{{Same, 13, 15, 13, 15}, {Replace, 15, 16, 15, 16}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Hunks = %v, want %v", got, want)
	}
	if got := Hunks(Changes(Blocks(a, b, false)), 8); len(got) != 1 {
		t.Errorf("context 8: %d hunks, want 1", len(got))
	}
	if got := Hunks(Changes(Blocks(a, a, false)), 3); len(got) != 0 {
		t.Errorf("equal texts: %v, want no hunk", got)
	}
}
