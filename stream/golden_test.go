package stream

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"
)

// goldenCases says how each golden/stream/NAME.txt is fed: the default is
// the tools dialect in one chunk; inputs named acts_* use the acts dialect.
var goldenCases = map[string]struct {
	opts  Options
	chunk int // bytes per Write; 0: the whole input at once
}{
	"split_tag":       {chunk: 7},
	"lt_at_chunk_end": {chunk: 6},
	"too_large":       {opts: Options{MaxCallSize: 100}},
}

// TestGolden pins the event stream of each golden input (regenerate with
// go test ./stream/ -update) and checks the chunking property on it.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("../golden/stream/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	g := goldie.New(t, goldie.WithFixtureDir("../golden/stream"), goldie.WithNameSuffix(".golden"))
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".txt")
		t.Run(name, func(t *testing.T) {
			in, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			c := goldenCases[name]
			if strings.HasPrefix(name, "acts_") {
				c.opts.Dialect = "acts"
			}
			var cuts []int
			for i := c.chunk; c.chunk > 0 && i < len(in); i += c.chunk {
				cuts = append(cuts, i)
			}
			g.Assert(t, name, jsonl(t, collect(t, c.opts, in, cuts)))
			checkAll(t, c.opts, in)
		})
	}
}
