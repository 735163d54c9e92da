package grammar

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/schema"
)

// editLog records what an EditStream reports, and checks the order: every
// action ends after it begins, before the next begins.
type editLog struct {
	t      testing.TB
	src    func() string
	open   *ast.Action
	ends   int
	hunks  int
	deltas map[*ast.Action]map[string]string
	prose  []int // start, end pairs
}

func (l *editLog) Prose(start, end int) error { l.prose = append(l.prose, start, end); return nil }
func (l *editLog) Begin(a *ast.Action, name string, start, end int) error {
	if l.open != nil {
		l.t.Errorf("%s begins while %s is open", a.Name, l.open.Name)
	}
	l.open = a
	return nil
}
func (l *editLog) Delta(a *ast.Action, param, text string, start, end int) error {
	if a != l.open {
		l.t.Errorf("delta of %s outside its action", param)
	}
	if l.deltas == nil {
		l.deltas = map[*ast.Action]map[string]string{}
	}
	if l.deltas[a] == nil {
		l.deltas[a] = map[string]string{}
	}
	l.deltas[a][param] += text
	return nil
}
func (l *editLog) Hunk(a *ast.Action, h Hunk, blk *ast.Block) error {
	if a != l.open {
		l.t.Errorf("hunk outside its action")
	}
	l.hunks++
	return nil
}
func (l *editLog) End(a *ast.Action) error {
	if a != l.open {
		l.t.Errorf("end of %s, which is not open", a.Name)
	}
	l.open = nil
	l.ends++
	return nil
}
func (l *editLog) Diagnostic(d *ast.Diagnostic) error { return nil }

// streamEdit parses src with an EditStream fed in the given chunk sizes
// (cycled) and returns its document and log.
func streamEdit(t testing.TB, dialect string, src []byte, sizes []int) (*ast.Document, *editLog) {
	return streamEditMode(t, dialect, src, sizes, false)
}

