package lint

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestExpand(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"b.md", "a/z.md", "a/b/c.md", "a/notes.txt", ".hidden/x.md", "a/.git/y.md"} {
		write(t, filepath.Join(dir, p), "x\n")
	}
	one := filepath.Join(dir, "b.md")
	got, err := Expand([]string{one, dir, "-"})
	if err != nil {
		t.Fatal(err)
	}
	var rel []string
	for _, p := range got {
		r, _ := filepath.Rel(dir, p)
		if p == "-" {
			r = "-"
		}
		rel = append(rel, filepath.ToSlash(r))
	}
	if want := "b.md a/b/c.md a/z.md -"; strings.Join(rel, " ") != want {
		t.Errorf("Expand = %q, want %q", strings.Join(rel, " "), want)
	}
	if _, err := Expand([]string{filepath.Join(dir, "missing.md")}); err == nil {
		t.Error("Expand of a missing file succeeded")
	}
}

// TestRunOrder checks many files in parallel: the results come back in path
// order whatever order the workers finish in.
func TestRunOrder(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	write(t, filepath.Join(root, "present.txt"), "here\n")
	const n = 40
	for i := 0; i < n; i++ {
		body := "~~~act\nread_file present.txt\n~~~\n"
		if i%3 == 0 {
			body = strings.Repeat("Some prose.\n", i*50) + "~~~act\nread_file missing.txt\n~~~\n"
		}
		write(t, filepath.Join(dir, "plans", fmt.Sprintf("p%02d.md", i)), body)
	}
	files, err := Run(context.Background(), []string{filepath.Join(dir, "plans")}, Options{Root: root, Jobs: 4})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != n {
		t.Fatalf("%d files, want %d", len(files), n)
	}
	for i, f := range files {
		if want := fmt.Sprintf("p%02d.md", i); filepath.Base(f.Path) != want {
			t.Fatalf("file %d is %s, want %s", i, f.Path, want)
		}
		wantDiags := 0
		if i%3 == 0 {
			wantDiags = 1
		}
		if len(f.Diagnostics) != wantDiags {
			t.Errorf("%s: %d diagnostics, want %d", f.Path, len(f.Diagnostics), wantDiags)
		}
	}
}

func TestRunStdinAndErrors(t *testing.T) {
	dir := t.TempDir()
	ok := filepath.Join(dir, "ok.md")
	write(t, ok, "~~~act\nend\n~~~\n")
	files, err := Run(context.Background(), []string{"-", ok}, Options{Stdin: strings.NewReader("~~~act\nfrobnicate\n~~~\n")})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 || files[0].Path != StdinName || len(files[0].Diagnostics) != 1 || files[1].Path != ok {
		t.Fatalf("files = %+v", files)
	}
	// A missing file is an I/O error.
	if _, err := Run(context.Background(), []string{ok, filepath.Join(dir, "missing.md")}, Options{}); err == nil {
		t.Error("Run with a missing file succeeded")
	}
	// A file that cannot be read is an error; the others are still checked.
	if _, err := checkFile(context.Background(), filepath.Join(dir, "missing.md"), nil, Options{}); err == nil {
		t.Error("checkFile of a missing file succeeded")
	}
	var opts Options
	// A bad dialect is an options error reported per file.
	opts.Parse.Dialect = "klingon"
	if _, err := Run(context.Background(), []string{ok}, opts); err == nil {
		t.Error("Run with an unknown dialect succeeded")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, []string{ok}, Options{}); err == nil {
		t.Error("Run with a cancelled context succeeded")
	}
}
