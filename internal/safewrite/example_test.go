package safewrite_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/plangram/plangram/internal/safewrite"
)

func ExampleWriteFile() {
	dir, err := os.MkdirTemp("", "safewrite")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	p := filepath.Join(dir, "notes.txt")
	os.WriteFile(p, []byte("old\n"), 0o640)

	if err := safewrite.WriteFile(p, []byte("new\n")); err != nil {
		fmt.Println(err)
	}
	fi, _ := os.Stat(p)
	b, _ := os.ReadFile(p)
	fmt.Printf("%q %v\n", b, fi.Mode())

	os.Chmod(p, 0o444)
	fmt.Println(safewrite.WriteFile(p, []byte("again\n")) != nil)
	// Output:
	// "new\n" -rw-r-----
	// true
}
