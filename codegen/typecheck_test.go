package codegen_test

import (
	"bufio"
	"bytes"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"slices"
	"sort"
	"strings"
	"testing"
)

// typeCheck parses and type-checks generated Go files, one package each.
// Their imports (packages ast and typed/typedrt, the standard library)
// come from the export data `go list -export` builds (and caches), so this
// is quick. The type checker does not apply Go's rule that only code in
// the same tree may import an internal package, and generated code lives
// in its user's module: typeCheck fails on an import of one.
func typeCheck(t *testing.T, files map[string][]byte) {
	t.Helper()
	fset, parsed := parseFiles(t, files)
	imports := map[string]bool{}
	for name, f := range parsed {
		for _, imp := range f.Imports {
			path := strings.Trim(imp.Path.Value, `"`)
			if slices.Contains(strings.Split(path, "/"), "internal") {
				t.Errorf("%s imports %s, which the user's module cannot import", name, path)
			}
			imports[path] = true
		}
	}
	typeCheckParsed(t, fset, parsed, exportData(t, imports))
}

// typeCheckWith is typeCheck with the export data given (FuzzGen builds it
// once).
func typeCheckWith(t *testing.T, files map[string][]byte, exports map[string]string) {
	t.Helper()
	fset, parsed := parseFiles(t, files)
	typeCheckParsed(t, fset, parsed, exports)
}

// parseFiles parses Go files by name.
func parseFiles(t *testing.T, files map[string][]byte) (*token.FileSet, map[string]*ast.File) {
	t.Helper()
	fset := token.NewFileSet()
	parsed := map[string]*ast.File{}
	for name, src := range files {
		f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		parsed[name] = f
	}
	return fset, parsed
}

// typeCheckParsed type-checks parsed files, one package each, with the
// export data of their imports.
func typeCheckParsed(t *testing.T, fset *token.FileSet, parsed map[string]*ast.File, exports map[string]string) {
	t.Helper()
	conf := types.Config{Importer: importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		file, ok := exports[path]
		if !ok {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(file)
	})}
	names := make([]string, 0, len(parsed))
	for name := range parsed {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		f := parsed[name]
		if _, err := conf.Check(f.Name.Name, fset, []*ast.File{f}, nil); err != nil {
			t.Errorf("%s does not compile: %v", name, err)
		}
	}
}

// exportData maps each package (with its dependencies) to its export data
// file.
func exportData(t *testing.T, pkgs map[string]bool) map[string]string {
	t.Helper()
	args := []string{"list", "-export", "-deps", "-f", "{{.ImportPath}}={{.Export}}"}
	for p := range pkgs {
		args = append(args, p)
	}
	out, err := exec.Command("go", args...).Output()
	if err != nil {
		t.Fatalf("go list -export: %v", err)
	}
	m := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if path, file, ok := strings.Cut(sc.Text(), "="); ok && file != "" {
			m[path] = file
		}
	}
	return m
}
