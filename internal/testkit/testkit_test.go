package testkit_test

import (
	"errors"
	"go/build"
	"io/fs"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

const (
	module   = "github.com/plangram/plangram"
	internal = module + "/internal/"
	testkit  = internal + "testkit"
)

// TestLayout checks that internal/ keeps test kits apart from runtime
// packages: no package of the module imports a test kit outside its tests,
// and every other internal package is imported by some package's
// non-test code (one that only tests import is a test kit and belongs
// under internal/testkit). It reads the source through go/build rather
// than running go list, so that go test's cache sees the files it depends
// on.
func TestLayout(t *testing.T) {
	root := filepath.Join("..", "..")
	used := map[string]bool{}
	var internals []string
	err := filepath.WalkDir(root, func(dir string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		name := d.Name()
		if dir != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		pkg, err := build.ImportDir(dir, 0)
		if _, ok := errors.AsType[*build.NoGoError](err); ok {
			return nil
		}
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, dir)
		if err != nil {
			return err
		}
		ip := path.Join(module, filepath.ToSlash(rel))
		if ip == testkit || strings.HasPrefix(ip, testkit+"/") {
			return nil
		}
		if strings.HasPrefix(ip, internal) {
			internals = append(internals, ip)
		}
		for _, imp := range pkg.Imports {
			if strings.HasPrefix(imp, testkit+"/") {
				t.Errorf("%s imports the test kit %s outside its tests", ip, imp)
			}
			used[imp] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(internals) == 0 || len(used) == 0 {
		t.Fatal("found no internal package")
	}
	for _, pkg := range internals {
		if !used[pkg] {
			t.Errorf("%s is imported by tests only: move it under internal/testkit", pkg)
		}
	}
}
