package grammar

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	gast "github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/internal/number"
	"github.com/plangram/plangram/internal/testkit/corpus"

	"github.com/plangram/plangram/internal/testkit/benchutil"
)

// TestBenchPlanIsValid keeps the benchmark honest: the generated plan must
// parse without a single diagnostic.
func TestBenchPlanIsValid(t *testing.T) {
	src := corpus.Plan(200 << 10)
	doc, err := ParsePlan(context.Background(), "bench.md", src, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Diagnostics) > 0 || len(doc.Actions) < 100 {
		t.Fatalf("%d actions, diagnostics: %v", len(doc.Actions), doc.Diagnostics[0].Format("bench.md"))
	}
	if Detect(src) != DialectPlan {
		t.Fatal("the benchmark plan is not detected as a plan")
	}
}

// TestPlanAllocationsFloor pins issue 29's floor on a smaller corpus than
// BenchmarkPlan's: one parse of a realistic plan allocates at most 4× its
// bytes (the builder's nodes, the document's prose and AST, participle's
// tokens).
func TestPlanAllocationsFloor(t *testing.T) {
	p, err := NewPlanParser(nil)
	if err != nil {
		t.Fatal(err)
	}
	src := corpus.Plan(1 << 20)
	n, doc := allocated(t, p, src)
	if len(doc.Diagnostics) > 0 {
		t.Fatalf("the corpus plan has diagnostics: %v", doc.Diagnostics[0].Format("h.md"))
	}
	ratio := float64(n) / float64(len(src))
	t.Logf("%d bytes allocated for %d bytes of plan: %.2f×", n, len(src), ratio)
	if ratio > 4 {
		t.Errorf("a plan parse allocated %.2f× its input (at most 4×)", ratio)
	}
}

// BenchmarkPlan parses a 5 MB structured Markdown plan with plangram and,
// as the baseline a user would otherwise write, with goldmark walking its
// AST to every heading, list item and fenced block and reading the blocks'
// content.
func BenchmarkPlan(b *testing.B) {
	src := corpus.Plan(benchSize)
	b.Run("plangram", func(b *testing.B) {
		p, err := NewPlanParser(nil)
		if err != nil {
			b.Fatal(err)
		}
		ctx := context.Background()
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		defer benchutil.ReportCPU(b)()
		for b.Loop() {
			doc, err := p.Parse(ctx, "bench.md", src)
			if err != nil || len(doc.Actions) == 0 || len(doc.Diagnostics) > 0 {
				b.Fatal(err)
			}
		}
	})
	b.Run("goldmark", func(b *testing.B) {
		md := goldmark.New()
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		defer benchutil.ReportCPU(b)()
		for b.Loop() {
			if goldmarkWalk(md, src) == 0 {
				b.Fatal("no nodes")
			}
		}
	})
}

// goldmarkWalk is the baseline: goldmark parses src and walks its AST to
// every heading, list item and fenced block, reading the blocks' content.
// It returns the number of nodes it visited.
func goldmarkWalk(md goldmark.Markdown, src []byte) int {
	root := md.Parser().Parse(text.NewReader(src))
	nodes, size := 0, 0
	_ = gast.Walk(root, func(n gast.Node, entering bool) (gast.WalkStatus, error) {
		if !entering {
			return gast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *gast.Heading, *gast.ListItem:
			nodes++
		case *gast.FencedCodeBlock:
			nodes++
			_ = n.Language(src)
			lines := n.Lines()
			for i := 0; i < lines.Len(); i++ {
				seg := lines.At(i)
				size += len(seg.Value(src))
			}
		}
		return gast.WalkContinue, nil
	})
	return nodes
}

// planHeader is the start of a valid plan: title, metadata, rationale,
// memos and the Action Plan heading.
const planHeader = "# T\n\n- **Status:** Green 🟢\n- **Agent:** Developer\n\n## Rationale\n```text\nwhy\n```\n\n## Memos\n```text\n[+] m\n```\n\n## Action Plan\n\n"

