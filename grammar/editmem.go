package grammar

import (
	"bytes"
	"math"
	"unsafe"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/internal/anonmem"
)

// minOffHeapLines is the source size from which an edit-format document's
// line index is kept outside the garbage-collected heap (offHeapLines).
const minOffHeapLines = 1 << 20

// offHeapLines returns the line index of src, in memory mapped for it
// where the system allows and src is large enough to be worth it, and a
// function that releases that memory; nothing may use the Lines after
// it. The index is the one structure an edit-format parse keeps for the
// whole document (4 bytes a line, its actions handed over one by one);
// on the heap, the collector's goal is a multiple of it, so `check` of a
// 10 MB diff peaked at 3.1× its input instead of 2.8× (docs/benchmarks.md,
// "Edit formats").
func offHeapLines(src []byte) (*ast.Lines, func()) {
	keep := func() {}
	if len(src) < minOffHeapLines || uint64(len(src)) > math.MaxUint32 {
		return ast.NewLines(src), keep
	}
	n := bytes.Count(src, []byte{'\n'}) + 1
	mem, err := anonmem.Map(4 * n)
	if err != nil || len(mem) < 4*n {
		return ast.NewLines(src), keep
	}
	buf := unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(mem))), n)
	return ast.NewLinesInto(src, buf), func() { _ = anonmem.Unmap(mem) }
}
