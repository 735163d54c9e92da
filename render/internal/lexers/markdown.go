package lexers

// Copied from chroma v2.27.0, lexers/markdown.go (MIT licence, see
// COPYING): the Markdown lexer, which chroma writes in Go rather than XML.
// Its YAML front matter and fenced code are highlighted with the lexers of
// the registry it belongs to, not chroma's global one.

import (
	"fmt"
	"strings"

	. "github.com/alecthomas/chroma/v2" // nolint: the rules read as chroma's
)

// newMarkdown builds chroma's Markdown lexer; front matter is YAML from reg.
func newMarkdown(reg *LexerRegistry) (Lexer, error) {
	lx, err := NewLexer(
		&Config{
			Name:      "markdown",
			Aliases:   []string{"md", "mkd"},
			Filenames: []string{"*.md", "*.mkd", "*.markdown"},
			MimeTypes: []string{"text/x-markdown"},
		},
		markdownRules,
	)
	if err != nil {
		return nil, fmt.Errorf("lexers: markdown: %w", err)
	}
	return &markdownLexer{Lexer: lx, reg: reg}, nil
}

// markdownLexer wraps the base Markdown lexer to highlight top-of-file YAML frontmatter.
type markdownLexer struct {
	Lexer
	reg *LexerRegistry
}

// Lexes Markdown, highlighting a leading YAML frontmatter block before delegating to Markdown rules.
func (m *markdownLexer) Tokenise(options *TokeniseOptions, text string) (Iterator, error) {
	frontmatter, rest, ok := splitFrontmatter(text)
	if !ok {
		return m.Lexer.Tokenise(options, text)
	}

	yamlLexer := m.reg.Get("YAML")
	if yamlLexer == nil {
		return m.Lexer.Tokenise(options, text)
	}

	yamlTokens, err := yamlLexer.Tokenise(options, frontmatter)
	if err != nil {
		return nil, err
	}
	markdownTokens, err := m.Lexer.Tokenise(options, rest)
	if err != nil {
		return nil, err
	}
	return Concaterator(yamlTokens, markdownTokens), nil
}

// Extracts a leading YAML frontmatter block if the document starts with one.
func splitFrontmatter(text string) (frontmatter string, rest string, ok bool) {
	if !strings.HasPrefix(text, "---\n") && !strings.HasPrefix(text, "---\r\n") {
		return "", text, false
	}

	lineEnd := strings.IndexByte(text, '\n')
	if lineEnd < 0 {
		return "", text, false
	}
	if strings.TrimSuffix(text[:lineEnd], "\r") != "---" {
		return "", text, false
	}

	for pos := lineEnd + 1; pos < len(text); {
		next := strings.IndexByte(text[pos:], '\n')
		if next < 0 {
			break
		}
		lineEnd = pos + next
		line := strings.TrimSuffix(text[pos:lineEnd], "\r")
		if line == "---" {
			return text[:lineEnd+1], text[lineEnd+1:], true
		}
		pos = lineEnd + 1
	}
	return "", text, false
}

func markdownRules() Rules {
	return Rules{
		"root": {
			{Pattern: `<!--[\w\W]*?-->`, Type: CommentMultiline},
			{Pattern: `^(#[^#].+\n)`, Type: ByGroups(GenericHeading)},
			{Pattern: `^(#{2,6}.+\n)`, Type: ByGroups(GenericSubheading)},
			{Pattern: `^(\s*)([*-] )(\[[ xX]\])( .+\n)`, Type: ByGroups(Text, Keyword, Keyword, UsingSelf("inline"))},
			{Pattern: `^(\s*)([*-])(\s)(.+\n)`, Type: ByGroups(Text, Keyword, Text, UsingSelf("inline"))},
			{Pattern: `^(\s*)([0-9]+\.)( .+\n)`, Type: ByGroups(Text, Keyword, UsingSelf("inline"))},
			{Pattern: `^(\s*>\s)(.+\n)`, Type: ByGroups(Keyword, GenericEmph)},
			{Pattern: "^(```\\n)([\\w\\W]*?)(^```$)", Type: ByGroups(String, Text, String)},
			{
				Pattern: "^(```)(\\w+)(\\n)([\\w\\W]*?)(^```$)",
				Type:    UsingByGroup(2, 4, String, String, String, Text, String),
			},
			Include("inline"),
		},
		"inline": {
			{Pattern: `<!--[\w\W]*?-->`, Type: CommentMultiline},
			{Pattern: `\\.`, Type: Text},
			{Pattern: `(\s)(\*|_)((?:(?!\2).)*)(\2)((?=\W|\n))`, Type: ByGroups(Text, GenericEmph, GenericEmph, GenericEmph, Text)},
			{Pattern: `(\s)((\*\*|__).*?)\3((?=\W|\n))`, Type: ByGroups(Text, GenericStrong, GenericStrong, Text)},
			{Pattern: `(\s)(~~[^~]+~~)((?=\W|\n))`, Type: ByGroups(Text, GenericDeleted, Text)},
			{Pattern: "`[^`]+`", Type: LiteralStringBacktick},
			{Pattern: `[@#][\w/:]+`, Type: NameEntity},
			{Pattern: `(!?\[)([^]]+)(\])(\()([^)]+)(\))`, Type: ByGroups(Text, NameTag, Text, Text, NameAttribute, Text)},
			{Pattern: `.|\n`, Type: Text},
		},
	}
}
