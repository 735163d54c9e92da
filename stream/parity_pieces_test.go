package stream

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestActsParityPieces streams documents put together from the lines that
// made the stream and parse disagree (near-act and quoted-act before the
// first act, act blocks of the other fence character, lone CRs on the
// first line and in hidden fences, list markers, unclosed blocks, HTML
// comments that hide act blocks) and
// checks each against parse (checkParity; FuzzStream checks chunking): a
// deterministic sweep of what FuzzStream finds by chance.
func TestActsParityPieces(t *testing.T) {
	pieces := []string{
		"~~~act x\n", "```act x\n", "~~~ACt ~~\n", "```{act}\n", "~~~act\n", "```act\n", "write_file a.txt\n",
		"~~~\n", "```\n", "~~~~\n", "text\n", "~~~python\n", "```sh\n", "> ~~~act x\n", "> ```act\n", "   ~~~act:\n",
		"\n", "```t\n", "````act y\n", "x\ry\n", "0\r```\n", "~~~act\r\n", "1. ~~~act\n", "- ```act x\n", "````\n", "  ```\n",
		"~~~~act\n", "run_command ls\n", "\r\n", "<!--\n", "-->\n", "  <!-- x\n", "<!-- x -->\n", "``` -->\n",
	}
	n := 4000
	if testing.Short() {
		n = 500
	}
	r := rand.New(rand.NewPCG(11, 3))
	for range n {
		var b strings.Builder
		for range 1 + r.IntN(8) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		s := b.String()
		if r.IntN(3) == 0 {
			s = strings.TrimSuffix(s, "\n")
		}
		checkParity(t, []byte(s))
		if t.Failed() {
			return
		}
	}
}
