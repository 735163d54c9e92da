package main

import (
	"io"
	"os"
	"sync"
	"unsafe"

	"github.com/plangram/plangram/internal/anonmem"
	"github.com/plangram/plangram/internal/readall"
)

// inputArena reads the files `plangram check` checks. Each file is read
// once, into one buffer of its exact size; on systems with anonymous
// memory maps (internal/anonmem) a file of at least minArenaFile bytes is
// read into memory mapped for it rather than into the garbage-collected
// heap. The garbage collector's heap goal is twice the live heap (GOGC
// 100): an input held on the heap is counted there and doubles with it,
// while the tree check builds is garbage a moment after it is read
// (grammar.Options.OnAction). Outside the heap, the input is resident once
// and the heap holds only what check builds, so peak memory stays near
// the input plus a few MiB (docs/benchmarks.md, "check memory"). The
// buffers live until release, which the command calls once its report is
// written; nothing may use them after that.
type inputArena struct {
	mu   sync.Mutex
	maps [][]byte // buffers to unmap on release
}

// minArenaFile is the size from which a file is read outside the heap:
// smaller ones are not worth a map of their own (`check DIR` reads many).
const minArenaFile = 1 << 20

// read returns the content of the file name, as os.ReadFile does.
func (a *inputArena) read(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := st.Size()
	if !st.Mode().IsRegular() || size < minArenaFile || int64(int(size)) != size {
		return readall.Read(f)
	}
	return a.readOpen(f, int(size))
}

// readOpen reads the open regular file f, of size bytes from its offset,
// into a buffer mapped for it (read).
func (a *inputArena) readOpen(f *os.File, size int) ([]byte, error) {
	whole, buf, err := mapAligned(size)
	if err != nil { // no map: read it onto the heap as readall.File would
		return readall.Read(f)
	}
	readall.AdviseHuge(buf) // fewer page faults while reading (readall)
	n, err := io.ReadFull(f, buf)
	if err == io.ErrUnexpectedEOF { // the file shrank since Stat
		err = nil
	}
	if err == nil && n == len(buf) {
		// The file may have grown since Stat: what follows is read too,
		// onto the heap, with the mapped part copied (rare; no byte is lost).
		var more [1]byte
		if m, _ := f.Read(more[:]); m > 0 {
			out := append(append(make([]byte, 0, n+1+4096), buf...), more[0])
			_ = anonmem.Unmap(whole)
			return readall.AppendRest(f, out)
		}
	}
	if err != nil {
		_ = anonmem.Unmap(whole)
		return nil, err
	}
	a.mu.Lock()
	a.maps = append(a.maps, whole)
	a.mu.Unlock()
	return buf[:n:n], nil
}

// hugePage is the size and alignment of a transparent huge page (2 MiB
// on Linux with 4 KiB pages).
const hugePage = 2 << 20

// mapAligned maps memory for an input of n bytes with anonmem.Map and returns
// the whole map (for anonmem.Unmap) and the n bytes of it to read into. When
// the input is large enough to be advised for huge pages
// (readall.AdviseHuge), the n bytes start on a hugePage boundary: the
// kernel backs only the whole aligned 2 MiB ranges of an advised buffer
// with huge pages, and a map starts wherever the kernel puts it, so
// without alignment the first and last partial ranges of a 10 MB input
// (up to 4 MiB) are faulted in 4 KiB at a time. Reading
// `corpus.Acts(10 << 20)` took about 22 ms of CPU unaligned and 2–3 ms
// aligned (perf stat, docs/benchmarks.md). The map is hugePage bytes
// longer than n; the pages before and after the buffer are never touched,
// so they take address space, not memory.
func mapAligned(n int) (whole, buf []byte, err error) {
	if n < readall.HugeMin {
		whole, err = anonmem.Map(n)
		return whole, whole, err
	}
	whole, err = anonmem.Map(n + hugePage)
	if err != nil {
		return nil, nil, err
	}
	off := int(-uintptr(unsafe.Pointer(unsafe.SliceData(whole))) & (hugePage - 1))
	return whole, whole[off : off+n : off+n], nil
}

// release frees the buffers read so far.
func (a *inputArena) release() {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, b := range a.maps {
		_ = anonmem.Unmap(b)
	}
	a.maps = nil
}

// streamChunk is the size of the pieces readStream reads a large stream
// of unknown size into before it joins them.
const streamChunk = 4 << 20

// readStream reads r (standard input) to its end, as io.ReadAll does, but
// a large input outside the heap as read does for a file: a regular file
// given as standard input (`check - < plan.md`) is read as a file; a pipe,
// whose size is unknown, is read onto the heap up to minArenaFile bytes,
// then in mapped pieces of streamChunk bytes, which are copied into one
// mapped buffer of the exact size and freed one by one, so the input is
// resident about once (plus one piece) and never counted in the heap
// (TestCheckPeakMemory's stdin case). Without memory maps it is read onto
// the heap.
func (a *inputArena) readStream(r io.Reader) ([]byte, error) {
	if f, ok := r.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			if off, err := f.Seek(0, io.SeekCurrent); err == nil && st.Size()-off >= minArenaFile && int64(int(st.Size()-off)) == st.Size()-off {
				return a.readOpen(f, int(st.Size()-off))
			}
		}
	}
	head := make([]byte, minArenaFile+1)
	n, err := io.ReadFull(r, head)
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return head[:n:n], nil
	}
	if err != nil {
		return nil, err
	}
	var pieces [][]byte
	free := func() {
		for _, p := range pieces {
			_ = anonmem.Unmap(p[:cap(p)])
		}
	}
	total := len(head)
	for {
		p, err := anonmem.Map(streamChunk)
		if err != nil { // no maps: the rest onto the heap
			out := make([]byte, 0, total+streamChunk)
			out = append(out, head...)
			for _, p := range pieces {
				out = append(out, p...)
			}
			free()
			rest, err := io.ReadAll(r)
			return append(out, rest...), err
		}
		readall.AdviseHuge(p)
		m, err := io.ReadFull(r, p)
		pieces = append(pieces, p[:m])
		total += m
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			free()
			return nil, err
		}
	}
	whole, buf, err := mapAligned(total)
	if err != nil {
		out := make([]byte, 0, total)
		out = append(out, head...)
		for _, p := range pieces {
			out = append(out, p...)
		}
		free()
		return out, nil
	}
	readall.AdviseHuge(buf)
	k := copy(buf, head)
	for i, p := range pieces {
		k += copy(buf[k:], p)
		_ = anonmem.Unmap(p[:cap(p)])
		pieces[i] = nil
	}
	a.mu.Lock()
	a.maps = append(a.maps, whole)
	a.mu.Unlock()
	return buf[:total:total], nil
}
