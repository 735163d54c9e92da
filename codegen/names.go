package codegen

import (
	"fmt"
	"go/token"
	"strings"
	"unicode"
	"unicode/utf8"
)

// initialisms are written in capitals in Go names (file_url -> FileURL).
var initialisms = map[string]bool{
	"api": true, "cpu": true, "css": true, "dns": true, "html": true, "http": true, "https": true,
	"id": true, "ip": true, "json": true, "sql": true, "ssh": true, "tcp": true, "ttl": true,
	"ui": true, "uid": true, "uri": true, "url": true, "uuid": true, "xml": true, "yaml": true,
}

// goName turns a schema name (write_file, CHAT_WITH_USER, blue-green,
// readFile) into an exported Go identifier (WriteFile, ChatWithUser,
// BlueGreen, ReadFile).
func goName(s string) string {
	var b strings.Builder
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if lower := strings.ToLower(part); initialisms[lower] {
			part = strings.ToUpper(part)
		} else if part == strings.ToUpper(part) { // ALL CAPS (or digits): Title case
			part = lower
		}
		r, n := utf8.DecodeRuneInString(part)
		b.WriteRune(unicode.ToUpper(r))
		b.WriteString(part[n:])
	}
	name := b.String()
	if r, _ := utf8.DecodeRuneInString(name); name == "" || !unicode.IsLetter(r) {
		name = "X" + name
	}
	return name
}

// scope hands out unique identifiers.
type scope map[string]bool

// claim reserves name, or the first free of name+suffix, name+suffix+"2",
// name+suffix+"3", … and returns the one reserved.
func (s scope) claim(name, suffix string) string {
	cand := name
	for i := 1; s[cand]; i++ {
		cand = name + suffix
		if i > 1 {
			cand = fmt.Sprintf("%s%s%d", name, suffix, i)
		}
	}
	s[cand] = true
	return cand
}

// validPackage reports whether name can name a Go package.
func validPackage(name string) bool {
	return token.IsIdentifier(name) && !token.IsKeyword(name) && name != "_"
}

// wrap formats text as a comment of lines no longer than width, each line
// starting with prefix ("// " or "\t// "). Paragraph breaks are kept.
func wrap(prefix, text string, width int) string {
	var b strings.Builder
	for i, para := range strings.Split(strings.TrimSpace(text), "\n\n") {
		if i > 0 {
			b.WriteString(strings.TrimRight(prefix, " ") + "\n")
		}
		line := prefix
		for _, w := range strings.Fields(para) {
			if len(line) > len(prefix) && len(line)+1+len(w) > width {
				b.WriteString(line + "\n")
				line = prefix
			}
			if len(line) > len(prefix) {
				line += " "
			}
			line += w
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}