// planFamilies are the input families whose parse must scale linearly
// (BenchmarkPlanScaling): each returns a plan of about size bytes.
var planFamilies = []struct {
	name string
	gen  func(size int) []byte
}{
	// realistic plans: more actions
	{"actions", corpus.Plan},
	// the shortest headings, each an unknown section
	{"headings", func(size int) []byte { return []byte("# T\n" + strings.Repeat("## x\n", size/5)) }},
	// four lines of size/4 bytes each: a metadata value, a code line, a
	// paragraph and a list item
	{"longlines", func(size int) []byte {
		long := strings.Repeat("abcdefgh ", size/4/9)
		return []byte(planHeader + "### `CREATE`\n- **File Path:** a.txt\n- **Description:** " + long + "\n\n```text\n" + long + "\n```\n\n" +
			"### `CHAT_WITH_USER`\n" + long + "\n\n- " + long + "\n")
	}},
	// one action with a list of many items
	{"items", func(size int) []byte {
		item := "  - [src/pkg/file.py](/src/pkg/file.py)\n"
		return []byte(planHeader + "### `INVOKE`\n- **Agent:** Reviewer\n- **Description:** Review.\n- **Handoff Resources:**\n" + strings.Repeat(item, size/len(item)) + "\nPlease check.\n")
	}},
	// one action with many paragraphs of short lines
	{"paragraphs", func(size int) []byte {
		para := "Should this module keep its old name\nfor compatibility with the callers?\n\n"
		return []byte(planHeader + "### `CHAT_WITH_USER`\n" + strings.Repeat(para, size/len(para)))
	}},
	// one action with many numbered steps, each a fenced block on its
	// list item's marker line (the line split into the paragraph or item
	// and the block), some nested
	{"markerfences", func(size int) []byte {
		step := "1. ```bash\n   npm install --save-dev typescript @types/node\n   npx tsc --init --strict\n   npm run build -- --project tsconfig.json\n   ```\n" +
			"- ~~~python\n  def total(items, tax_rate):\n      net = sum(item.price for item in items)\n      return round(net * (1 + tax_rate), 2)\n  ~~~\n" +
			"  - ```json\n    {\"name\": \"app\", \"version\": \"1.0.0\",\n     \"scripts\": {\"build\": \"tsc\", \"test\": \"vitest run\"}}\n    ```\n"
		return []byte(planHeader + "### `CHAT_WITH_USER`\nSteps:\n\n" + strings.Repeat(step, size/len(step)))
	}},
}

// BenchmarkPlanScaling parses every input family at n, 2n and 4n bytes
// with plangram and, side by side, with goldmark walking its AST: time
// and bytes per op must double with the input.
func BenchmarkPlanScaling(b *testing.B) {
	p, err := NewPlanParser(nil)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for _, fam := range planFamilies {
		for _, size := range []int{256 << 10, 512 << 10, 1 << 20} {
			src := fam.gen(size)
			b.Run(fmt.Sprintf("%s/n=%dK/plangram", fam.name, size>>10), func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				b.ReportAllocs()
				defer benchutil.ReportCPU(b)()
				for b.Loop() {
					if _, err := p.Parse(ctx, "s.md", src); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run(fmt.Sprintf("%s/n=%dK/goldmark", fam.name, size>>10), func(b *testing.B) {
				md := goldmark.New()
				b.SetBytes(int64(len(src)))
				b.ReportAllocs()
				defer benchutil.ReportCPU(b)()
				for b.Loop() {
					goldmarkWalk(md, src)
				}
			})
		}
	}
}

// headingPlan returns a plan of about size bytes: a title, then level-2
// headings (each an unknown section, so each an error) with the given text
// and a number.
func headingPlan(size int, text string) []byte {
	var b strings.Builder
	b.WriteString("# T\n")
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "## %s %d\n", text, i)
	}
	return []byte(b.String())
}

// allocated returns the bytes allocated by one parse of src (the least of
// three runs, so that a stray allocation elsewhere does not count).
func allocated(t *testing.T, p *PlanParser, src []byte) (uint64, *ast.Document) {
	t.Helper()
	var least uint64
	var doc *ast.Document
	for i := 0; i < 3; i++ {
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		d, err := p.Parse(context.Background(), "h.md", src)
		runtime.ReadMemStats(&m1)
		if err != nil {
			t.Fatal(err)
		}
		if n := m1.TotalAlloc - m0.TotalAlloc; i == 0 || n < least {
			least = n
		}
		doc = d
	}
	return least, doc
}

