package ast

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/sebdah/goldie/v2"
)

// renderCodesDoc writes docs/diagnostics.md from the registry: one section
// per area, one table row per code.
func renderCodesDoc(list []CodeInfo) string {
	var b strings.Builder
	b.WriteString("# Diagnostic codes\n\n" +
		"<!-- Generated from the registry in ast/codes.go by `go test ./ast -update`:\n" +
		"edit that table, not this file. -->\n\n" +
		"Every diagnostic prints as `file:line:col: severity: message [code]`\n" +
		"(JSON: its `code`; SARIF: its rule id), and every code plangram reports is\n" +
		"listed here, grouped by the part of plangram that reports it, with its\n" +
		"usual severity, what it means and the section of the docs that explains\n" +
		"the rule. Some rules report another severity in some cases (a warning\n" +
		"instead of an error, or the reverse); their section says when. A code that\n" +
		"several parts report (`unknown-action`, `no-plan`, `empty-hunk`) is listed\n" +
		"once. In Go the registry is `ast.Codes()` and `ast.LookupCode(code)`;\n" +
		"SARIF output (`plangram check --format sarif`) documents each rule it\n" +
		"reports from it.\n")
	var areas []Area
	for _, c := range list {
		if len(areas) == 0 || areas[len(areas)-1] != c.Area {
			areas = append(areas, c.Area)
		}
	}
	b.WriteString("\n")
	for _, a := range areas {
		fmt.Fprintf(&b, "- [%s](#%s)\n", a, slug(a.String()))
	}
	for _, a := range areas {
		fmt.Fprintf(&b, "\n## %s\n\n| code | severity | meaning | rule |\n| --- | --- | --- | --- |\n", a)
		for _, c := range list {
			if c.Area == a {
				fmt.Fprintf(&b, "| `%s` | %s | %s | [%s](%s) |\n", c.Code, c.Severity, strings.ReplaceAll(c.Meaning, "|", `\|`), c.Doc, c.Doc)
			}
		}
	}
	return b.String()
}

// TestCodesDoc checks that docs/diagnostics.md is what the registry
// renders; `go test ./ast -update` rewrites it.
func TestCodesDoc(t *testing.T) {
	g := goldie.New(t, goldie.WithFixtureDir("../docs"), goldie.WithNameSuffix(".md"))
	g.Assert(t, "diagnostics", []byte(renderCodesDoc(Codes())))
}

var kebab = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// TestCodesTable checks each entry of the registry: a kebab-case code
// listed once, a known area and severity, a one-line meaning, and a docs
// section that exists; the areas of the table are in order.
func TestCodesTable(t *testing.T) {
	anchors := map[string]map[string]bool{}
	seen := map[string]bool{}
	var last Area
	for _, c := range Codes() {
		if !kebab.MatchString(c.Code) {
			t.Errorf("%q is not a kebab-case code", c.Code)
		}
		if seen[c.Code] {
			t.Errorf("%s is listed twice", c.Code)
		}
		seen[c.Code] = true
		if c.Area < last || c.Area.String() == "unknown area" {
			t.Errorf("%s: area %d is unknown or out of order", c.Code, c.Area)
		}
		last = c.Area
		if c.Severity != Error && c.Severity != Warning && c.Severity != Info {
			t.Errorf("%s: severity %v", c.Code, c.Severity)
		}
		if c.Meaning == "" || strings.ContainsAny(c.Meaning, "\n|") || strings.HasSuffix(c.Meaning, ".") {
			t.Errorf("%s: the meaning %q is not one line without a final period", c.Code, c.Meaning)
		}
		page, anchor, ok := strings.Cut(c.Doc, "#")
		if !ok || anchor == "" || strings.Contains(page, "/") || !strings.HasSuffix(page, ".md") {
			t.Errorf("%s: doc %q is not PAGE.md#section", c.Code, c.Doc)
			continue
		}
		if anchors[page] == nil {
			data, err := os.ReadFile(filepath.Join("..", "docs", page))
			if err != nil {
				t.Errorf("%s: %v", c.Code, err)
				continue
			}
			anchors[page] = headingAnchors(string(data))
		}
		if !anchors[page][anchor] {
			t.Errorf("%s: docs/%s has no section #%s", c.Code, page, anchor)
		}
	}
}

func TestLookupCode(t *testing.T) {
	c, ok := LookupCode("find-not-found")
	if !ok || c.Code != "find-not-found" || c.Severity != Error || c.Area != AreaWorkspace || c.Doc != "check.md#find-not-found" {
		t.Errorf("LookupCode(find-not-found) = %+v, %v", c, ok)
	}
	if c, ok := LookupCode("no-such-code"); ok {
		t.Errorf("LookupCode(no-such-code) = %+v, true", c)
	}
	list := Codes()
	list[0].Code = "changed"
	if Codes()[0].Code == "changed" {
		t.Error("Codes returns the registry itself, not a copy")
	}
}

func TestHeadingAnchors(t *testing.T) {
	got := headingAnchors("# Title\n\n## Tools registries: `--tools FILE`\n\n```md\n## In a block\n```\n\n### `find-not-found`\n## A, b\n## A, b\n")
	for _, want := range []string{"title", "tools-registries---tools-file", "find-not-found", "a-b", "a-b-1"} {
		if !got[want] {
			t.Errorf("no anchor %q in %v", want, got)
		}
	}
	if got["in-a-block"] {
		t.Error("a heading inside a fenced block made an anchor")
	}
}

// headingAnchors returns the anchors GitHub gives the headings of a
// Markdown page (headings inside fenced blocks left out).
func headingAnchors(md string) map[string]bool {
	out := map[string]bool{}
	fence := ""
	for _, line := range strings.Split(md, "\n") {
		trimmed := strings.TrimLeft(line, " ")
		if run := fenceRun(trimmed); run != "" && len(line)-len(trimmed) < 4 {
			switch {
			case fence == "":
				fence = run
			case strings.HasPrefix(run, fence) && strings.TrimSpace(trimmed[len(run):]) == "":
				fence = ""
			}
			continue
		}
		if fence != "" {
			continue
		}
		level := len(line) - len(strings.TrimLeft(line, "#"))
		if level == 0 || level > 6 || len(line) == level || line[level] != ' ' {
			continue
		}
		s := slug(strings.TrimSpace(line[level:]))
		base, n := s, 0
		for out[s] {
			n++
			s = fmt.Sprintf("%s-%d", base, n)
		}
		out[s] = true
	}
	return out
}

// fenceRun returns the run of backticks or tildes a fence line starts with.
func fenceRun(line string) string {
	for _, ch := range []string{"`", "~"} {
		n := len(line) - len(strings.TrimLeft(line, ch))
		if n >= 3 {
			return line[:n]
		}
	}
	return ""
}

// slug is GitHub's anchor of a heading: lower case, letters, digits,
// spaces turned into hyphens, hyphens and underscores; the rest dropped.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}
