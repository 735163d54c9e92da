package plangramtest_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plangram/plangram/plangramtest"
)

// TestInModule runs plangramtest as a user does: in a module of its own
// that requires plangram (a replace directive points at this checkout),
// `go test -update` writes testdata/*.golden, `go test` passes, and after
// a model change of the reply it fails with the semantic diff.
func TestInModule(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil || testing.Short() {
		t.Skip("needs the go command (and not -short)")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	// plangram's own requirements and sums, so that the module builds
	// from the module cache alone.
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	_, requires, _ := strings.Cut(string(mod), "\nrequire")
	dir := t.TempDir()
	write := func(name, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", fmt.Sprintf("module example.com/replies\n\ngo 1.26.0\n\nrequire github.com/plangram/plangram v0.0.0\n\nreplace github.com/plangram/plangram => %s\n\nrequire%s", root, requires))
	write("go.sum", string(sum))
	write("reply.md", "~~~act\npatch_file src/a.go\n~~~\n~~~\nold\n~~~\n~~~\nnew\n~~~\n")
	write("reply_test.go", `package replies

import (
	"os"
	"testing"

	"github.com/plangram/plangram/plangramtest"
)

func TestReply(t *testing.T) {
	src, err := os.ReadFile("reply.md")
	if err != nil {
		t.Fatal(err)
	}
	plangramtest.Golden(t, "reply.md", src)
}

func TestStream(t *testing.T) {
	plangramtest.GoldenStream(t, "stream.txt", "Reading.\n<read_", "file>\n<path>a.go</path>\n</read_file>\n")
}
`)
	goTest := func(args ...string) (string, error) {
		cmd := exec.Command(goBin, append([]string{"test", "-count=1"}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOPROXY=off", "GOWORK=off", "GOTOOLCHAIN=local", "GOSUMDB=off")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := goTest("-update"); err != nil {
		t.Fatalf("go test -update: %v\n%s", err, out)
	}
	if data, err := os.ReadFile(filepath.Join(dir, "testdata", "reply.md.golden")); err != nil || !strings.HasPrefix(string(data), "plangram-golden 1\n") {
		t.Fatalf("testdata/reply.md.golden: %v %q", err, data)
	}
	if out, err := goTest(); err != nil {
		t.Fatalf("go test: %v\n%s", err, out)
	}
	write("reply.md", "~~~act\nwrite_file src/a.go\n~~~\n~~~\nnew\n~~~\n")
	out, err := goTest()
	if err == nil || !strings.Contains(out, "--- FAIL: TestReply") || strings.Contains(out, "--- FAIL: TestStream") ||
		!strings.Contains(out, "- action patch_file src/a.go\n") || !strings.Contains(out, "+ action write_file src/a.go\n") {
		t.Errorf("go test after the change: %v\n%s", err, out)
	}
}

// The goldie differ prints what changed between two goldens, action by
// action.
func ExampleDiffer() {
	expected := "plangram-golden 1\ndocument acts\naction write_file a.txt\n  path: a.txt\n  content: one\n"
	actual := "plangram-golden 1\ndocument acts\naction write_file a.txt\n  path: a.txt\n  content: two\n"
	fmt.Print(plangramtest.Differ(actual, expected))
	// Output:
	// ~ action write_file a.txt: content: one → two
}

// TestGolden pins a document and a stream in this package's testdata/.
func TestGolden(t *testing.T) {
	plangramtest.Golden(t, "reply.md", []byte("Writing it.\n\n~~~act\nwrite_file src/a.go\n~~~\n~~~\npackage a\n~~~\n"))
	plangramtest.GoldenStream(t, "stream.txt", "<thinking>look</thinking>\n<read_fi", "le>\n<path>src/a.go</path>\n</read_file>\n")
}
