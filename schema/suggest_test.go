package schema

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestSuggestSameAsFullScan: Suggest skips the candidates whose length
// alone puts them past the limit, and answers as comparing every
// candidate would, for names near and far from the built-in schemas'
// actions; a long name costs no distance computation.
func TestSuggestSameAsFullScan(t *testing.T) {
	full := func(s *Schema, name string) string {
		best, bestD := "", 1<<30
		lname := strings.ToLower(name)
		for _, a := range s.Actions {
			for _, cand := range append([]string{a.Name}, a.Aliases...) {
				if d := Distance(lname, strings.ToLower(cand)); d < bestD {
					best, bestD = a.Name, d
				}
			}
		}
		if bestD > len(name)/3+1 {
			return ""
		}
		return best
	}
	r := rand.New(rand.NewPCG(3, 4))
	for _, dialect := range []string{"acts", "plan"} {
		s, err := Builtin(dialect)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, a := range s.Actions {
			names = append(names, a.Name, strings.ToUpper(a.Name), a.Name+"s", a.Name[1:], "x"+a.Name)
			names = append(names, a.Aliases...)
		}
		for range 2000 {
			b := []byte(names[r.IntN(len(names))])
			for range r.IntN(4) {
				switch i := r.IntN(len(b) + 1); r.IntN(3) {
				case 0:
					b = append(b[:i], append([]byte{byte('a' + r.IntN(26))}, b[i:]...)...)
				case 1:
					if i < len(b) {
						b = append(b[:i], b[i+1:]...)
					}
				default:
					if i < len(b) {
						b[i] = "_İkK"[r.IntN(4)]
					}
				}
			}
			names = append(names, string(b))
		}
		names = append(names, "", "x", "İ", strings.Repeat("a", 1<<16))
		for _, n := range names {
			if got, want := s.Suggest(n), full(s, n); got != want {
				t.Fatalf("%s: Suggest(%.40q) = %q, comparing every candidate gives %q", dialect, n, got, want)
			}
		}
	}
}
