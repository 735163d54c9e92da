package stream

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/plangram/plangram/internal/testkit/benchutil"
)

// answer generates a long LLM answer of about size bytes: prose with stray
// '<', thinking with tool tags inside, and calls of every form, some with
// large contents that hold tags and "</content>".
func answer(size int) []byte {
	r := rand.New(rand.NewPCG(4, 2))
	words := strings.Fields("the a file we then Vec<u8> <b>bold</b> if x < y and a->b fn main() result error path write read 1 2 3")
	prose := func(b *strings.Builder, n int) {
		for range n {
			b.WriteString(words[r.IntN(len(words))])
			b.WriteByte(' ')
		}
		b.WriteString("\n\n")
	}
	code := func(b *strings.Builder, n int) {
		for b.Len() < n {
			fmt.Fprintf(b, "func f%d(v []int) bool { return len(v) < %d && v[0] > 0 } // <path>no</path>\n", r.IntN(1000), r.IntN(99))
			if r.IntN(40) == 0 {
				b.WriteString("s := \"</content>\" // a closing tag inside the content\n")
			}
		}
	}
	var b strings.Builder
	for b.Len() < size {
		prose(&b, 20+r.IntN(80))
		switch r.IntN(6) {
		case 0:
			b.WriteString("<thinking>")
			prose(&b, 30+r.IntN(60))
			b.WriteString("maybe <read_file><path>x</path></read_file> first</thinking>\n")
		case 1:
			fmt.Fprintf(&b, "<read_file>\n<path>src/f%d.go</path>\n</read_file>\n", r.IntN(100))
		case 2:
			b.WriteString("<execute_command>\n<command>go test ./... &amp;&amp; go vet</command>\n<requires_approval>false</requires_approval>\n</execute_command>\n")
		case 3:
			var c strings.Builder
			code(&c, 2000+r.IntN(30000))
			fmt.Fprintf(&b, "<write_to_file>\n<path>src/g%d.go</path>\n<content>\n%s</content>\n</write_to_file>\n", r.IntN(100), c.String())
		case 4:
			var c strings.Builder
			code(&c, 500+r.IntN(3000))
			fmt.Fprintf(&b, "<replace_in_file>\n<path>a.go</path>\n<diff>\n<<<<<<< SEARCH\n%s=======\n%s>>>>>>> REPLACE\n</diff>\n</replace_in_file>\n", c.String(), c.String())
		case 5:
			b.WriteString("<function_calls>\n<invoke name=\"list_files\">\n<parameter name=\"path\">src</parameter>\n<parameter name=\"recursive\">true</parameter>\n</invoke>\n</function_calls>\n")
		}
	}
	return []byte(b.String())
}

// BenchmarkStream parses a 10 MB answer in one chunk and in 20-byte chunks,
// and a 50 KiB answer in 20-byte chunks, both with this parser and with
// the naive baseline (re-parse everything per chunk). cpu-ns/op is the
// figure to compare on a loaded machine.
func BenchmarkStream(b *testing.B) {
	big, small := answer(10<<20), answer(50<<10)
	for _, bc := range []struct {
		name  string
		in    []byte
		chunk int
	}{
		{"10MB/one-chunk", big, len(big)},
		{"10MB/20-byte-chunks", big, 20},
		{"50KiB/20-byte-chunks", small, 20},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.in)))
			b.ReportAllocs()
			defer benchutil.ReportCPU(b)()
			events := 0
			for b.Loop() {
				events, _ = feedChunks(b, Options{}, bc.in, bc.chunk)
			}
			b.ReportMetric(float64(events), "events")
		})
	}
	b.Run("50KiB/20-byte-chunks/naive-reparse", func(b *testing.B) {
		b.SetBytes(int64(len(small)))
		b.ReportAllocs()
		for b.Loop() {
			naive(small, 20)
		}
	})
}

// The naive baseline, as popular agents stream tool calls: append each
// chunk to the message and re-parse the whole message with regular
// expressions, so the work grows with the square of its length.
var (
	naiveThinking = regexp.MustCompile(`(?s)<thinking>(.*?)</thinking>`)
	naiveTool     = regexp.MustCompile(`(?s)<(read_file|write_to_file|replace_in_file|execute_command|search_files|list_files|list_code_definition_names|ask_followup_question|attempt_completion)>(.*?)</(?:read_file|write_to_file|replace_in_file|execute_command|search_files|list_files|list_code_definition_names|ask_followup_question|attempt_completion)>`)
	naiveParam    = regexp.MustCompile(`(?s)<(\w+)>(.*?)</(\w+)>`)
)

// naive returns the number of calls and thinking blocks the last re-parse
// found.
func naive(in []byte, chunk int) int {
	var msg []byte
	found := 0
	for i := 0; i < len(in); i += chunk {
		msg = append(msg, in[i:min(i+chunk, len(in))]...)
		s := string(msg)
		found = len(naiveThinking.FindAllStringIndex(s, -1))
		for _, m := range naiveTool.FindAllStringSubmatch(s, -1) {
			found += len(naiveParam.FindAllStringSubmatch(m[2], -1))
		}
	}
	return found
}
