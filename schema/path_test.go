package schema

import (
	"errors"
	"fmt"
	"path"
	"strings"
	"testing"
)

func TestCheckPath(t *testing.T) {
	for _, c := range []struct {
		path, code string
	}{
		{"src/a.go", ""},
		{"sub/../file.txt", ""},
		{"./a", ""},
		{"a..b/...", ""},
		{"ab://x/y", CodeURLNotAllowed}, // a URL, not the path ab:/x/y
		{"https://example.com/a.txt", CodeURLNotAllowed},
		{"file:///etc/passwd", CodeURLNotAllowed},
		{"a+b-c.d://x", CodeURLNotAllowed},
		{"ab:/x", ""},                      // no "//": a name with a colon
		{"src/ab://x", ""},                 // not at the start
		{"a\u200bb.txt", CodeBadPath},      // zero-width space: invisible
		{"a.txt\ufeff", CodeBadPath},       // zero-width no-break space
		{"a\u2060b", CodeBadPath},          // word joiner
		{"a\u00adb", CodeBadPath},          // soft hyphen
		{"a\U000e0041b", CodeBadPath},      // tag character (ASCII smuggling)
		{"a\u200cb", ""},                   // zero-width non-joiner: Persian, Indic names
		{"\U0001F468\u200d\U0001F4BB", ""}, // an emoji ZWJ sequence
		{"漢字.txt", ""},
		{"", CodeBadPath},
		{"   ", CodeBadPath},
		{"a\x00b", CodeBadPath},
		{"a\nb", CodeBadPath},
		{"a\rb", CodeBadPath},
		{"a\tb", CodeBadPath},
		{"a\x7fb", CodeBadPath},
		{"a\u0085b", CodeBadPath},
		{"a\u2028b", CodeBadPath},
		{"src/\u202etxt.exe", CodeBadPath},   // right-to-left override
		{"a\u2066b\u2069", CodeBadPath},      // isolate
		{"a\u200fb", CodeBadPath},            // right-to-left mark
		{"a\u061cb", CodeBadPath},            // Arabic letter mark
		{"a\u200db", ""},                     // zero-width joiner: part of some scripts' names
		{"\u0641\u0627\u06cc\u0644.txt", ""}, // right-to-left letters are fine
		{"a\xffb", CodeBadPath},              // not UTF-8
		{"caf\xe9.txt", CodeBadPath},         // Latin-1
		{"\xe6\xbc", CodeBadPath},            // a cut UTF-8 sequence
		{"/etc/passwd", CodeAbsolutePath},
		{`\Windows`, CodeAbsolutePath},
		{`C:\Windows`, CodeAbsolutePath},
		{"c:x", CodeAbsolutePath},
		{"~", CodeAbsolutePath},
		{"~/.ssh/id_rsa", CodeAbsolutePath},
		{"$HOME/x", CodeAbsolutePath},
		{"$HOME", CodeAbsolutePath},
		{"${HOME}/.bashrc", CodeAbsolutePath},
		{"${HOME", CodeAbsolutePath},
		{"$PWD/../x", CodeAbsolutePath},
		{"$_x/y", CodeAbsolutePath},
		{"$1/y", CodeAbsolutePath},
		{"$$/y", CodeAbsolutePath},
		{"$(pwd)/x", CodeAbsolutePath},
		{"`pwd`/x", CodeAbsolutePath},
		{"$'\\x2f'etc", CodeAbsolutePath},
		{"~root/.ssh/keys", CodeAbsolutePath},
		{`~bob\x`, CodeAbsolutePath},
		{`%USERPROFILE%\x`, CodeAbsolutePath},
		{"%APPDATA%/x", CodeAbsolutePath},
		{"%ProgramFiles(x86)%/x", CodeAbsolutePath},
		{"a$b.txt", ""},
		{"src/$HOME/x", ""}, // not at the start: an ordinary character in a name
		{"$", ""},
		{"$.txt", ""},
		{"~notes", ""},     // no separator: a file named so
		{"~$doc.docx", ""}, // an Office lock file
		{"100%.txt", ""},
		{"%20.txt", ""},
		{"%a b%/x", ""},
		{"..", CodePathEscapes},
		{"../x", CodePathEscapes},
		{"a/../../x", CodePathEscapes},
		{`a\..\..\x`, CodePathEscapes},
		{"ab://../../outside/pwn.txt", CodePathEscapes},
		{"x/./../..", CodePathEscapes},
		{".git/hooks/pre-commit", CodeBadPath}, // git apply's verify_path refuses .git components
		{"sub/.GIT/config", CodeBadPath},
		{`a\.git.\config`, CodeBadPath},
		{"a/../.git/x", CodeBadPath},
		{".gitignore", ""},
		{".github/workflows/ci.yml", ""},
		{"x.git/y", ""},
	} {
		err := CheckPath(c.path)
		var pe *PathError
		switch {
		case c.code == "" && err != nil:
			t.Errorf("CheckPath(%q) = %v, want nil", c.path, err)
		case c.code != "" && !errors.As(err, &pe):
			t.Errorf("CheckPath(%q) = %v, want %s", c.path, err, c.code)
		case c.code != "" && pe.Code != c.code:
			t.Errorf("CheckPath(%q) code %s, want %s (%v)", c.path, pe.Code, c.code, err)
		}
	}
	err := CheckPath("ok/\x00")
	var pe *PathError
	if !errors.As(err, &pe) || pe.Offset != 3 || !strings.Contains(err.Error(), "U+0000 (NUL) at byte 3") {
		t.Errorf("NUL: %v", err)
	}
}