// streamEditMode is streamEdit, with EditStream.Lean when lean.
func streamEditMode(t testing.TB, dialect string, src []byte, sizes []int, lean bool) (*ast.Document, *editLog) {
	t.Helper()
	log := &editLog{t: t}
	s, err := NewEditStream(dialect, log)
	if err != nil {
		t.Fatal(err)
	}
	if lean {
		s.Lean()
	}
	for i, off := 0, 0; off < len(src); i++ {
		n := min(max(sizes[i%len(sizes)], 1), len(src)-off)
		if _, err := s.Write(src[off : off+n]); err != nil {
			t.Fatal(err)
		}
		off += n
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if log.open != nil {
		t.Errorf("%s never ended", log.open.Name)
	}
	doc := s.Document()
	ast.SortDiagnostics(doc.Diagnostics)
	return doc, log
}

var editParsers = map[string]func(context.Context, string, []byte) (*ast.Document, error){
	DialectSearchReplace: ParseSearchReplace, DialectUdiff: ParseUdiff, DialectApplyPatch: ParseApplyPatch,
}

// checkEditStream: whatever the chunking, the stream's document is the
// whole-document parse's, every action is reported begun and ended, the
// deltas of a parameter are its value, and the prose ranges cover what
// no action does.
func checkEditStream(t testing.TB, dialect string, src []byte, seed uint64) {
	t.Helper()
	want, err := editParsers[dialect](context.Background(), "x.md", src)
	if err != nil {
		t.Fatal(err)
	}
	wantJSON, _ := json.Marshal(want)
	r := rand.New(rand.NewPCG(seed, 1))
	random := make([]int, 16)
	for i := range random {
		random[i] = 1 + r.IntN(40)
	}
	// A Lean stream reports the same and keeps no action.
	full, fullLog := streamEdit(t, dialect, src, random)
	lean, leanLog := streamEditMode(t, dialect, src, random, true)
	if len(lean.Actions) != 0 || len(lean.Prose) != 0 {
		t.Errorf("%s: a Lean stream kept %d actions, %d prose nodes", dialect, len(lean.Actions), len(lean.Prose))
	}
	if leanLog.ends != fullLog.ends || leanLog.hunks != fullLog.hunks || !slices.Equal(leanLog.prose, fullLog.prose) || len(leanLog.deltas) != len(fullLog.deltas) {
		t.Errorf("%s: a Lean stream reported %d ends, %d hunks, %d prose ranges; the stream %d, %d, %d", dialect,
			leanLog.ends, leanLog.hunks, len(leanLog.prose)/2, fullLog.ends, fullLog.hunks, len(fullLog.prose)/2)
	}
	if a, b := mustJSON(lean.Diagnostics), mustJSON(full.Diagnostics); !bytes.Equal(a, b) {
		t.Errorf("%s: a Lean stream's diagnostics differ:\n got %s\nwant %s", dialect, a, b)
	}
	for _, sizes := range [][]int{{1}, {7}, {4096}, random} {
		got, log := streamEdit(t, dialect, src, sizes)
		if gotJSON, _ := json.Marshal(got); !bytes.Equal(gotJSON, wantJSON) {
			t.Fatalf("%s, chunks %v: stream document differs from the parse:\n got %s\nwant %s", dialect, sizes, gotJSON, wantJSON)
		}
		if log.ends != len(got.Actions) {
			t.Errorf("%s: %d actions ended, %d parsed", dialect, log.ends, len(got.Actions))
		}
		for _, a := range got.Actions {
			for param, text := range log.deltas[a] {
				if v := a.Params.String(param); v != text {
					t.Errorf("%s: deltas of %s.%s = %q, value %q", dialect, a.Name, param, text, v)
				}
			}
		}
	}
}

// TestEditStreamAgrees runs checkEditStream over every edit-format golden
// input, in each dialect.
func TestEditStreamAgrees(t *testing.T) {
	for dialect := range editParsers {
		for _, dir := range []string{DialectSearchReplace, DialectUdiff, DialectApplyPatch} {
			files, _ := filepath.Glob("../golden/" + dir + "/*.md")
			if len(files) == 0 {
				t.Fatalf("no golden inputs in %s", dir)
			}
			for _, file := range files {
				src, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				t.Run(dialect+"/"+filepath.Base(file), func(t *testing.T) {
					checkEditStream(t, dialect, src, uint64(len(src)))
				})
			}
		}
	}
}

// FuzzEditStream: on any input, in each edit-format dialect, the stream
// parser's document equals the whole-document parse's whatever the
// chunking, and its reports are well ordered.
func FuzzEditStream(f *testing.F) {
	for _, dir := range []string{DialectSearchReplace, DialectUdiff, DialectApplyPatch} {
		files, _ := filepath.Glob("../golden/" + dir + "/*.md")
		for i, file := range files {
			if data, err := os.ReadFile(file); err == nil {
				f.Add(data, uint64(i))
			}
		}
	}
	f.Fuzz(func(t *testing.T, src []byte, seed uint64) {
		for dialect := range editParsers {
			checkEditStream(t, dialect, src, seed)
		}
	})
}

// TestEditFormatsCap pins the edit formats' cap (docs/check.md, "Bounded
// output"): 150 repeats of one mistake give 100 diagnostics of its code
// and one that sums up the other 50, in the whole-document parse and in
// the stream alike (checkEditStream compares the documents, diagnostics
// included), and Options.Uncapped lists all 150. Before, 170k SEARCH
// blocks without a divider printed 26 MB.
func TestEditFormatsCap(t *testing.T) {
	var sr, sr2, ud, ap strings.Builder
	ap.WriteString("*** Begin Patch\n")
	for i := range 150 {
		fmt.Fprintf(&sr, "/abs/f%d.py\n```python\n<<<<<<< SEARCH\nold\n=======\nnew\n>>>>>>> REPLACE\n```\n\n", i)
		fmt.Fprintf(&sr2, "f%d.py\n```python\n<<<<<<< SEARCH\nold\n>>>>>>> REPLACE\n```\n\n", i)
		fmt.Fprintf(&ud, "--- a/../f%d.py\n+++ b/../f%d.py\n@@ -1,1 +1,1 @@\n-old\n+new\n", i, i)
		fmt.Fprintf(&ap, "*** Update File: f%d.py\n@@\n-old\n+new\n*** Frobnicate File: x%d\n", i, i)
	}
	ap.WriteString("*** End Patch\n")
	for _, c := range []struct {
		dialect, src, code string
	}{
		{DialectSearchReplace, sr.String(), schema.CodeAbsolutePath},
		{DialectSearchReplace, sr2.String(), CodeMissingDivider},
		{DialectUdiff, ud.String(), schema.CodePathEscapes},
		{DialectApplyPatch, ap.String(), CodeBadHunkHeader},
	} {
		t.Run(c.dialect+"/"+c.code, func(t *testing.T) {
			checkEditStream(t, c.dialect, []byte(c.src), 1)
			for _, uncapped := range []bool{false, true} {
				doc, err := Parse(context.Background(), "x.md", []byte(c.src), Options{Dialect: c.dialect, Uncapped: uncapped})
				if err != nil {
					t.Fatal(err)
				}
				n, summary := 0, ""
				for _, d := range doc.Diagnostics {
					if d.Code == c.code {
						n++
						if IsOverflow(d) {
							summary = d.Message
						}
					}
				}
				switch {
				case uncapped && (n != 150 || summary != ""):
					t.Errorf("uncapped: %d %s diagnostics (summary %q), want 150 and no summary", n, c.code, summary)
				case !uncapped && (n != 101 || !strings.HasPrefix(summary, "50 more "+c.code+" errors like the 100 above")):
					t.Errorf("%d %s diagnostics, summary %q; want 101, the last summing up 50", n, c.code, summary)
				}
			}
		})
	}
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}
