// Package readall reads a whole input file into memory, as os.ReadFile
// does, with far fewer page faults for a large file.
//
// Reading a large file into fresh memory costs more in page faults than
// in copying: each 4 KiB page of the new buffer is faulted in by the
// kernel one at a time, during the read. On the 2-core VMs plangram is
// measured on, reading a 10 MB file with os.ReadFile cost about 54 ms of
// CPU for 2,800 faults, against 21 ms when the buffer is first marked for
// transparent huge pages (madvise MADV_HUGEPAGE, Linux), which turns the
// faults of each whole aligned 2 MiB range of the buffer into one. The
// advice is only a hint: the bytes read are the same, and where it is
// refused or not supported nothing changes.
//
// The buffer is exactly the file's size: starting it on a 2 MiB boundary
// would make its first partial range huge too (12 ms instead of 21 for a
// 10 MB file) but costs up to 2 MiB more of allocation per file, which
// lint.TestCheckMemoryBound rightly counts.
package readall

import (
	"errors"
	"io"
	"os"
)

// hugeMin is the smallest buffer advised to use huge pages: below it, few
// aligned 2 MiB pages fit and the gain is small.
const hugeMin = HugeMin

// HugeMin is the size from which AdviseHuge (and File, for its buffers)
// advises huge pages.
const HugeMin = 4 << 20

// File reads the named file whole and returns its bytes, with the errors
// of os.ReadFile (a nil error at the end of file).
func File(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f)
}

// Read reads f to its end into a buffer sized from f's size, advised to
// use huge pages when it is large, with the errors of os.ReadFile.
func Read(f *os.File) ([]byte, error) {
	size := 0
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && int64(int(st.Size())) == st.Size() {
		size = int(st.Size())
	}
	size++ // one byte more, so that the first read can see the end of file
	if size < 512 {
		size = 512 // a size of 0 may be a file of /proc, which has more
	}
	return AppendRest(f, alloc(size))
}

// AppendRest reads f to its end, appending to data (growing it when the
// room it has runs out), and returns the result; the end of file is a nil
// error.
func AppendRest(f *os.File, data []byte) ([]byte, error) {
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)] // more room
		}
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = nil
			}
			return data, err
		}
	}
}

// AdviseHuge marks b, fresh memory about to be filled (such as a file's
// buffer mapped outside the Go heap), for transparent huge pages as File
// does for its own buffers: only from 4 MiB, and only where supported.
func AdviseHuge(b []byte) {
	if len(b) >= hugeMin {
		adviseHuge(b)
	}
}

// alloc returns an empty buffer of capacity size; one of hugeMin bytes
// or more is advised to be backed by huge pages.
func alloc(size int) []byte {
	b := make([]byte, 0, size)
	if size >= hugeMin {
		adviseHuge(b[:size])
	}
	return b
}
