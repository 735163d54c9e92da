package gfm

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

// samples exercise each extension: autolinks of every form, tables with
// every alignment, escaped pipes and ragged rows, strikethrough, task
// lists.
var samples = []string{
	"see www.example.com/a?b=c, https://example.com:8080/x_(y) and ftp://f.example.org.\nmail a@b.co or http://localhost/ (not a domain)\n",
	"*https://example.com/a*, (www.example.com), ~https://x.example.com~, _www.a.bc_\n",
	"| a | b | c | d |\n|:--|--:|:-:|---|\n| 1 | 2 | 3 | 4 |\n| x \\| y | `a|b` |\n| only one |\n",
	"a | b\n-- | --\nc | d\n\nnot | a table\n- | x\n",
	"~~gone~~ ~one~ ~~~three~~~ a~~b~~c\n",
	"- [ ] todo\n- [x] done\n- [X] Done\n  - [ ] nested\n1. [x] ordered\n- [] no\n",
	"> | q | t |\n> |---|---|\n> | 1 | 2 |\n",
	"| h |\n| - |\n\n|x|\n|-|\n|y|\n" + strings.Repeat("| c ", 40) + "|\n" + strings.Repeat("|---", 40) + "|\n",
}

// TestSameAsGoldmark pins the copy to goldmark's extension.GFM: the same
// HTML for the samples and for every Markdown file of the repository.
func TestSameAsGoldmark(t *testing.T) {
	inputs := map[string][]byte{}
	for i, s := range samples {
		inputs["sample"+string(rune('a'+i))] = []byte(s)
	}
	for _, dir := range []string{"../../../golden", "../../../docs", "../../../examples", "../../.."} {
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if p != dir && (dir == "../../.." || strings.HasPrefix(d.Name(), ".")) {
					return filepath.SkipDir
				}
				return nil
			}
			if strings.HasSuffix(p, ".md") || strings.HasSuffix(p, ".txt") {
				b, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				inputs[p] = b
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(inputs) < 50 {
		t.Fatalf("only %d inputs", len(inputs))
	}
	ours := goldmark.New(goldmark.WithExtensions(GFM))
	theirs := goldmark.New(goldmark.WithExtensions(extension.GFM))
	for name, src := range inputs {
		var a, b bytes.Buffer
		errA, errB := ours.Convert(src, &a), theirs.Convert(src, &b)
		if (errA == nil) != (errB == nil) || !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Errorf("%s: the copy renders differently from goldmark's extension.GFM (errors %v, %v)", name, errA, errB)
		}
	}
}