// TestPlanHeadingsLinear pins issue 10's heading blow-up (a 31 KB plan of
// `##` headings took 2.9 GiB): 200 KB of headings 2 allocate less than 10×
// the input (a run of empty sections is one token of the grammar), the
// diagnostics stay bounded (MaxPerCode per code, one AST diff of at most
// viewMaxRows rows), and 4× the headings cost at most about 4× the bytes,
// also for the shortest headings (`## x`) and for headings 2–6 mixed, whose
// headings 3 are actions.
func TestPlanHeadingsLinear(t *testing.T) {
	p, err := NewPlanParser(nil)
	if err != nil {
		t.Fatal(err)
	}
	src := headingPlan(200<<10, "Section: notes on the configuration loader")
	n, doc := allocated(t, p, src)
	if n >= 10*uint64(len(src)) {
		t.Errorf("%d bytes of headings allocated %d bytes (%.1f×), want under 10×", len(src), n, float64(n)/float64(len(src)))
	}
	t.Logf("%d bytes allocated %.1f× the input", len(src), float64(n)/float64(len(src)))
	details, rows := 0, 0
	for _, d := range doc.Diagnostics {
		if d.Detail != "" {
			details++
			rows = strings.Count(d.Detail, "\n")
		}
	}
	if details != 1 || rows > viewMaxRows+4 || len(doc.Diagnostics) > MaxPerCode+5 {
		t.Errorf("%d diagnostics, %d with a detail of %d lines", len(doc.Diagnostics), details, rows)
	}
	last := doc.Diagnostics[len(doc.Diagnostics)-1]
	if !strings.Contains(last.Message, "more unknown-section errors") && !strings.Contains(doc.Diagnostics[MaxPerCode+1].Message, "more unknown-section errors") {
		t.Errorf("no summary of the left-out diagnostics: %s", last.Message)
	}

	// The shortest headings, headings of levels 2–6 mixed and headings
	// between blank lines: unknown sections of only headings are folded
	// (outliner), every line still in the prose, every heading
	// 2 still counted in the summary.
	for name, unit := range map[string]string{
		"shortest": "## x\n",
		"mixed":    "## x\n### x\n#### x\n##### x\n###### x\n",
		"blank":    "## x\n\n",
	} {
		src := []byte("# T\n" + strings.Repeat(unit, (200<<10)/len(unit)))
		n, doc := allocated(t, p, src)
		t.Logf("%s: %d bytes allocated %.1f× the input", name, len(src), float64(n)/float64(len(src)))
		if name != "mixed" && n >= 10*uint64(len(src)) {
			t.Errorf("%s: %d bytes of headings allocated %d bytes (%.1f×), want under 10×", name, len(src), n, float64(n)/float64(len(src)))
		}
		covered := 0
		for _, pr := range doc.Prose {
			covered += len(pr.Text)
		}
		if covered != len(src) {
			t.Errorf("%s: the prose covers %d of %d bytes", name, covered, len(src))
		}
		want := number.Thousands((200<<10)/len(unit) - MaxPerCode - 1)
		if last := doc.Diagnostics[len(doc.Diagnostics)-1]; !strings.Contains(last.Message, want+" more unknown-section") {
			t.Errorf("%s: want %s more unknown sections summed up, last diagnostic: %s", name, want, last.Message)
		}
	}

	small, _ := allocated(t, p, []byte("# T\n"+strings.Repeat("## x\n", 10000)))
	large, _ := allocated(t, p, []byte("# T\n"+strings.Repeat("## x\n", 40000)))
	if large > 5*small {
		t.Errorf("10,000 headings allocated %d bytes, 40,000 %d: not linear", small, large)
	}
}

