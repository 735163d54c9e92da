package schema

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Diagnostic codes of the path rule (docs/check.md, "The path rule").
const (
	// CodeBadPath: a path is empty, is not valid UTF-8, or contains a
	// control character (NUL, a line break, a tab, DEL, a C1 control,
	// U+2028/U+2029, a bidirectional formatting character), or goes into
	// git's own directory (a component `.git`).
	CodeBadPath = "bad-path"
	// CodeAbsolutePath: a path starts with `/`, `\`, a drive letter (`C:`)
	// or `~`.
	CodeAbsolutePath = "absolute-path"
	// CodePathEscapes: a path's `..` components go above the directory it
	// is relative to.
	CodePathEscapes = "path-escapes-root"
	// CodeNotAFile: a file's path names a directory — on disk (package
	// workspace) or by its spelling (NamesDirectory).
	CodeNotAFile = "not-a-file"
	// CodeURLNotAllowed: a path parameter holds a URL (`https://host/a`,
	// `file:///etc/passwd`): a scheme and `://`, which no executor reads
	// as a project path.
	CodeURLNotAllowed = "url-not-allowed"
)

// NamesDirectory reports whether a path's spelling names a directory: it
// ends with a separator (`src/`, `a.txt\`) or its last component is `.` or
// `..`. Cleaning the path lexically drops all of these, so a file action
// must check it first:
// `write_file "src/"` would otherwise write a file named src, where every
// executor fails.
func NamesDirectory(p string) bool {
	if p == "" {
		return false
	}
	if last := p[len(p)-1]; last == '/' || last == '\\' {
		return true
	}
	base := p[strings.LastIndexAny(p, `/\`)+1:]
	return base == "." || base == ".."
}

// DirectoryEnding describes, for messages, how a path for which
// NamesDirectory holds ends: "a path separator" or the quoted last
// component.
func DirectoryEnding(p string) string {
	if p != "" && (p[len(p)-1] == '/' || p[len(p)-1] == '\\') {
		return "a path separator"
	}
	return fmt.Sprintf("%q", p[strings.LastIndexAny(p, `/\`)+1:])
}

// PathError is the error CheckPath (and Value, for parameters of type path
// and resource) returns for a path that breaks the path rule. Code is one of
// CodeBadPath, CodeAbsolutePath, CodePathEscapes; Offset is the byte offset
// in the value of the offending character (0 for the whole value).
type PathError struct {
	Code   string
	Offset int
	Msg    string
}

func (e *PathError) Error() string { return e.Msg }

// CheckPath applies the path rule, the static facts every dialect's path
// parameters must satisfy whether or not a workspace is given:
//
//   - the path is not empty (nor only white space);
//   - it is valid UTF-8 (a name with other bytes cannot be written in
//     JSON, nor created on every file system);
//   - it contains no control character: no NUL, no line break (LF, CR,
//     U+2028, U+2029), no tab, no DEL, no C0 or C1 control, and no
//     bidirectional formatting character (Unicode's Bidi_Control: U+061C,
//     U+200E, U+200F, U+202A–U+202E, U+2066–U+2069), which makes a name
//     display in another order than it is written, nor any other
//     invisible formatting character (Unicode category Cf: U+200B zero
//     width space, U+2060 word joiner, U+FEFF, U+00AD soft hyphen, the
//     tag characters U+E0000–U+E007F, …), which makes two different names
//     look the same; the zero-width non-joiner and joiner (U+200C,
//     U+200D), which some scripts and emoji need, are allowed;
//   - it is relative: it does not start with `/` or `\`, a drive letter
//     (`C:`), or `~` (a home directory); nor with what a shell or Windows
//     expands before the executor sees the path (expansionLen): a
//     variable (`$HOME/x`, `${HOME}/x`, `$PWD`), a command substitution
//     (`$(pwd)/x`, a backquote), another user's home (`~root/x`) or a
//     Windows variable (`%USERPROFILE%\x`), which can name any directory
//     outside the root. A `$` or `%` later in a name (`a$b.txt`,
//     `src/100%.txt`) is an ordinary character;
//   - cleaned the way an executor resolves it, it does not leave the
//     directory it is relative to: `\` counts as a separator, every `..`
//     removes the component before it, and a `..` with nothing left to
//     remove is an escape. A prefix that looks like a URL scheme is not
//     special: `ab://../../x` is the components `ab:`, `..`, `..`, `x` and
//     leaves the root;
//   - it is not a URL: a scheme (a letter, then at least one more letter,
//     digit, `+`, `-` or `.`) followed by `://` (`https://host/a`,
//     `file:///etc/passwd`) is CodeURLNotAllowed, after the checks above
//     (so `ab://../../x` is the escape it is);
//   - no component is git's own directory `.git` in any spelling that
//     names it on NTFS or HFS+ (any case, trailing dots and spaces, an
//     NTFS stream suffix `:…`, the short name `git~1`, code points HFS+
//     ignores; isDotGit): git apply refuses such paths on every system,
//     and a hook or config written there runs code.
//
// Resolving symbolic links needs the workspace and is the job of package
// workspace (`check --root`). The value is checked as given: callers trim
// surrounding white space first, as Value does.
func CheckPath(p string) error {
	if strings.TrimSpace(p) == "" {
		return &PathError{Code: CodeBadPath, Msg: "the path is empty"}
	}
	for i := 0; i < len(p); {
		if c := p[i]; c < utf8.RuneSelf && c >= 0x20 && c != 0x7f {
			i++ // printable ASCII: in none of the classes below
			continue
		}
		r, n := utf8.DecodeRuneInString(p[i:])
		if r == utf8.RuneError && n == 1 {
			return &PathError{Code: CodeBadPath, Offset: i,
				Msg: fmt.Sprintf("the path %s is not valid UTF-8 (byte 0x%02X at byte %d): a file name must be text that every system and the JSON output can name", quotePath(p), p[i], i)}
		}
		if unicode.Is(unicode.Bidi_Control, r) {
			return &PathError{Code: CodeBadPath, Offset: i,
				Msg: fmt.Sprintf("the path %s contains the bidirectional formatting character U+%04X at byte %d: it makes the name display in another order than it is written (a review shows one file, the executor writes another)", quotePath(p), r, i)}
		}
		if r == '\u2028' || r == '\u2029' || unicode.IsControl(r) {
			return &PathError{Code: CodeBadPath, Offset: i,
				Msg: fmt.Sprintf("the path %s contains the control character %s at byte %d", quotePath(p), runeName(r), i)}
		}
		if unicode.Is(unicode.Cf, r) && r != '\u200c' && r != '\u200d' {
			return &PathError{Code: CodeBadPath, Offset: i,
				Msg: fmt.Sprintf("the path %s contains the invisible formatting character U+%04X at byte %d: a review shows the name without it, the executor writes it with it", quotePath(p), r, i)}
		}
		i += n
	}
	if isAbsolutePath(p) {
		return &PathError{Code: CodeAbsolutePath,
			Msg: fmt.Sprintf("the path %s is absolute; paths are relative to the project root", quotePath(p))}
	}
	if n := expansionLen(p); n > 0 {
		return &PathError{Code: CodeAbsolutePath,
			Msg: fmt.Sprintf("the path %s starts with %s, which a shell or Windows expands (to a home or other directory, outside the project root, or to anything); write the path relative to the root", quotePath(p), p[:n])}
	}
	if escapesRoot(p) {
		return &PathError{Code: CodePathEscapes,
			Msg: fmt.Sprintf("the path %s leaves the project root (`..` goes above it)", quotePath(p))}
	}
	if n := schemeLen(p); n > 0 {
		return &PathError{Code: CodeURLNotAllowed,
			Msg: fmt.Sprintf("the path %s is a URL (%s://…), not a path relative to the project root", quotePath(p), p[:n])}
	}
	if c, ok := gitComponent(p); ok {
		return &PathError{Code: CodeBadPath,
			Msg: fmt.Sprintf("the path %s goes into %q, git's own directory: git apply refuses such paths, and a file written there (a hook, the config) runs code at the next git command", quotePath(p), c)}
	}
	return nil
}

// gitComponent returns the first component of p that names git's own
// directory on some file system git protects (isDotGit).
func gitComponent(p string) (string, bool) {
	for p != "" {
		c := p
		if i := strings.IndexAny(p, `/\`); i >= 0 {
			c, p = p[:i], p[i+1:]
		} else {
			p = ""
		}
		if isDotGit(c) {
			return c, true
		}
	}
	return "", false
}

// isDotGit reports whether the component c names `.git` on NTFS or HFS+,
// the spellings git's verify_path refuses on every system (core.protectNTFS
// is on by default): with the code points HFS+ ignores removed
// (hfsIgnorable), c is `.git` or the NTFS short name `git~1`, in any
// ASCII case, followed only by dots and spaces (which Windows drops) up to
// its end or a `:` (an NTFS stream: `.git::$INDEX_ALLOCATION` is the
// directory `.git`).
func isDotGit(c string) bool {
	if strings.ContainsFunc(c, hfsIgnorable) { // rare: skip Map's rune loop
		c = strings.Map(func(r rune) rune {
			if hfsIgnorable(r) {
				return -1
			}
			return r
		}, c)
	}
	if i := strings.IndexByte(c, ':'); i >= 0 {
		c = c[:i]
	}
	c = strings.TrimRight(c, ". ")
	// The letters of both names fold to their ASCII cases only, so
	// EqualFold compares as git does (ASCII case).
	return strings.EqualFold(c, ".git") || strings.EqualFold(c, "git~1")
}

// hfsIgnorable reports whether HFS+ leaves r out of a name when it
// compares names: the zero-width non-joiner and joiner, the directional
// marks and embeddings (U+200C–U+200F, U+202A–U+202E), the deprecated
// format characters U+206A–U+206F and the byte order mark U+FEFF (the
// list git's is_hfs_dotgit ignores).
func hfsIgnorable(r rune) bool {
	return r >= 0x200c && r <= 0x200f || r >= 0x202a && r <= 0x202e || r >= 0x206a && r <= 0x206f || r == 0xfeff
}

// schemeLen returns the length of the URL scheme p starts with when `://`
// follows it (a letter, then letters, digits, `+`, `-`, `.`: at least two
// characters, so a drive letter is not one), else 0.
func schemeLen(p string) int {
	i := 0
	for i < len(p) && (isASCIILetter(p[i]) || i > 0 && (p[i] >= '0' && p[i] <= '9' || p[i] == '+' || p[i] == '-' || p[i] == '.')) {
		i++
	}
	if i < 2 || !strings.HasPrefix(p[i:], "://") {
		return 0
	}
	return i
}

// escapesRoot reports whether a `..` component of p (components split at
// `/` and `\`, empty and `.` ones skipped) comes when no component is left
// to remove: whether p, cleaned lexically, goes above its start. It does
// not allocate (CheckPath runs for every path parameter).
func escapesRoot(p string) bool {
	depth := 0
	for p != "" {
		c := p
		if i := strings.IndexAny(p, `/\`); i >= 0 {
			c, p = p[:i], p[i+1:]
		} else {
			p = ""
		}
		switch c {
		case "", ".":
		case "..":
			if depth == 0 {
				return true
			}
			depth--
		default:
			depth++
		}
	}
	return false
}

// IsURL reports whether a resource value is a URL rather than a path: a
// scheme of at least two characters followed by `://` and a host that does
// not start with `.` or `/`, a protocol-relative `//host`, or `mailto:`.
// Only parameters of type resource accept URLs; for a path, a scheme-like
// prefix is an ordinary path component.
func IsURL(v string) bool {
	if strings.HasPrefix(strings.ToLower(v), "mailto:") {
		return true
	}
	rest, ok := strings.CutPrefix(v, "//")
	if !ok {
		n := schemeLen(v)
		if n == 0 {
			return false
		}
		rest = v[n+3:]
	}
	return rest != "" && rest[0] != '.' && rest[0] != '/' && rest[0] != '\\'
}

// isAbsolutePath reports a path that does not depend on the project root.
func isAbsolutePath(v string) bool {
	return strings.HasPrefix(v, "/") || strings.HasPrefix(v, `\`) ||
		v == "~" || strings.HasPrefix(v, "~/") || strings.HasPrefix(v, `~\`) ||
		len(v) >= 2 && v[1] == ':' && isASCIILetter(v[0]) // a drive letter
}

// expansionLen returns the length of what a shell or Windows expands at
// the start of p, or 0: `$` then a name (a letter or `_`, then letters,
// digits and `_`) or a special parameter (a digit, `$`, `!`, `@`, `*`,
// `#`, `?`, `-`), `${…}`, `$(…)`, `$'…'` or a backquote (to the end of p
// when unclosed); `~` then a user name and a separator; `%NAME%`.
func expansionLen(p string) int {
	switch {
	case p == "" || len(p) == 1 && p[0] != '`':
		return 0
	case p[0] == '`':
		if i := strings.IndexByte(p[1:], '`'); i >= 0 {
			return i + 2
		}
		return len(p)
	case p[0] == '$':
		switch c := p[1]; {
		case c == '{', c == '(':
			closer := byte('}')
			if c == '(' {
				closer = ')'
			}
			if i := strings.IndexByte(p[2:], closer); i >= 0 {
				return i + 3
			}
			return len(p)
		case c == '\'':
			return len(p)
		case c == '_' || isASCIILetter(c):
			i := 2
			for i < len(p) && (p[i] == '_' || isASCIILetter(p[i]) || p[i] >= '0' && p[i] <= '9') {
				i++
			}
			return i
		case c >= '0' && c <= '9', strings.IndexByte("$!@*#?-", c) >= 0:
			return 2
		}
	case p[0] == '~':
		i := 1
		for i < len(p) && (isASCIILetter(p[i]) || p[i] >= '0' && p[i] <= '9' || p[i] == '_' || p[i] == '-' || p[i] == '.') {
			i++
		}
		if i > 1 && i < len(p) && (p[i] == '/' || p[i] == '\\') {
			return i
		}
	case p[0] == '%':
		i := 1
		for i < len(p) && (p[i] == '_' || isASCIILetter(p[i]) || p[i] >= '0' && p[i] <= '9' || p[i] == '(' || p[i] == ')') {
			i++
		}
		if i > 1 && i < len(p) && p[i] == '%' {
			return i + 1
		}
	}
	return 0
}

func isASCIILetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

// runeName names a control character for messages: U+000A (line feed).
func runeName(r rune) string {
	names := map[rune]string{0: "NUL", '\t': "tab", '\n': "line feed", '\r': "carriage return",
		0x7f: "DEL", 0x1b: "escape", '\u2028': "line separator", '\u2029': "paragraph separator"}
	if n, ok := names[r]; ok {
		return fmt.Sprintf("U+%04X (%s)", r, n)
	}
	return fmt.Sprintf("U+%04X", r)
}

// quotePath quotes a path for a message, control characters escaped,
// shortened past 200 bytes.
func quotePath(p string) string {
	if len(p) > 200 {
		cut := 200
		for cut > 0 && !utf8.RuneStart(p[cut]) {
			cut--
		}
		return fmt.Sprintf("%q…", p[:cut])
	}
	return fmt.Sprintf("%q", p)
}
