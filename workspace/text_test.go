package workspace

import (
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
)

// pieces are the lines random texts are made of: short and long ones (a
// line of keyLen bytes or more is filed under its end), CRLF, white space,
// one without a line break, and pieces of lines that FIND texts within a
// line are looked for in by the substring index (repeats, periods,
// unicode, at least minSub bytes).
var testPieces = []string{"a\n", "b\n", "a", "\n", "ab\n", " a \n", "a\r\n", "\r\n", "xxxxxxxxa\n", "yxxxxxxxa\n", "xxxxxxxxa", "long line one\n", "long line two\n",
	"foo(bar) ", "foo(baz)", "aaaaaaa", "abababab", "αβγδ", "é", "\tx := y\n", "return nil\n"}

func randText(r *rand.Rand, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(testPieces[r.IntN(len(testPieces))])
	}
	return b.String()
}

// refIndex is Index on a string: strings.Index left to right.
func refIndex(s, find string, from, limit int) []int {
	var out []int
	for off := from; limit < 0 || len(out) < limit; {
		i := strings.Index(s[off:], find)
		if i < 0 {
			break
		}
		out = append(out, off+i)
		off += i + len(find)
	}
	return out
}

// checkTextOps runs random operations on a text in tree mode and on a
// plain string, and compares every answer.
func checkTextOps(t *testing.T, seed uint64, steps int) {
	r := rand.New(rand.NewPCG(seed, seed^0x5eed))
	ref := randText(r, r.IntN(30))
	tx := newText(ref)
	if r.IntN(2) == 0 {
		tx.subSlack = 0 // the substring and short indexes are rebuilt often
	}
	if r.IntN(4) > 0 {
		tx.Replace(0, 0, "") // from now on a tree
	}
	marked, atMark := false, ""
	pick := func() string { // a text to look for: mostly from the content
		if ref != "" && r.IntN(3) > 0 {
			a := r.IntN(len(ref))
			b := a + 1 + r.IntN(min(len(ref)-a, 40))
			if r.IntN(2) == 0 { // short: 1 to 4 bytes (the short index)
				b = a + 1 + r.IntN(min(len(ref)-a, 4))
			}
			switch r.IntN(4) {
			case 3: // across a line break, both ends short
				if i := strings.IndexByte(ref[a:], '\n'); i >= 0 {
					nl := a + i
					a = max(0, nl-r.IntN(5))
					b = min(len(ref), nl+1+r.IntN(5))
				}
			case 1: // within one line
				if i := strings.IndexByte(ref[a:b], '\n'); i >= 0 {
					b = a + i
				}
				if a == b {
					return "\n"
				}
			case 0: // whole lines
				a = lineStartOffset(ref, lineOfOffset(ref, a))
				b = min(len(ref), lineStartOffset(ref, lineOfOffset(ref, b-1)+1))
			}
			return ref[a:b]
		}
		if r.IntN(3) == 0 { // short, often not in the text
			return "abé\nx\r"[r.IntN(3):][:1+r.IntN(3)]
		}
		return randText(r, 1+r.IntN(3))
	}
	for step := 0; step < steps; step++ {
		n := len(ref)
		if got := tx.String(); got != ref {
			t.Fatalf("seed %d step %d: content %q, want %q", seed, step, got, ref)
		}
		if tx.Len() != n || tx.CRLF() != crlfFile(ref) || tx.EndsWithNL() != strings.HasSuffix(ref, "\n") {
			t.Fatalf("seed %d step %d: Len/CRLF/EndsWithNL differ on %q", seed, step, ref)
		}
		switch op := r.IntN(10); op {
		case 0, 1: // replace
			a := r.IntN(n + 1)
			b := a + r.IntN(n-a+1)
			s := randText(r, r.IntN(3))
			if r.IntN(3) == 0 && s != "" {
				s = s[:len(s)-1] // often not ending a line
			}
			tx.Replace(a, b, s)
			ref = ref[:a] + s + ref[b:]
		case 2: // match whole lines
			find, from := pick(), r.IntN(n+1)
			at, k := tx.Match(find, from)
			wat, wk := lineMatch(ref, find, from)
			if at != wat || k != wk {
				t.Fatalf("seed %d step %d: Match(%q, %d) in %q = %d, %d; want %d, %d", seed, step, find, from, ref, at, k, wat, wk)
			}
			limit := 1 + r.IntN(3)
			lines, total := tx.LineMatches(find, from, limit)
			wlines, wtotal := lineMatches(ref, find, from, limit)
			if total != wtotal || !equalInts(lines, wlines) {
				t.Fatalf("seed %d step %d: LineMatches(%q, %d, %d) in %q = %v, %d; want %v, %d", seed, step, find, from, limit, ref, lines, total, wlines, wtotal)
			}
		case 3: // index any text
			find, from, limit := pick(), r.IntN(n+1), r.IntN(4)-1
			got, want := tx.Index(find, from, limit), refIndex(ref, find, from, limit)
			if !equalInts(got, want) {
				t.Fatalf("seed %d step %d: Index(%q, %d, %d) in %q = %v; want %v", seed, step, find, from, limit, ref, got, want)
			}
		case 4: // lines and offsets
			off, line := r.IntN(n+1), 1+r.IntN(strings.Count(ref, "\n")+3)
			if tx.Line(off) != lineOfOffset(ref, off) || tx.LineStart(line) != lineStartOffset(ref, line) {
				t.Fatalf("seed %d step %d: Line(%d)=%d want %d, LineStart(%d)=%d want %d in %q", seed, step,
					off, tx.Line(off), lineOfOffset(ref, off), line, tx.LineStart(line), lineStartOffset(ref, line), ref)
			}
			a := r.IntN(n + 1)
			b := a + r.IntN(n-a+1)
			if tx.Slice(a, b) != ref[a:b] {
				t.Fatalf("seed %d step %d: Slice(%d, %d)", seed, step, a, b)
			}
		case 5: // suffixes and trimmed lines
			s := pick()
			if tx.HasSuffix(s) != strings.HasSuffix(ref, s) {
				t.Fatalf("seed %d step %d: HasSuffix(%q) in %q", seed, step, s, ref)
			}
			from := r.IntN(n + 1)
			at, ok := tx.TrimmedLine(s, from)
			wat, wok := trimmedLineMatch(ref, s, from)
			if at != wat || ok != wok {
				t.Fatalf("seed %d step %d: TrimmedLine(%q, %d) in %q = %d %v; want %d %v", seed, step, s, from, ref, at, ok, wat, wok)
			}
		case 9: // an ambiguous FIND text's report
			find := pick()
			n, lines := occurrencesIn(tx, find, 3)
			wn, wlines := occurrences(ref, find, 3)
			if n != wn || !equalInts(lines, wlines) {
				t.Fatalf("seed %d step %d: occurrences(%q) in %q = %d %v; want %d %v", seed, step, find, ref, n, lines, wn, wlines)
			}
			if got, want := occurrenceDetailIn(tx, "f", lines, n), occurrenceDetail(ref, "f", lines, n); got != want {
				t.Fatalf("seed %d step %d: occurrenceDetail(%q) in %q = %q; want %q", seed, step, find, ref, got, want)
			}
		case 6: // mark
			tx.Mark()
			marked, atMark = true, ref
		case 7: // roll back
			if marked {
				tx.Rollback()
				ref, marked = atMark, false
			}
		case 8: // commit
			tx.Commit()
			marked = false
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestTextAgrees: the indexed text answers as the string functions the
// simulation used before (lineMatch, strings.Index, lineOfOffset, …) over
// random edits, matches and roll-backs.
func TestTextAgrees(t *testing.T) {
	for seed := uint64(0); seed < 400; seed++ {
		checkTextOps(t, seed, 200)
	}
}

func FuzzTextAgrees(f *testing.F) {
	f.Add(uint64(1), uint8(50))
	f.Fuzz(func(t *testing.T, seed uint64, steps uint8) {
		checkTextOps(t, seed, int(steps))
	})
}

// TestSubIndexMemory bounds the substring index of a file of code lines:
// the heap it holds is at most 3 times the file (one 4-byte id per line
// and selected gram, 16 bytes per gram, 8 per line).
func TestSubIndexMemory(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 20000; i++ {
		b.WriteString(inLineText(i))
	}
	tx := newText(b.String())
	tx.Replace(0, 0, "")
	tx.promote()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	tx.buildSub()
	runtime.GC()
	runtime.ReadMemStats(&after)
	held := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	ratio := float64(held) / float64(tx.Len())
	t.Logf("file %d bytes, substring index %d bytes: ×%.2f", tx.Len(), held, ratio)
	if ratio > 3 {
		t.Errorf("the substring index holds ×%.2f the file; at most ×3", ratio)
	}
	runtime.KeepAlive(tx)
}

// TestShortIndexMemory bounds the short index of a file of code lines: the
// heap it holds is at most 6 times the file (one 4-byte id per line and
// key, about one key per byte; 24 bytes per distinct key).
func TestShortIndexMemory(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 20000; i++ {
		b.WriteString(inLineText(i))
	}
	tx := newText(b.String())
	tx.Replace(0, 0, "")
	tx.promote()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	tx.buildShort()
	runtime.GC()
	runtime.ReadMemStats(&after)
	held := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	ratio := float64(held) / float64(tx.Len())
	t.Logf("file %d bytes, short index %d bytes: ×%.2f", tx.Len(), held, ratio)
	if ratio > 6 {
		t.Errorf("the short index holds ×%.2f the file; at most ×6", ratio)
	}
	runtime.KeepAlive(tx)
}

// TestShortQueriesBounded: after the short index is built, telling
// whether a short text occurs once costs about the same in a file of n
// and of 4n lines (no pass over the file), for a text that is not there,
// one on two lines at the end, and one on every line (found by walking
// from the start to its second occurrence), of one to four bytes, and
// for a text across a line break whose both ends are short and one rare.
func TestShortQueriesBounded(t *testing.T) {
	cost := func(lines int, find string) int {
		var b strings.Builder
		for i := 0; i < lines; i++ {
			b.WriteString(shortText(i))
		}
		b.WriteString("\t{#$}\n\t{#$}\n")
		tx := newText(b.String())
		tx.Replace(0, 0, "")
		tx.Index(find, 0, 2)   // builds the index
		tx.Replace(0, 1, "\t") // an edit: the index follows it
		work := 0
		for i := 0; i < 10; i++ {
			before := tx.work
			occ := tx.Index(find, 0, 2)
			work += tx.work - before
			if want := refIndex(tx.String(), find, 0, 2); !equalInts(occ, want) {
				t.Fatalf("Index(%q) = %v, want %v", find, occ, want)
			}
			tx.Replace(0, 1, "\t") // a change between queries
		}
		return work
	}
	for _, find := range []string{"{{", "}{", "\t\t", "{{}}", "#", "#$", "{#$}", "$}", "{", "\t{", "}", "$}\n\t{#", "\t{#$}\n\t{#"} {
		small, large := cost(1000, find), cost(4000, find)
		t.Logf("%q: work %d at n=1000, %d at 4n", find, small, large)
		if large > 2*small+200 {
			t.Errorf("%q: work %d at n=1000 lines, %d at 4n: the file is scanned", find, small, large)
		}
	}
}
