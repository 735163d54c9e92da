package lexer

import (
	"testing"

	plex "github.com/alecthomas/participle/v2/lexer"

	"github.com/plangram/plangram/internal/testkit/corpus"
)

// BenchmarkLexers compares participle's stateful lexer running the fence
// rules with the hand-written definition emitting the same tokens, and with
// the coarse tokens the grammar uses. It is the evidence for shipping a
// hand-written lexer.Definition.
func BenchmarkLexers(b *testing.B) {
	src := string(corpus.Acts(1 << 20))
	for _, bc := range []struct {
		name string
		def  func() plex.StringDefinition
	}{
		{"stateful", func() plex.StringDefinition { return Stateful(Tilde) }},
		{"fine", func() plex.StringDefinition { return Fine(Tilde) }},
		{"coarse", func() plex.StringDefinition { return Coarse(Tilde) }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				l, err := bc.def().LexString("", src)
				if err != nil {
					b.Fatal(err)
				}
				for {
					t, err := l.Next()
					if err != nil {
						b.Fatal(err)
					}
					if t.EOF() {
						break
					}
				}
			}
		})
	}
}
