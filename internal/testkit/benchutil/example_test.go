package benchutil_test

import (
	"fmt"

	"github.com/yuin/goldmark"

	"github.com/plangram/plangram/internal/testkit/benchutil"
)

func ExampleGoldmarkFences() {
	src := []byte("Prose.\n\n```act\nwrite_file a.txt\n```\n\n~~~text\nhello\n~~~\n")
	blocks, size := benchutil.GoldmarkFences(goldmark.New(), src)
	fmt.Println(blocks, size)
	// Output: 2 23
}
