package stream

import (
	"flag"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/plangram/plangram/schema"
)

// docExample matches an example of docs/stream.md: a marker comment with
// the `plangram stream` flags, a ````-fenced input (without the line ending
// before the closing fence) and a ```json block with the events.
var docExample = regexp.MustCompile("(?s)<!-- stream-example([^>]*)-->\n````[a-z]*\n(.*?)\n````\n\n```json\n(.*?)```")

// TestDocsExamples runs every example of docs/stream.md as `plangram
// stream` would, so the doc cannot drift from the parser. With -update
// the event blocks are rewritten.
func TestDocsExamples(t *testing.T) {
	const file = "../docs/stream.md"
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	ms := docExample.FindAllStringSubmatchIndex(doc, -1)
	if len(ms) < 5 {
		t.Fatalf("%s: %d examples found, want at least 5", file, len(ms))
	}
	update := flag.Lookup("update") != nil && flag.Lookup("update").Value.String() == "true"
	var out strings.Builder
	last := 0
	for i, m := range ms {
		opts, chunk := docFlags(t, doc[m[2]:m[3]])
		in := []byte(doc[m[4]:m[5]])
		var cuts []int
		for c := chunk; chunk > 0 && c < len(in); c += chunk {
			cuts = append(cuts, c)
		}
		got := string(jsonl(t, collect(t, opts, in, cuts)))
		if want := doc[m[6]:m[7]]; got != want && !update {
			t.Errorf("%s example %d (flags%s):\n got %s\nwant %s", file, i+1, doc[m[2]:m[3]], got, want)
		}
		out.WriteString(doc[last:m[6]])
		out.WriteString(got)
		last = m[7]
	}
	out.WriteString(doc[last:])
	if update && out.String() != doc {
		if err := os.WriteFile(file, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// docFlags reads the `plangram stream` flags of an example, with the
// command's defaults: --syntax auto, events of framing only left out
// unless --exact.
func docFlags(t *testing.T, s string) (Options, int) {
	opts := Options{Syntax: Auto, OmitFraming: true}
	chunk := 0
	args := strings.Fields(s)
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "--no-thinking":
			opts.HideThinking = true
		case "--in-thinking":
			opts.InThinking = true
		case "--exact":
			opts.OmitFraming = false
		case "--tools": // a tools registry, relative to the repository root
			if i+1 == len(args) {
				t.Fatalf("flag %s needs a value", args[i])
			}
			data, err := os.ReadFile("../" + args[i+1])
			if err != nil {
				t.Fatal(err)
			}
			tools, err := schema.FromTools(args[i+1], data)
			if err != nil {
				t.Fatal(err)
			}
			opts.Schema = tools.Schema
			i++
		case "--dialect", "--syntax", "--chunk":
			if i+1 == len(args) {
				t.Fatalf("flag %s needs a value", args[i])
			}
			if args[i] != "--chunk" {
				opts.Syntax = args[i+1]
			} else if n, err := strconv.Atoi(args[i+1]); err != nil {
				t.Fatal(err)
			} else {
				chunk = n
			}
			i++
		default:
			t.Fatalf("unknown example flag %q", args[i])
		}
	}
	return opts, chunk
}