// cleanPath is the lexically cleaned form of p that escapesRoot judges:
// `\` read as `/`, leading separators dropped, then path.Clean.
func cleanPath(p string) string {
	return path.Clean(strings.TrimLeft(strings.ReplaceAll(p, `\`, "/"), "/"))
}

// TestEscapesRoot: escapesRoot says whether the cleaned path goes above
// its start.
func TestEscapesRoot(t *testing.T) {
	for in, want := range map[string]bool{
		"": false, "a/b": false, "a//b/./c/": false, `a\..\b`: false, "x/..": false,
		"../../x": true, "a/../../x": true, "ab://../../x": true, "ab://x/../y": false,
		"../a/../../b/..": true, `a\..\..`: true, "/../x": true,
	} {
		if got := escapesRoot(in); got != want {
			t.Errorf("escapesRoot(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestIsURL(t *testing.T) {
	for v, want := range map[string]bool{
		"https://example.com/x": true,
		"//example.com/x":       true,
		"mailto:a@b.c":          true,
		"git+ssh://host/repo":   true,
		"ab://../../x":          false,
		"ab:///etc/passwd":      false,
		"a://host":              false, // one letter: a drive
		"docs/x.md":             false,
		"https://":              false,
	} {
		if got := IsURL(v); got != want {
			t.Errorf("IsURL(%q) = %v, want %v", v, got, want)
		}
	}
}

// TestValuePathRule: Value, the conversion every dialect's parameters go
// through, applies the path rule to path and resource parameters and keeps
// the value with the error.
func TestValuePathRule(t *testing.T) {
	path := &Param{Name: "path", Type: Path}
	res := &Param{Name: "resource", Type: Resource}
	list := &Param{Name: "files", Type: List, Items: Path}
	v, err := path.Value("  ../x ")
	var pe *PathError
	if !errors.As(err, &pe) || pe.Code != CodePathEscapes || v != "../x" {
		t.Errorf("path ../x: %v %v", v, err)
	}
	if _, err := res.Value("https://example.com/a"); err != nil {
		t.Errorf("resource URL: %v", err)
	}
	if _, err := res.Value("ab://../../x"); !errors.As(err, &pe) || pe.Code != CodePathEscapes {
		t.Errorf("resource ab://../../x: %v", err)
	}
	if _, err := list.Value("a.txt\n/b.txt"); !errors.As(err, &pe) || pe.Code != CodeAbsolutePath {
		t.Errorf("list of paths: %v", err)
	}
	if _, err := (&Param{Name: "s", Type: String}).Value("../x"); err != nil {
		t.Errorf("a string is not a path: %v", err)
	}
}

// FuzzCheckPath: a path the rule accepts is relative, free of control
// characters and stays below the root once cleaned.
func FuzzCheckPath(f *testing.F) {
	for _, s := range []string{"a/b", "../x", "ab://../../x", "a\x00", "C:x", `a\..\..\b`, "~/x", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		err := CheckPath(p)
		c := cleanPath(p)
		if got, want := escapesRoot(p), c == ".." || strings.HasPrefix(c, "../"); got != want {
			t.Fatalf("escapesRoot(%q) = %v, but the cleaned path is %q", p, got, c)
		}
		if err != nil {
			var pe *PathError
			if !errors.As(err, &pe) || pe.Offset < 0 || pe.Offset > len(p) {
				t.Fatalf("CheckPath(%q) = %#v", p, err)
			}
			return
		}
		if c == ".." || strings.HasPrefix(c, "../") || strings.HasPrefix(p, "/") || strings.ContainsAny(p, "\x00\n\r") {
			t.Fatalf("CheckPath(%q) accepted a path that escapes (clean %q)", p, c)
		}
	})
}

func ExampleCheckPath() {
	for _, p := range []string{"src/app.py", "ab://../../outside/pwn.txt", "/etc/motd", "a\nb"} {
		fmt.Println(CheckPath(p))
	}
	// Output:
	// <nil>
	// the path "ab://../../outside/pwn.txt" leaves the project root (`..` goes above it)
	// the path "/etc/motd" is absolute; paths are relative to the project root
	// the path "a\nb" contains the control character U+000A (line feed) at byte 1
}

// TestNamesDirectory: a path spelled as a directory (a trailing separator,
// a last component `.` or `..`) is not a file name, although cleaning the
// path makes one of it.
func TestNamesDirectory(t *testing.T) {
	for _, tc := range []struct {
		path string
		want bool
	}{
		{"src/", true}, {`a.txt\`, true}, {"d/x/..", true}, {"a/.", true}, {".", true}, {"..", true},
		{"src", false}, {"a.txt", false}, {".gitignore", false}, {"a/..b", false}, {"a/b.", false}, {"", false},
	} {
		if got := NamesDirectory(tc.path); got != tc.want {
			t.Errorf("NamesDirectory(%q) = %v, want %v", tc.path, got, tc.want)
		}
	}
	if got := DirectoryEnding("src/"); got != "a path separator" {
		t.Errorf("DirectoryEnding(src/) = %q", got)
	}
	if got := DirectoryEnding("d/x/.."); got != `".."` {
		t.Errorf("DirectoryEnding(d/x/..) = %q", got)
	}
}

// TestPaddedPath pins which path values CodePathWhitespace reports: white
// space around the path on its own line, not a path laid out on a line of
// its own, and only for path and resource parameters.
func TestPaddedPath(t *testing.T) {
	path, res, str := &Param{Name: "p", Type: Path}, &Param{Name: "r", Type: Resource}, &Param{Name: "s"}
	list := &Param{Name: "l", Type: List, Items: Path}
	for _, c := range []struct {
		p    *Param
		text string
		want bool
	}{
		{path, "a.txt", false},
		{path, "a.txt ", true},
		{path, " a.txt", true},
		{path, "a.txt\t", true},
		{path, "\u00a0a.txt", true},
		{path, "a.txt\n", false},
		{path, "\n  a.txt\n", false},
		{path, "a.txt \n", false},
		{path, "a.txt\r\n", false},
		{path, "  ", false},
		{path, "", false},
		{res, " https://x/a", true},
		{list, "a.txt ", true},
		{str, " a.txt ", false},
	} {
		if got := c.p.PaddedPath(c.text); got != c.want {
			t.Errorf("%s %q: PaddedPath = %v, want %v", c.p.TypeOrDefault(), c.text, got, c.want)
		}
	}
	if msg := PaddedPathMessage("write_file", "path", "a.txt "); msg != `write_file's path "a.txt " has white space around it, which is dropped: the path is "a.txt"` {
		t.Errorf("message %q", msg)
	}
}

// TestGitSpellings pins every spelling of `.git` that git's verify_path
// refuses (path.c is_ntfs_dotgit, utf8.c is_hfs_dotgit, with
// core.protectNTFS and core.protectHFS): each is a bad-path in every
// dialect, whatever the OS the check runs on.
func TestGitSpellings(t *testing.T) {
	for _, c := range []string{
		".git", ".GIT", ".Git", // any case
		"git~1", "GIT~1", "Git~1", // the NTFS 8.3 short name
		".git.", ".git ", ".git. .", "git~1.", "GIT~1 ", // trailing dots and spaces Windows drops
		".git::$INDEX_ALLOCATION", ".git:$DATA", ".git:", ".GIT.:x", "git~1::$INDEX_ALLOCATION", // NTFS streams
		".g\u200cit", ".gi\u200dt", "\u200e.git", ".git\u200f", ".g\u202ait", ".\u202bgit", ".gi\u202ct",
		".g\u202dit", ".g\u202eit", ".\u206agit", ".g\u206bit", ".g\u206cit", ".g\u206dit", ".g\u206eit",
		".g\u206fit", ".gi\ufefft", "\ufeff.GIT", // code points HFS+ ignores
	} {
		if !isDotGit(c) {
			t.Errorf("isDotGit(%q) = false, want true", c)
		}
		for _, p := range []string{c + "/hooks/pre-commit", "sub/" + c + "/config", `a\` + c + `\config`} {
			var pe *PathError
			if err := CheckPath(p); !errors.As(err, &pe) || pe.Code != CodeBadPath {
				t.Errorf("CheckPath(%q) = %v, want %s", p, err, CodeBadPath)
			}
		}
	}
	for _, c := range []string{
		".gitignore", ".github", "x.git", "git", "git~2", "git~10", ".git~1", "~1", ".gi", ".git.x", ".git x",
		".g:it", "git~1x", ".g\u00eft", "\u0130.git", ".g\u0131t", // ı and İ are not ASCII letters
	} {
		if isDotGit(c) {
			t.Errorf("isDotGit(%q) = true, want false", c)
		}
	}
	// The spellings the other rules let through get git's own message.
	for _, p := range []string{"GIT~1/hooks/pre-commit", ".git::$INDEX_ALLOCATION/hooks/x", ".g\u200cit/config"} {
		if err := CheckPath(p); err == nil || !strings.Contains(err.Error(), "git's own directory") {
			t.Errorf("CheckPath(%q) = %v, want the .git message", p, err)
		}
	}
}
