package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	past "github.com/plangram/plangram/ast"
)

// moduleRoot is the module's root directory, seen from this package.
const moduleRoot = "../.."

// notEmitted lists the packages whose Code… constants are not diagnostic
// codes of plangram: stream/jsonargs's error codes are read by package
// stream, which reports them as bad-json or unterminated.
var notEmitted = []string{"stream/jsonargs"}

// registryFile holds the registry, which lists codes without emitting them.
const registryFile = "ast/codes.go"

// codeSite is where the module's source names a diagnostic code.
type codeSite struct {
	code string
	pos  string // file:line, relative to the module root
}

// emittedCodes collects the diagnostic codes the module's non-test Go
// source can emit: string constants named Code… (and the stream's error
// kinds, Kind…), string literals given to a Code field (a Kind field in
// package stream, whose error events carry codes), assigned to a variable
// named code, or passed as the code argument of a function that takes a
// severity or builds a diagnostic.
func emittedCodes(t *testing.T) []codeSite {
	t.Helper()
	fset := token.NewFileSet()
	type file struct {
		rel string
		f   *ast.File
	}
	var files []file
	err := filepath.WalkDir(moduleRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(moduleRoot, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "golden" || slices.Contains(notEmitted, rel)) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || rel == registryFile {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files = append(files, file{rel, f})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	// The index of the parameter named code of each function that takes a
	// severity or returns a diagnostic, by package directory and function
	// name: such a function is called from its own package.
	codeParam := map[string][]int{}
	for _, f := range files {
		for _, decl := range f.f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			idx, code, diag := 0, -1, false
			for _, field := range fd.Type.Params.List {
				ts := types(field.Type)
				if strings.HasSuffix(ts, "Severity") {
					diag = true
				}
				n := max(len(field.Names), 1)
				for i := range n {
					if len(field.Names) > 0 && field.Names[i].Name == "code" && ts == "string" {
						code = idx
					}
					idx++
				}
			}
			if fd.Type.Results != nil {
				for _, field := range fd.Type.Results.List {
					if strings.HasSuffix(types(field.Type), "Diagnostic") {
						diag = true
					}
				}
			}
			if code >= 0 && diag {
				key := filepath.ToSlash(filepath.Dir(f.rel)) + "." + fd.Name.Name
				codeParam[key] = append(codeParam[key], code)
			}
		}
	}

	var sites []codeSite
	for _, f := range files {
		pkg := filepath.ToSlash(filepath.Dir(f.rel))
		add := func(n ast.Node, e ast.Expr) {
			lit, ok := e.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil || s == "" {
				return
			}
			p := fset.Position(n.Pos())
			sites = append(sites, codeSite{s, f.rel + ":" + strconv.Itoa(p.Line)})
		}
		isCode := func(name string) bool {
			return strings.HasPrefix(name, "Code") && len(name) > 4 && name[4] >= 'A' && name[4] <= 'Z' ||
				pkg == "stream" && strings.HasPrefix(name, "Kind") && len(name) > 4 && name[4] >= 'A' && name[4] <= 'Z'
		}
		ast.Inspect(f.f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ValueSpec:
				for i, name := range n.Names {
					if isCode(name.Name) && i < len(n.Values) {
						add(n, n.Values[i])
					}
				}
			case *ast.KeyValueExpr:
				if k, ok := n.Key.(*ast.Ident); ok && (k.Name == "Code" || pkg == "stream" && k.Name == "Kind") {
					add(n, n.Value)
				}
			case *ast.AssignStmt:
				if len(n.Lhs) != len(n.Rhs) {
					break
				}
				for i, l := range n.Lhs {
					switch l := l.(type) {
					case *ast.Ident:
						if l.Name == "code" {
							add(n, n.Rhs[i])
						}
					case *ast.SelectorExpr:
						if l.Sel.Name == "Code" || pkg == "stream" && l.Sel.Name == "Kind" {
							add(n, n.Rhs[i])
						}
					}
				}
			case *ast.CallExpr:
				var name string
				switch fn := n.Fun.(type) {
				case *ast.Ident:
					name = fn.Name
				case *ast.SelectorExpr:
					name = fn.Sel.Name
				}
				for _, i := range codeParam[pkg+"."+name] {
					if i < len(n.Args) {
						add(n, n.Args[i])
					}
				}
			}
			return true
		})
	}
	if len(sites) == 0 {
		t.Fatal("no diagnostic codes found in the module's source")
	}
	return sites
}