// BenchmarkPlanHeadings parses plans of n, 2n and 4n short headings (each
// one an unknown section): time and bytes per op must double with n.
func BenchmarkPlanHeadings(b *testing.B) {
	p, err := NewPlanParser(nil)
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{8000, 16000, 32000} {
		src := []byte("# T\n" + strings.Repeat("## x\n", n))
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := p.Parse(context.Background(), "h.md", src); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestPlanScalingLinear bounds the bytes one parse of each input family
// of BenchmarkPlanScaling allocates: 4× the input costs at most 6× the
// bytes (linear, allowing for slices that double past a size class), and
// no family allocates more than 12× its input. Every family but headings
// is a valid plan.
func TestPlanScalingLinear(t *testing.T) {
	p, err := NewPlanParser(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, fam := range planFamilies {
		small, large := fam.gen(64<<10), fam.gen(256<<10)
		a, _ := allocated(t, p, small)
		c, doc := allocated(t, p, large)
		ratio := float64(c) / float64(a) / (float64(len(large)) / float64(len(small)))
		t.Logf("%s: %d bytes allocate %.1f× the input, 4× the input %.2f× that per byte", fam.name, len(large), float64(c)/float64(len(large)), ratio)
		if ratio > 1.5 { // slices that double may reach a larger size class
			t.Errorf("%s: %d bytes allocated %d, %d bytes %d: not linear", fam.name, len(small), a, len(large), c)
		}
		if c > 12*uint64(len(large)) {
			t.Errorf("%s: %d bytes allocated %d (%.1f×)", fam.name, len(large), c, float64(c)/float64(len(large)))
		}
		if fam.name != "headings" && len(doc.Diagnostics) > 0 {
			t.Errorf("%s: the family is not a valid plan: %s", fam.name, doc.Diagnostics[0].Format("f.md"))
		}
	}
}

// metaKeys returns a plan of about size bytes whose metadata list has
// that many distinct keys.
func metaKeys(size int) []byte {
	var b strings.Builder
	b.WriteString("# T\n\n")
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "- **Key %d:** value\n", i)
	}
	b.WriteString("\n## Rationale\n\n```text\nWhy.\n```\n\n## Action Plan\n\n### `READ`\n- **Resource:** a.txt\n- **Description:** Read it.\n")
	return []byte(b.String())
}

// TestPlanMetadataKeysNotQuadratic checks that a metadata list past
// MaxActionParts items is cut at the cap with one too-many-parts error, and
// read whole when Uncapped. Its speed (n, 2n, 4n) is BenchmarkPlanMetadataKeys'
// to show, not a timed test's.
func TestPlanMetadataKeysNotQuadratic(t *testing.T) {
	p, err := NewPlanParser(nil)
	if err != nil {
		t.Fatal(err)
	}
	src := metaKeys(MaxActionParts * 24) // lines of 24 bytes or fewer: past the cap
	doc, err := p.Parse(context.Background(), "meta.md", src)
	if err != nil {
		t.Fatal(err)
	}
	over := 0
	for _, d := range doc.Diagnostics {
		if d.Code != CodeTooManyParts {
			t.Errorf("unexpected diagnostic: %s", d.Format("meta.md"))
		}
		over++
	}
	if len(doc.Metadata) != MaxActionParts || over != 1 {
		t.Errorf("%d metadata keys, %d too-many-parts errors", len(doc.Metadata), over)
	}
	// fmt and fix read every item (Uncapped).
	p.Uncapped = true
	all, err := p.Parse(context.Background(), "meta.md", src)
	if err != nil {
		t.Fatal(err)
	}
	if len(all.Metadata) <= MaxActionParts || len(all.Diagnostics) > 0 {
		t.Errorf("Uncapped: %d metadata keys, diagnostics %v", len(all.Metadata), all.Diagnostics)
	}
}

// BenchmarkPlanMetadataKeys parses a metadata list of many distinct keys
// at n, 2n and 4n bytes: time must double with the input.
func BenchmarkPlanMetadataKeys(b *testing.B) {
	p, err := NewPlanParser(nil)
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{256 << 10, 512 << 10, 1 << 20} {
		src := metaKeys(n)
		b.Run(fmt.Sprintf("bytes=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := p.Parse(context.Background(), "meta.md", src); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
