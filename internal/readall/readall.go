// Package readall reads a whole input file into memory, as os.ReadFile
// does, at the cost of the copy alone.
//
// Reading a large file into fresh memory costs more in page faults than
// in copying: each 4 KiB page of the new buffer is faulted in by the
// kernel one at a time, during the read. On the 2-core VMs plangram is
// measured on, reading a 10 MB file with os.ReadFile cost about 54 ms of
// CPU for 2,800 faults, against 21 ms when the buffer is first marked for
// transparent huge pages (madvise MADV_HUGEPAGE, Linux), which turns the
// faults of each 2 MiB into one, and 12 ms when the buffer also starts on
// a 2 MiB boundary (the kernel backs only whole aligned 2 MiB ranges with
// huge pages). The advice is only a hint: the bytes read are the same, and
// where it is refused or not supported nothing changes.
package readall

import (
	"errors"
	"io"
	"os"
	"unsafe"
)

// hugeMin is the smallest buffer advised to use huge pages: below it, few
// aligned 2 MiB pages fit and the gain is small.
const hugeMin = 4 << 20

// hugePage is the size of a transparent huge page on x86-64 (and on arm64
// with 4 KiB pages). Where it is another size the advice gains less but
// changes nothing else.
const hugePage = 2 << 20

// File reads the named file whole and returns its bytes, with the errors
// of os.ReadFile (a nil error at the end of file).
func File(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return read(f)
}

// read reads f to its end into a buffer sized from f's size, advised to
// use huge pages when it is large.
func read(f *os.File) ([]byte, error) {
	size := 0
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && int64(int(st.Size())) == st.Size() {
		size = int(st.Size())
	}
	size++ // one byte more, so that the first read can see the end of file
	if size < 512 {
		size = 512 // a size of 0 may be a file of /proc, which has more
	}
	data := alloc(size)
	for {
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = nil
			}
			return data, err
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)] // the file grew: more room
		}
	}
}

// alloc returns an empty buffer of capacity size. A buffer of hugeMin
// bytes or more starts on a hugePage boundary (the allocation is up to
// hugePage larger; the bytes before the boundary are never touched, so
// they cost address space, not memory) and its whole huge pages are
// advised to be backed by huge pages; the tail, less than one huge page,
// is not, so that the memory used stays the size of the file.
func alloc(size int) []byte {
	if size < hugeMin {
		return make([]byte, 0, size)
	}
	raw := make([]byte, size+hugePage)
	off := int(-uintptr(unsafe.Pointer(unsafe.SliceData(raw))) & (hugePage - 1))
	adviseHuge(raw[off : off+size/hugePage*hugePage])
	return raw[off : off : off+size]
}