// types returns the source text of a simple type expression (string,
// ast.Severity, *ast.Diagnostic); "" for other types.
func types(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return types(e.X) + "." + e.Sel.Name
	case *ast.StarExpr:
		return "*" + types(e.X)
	}
	return ""
}

// docCodes collects the codes docs/*.md names: in a diagnostic line's
// trailing `[code]`, in the first column of a table headed code or kind,
// and in a heading that is one code.
func docCodes(t *testing.T) []codeSite {
	t.Helper()
	docs, err := filepath.Glob(filepath.Join(moduleRoot, "docs", "*.md"))
	if err != nil || len(docs) == 0 {
		t.Fatalf("no docs/*.md: %v", err)
	}
	diagLine := regexp.MustCompile(`:\d+:\d+: (?:error|warning|info): .*\[([a-z0-9-]+)\]\s*$`)
	heading := regexp.MustCompile("^#{2,6} `([a-z0-9-]+)`\\s*$")
	cell := regexp.MustCompile("^`([a-z0-9-]+)`$")
	var sites []codeSite
	for _, doc := range docs {
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		rel := "docs/" + filepath.Base(doc)
		inTable := false
		for i, line := range strings.Split(string(data), "\n") {
			at := rel + ":" + strconv.Itoa(i+1)
			if m := diagLine.FindStringSubmatch(line); m != nil {
				sites = append(sites, codeSite{m[1], at})
			}
			if m := heading.FindStringSubmatch(line); m != nil {
				sites = append(sites, codeSite{m[1], at})
			}
			if !strings.HasPrefix(line, "|") {
				inTable = false
				continue
			}
			cells := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), "|")
			first := strings.TrimSpace(cells[0])
			switch {
			case first == "code" || first == "kind":
				inTable = true
			case inTable:
				if m := cell.FindStringSubmatch(first); m != nil {
					sites = append(sites, codeSite{m[1], at})
				}
			}
		}
	}
	return sites
}

// TestCodesRegistered checks the registry of diagnostic codes
// (ast.Codes) against the module: every code the source can emit and every
// code docs/*.md names is registered, and every registered code is emitted
// somewhere.
func TestCodesRegistered(t *testing.T) {
	emitted := map[string]bool{}
	var missing []string
	for _, s := range emittedCodes(t) {
		emitted[s.code] = true
		if _, ok := past.LookupCode(s.code); !ok {
			missing = append(missing, s.pos+": "+s.code)
		}
	}
	for _, s := range docCodes(t) {
		if _, ok := past.LookupCode(s.code); !ok {
			missing = append(missing, s.pos+": "+s.code)
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		missing = slices.Compact(missing)
		t.Errorf("codes that are not in the registry; add one line each to the table in ast/codes.go,\n"+
			"\t{Area: AreaX, Code: \"the-code\", Severity: Error, Meaning: \"what it reports, one line\", Doc: \"page.md#section\"},\n"+
			"then run go test ./ast -update to rewrite docs/diagnostics.md:\n\t%s", strings.Join(missing, "\n\t"))
	}
	for _, c := range past.Codes() {
		if !emitted[c.Code] {
			t.Errorf("ast.Codes lists %s, which no Go source file of the module emits", c.Code)
		}
	}
}

// TestDisableKnowsRegistry checks that --disable accepts every code of the
// registry, and refuses one that is not in it.
func TestDisableKnowsRegistry(t *testing.T) {
	codes := knownCodes()
	if len(codes) != len(past.Codes()) {
		t.Fatalf("knownCodes has %d codes, the registry %d", len(codes), len(past.Codes()))
	}
	if code, _, stderr := runCLI(t, "```act\nread_file a.txt\n```\n", "check", "--disable", strings.Join(codes, ","), "-"); code != exitOK {
		t.Errorf("check --disable <every registered code>: exit %d, %s", code, stderr)
	}
	if code, _, stderr := runCLI(t, "", "check", "--disable", "find-not-fund", "-"); code != exitUsage || !strings.Contains(stderr, `did you mean "find-not-found"?`) {
		t.Errorf("check --disable find-not-fund: exit %d, %s", code, stderr)
	}
}
